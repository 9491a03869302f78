"""A diskcache `Disk` that stores and reads text only, never a pickle, and a check that the
cache folder is this user's alone.

diskcache's own Disk unpickles any row whose mode says pickle: whoever can write the cache's
database could make a drive run code by rewriting one row. This Disk writes JSON text (the
answers are canonical JSON) and refuses, with a clear error, every row that is not text
(docs/llm.md, "The answer cache").
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import diskcache
from diskcache.core import MODE_RAW, MODE_TEXT, UNKNOWN

from tddhooks.errors import EnvironmentProblem

CACHE_ENV = "TDDHOOKS_CACHE_DIR"


class UnsafeCacheEntry(EnvironmentProblem):
    """A cache row that is not plain text (a pickle, bytes, a file outside the cache)."""


def _refuse(directory: str, what: str) -> UnsafeCacheEntry:
    return UnsafeCacheEntry(
        f"the LLM cache in {directory} holds {what}; tddhooks stores answers as JSON text only "
        "and never reads anything else (someone or something rewrote the cache)",
        fix=f"empty it with `tddhooks cache clear` (or delete {directory}), or pass --no-cache",
    )


class JSONDisk(diskcache.Disk):  # type: ignore[misc]  # diskcache has no type hints
    """Keys and values are str; a row in any other mode raises UnsafeCacheEntry."""

    def put(self, key: Any) -> tuple[Any, bool]:
        if not isinstance(key, str):
            raise TypeError(f"cache keys are str, not {type(key).__name__}")
        return key, True

    def get(self, key: Any, raw: bool) -> Any:
        if not raw or not isinstance(key, str):
            raise _refuse(self._directory, "a key that is not text")
        return key

    def store(self, value: Any, read: bool, key: Any = UNKNOWN) -> tuple[int, int, Any, Any]:
        if read or not isinstance(value, str):
            raise TypeError(f"cache values are JSON text, not {type(value).__name__}")
        return super().store(value, read, key)  # type: ignore[no-any-return]

    def fetch(self, mode: int, filename: Any, value: Any, read: bool) -> Any:
        if read:
            raise _refuse(self._directory, "a value read as a file")
        if mode == MODE_RAW and isinstance(value, str):
            return value
        if mode == MODE_TEXT and isinstance(filename, str) and _inside(filename):
            return super().fetch(mode, filename, value, read)
        raise _refuse(self._directory, f"a row in diskcache mode {mode}, not text")


def _inside(filename: str) -> bool:
    """A value file's name as diskcache makes it (`ab/cd/<hex>.val`): relative, no `..`."""
    return not os.path.isabs(filename) and ".." not in Path(filename).parts


def check_ownership(directory: Path) -> None:
    """Refuse a cache folder (or its database) that another user owns or that others may
    write: they could plant answers for a drive (exit 3, with the fix)."""
    for path in (directory, directory / "cache.db"):
        try:
            info = path.lstat()
        except FileNotFoundError:
            continue
        except OSError as error:
            raise EnvironmentProblem(
                f"cannot inspect the LLM cache at {path}: {error}",
                fix=f"point {CACHE_ENV} at a folder of your own, or pass --no-cache",
            ) from error
        if stat.S_ISLNK(info.st_mode):
            raise EnvironmentProblem(
                f"the LLM cache at {path} is a symbolic link",
                fix=f"point {CACHE_ENV} at the real folder, or pass --no-cache",
            )
        if info.st_uid != os.getuid():
            raise EnvironmentProblem(
                f"the LLM cache at {path} belongs to another user (uid {info.st_uid}): its "
                "answers could be anyone's",
                fix=f"point {CACHE_ENV} at a folder of your own (or remove {directory} and let "
                "tddhooks make a new one), or pass --no-cache",
            )
        if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            raise EnvironmentProblem(
                f"the LLM cache at {path} can be written by other users (mode "
                f"{stat.S_IMODE(info.st_mode):o}): they could plant answers",
                fix=f"`chmod go-w {path}`, or point {CACHE_ENV} at a folder of your own",
            )
