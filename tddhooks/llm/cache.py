"""Answers on disk (diskcache), keyed by a hash of the canonical request; never by the key.
Stored as JSON text through llm/jsondisk.py, which never unpickles; a cache folder another
user owns or may write is refused.

The key format is a contract: sha256 of canonical JSON (sorted keys, compact separators) of
base URL, model, temperature, max_tokens, messages and response format, and the seed when one is
sent. Change it only on purpose.

Every answer is kept, the rejected ones too: the n-th identical request of a drive is stored
under `<key>#<n>` (`<key>` for the first), so a retry that repeats a request reaches the model
when it was never asked that n-th time, and a replay gets exactly what the first run got
(docs/llm.md, "The answer cache").
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from tddhooks.errors import EnvironmentProblem

CACHE_ENV = "TDDHOOKS_CACHE_DIR"
COUNTERS_FILE = "last-drive.json"
KEY_VERSION = 2  # 2: max_tokens in the key; the n-th identical request of a drive has its slot


def canonical_json(value: object) -> str:
    """Sorted keys, compact separators, UTF-8 kept: the same value always gives the same text."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def default_cache_dir() -> Path:
    """$TDDHOOKS_CACHE_DIR, else the platform's user cache directory + tddhooks/llm."""
    configured = os.environ.get(CACHE_ENV)
    if configured:
        return Path(configured).expanduser()
    if sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    elif os.name == "nt":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "tddhooks" / "llm"


@dataclass(frozen=True)
class CachedAnswer:
    """What is stored per request: the answer and the usage it cost when it was fresh."""

    content: str
    prompt_tokens: int
    completion_tokens: int
    finish_reason: str | None
    estimated_usage: bool = False


@dataclass(frozen=True)
class CacheStats:
    """Entries and size on disk, plus the counters of the last drive that used the cache."""

    directory: Path
    entries: int
    size_bytes: int
    hits: int
    misses: int
    last_used: float | None


