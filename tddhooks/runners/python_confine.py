"""A pytest plugin the gate loads first (`-p`): the snapshot imports its own code, never the
work tree's (docs/runners.md, "the work tree on sys.path").

The Python that runs the gate often has the kata installed in editable mode (`pip install -e .`),
or a `PYTHONPATH` naming the work tree: its sys.path then holds a folder of the work tree (a `.pth`
line naming `src/`, setuptools' strict link tree under `build/`), or an import hook maps the
package to its work-tree folder (setuptools' finder, hatchling's `dev-mode-exact`). In the
snapshot, `import calc` of a src-layout kata without pytest's `pythonpath` then loaded the work
tree's `src/calc`: an unstaged fix made a red staged tree green. So, at import, before pytest
loads any conftest or test module:

- every sys.path entry inside the work tree becomes the snapshot's same folder (dropped when the
  snapshot has none: a link tree under an ignored `build/`);
- every top-level module of the snapshot that would still be imported from inside the work tree
  (an import hook's) has the snapshot's folder holding it put first on sys.path;
- so does the snapshot's src/ when one of its packages would be imported from anywhere else (a
  plain `pip install .` of the kata copied the work tree of that day into site-packages).

The work tree comes from TDDHOOKS_WORK_TREE (the gate sets it); without it nothing changes. Only
the standard library (and runners/python_places.py) is imported here: this runs inside the
kata's test process.
"""

from __future__ import annotations

import os
import sys
from importlib.util import find_spec

from tddhooks.runners.python_places import WORK_TREE_VARIABLE, interpreter_folders, within

_SKIP = frozenset({"build", "dist", "target", "node_modules", "__pycache__", "venv"})
_DEPTH = 3  # folders below the snapshot's top searched for the kata's own modules


def _module_names(top: str) -> set[str]:
    """Names of the packages and modules in the snapshot's top folders (src/, lib/, …)."""
    names: set[str] = set()
    for folder, dirs, files in os.walk(top):
        depth = os.path.relpath(folder, top).count(os.sep) + (folder != top)
        dirs[:] = [] if depth >= _DEPTH else [
            d for d in dirs if not d.startswith(".") and d not in _SKIP and d.isidentifier()
        ]  # fmt: skip
        names.update(d for d in dirs if os.path.isfile(os.path.join(folder, d, "__init__.py")))
        names.update(f[:-3] for f in files if f.endswith(".py") and f[:-3].isidentifier())
    return names


def _origin(name: str) -> str | None:
    """The real path the module would be imported from, or None."""
    try:
        spec = find_spec(name)
    except (ImportError, ValueError, AttributeError, OSError):
        return None
    if spec is None:
        return None
    where = spec.origin if spec.has_location else None
    if where is None and spec.submodule_search_locations:
        where = next(iter(spec.submodule_search_locations), None)
    return os.path.realpath(where) if where else None


def _counterpart(path: str, tree: str, here: str) -> str:
    return os.path.join(here, os.path.relpath(path, tree))


def _installed_elsewhere(src: str, here: str) -> bool:
    """Whether a package or module of the snapshot's src/ would be imported from outside the
    snapshot: a copy in site-packages that a plain `pip install .` took of the work tree as it
    was then (not the standard library's: a kata does not shadow it)."""
    try:
        entries = sorted(os.listdir(src))
    except OSError:
        return False
    for entry in entries:
        name = entry[:-3] if entry.endswith(".py") else entry
        is_package = os.path.isfile(os.path.join(src, entry, "__init__.py"))
        if not name.isidentifier() or name in sys.stdlib_module_names:
            continue
        if not (is_package or (entry.endswith(".py") and os.path.isfile(os.path.join(src, entry)))):
            continue
        origin = _origin(name)
        if origin is not None and not within(origin, here):
            return True
    return False


def confine(tree: str, here: str) -> None:
    """sys.path without the work tree `tree`, the snapshot `here` in its place."""
    tree, here = os.path.realpath(tree), os.path.realpath(here)
    if within(tree, here):
        return

    # the interpreter's own folders (a `.venv` inside the repository holds its site-packages)
    # are the person's toolchain, not the work tree's code: dropped, a test's dependency went
    own = interpreter_folders(tree)

    def leaks(path: str) -> bool:
        return (
            within(path, tree)
            and not within(path, here)
            and not any(within(path, folder) for folder in own)
        )

    roots: list[str] = []
    for name in sorted(_module_names(here)):
        origin = _origin(name)
        if origin is None or not leaks(origin):
            continue
        # .../calc/__init__.py -> .../calc; a namespace folder or a module file stays itself
        mine = _counterpart(origin, tree, here)
        if os.path.basename(mine).startswith("__init__."):
            mine = os.path.dirname(mine)
        root = os.path.dirname(mine)
        if os.path.exists(mine) and root not in roots:
            roots.append(root)
    src = os.path.join(here, "src")
    if src not in roots and _installed_elsewhere(src, here):
        roots.append(src)
    kept: list[str] = []
    for entry in sys.path:
        real = os.path.realpath(entry or os.curdir)
        if leaks(real):
            real = _counterpart(real, tree, here)
            if not os.path.isdir(real):
                continue
            entry = real
        if entry not in kept:
            kept.append(entry)
    first = 1 if kept and os.path.realpath(kept[0] or os.curdir) == here else 0
    sys.path[:] = [*kept[:first], *(r for r in roots if r not in kept), *kept[first:]]
    sys.path_importer_cache.clear()
    # the tests' own `python` subprocesses: PYTHONPATH names the snapshot's folders instead
    entries = os.environ.get("PYTHONPATH", "").split(os.pathsep)
    moved = [_counterpart(os.path.realpath(e), tree, here) if e and leaks(os.path.realpath(e))
             else e for e in entries]  # fmt: skip
    if moved != entries:
        os.environ["PYTHONPATH"] = os.pathsep.join(moved)


if os.environ.get(WORK_TREE_VARIABLE):
    confine(os.environ[WORK_TREE_VARIABLE], os.getcwd())
