"""Where code lives, for the two plugins the gate loads into a Python kata's pytest process
(runners/python_confine.py, runners/python_defined.py): the work tree's variable, folder
containment, and the interpreter's own folders. Only the standard library is imported, and
nothing happens at import: this runs inside the kata's test process."""

from __future__ import annotations

import os
import sys

WORK_TREE_VARIABLE = "TDDHOOKS_WORK_TREE"  # the gate's side: runners/python_pins.py


def within(path: str, folder: str) -> bool:
    """Whether `path` is `folder` or inside it (both real paths)."""
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def interpreter_folders(*trees: str) -> set[str]:
    """The interpreter's own folders (real paths) that hold none of `trees`: a `.venv` inside the
    repository holds the person's toolchain, not the kata's code; a prefix that holds a whole
    tree (`/usr` of `/usr/src/kata`) is no such folder."""
    prefixes = {os.path.realpath(p) for p in (sys.prefix, sys.exec_prefix, sys.base_prefix)}
    return {folder for folder in prefixes if not any(within(tree, folder) for tree in trees)}
