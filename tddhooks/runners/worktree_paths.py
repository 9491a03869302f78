"""Tool output as the person should read it: paths in the gate's snapshot shown as work-tree
paths, terminal colour codes removed (pure). The one place that knows snapshots have a prefix:
wherever the snapshot lives (`.git/tddhooks/snapshot/`, a cache folder), its path is cut."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

_ANSI = re.compile(r"\x1b(?:\[[0-9;?]*[ -/]*[@-~]|\([A-Za-z0-9]|[@-Z\\-_])")


def to_work_tree(text: str, snapshot: Path | str) -> str:
    """`text` with every `<snapshot>/x` written `x` (also the resolved spelling of the
    snapshot path) and ANSI escape sequences removed."""
    prefixes = {str(snapshot).rstrip("/")}
    with contextlib.suppress(OSError):
        prefixes.add(str(Path(snapshot).resolve()).rstrip("/"))
    for prefix in sorted(prefixes, key=len, reverse=True):
        if prefix:
            text = text.replace(prefix + "/", "").replace(prefix, ".")
    return _ANSI.sub("", text)
