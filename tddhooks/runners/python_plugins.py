"""The pytest plugins tddhooks' own requirements bring into the Python the gate runs pytest with.

pytest loads every plugin installed beside it. When the gate runs the kata's tests with the Python
tddhooks runs under (the default `python -m pytest`), that environment holds tddhooks' own
requirements too, and some of them register plugins the kata never asked for (anyio's and
platformdirs' today): each gate run paid for importing them, and they ran inside the kata's test
process. The gate turns off (`-p no:NAME`) every plugin whose distribution is in tddhooks'
requirement closure (extras not included) and not in the closure of a distribution the tree
declares (a kata declaring httpx relies on anyio's plugin as much as one declaring anyio); every
other installed plugin loads as before (docs/gate.md, "pytest plugins").
Standard library only: this runs on the hook path.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False  # not typing's: the hook path does not import typing (tddhooks/records.py)
if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Iterable

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_REQUIRES = re.compile(r"^Requires-Dist:[ \t]*(.+?)[ \t]*$", re.MULTILINE)


def canonical(name: str) -> str:
    """A distribution name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_closure(
    roots: Iterable[str], requires: Callable[[str], Iterable[str] | None]
) -> set[str]:
    """Canonical names of the `roots` and of every distribution their requirements reach,
    transitively (one walk: each distribution's metadata is read once); `requires(name)` gives a
    distribution's Requires-Dist lines (None when it is not installed). A requirement that
    applies only under an extra is no part of the closure."""
    seen: set[str] = set()
    todo = [canonical(root) for root in roots]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for line in requires(name) or ():
            requirement, _, marker = line.partition(";")
            found = _NAME.match(requirement.strip())
            if found and "extra" not in marker:
                todo.append(canonical(found.group(0)))
    return seen


def brought(
    plugins: Iterable[tuple[str, str]], closure: Collection[str], declared: Collection[str]
) -> tuple[str, ...]:
    """Names of the (entry point, distribution) plugins whose distribution is in the closure and
    not among `declared` (the tree's distributions and what they require; canonical names),
    sorted."""
    return tuple(
        sorted(
            {
                entry
                for entry, distribution in plugins
                if canonical(distribution) in closure and canonical(distribution) not in declared
            }
        )
    )


def brought_plugins(
    declared: Collection[str], own: str = "tddhooks", path: Iterable[str] | None = None
) -> tuple[str, ...]:
    """The entry-point names of the pytest plugins installed in this interpreter that only `own`'s
    requirements brought: in its closure, and in the closure of none of the tree's `declared`
    distributions (canonical names). `path`: where to look (default: sys.path). Read from the
    distributions' metadata files directly: importlib.metadata cost ~30 ms of every gate run,
    this ~7 ms."""
    found = installed(path)
    plugins = [(entry, name) for name, folder in found.items() for entry in _pytest11(folder)]
    if not plugins:
        return ()

    def requires(name: str) -> list[str] | None:
        return _requires(found.get(name))

    closure = requirement_closure([own], requires)
    return brought(plugins, closure, requirement_closure(declared, requires))


def installed(path: Iterable[str] | None = None) -> dict[str, str]:
    """Canonical name -> metadata folder (`*.dist-info`, `*.egg-info`) of every distribution on
    `path` (default: sys.path); the first one found wins, as for imports."""
    import os
    import sys

    found: dict[str, str] = {}
    for entry in sys.path if path is None else path:
        try:
            names = os.listdir(entry or ".")
        except OSError:  # a zip file, a folder that is gone
            continue
        for name in names:
            stem, dot, kind = name.rpartition(".")
            if dot and kind in ("dist-info", "egg-info"):
                found.setdefault(canonical(stem.partition("-")[0]), os.path.join(entry, name))
    return found


def _pytest11(folder: str) -> list[str]:
    """The names of the `pytest11` entry points the distribution's entry_points.txt lists."""
    text = _read(folder, "entry_points.txt")
    if "[pytest11]" not in text:
        return []
    section = text.split("[pytest11]", 1)[1].split("\n[", 1)[0]
    return [line.split("=", 1)[0].strip() for line in section.splitlines() if "=" in line]


def _requires(folder: str | None) -> list[str] | None:
    """The distribution's requirement lines with their markers; None when it is not installed.
    A wheel's METADATA headers; an egg's requires.txt, whose `[extra]` sections are left out."""
    if folder is None:
        return None
    if folder.endswith(".egg-info"):
        lines = []
        for line in _read(folder, "requires.txt").splitlines():
            if line.startswith("["):
                if not line.startswith("[:"):  # an extra's section (a marker-only one applies)
                    break
                continue
            lines.append(line)
        return lines
    headers = _read(folder, "METADATA", 1 << 16).split("\n\n", 1)[0]  # long descriptions follow
    return _REQUIRES.findall(headers)


def _read(folder: str, name: str, limit: int = -1) -> str:
    try:
        with open(f"{folder}/{name}", encoding="utf-8", errors="replace") as file:
            return file.read(limit)
    except OSError:
        return ""
