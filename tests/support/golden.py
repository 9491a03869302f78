"""Golden files: real tool output, captured once under tests/golden/, that parser tests read
without the toolchain (tests/golden/README.md). The one real-toolchain test of each shape
checks today's output against the parser and, with TDDHOOKS_REGENERATE_GOLDEN=1, rewrites the
file."""

from __future__ import annotations

import os
import re
from pathlib import Path

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
REGENERATE = "TDDHOOKS_REGENERATE_GOLDEN"
# a temp folder of one run (the pytest base temp, a snapshot's private folder)
_TEMP_PATH = re.compile(r"/(?:tmp|var/folders)/[^\s:'\"`)]*")


def golden_path(name: str) -> Path:
    return GOLDEN / f"{name}.txt"


def read_golden(name: str) -> str:
    """The captured output; a missing file says how to make it."""
    path = golden_path(name)
    if not path.exists():
        raise AssertionError(
            f"{path} is missing: run the cargo/pygate tests with {REGENERATE}=1 "
            "(docs/dev/testing.md)"
        )
    return path.read_text(encoding="utf-8")


def check_golden(name: str, fresh: str) -> None:
    """Rewrite the golden file from `fresh` (temp paths made `<tmp>`) when asked to; else make
    sure there is one for the toolchain-free test to read."""
    text = _TEMP_PATH.sub("<tmp>", fresh)
    path = golden_path(name)
    if os.environ.get(REGENERATE) == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    read_golden(name)
