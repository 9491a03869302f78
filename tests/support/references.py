"""Reference solutions of the shipped katas, test data only: a kata's own folder
(`bench_reference/<kata>/lib.rs` and `kata.py`), or, for the first six, the shared files
`bench_reference/lib.rs` and `refkata.py`."""

from __future__ import annotations

from pathlib import Path

REFERENCES = Path(__file__).resolve().parent / "bench_reference"
RUST_FILE = "lib.rs"
PYTHON_FILE = "kata.py"


def own_reference(kata: str) -> Path | None:
    """The kata's own reference folder, when it has one."""
    folder = REFERENCES / kata
    return folder if folder.is_dir() else None


def katas_with_own_reference() -> list[str]:
    return sorted(item.name for item in REFERENCES.iterdir() if item.is_dir() and
                  not item.name.startswith("__"))  # fmt: skip
