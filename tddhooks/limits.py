"""Reading what a person or a tool hands us with bounded memory: never more than a limit."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from tddhooks.errors import PolicyRejection

MAX_MESSAGE_BYTES = 1_000_000  # a commit message; git's own longest in practice are ~100 KB
# a configuration or requirements file of the tree (a pip-compile lock with hashes is ~300 KB)
MAX_TREE_CONFIG_BYTES = 4_000_000


def read_capped(path: Path, limit: int) -> tuple[str, bool]:
    """(text of at most `limit` bytes, whether the file held more); invalid UTF-8 replaced."""
    with path.open("rb") as stream:
        data = stream.read(limit + 1)
    return data[:limit].decode("utf-8", errors="replace"), len(data) > limit


def read_tree_file(path: Path, top: Path, limit: int = MAX_TREE_CONFIG_BYTES) -> str | None:
    """The text of a regular file of the tree under `top`, read in the process that judges it;
    None when it is missing, larger than `limit`, neither UTF-8 nor UTF-16 with a byte order mark
    (a leading one is dropped), or not a file the tree holds: a committed symlink to /dev/zero or
    /dev/stdin would hang or exhaust that process, one to a file elsewhere would judge what is
    not committed."""
    try:
        real = path.resolve()
        if not real.is_relative_to(top.resolve()):
            return None
        handle = os.open(real, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    except (OSError, RuntimeError):  # missing, a symlink loop
        return None
    with os.fdopen(handle, "rb") as stream:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        data = stream.read(limit + 1)
    if len(data) > limit:
        return None
    # a file PowerShell's `>` wrote is UTF-16 with its byte order mark, as pip reads it too
    utf16 = data.startswith((b"\xff\xfe", b"\xfe\xff"))
    try:
        return data.decode("utf-16" if utf16 else "utf-8-sig")
    except UnicodeDecodeError:
        return None


def read_message(path: Path, limit: int = MAX_MESSAGE_BYTES) -> str:
    """A commit message file; a larger one is rejected before it is read whole."""
    text, more = read_capped(path, limit)
    if more:
        raise PolicyRejection(
            f"the commit message is larger than {limit:,} bytes",
            fix="keep the message to what the commit does; put logs or data in a file",
        )
    return text
