"""Stored gate verdicts read as plain JSON: where they live, the memoised verdict key, and the
green lines of an already-verified tree.

This is all the hooks' fast path needs from the gate: it imports neither pydantic nor
policy/gate.py (threads, locks, snapshots), so a hook on an already-verified tree or a
message-only check stays cheap. policy/gate.py computes verdicts and re-exports these names.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from tddhooks import __version__, git

# Raised whenever the way the gate builds or judges a tree changes what a verdict can be, so a
# verdict stored before is judged again (and the remembered key with it): 2 = never in the user's
# CARGO_TARGET_DIR or build-dir, and the work tree kept off a Python kata's sys.path
# (docs/runners.md); 3 = a Cargo.toml target without libtest is red; 4 = a pytest test runs the
# function its file defines (docs/gate.md, "Committed tool configuration"); 5 = the tests a tree
# defines are those of the packages cargo builds (runners/rust_workspace.py); 6 = pytest runs
# without the plugins only tddhooks' own requirements brought (runners/python_plugins.py).
GATE_REVISION = 6

TYPE_CHECKING = False  # not typing's: importing typing costs the hook path ~4 ms; mypy reads it
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from tddhooks.policy.settings import PolicySettings

VERIFICATION_FIELD = "verification"
SEAL_FIELD = "seal"
KEY_MEMO = "verdict-key.json"
# Variables and files that select which toolchain the runner's commands resolve to.
_TOOLCHAIN_ENV = ("RUSTUP_TOOLCHAIN", "RUSTUP_HOME", "CARGO_HOME", "VIRTUAL_ENV", "CONDA_PREFIX")
_TOOLCHAIN_FILES = ("rust-toolchain", "rust-toolchain.toml", ".python-version")


def verdict_file(directory: Path, tree: str, key: str) -> Path:
    """Where the verdict for (tree, key) lives inside the verdicts directory."""
    return directory / f"{tree}-{key}.json"


def verdicts_dir(tddhooks_dir: Path) -> Path:
    return tddhooks_dir / "verdicts"


def stored_verdict(
    root: Path, tree: str, settings: PolicySettings, state: Path | None = None
) -> tuple[bool, list[str] | None] | None:
    """(green, verification lines or None when not recorded) of the verdict stored for tree
    under the current commands and toolchain, without importing pydantic or running any tool;
    None when none is stored."""
    state = state or git.tddhooks_dir(root)
    key = memoized_key(root, state, settings)
    if key is None:
        return None
    data = read_sealed(verdict_file(verdicts_dir(state), tree, key))
    if data is None or data.get("tree") != tree or data.get("key") != key:
        return None
    lines = data.get(VERIFICATION_FIELD)
    return data.get("green") is True, [str(line) for line in lines] if isinstance(
        lines, list
    ) else []


def cached_green_lines(
    root: Path, tree: str, settings: PolicySettings, state: Path | None = None
) -> list[str] | None:
    """Verification lines of a stored green verdict for tree; None when the tree is not known
    to be green."""
    found = stored_verdict(root, tree, settings, state)
    return found[1] if found is not None and found[0] else None


def memoized_key(root: Path, state: Path, settings: PolicySettings) -> str | None:
    """The verdict key remembered from the last full computation, if nothing it hashes changed."""
    memo = read_sealed(state / KEY_MEMO)
    if memo is None:
        return None
    try:
        tools, key = memo["tools"], memo["key"]
        if memo["stamp"] == toolchain_stamp(root, settings, tools) and isinstance(key, str):
            return key
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return None


def toolchain_stamp(root: Path, settings: PolicySettings, tools: Sequence[str]) -> list[Any]:
    """Cheap fingerprint (stat calls only) of what could change the runner's toolchain version:
    the tools found on PATH, the toolchain-selecting variables and files, rustup's state."""
    rustup_home = Path(os.environ.get("RUSTUP_HOME") or Path.home() / ".rustup")
    hashes = rustup_home / "update-hashes"
    updates = sorted(str(_file_id(entry)) for entry in _children(hashes))
    return [
        f"{__version__}+gate{GATE_REVISION}",
        settings.language,
        [list(settings.fmt_check), list(settings.lint), list(settings.test)],
        environment_digest(settings),
        import_fingerprint(settings),
        [_file_id(which(tool)) for tool in tools],
        [os.environ.get(name) for name in _TOOLCHAIN_ENV],
        [_file_id(root / name) for name in _TOOLCHAIN_FILES],
        _file_id(rustup_home / "settings.toml"),
        updates,
    ]


