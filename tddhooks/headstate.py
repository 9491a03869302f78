"""The small state files of `.git/tddhooks/` that hold for one HEAD only (`{"head": sha, ...}`):
the handoff note, the tester's done report, the refactorer's turn mark. One reader and one
writer for all of them: a record written on another HEAD is stale and reads as absent.

Stdlib only (the commit-msg hook reads the handoff note).
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

TYPE_CHECKING = False  # not typing's: importing typing costs the hook path ~10 ms; mypy reads it
if TYPE_CHECKING:
    from typing import Any


def read_record(path: Path, head: str | None, *, drop_stale: bool = False) -> dict[str, Any] | None:
    """The JSON object in `path` when it was written for `head`; None when it is absent,
    unreadable, not an object or stale (then removed when drop_stale)."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        record = None
    if isinstance(record, dict) and record.get("head") == head:
        return record
    if drop_stale:
        with contextlib.suppress(OSError):
            path.unlink()
    return None


def write_record(path: Path, head: str | None, fields: dict[str, Any]) -> None:
    """Write `{"head": head, **fields}` atomically (a reader never sees half a record)."""
    text = json.dumps({**fields, "head": head}, ensure_ascii=False, indent=1)
    temporary = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
