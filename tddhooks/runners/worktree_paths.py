"""Tool output as the person should read it: paths in the gate's snapshot shown as work-tree
paths, terminal colour codes removed (pure). The one place that knows snapshots have a prefix:
wherever the snapshot lives (`.git/tddhooks/snapshot/`, a cache folder), its path is cut."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

_ANSI = re.compile(r"\x1b(?:\[[0-9;?]*[ -/]*[@-~]|\([A-Za-z0-9]|[@-Z\\-_])")


def _spellings(path: Path | str) -> set[str]:
    found = {str(path).rstrip("/")}
    with contextlib.suppress(OSError):
        found.add(str(Path(path).resolve()).rstrip("/"))
    return {spelling for spelling in found if spelling}


def to_work_tree(text: str, snapshot: Path | str, target: Path | str | None = None) -> str:
    """`text` with every `<snapshot>/x` written `x` and every `<target>/x` (cargo's target
    folder, kept beside the snapshot) written `target/x`, in either spelling of each path, and
    ANSI escape sequences removed. Both live under a folder named after the repository, so
    output that kept them would differ from one clone to the next: a test binary that
    aborted (`process didn't exit successfully: `<cache>/…/target/debug/deps/zero_refused-…``)
    would put the path into the implementor's next prompt, and a replay in another folder would
    ask the model again (docs/llm.md, the replay rule)."""
    pairs = [(prefix, "target") for prefix in (_spellings(target) if target else set())]
    pairs += [(prefix, ".") for prefix in _spellings(snapshot)]
    for prefix, name in sorted(pairs, key=lambda pair: len(pair[0]), reverse=True):
        after = "" if name == "." else name + "/"
        text = text.replace(prefix + "/", after).replace(prefix, name)
    return _ANSI.sub("", text)