def sealed_json(data: dict[str, Any]) -> str:
    """data as the JSON text of a sealed record: its canonical form's seal (tddhooks/seal.py)
    under SEAL_FIELD, so a record written by anything but tddhooks is not trusted."""
    from tddhooks.seal import seal

    body = {key: value for key, value in data.items() if key != SEAL_FIELD}
    return json.dumps({**body, SEAL_FIELD: seal(_canonical(body))}, ensure_ascii=False, indent=1)


def read_sealed(path: Path) -> dict[str, Any] | None:
    """The record at path without its seal; None when it is absent, unreadable, or its seal is
    missing or wrong (a forged or edited record is recomputed, never trusted)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    tag = data.pop(SEAL_FIELD, None)
    from tddhooks.seal import verify

    if not isinstance(tag, str) or not verify(_canonical(data), tag):
        return None
    return data


def _canonical(data: dict[str, Any]) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def import_fingerprint(settings: PolicySettings) -> list[Any]:
    """Cheap fingerprint (stat calls only) of what the gate's commands can import or link: for
    Python, the site-packages folders of the interpreter the test command runs (a folder's
    mtime moves whenever a distribution is installed, upgraded or removed); for Rust, the
    crates cargo has fetched. Part of the verdict key: installing a package judges again."""
    if settings.language == "python":
        return [_file_id(folder) for folder in _site_folders(settings.test)]
    cargo_home = Path(os.environ.get("CARGO_HOME") or Path.home() / ".cargo")
    registry = cargo_home / "registry"
    return sorted(
        str(_file_id(entry)) for part in ("cache", "index") for entry in _children(registry / part)
    )


def _site_folders(test: Sequence[str]) -> list[str]:
    """The site-packages folders of the Python a test command runs: this interpreter's when the
    command names it (the default), else those under the named interpreter's environment."""
    program = test[0] if test else sys.executable
    if program == sys.executable or os.sep not in program:
        return [entry for entry in sys.path if entry.endswith(("site-packages", "dist-packages"))]
    lib = Path(program).parent.parent / "lib"
    return sorted(
        str(folder / "site-packages")
        for folder in _children(lib)
        if folder.name.startswith("python")
    )


def environment_digest(settings: PolicySettings) -> str:
    """A digest of what the gate lets through of this process's environment (policy/gate_env.py):
    part of the verdict key, kept as a digest so no value is written to disk."""
    import hashlib

    from tddhooks.policy.gate_env import fingerprint

    material = json.dumps(fingerprint(settings.gate_env), separators=(",", ":"))
    return hashlib.sha256(material.encode("utf-8")).hexdigest()


def which(tool: str) -> str | None:
    """shutil.which for a bare tool name on POSIX (the first executable file of that name on
    PATH), without importing shutil (and its compression modules): ~3 ms of every hook."""
    if os.sep in tool:
        return tool if _executable(tool) else None
    for folder in os.environ.get("PATH", os.defpath).split(os.pathsep):
        candidate = os.path.join(folder or os.curdir, tool)
        if _executable(candidate):
            return candidate
    return None


def _executable(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def _children(folder: Path) -> list[Path]:
    try:
        return list(folder.iterdir())
    except OSError:
        return []


def _file_id(path: str | Path | None) -> list[Any] | None:
    if path is None:
        return None
    try:
        stat = os.stat(path)
    except OSError:
        return [str(path), None]
    return [str(path), stat.st_mtime_ns, stat.st_size, stat.st_ino]
