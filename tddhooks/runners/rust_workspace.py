"""Which files of a tree cargo builds from its top (pure): the packages of the root manifest's
workspace, not every crate folder the tree holds.

`cargo test --all` at the top builds the root package and the workspace's members (globs in
`members`, minus `exclude`) with the path dependencies they name; a crate folder below that is
none of these (an old kata kept beside the workspace) is never compiled, so its tests are not
tests the tree runs. A tree whose root manifest is missing or unreadable is taken whole.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from fnmatch import fnmatchcase
from functools import lru_cache

MANIFEST = "Cargo.toml"
_DEPENDENCY_TABLES = ("dependencies", "dev-dependencies", "build-dependencies")


def built_files(files: Mapping[str, str]) -> Mapping[str, str]:
    """The entries of files (path -> text, manifests among them) that belong to a package cargo
    builds from the top, and the root manifest: each file belongs to the package of the nearest
    manifest above it."""
    manifests = {_folder(path): text for path, text in files.items() if _is_manifest(path)}
    if len(manifests) <= 1 or "" not in manifests:
        return files  # one package (or none at the top): nothing to tell apart
    built = _built_once(tuple(sorted(manifests.items())))
    if built is None:
        return files
    owners: dict[str, str | None] = {}  # folder -> its package's folder, found once per folder
    kept = {}
    for path, text in files.items():
        folder = _folder(path)
        if folder not in owners:
            owners[folder] = _package_of(path, manifests)
        if path == MANIFEST or owners[folder] in built:
            kept[path] = text
    return kept


@lru_cache(maxsize=256)
def _built_once(manifests: tuple[tuple[str, str], ...]) -> frozenset[str] | None:
    """built_packages, read once per process for the same manifests (an audit's trees share
    them from one commit to the next)."""
    built = built_packages(dict(manifests))
    return None if built is None else frozenset(built)


def built_packages(manifests: Mapping[str, str]) -> set[str] | None:
    """The package folders ("" for the top) that `cargo test --all` at the top builds, given
    folder -> Cargo.toml text; None when the root manifest cannot be read."""
    root = _parse(manifests.get("", ""))
    if root is None:
        return None
    built: set[str] = {""} if isinstance(root.get("package"), dict) else set()
    workspace = root.get("workspace")
    excluded: list[str] = []
    if isinstance(workspace, dict):
        members = [m for m in _strings(workspace.get("members")) if m]
        excluded = [_normal(e) for e in _strings(workspace.get("exclude"))]
        for folder in manifests:
            if folder and any(_matches(_normal(member), folder) for member in members):
                built.add(folder)
    pending = sorted(built)
    while pending:  # path dependencies are built too (and are members when inside the top)
        folder = pending.pop()
        for dependency in _path_dependencies(manifests.get(folder, ""), folder):
            if dependency in manifests and dependency not in built:
                built.add(dependency)
                pending.append(dependency)
    return {f for f in built if not f or not any(_inside(f, e) for e in excluded if e)}


def _path_dependencies(text: str, folder: str) -> list[str]:
    data = _parse(text) or {}
    found = []
    for table in _DEPENDENCY_TABLES:
        entries = data.get(table)
        if not isinstance(entries, dict):
            continue
        for entry in entries.values():
            path = entry.get("path") if isinstance(entry, dict) else None
            if isinstance(path, str):
                found.append(_normal(posixpath.join(folder, path)))
    return found


def _parse(text: str) -> dict[str, object] | None:
    import tomllib  # not at the top: only a tree with more than one manifest pays for it

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None


def _strings(value: object) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def _matches(pattern: str, folder: str) -> bool:
    """A member glob matches folder component by component (cargo's `*` stays in one folder)."""
    wanted, parts = pattern.split("/"), folder.split("/")
    return len(wanted) == len(parts) and all(map(fnmatchcase, parts, wanted))


def _normal(path: str) -> str:
    normal = posixpath.normpath(path.strip().rstrip("/"))
    return "" if normal == "." else normal


def _inside(folder: str, parent: str) -> bool:
    return folder == parent or folder.startswith(f"{parent}/")


def _is_manifest(path: str) -> bool:
    return posixpath.basename(path) == MANIFEST


def _folder(path: str) -> str:
    return posixpath.dirname(path)


def _package_of(path: str, manifests: Mapping[str, str]) -> str | None:
    """The folder of the nearest manifest above path (None when there is none)."""
    folder = _folder(path)
    while True:
        if folder in manifests:
            return folder
        if not folder:
            return None
        folder = posixpath.dirname(folder)
