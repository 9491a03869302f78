"""Seals: a MAC over a record, keyed by a per-user secret kept outside every repository.

A record that lets a commit land (a gate verdict, a judged-commit record) is trusted only when
its seal verifies; one without a valid seal is recomputed, never trusted. The secret lives at
`<state home>/secret` (mode 0600, created on first use); a secret that is not a regular file
owned by this user, or that others can read or write, is refused. This stops a forged record
written into `.git/`; it cannot stop a process of the same user that reads the secret
(docs/security.md). Imported on the hook path: standard library only.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from tddhooks.errors import EnvironmentProblem, state_home

TYPE_CHECKING = False  # not typing's: importing typing costs the hook path; mypy reads it
if TYPE_CHECKING:
    from typing import Any

_SECRET_BYTES = 32
_cached: dict[str, bytes] = {}


def secret_path() -> Path:
    """Where this user's sealing secret lives."""
    return state_home() / "secret"


def _check(path: Path, info: os.stat_result) -> None:
    if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid():
        raise EnvironmentProblem(
            f"{path} is not a regular file owned by you",
            fix=f"remove it (`rm {path}`); tddhooks makes a new one on next use",
        )
    if info.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise EnvironmentProblem(
            f"{path} can be read or written by other users",
            fix=f"`chmod 600 {path}`, or remove it so tddhooks makes a new one",
        )


def secret() -> bytes:
    """This user's sealing secret, created (0600) on first use."""
    path = secret_path()
    cached = _cached.get(str(path))
    if cached is not None:
        return cached
    try:
        info = path.lstat()
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        tmp = path.with_name(f".secret-{os.getpid()}-{os.urandom(6).hex()}")  # threads share a pid
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        try:
            os.write(fd, os.urandom(_SECRET_BYTES))  # what secrets.token_bytes does
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)  # never replaces a secret another process made meanwhile
        except FileExistsError:
            pass
        finally:
            with contextlib.suppress(OSError):
                tmp.unlink()
        info = path.lstat()
    _check(path, info)
    value = path.read_bytes()
    if len(value) < _SECRET_BYTES:
        raise EnvironmentProblem(
            f"{path} is shorter than a sealing secret",
            fix=f"remove it (`rm {path}`); tddhooks makes a new one on next use",
        )
    _cached[str(path)] = value
    return value


def sha256(data: bytes) -> Any:
    """A SHA-256 hash object; without hashlib where the interpreter has `_sha256` (hashlib loads
    OpenSSL: ~3 ms of every hook)."""
    try:
        from _sha256 import sha256 as make  # type: ignore[import-not-found]
    except ImportError:  # pragma: no cover - other interpreters
        from hashlib import sha256 as make
    return make(data)


_BLOCK = 64  # SHA-256's block size: HMAC (RFC 2104) pads the key to it


def seal(payload: bytes) -> str:
    """The hex HMAC-SHA256 of payload under this user's secret."""
    key = secret()
    if len(key) > _BLOCK:
        key = sha256(key).digest()
    key = key.ljust(_BLOCK, b"\0")
    inner = sha256(bytes(b ^ 0x36 for b in key) + payload).digest()
    return str(sha256(bytes(b ^ 0x5C for b in key) + inner).hexdigest())


def verify(payload: bytes, tag: str) -> bool:
    """True when tag is payload's seal under this user's secret."""
    if not isinstance(tag, str) or not tag:
        return False
    from _operator import _compare_digest

    return bool(_compare_digest(seal(payload).encode("ascii"), tag.encode("ascii", "replace")))


def forget() -> None:
    """Drop the secret this process read (the next seal reads the file again)."""
    _cached.clear()