def _read_counters(directory: Path) -> dict[str, Any]:
    try:
        data = json.loads((directory / COUNTERS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


class AnswerCache:
    """read=False asks the model again (--refresh-cache); write=False stores nothing."""

    def __init__(
        self, directory: Path | None = None, *, read: bool = True, write: bool = True
    ) -> None:
        self.directory = directory or default_cache_dir()
        self.read = read
        self.write = write
        self.hits = 0
        self.misses = 0
        self._asked: dict[str, int] = {}  # request key -> times asked in this drive
        self._store = open_store(self.directory)

    @staticmethod
    def key_for(
        base_url: str,
        model: str,
        temperature: float,
        messages: list[dict[str, str]],
        response_format: dict[str, Any] | None,
        max_tokens: int | None = None,
        seed: int | None = None,
    ) -> str:
        """The request's cache key (the API key is deliberately not an input). A seed is an input
        when one is sent; a request without one keeps the key it always had."""
        request: dict[str, Any] = {
            "v": KEY_VERSION,
            "base_url": base_url.rstrip("/"),
            "model": model,
            "temperature": temperature,
            "max_tokens": max_tokens,
            "messages": messages,
            "response_format": response_format,
        }
        if seed is not None:
            request["seed"] = seed
        return sha256_hex(canonical_json(request))

    def next_slot(self, key: str) -> str:
        """Where the answer to this request's next occurrence in this drive lives: `key` the
        first time, `key#1` the second, and so on (one AnswerCache per drive)."""
        seen = self._asked.get(key, 0)
        self._asked[key] = seen + 1
        return key if seen == 0 else f"{key}#{seen}"

    def get(self, key: str) -> CachedAnswer | None:
        """The stored answer, counting a hit or a miss; None when reading is off."""
        if not self.read:
            self.misses += 1
            self._save_counters()
            return None
        raw = _safe_get(self._store, key)
        answer = _decode(raw) if isinstance(raw, str) else None
        if answer is None:
            self.misses += 1
        else:
            self.hits += 1
        self._save_counters()
        return answer

    def put(self, key: str, answer: CachedAnswer) -> bool:
        """Store an answer (a rejected one too: a replay must see it again); False when writing
        is off."""
        if not self.write:
            return False
        try:
            self._store.set(key, canonical_json(asdict(answer)))
        except (OSError, sqlite3.Error):
            return False  # a full disk or a damaged entry: the answer is used, just not kept
        return True

    def stats(self) -> CacheStats:
        return cache_stats(self.directory, store=self._store)

    def close(self) -> None:
        self._store.close()

    def _save_counters(self) -> None:
        counters = {
            "hits": self.hits,
            "misses": self.misses,
            "last_used": time.time(),
        }
        target = self.directory / COUNTERS_FILE
        temporary = target.with_suffix(f".{os.getpid()}.tmp")
        try:
            temporary.write_text(json.dumps(counters), encoding="utf-8")
            temporary.replace(target)
        except OSError:
            pass  # counters are informative; a full disk must not stop a drive


def _safe_get(store: Any, key: str) -> Any:
    """A damaged entry (its value file gone, a torn page) is a miss, not a traceback; a row
    that is not text is refused (llm/jsondisk.py), never read."""
    try:
        return store.get(key)
    except (OSError, sqlite3.Error, ValueError, EOFError):
        return None


def _aside(directory: Path) -> Path:
    """Move a damaged cache.db out of the way (kept for a look, never deleted)."""
    target = directory / f"cache.db.damaged-{time.strftime('%Y%m%d-%H%M%S')}"
    (directory / "cache.db").replace(target)
    return target


def open_store(directory: Path, *, create: bool = True) -> Any:
    """The diskcache store in `directory`. A cache.db that is not a database is moved aside and
    a fresh one started (it only held answers a model can give again); a directory that cannot
    be one (a file, no permission) is an environment problem with its fix."""
    import diskcache

    from tddhooks.llm.jsondisk import JSONDisk, check_ownership

    if directory.exists() and not directory.is_dir():
        raise EnvironmentProblem(
            f"the LLM cache location {directory} is a file, not a directory",
            fix=f"move that file away, or point {CACHE_ENV} at a directory (or pass --no-cache)",
        )
    check_ownership(directory)
    for attempt in (1, 2):
        try:
            if create:
                directory.mkdir(parents=True, exist_ok=True, mode=0o700)
            return diskcache.Cache(str(directory), disk=JSONDisk)
        except sqlite3.DatabaseError as error:
            if attempt == 2 or not (directory / "cache.db").is_file():
                raise _unusable(directory, error) from error
            moved = _aside(directory)
            from tddhooks.output import warn

            warn(f"the LLM cache was damaged; moved it to {moved} and started a new one")
        except EnvironmentProblem:
            raise
        except Exception as error:  # diskcache raises sqlite3/OS errors of many kinds
            raise _unusable(directory, error) from error
    raise AssertionError("unreachable")


def _unusable(directory: Path, error: Exception) -> EnvironmentProblem:
    return EnvironmentProblem(
        f"cannot open the LLM cache in {directory}: {error}",
        fix=f"point {CACHE_ENV} at a writable directory, or pass --no-cache",
    )


def _decode(raw: str) -> CachedAnswer | None:
    try:
        return CachedAnswer(**json.loads(raw))
    except (ValueError, TypeError):
        return None  # written by another version: treat as a miss


def cache_stats(directory: Path | None = None, *, store: Any = None) -> CacheStats:
    """Statistics without creating the cache directory when it does not exist yet."""
    directory = directory or default_cache_dir()
    counters = _read_counters(directory)
    entries = size = 0
    if store is None and (directory / "cache.db").exists():
        opened = open_store(directory, create=False)
        try:
            entries, size = _count(opened)
        finally:
            opened.close()
    elif store is not None:
        entries, size = _count(store)
    return CacheStats(
        directory=directory,
        entries=entries,
        size_bytes=size,
        hits=int(counters.get("hits", 0)),
        misses=int(counters.get("misses", 0)),
        last_used=counters.get("last_used"),
    )


def _count(store: Any) -> tuple[int, int]:
    answers = sum(1 for _key in store.iterkeys())
    return answers, int(store.volume())


def clear_cache(directory: Path | None = None) -> tuple[int, int]:
    """Delete every cached answer and the counters; returns (entries, bytes) that were there."""
    directory = directory or default_cache_dir()
    before = cache_stats(directory)
    if (directory / "cache.db").exists():
        opened = open_store(directory, create=False)
        try:
            opened.clear()
        finally:
            opened.close()
    (directory / COUNTERS_FILE).unlink(missing_ok=True)
    return before.entries, before.size_bytes
