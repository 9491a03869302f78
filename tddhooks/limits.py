"""Reading what a person or a tool hands us with bounded memory: never more than a limit."""

from __future__ import annotations

from pathlib import Path

from tddhooks.errors import PolicyRejection

MAX_MESSAGE_BYTES = 1_000_000  # a commit message; git's own longest in practice are ~100 KB


def read_capped(path: Path, limit: int) -> tuple[str, bool]:
    """(text of at most `limit` bytes, whether the file held more); invalid UTF-8 replaced."""
    with path.open("rb") as stream:
        data = stream.read(limit + 1)
    return data[:limit].decode("utf-8", errors="replace"), len(data) > limit


def read_message(path: Path, limit: int = MAX_MESSAGE_BYTES) -> str:
    """A commit message file; a larger one is rejected before it is read whole."""
    text, more = read_capped(path, limit)
    if more:
        raise PolicyRejection(
            f"the commit message is larger than {limit:,} bytes",
            fix="keep the message to what the commit does; put logs or data in a file",
        )
    return text
