"""Package data: templates/ and hooks/ (top level in the repository, inside the wheel)."""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

_SOURCE_ROOT = Path(__file__).resolve().parent.parent


def _data_dir(name: str) -> Traversable:
    packaged = files("tddhooks") / name
    if packaged.is_dir():
        return packaged
    # editable install or source checkout: the folder sits beside the package
    return _SOURCE_ROOT / name


def templates() -> Traversable:
    return _data_dir("templates")


def hook_shims() -> Traversable:
    return _data_dir("hooks")


def read_template(relative: str) -> str:
    node = templates()
    for part in relative.split("/"):
        node = node / part
    return node.read_text(encoding="utf-8")
