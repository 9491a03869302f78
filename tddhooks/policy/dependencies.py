"""What a Python tree declares it depends on, and which top-level modules it holds itself
(reads the snapshot). A module the gate's Python cannot import is an environment problem only
when the tree declares it (policy/envcheck.py); anything else is the code's business."""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from tddhooks.limits import read_tree_file

_MAX_REQUIREMENT_FILES = 64  # a requirements file and what it includes, transitively
_REQUIREMENT_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
# distributions whose import name is not their own (the common ones; others match by name)
_IMPORT_NAMES = {
    "pyyaml": "yaml", "beautifulsoup4": "bs4", "pillow": "PIL", "scikit-learn": "sklearn",
    "python-dateutil": "dateutil", "opencv-python": "cv2", "attrs": "attr",
    "typing-extensions": "typing_extensions", "protobuf": "google",
}  # fmt: skip


def own_modules(files: Iterable[str]) -> set[str]:
    """Every folder and module name on the tree's Python paths: an import of one of them is
    the tree's own code, whatever its import root (top, src/, lib/)."""
    names: set[str] = set()
    for path in files:
        parts = Path(path).parts
        names.update(parts[:-1])
        names.add(Path(parts[-1]).stem)
    return names


def declared_modules(workdir: Path) -> set[str]:
    """Import names of the distributions the tree declares (declared_distributions)."""
    return {_IMPORT_NAMES.get(name.lower(), name) for name in declared_distributions(workdir)}


def declared_distributions(workdir: Path) -> set[str]:
    """Names, as written, of the distributions the tree declares: pyproject.toml (PEP 621
    dependencies and optional ones, dependency groups, Poetry's tables) and requirements*.txt
    with the files they include (`-r`), each read only when it is a file the tree holds
    (limits.read_tree_file)."""
    names = set(_from_pyproject(workdir / "pyproject.toml", workdir))
    todo = sorted(workdir.glob("requirements*.txt"))
    seen: set[Path] = set()
    while todo and len(seen) < _MAX_REQUIREMENT_FILES:
        path = todo.pop(0)
        if path in seen:
            continue
        seen.add(path)
        lines = (read_tree_file(path, workdir) or "").splitlines()
        names.update(_requirement_names(line for line in lines if not line.startswith("-")))
        todo += [Path(os.path.normpath(path.parent / named)) for named in _included(lines)]
    return names


def _included(lines: list[str]) -> list[str]:
    """The files a requirements file includes: `-r FILE`, `--requirement FILE` (or `=FILE`)."""
    found = []
    for line in lines:
        words = line.split("#", 1)[0].replace("=", " ", 1).split()
        if len(words) == 2 and words[0] in ("-r", "--requirement"):
            found.append(words[1])
        elif words and words[0].startswith("-r") and len(words[0]) > 2:
            found.append(words[0][2:])
    return found


def _from_pyproject(path: Path, top: Path) -> set[str]:
    try:
        data = tomllib.loads(read_tree_file(path, top) or "")
    except tomllib.TOMLDecodeError:
        return set()
    found: list[str] = []
    project = _table(data.get("project"))
    found += _strings(project.get("dependencies"))
    for extra in _table(project.get("optional-dependencies")).values():
        found += _strings(extra)
    for group in _table(data.get("dependency-groups")).values():
        found += _strings(group)
    poetry = _table(_table(data.get("tool")).get("poetry"))
    tables = [poetry.get("dependencies"), poetry.get("dev-dependencies")]
    tables += [_table(group).get("dependencies") for group in _table(poetry.get("group")).values()]
    names = set(_requirement_names(found))
    names.update(name for table in tables for name in _table(table) if name != "python")
    return names


def _requirement_names(lines: Iterable[str]) -> Iterable[str]:
    for line in lines:
        found = _REQUIREMENT_NAME.match(line)
        if found:
            yield found.group(1)


def _table(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}


def _strings(value: object) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []
