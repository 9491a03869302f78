"""Tool failures that say the environment is broken, not the code: a toolchain rustup cannot
pick, a missing component or module, an unusable home directory. The gate raises these as an
environment problem (exit 3, with the tool's own fix) and never stores them as a red verdict."""

from __future__ import annotations

import re
import shlex
from typing import TYPE_CHECKING

from tddhooks.errors import EnvironmentProblem

if TYPE_CHECKING:
    from tddhooks.proc import ProcResult

_SIGNS = (
    (re.compile(r"rustup could not choose a version of \S+ to run"),
     "set a default toolchain: `rustup default stable` (check that HOME/RUSTUP_HOME point at "
     "your rustup installation)"),
    (re.compile(r"toolchain '[^']+' is not installed"),
     "install it (`rustup toolchain install`) or change rust-toolchain.toml / RUSTUP_TOOLCHAIN"),
    (re.compile(r"'[\w-]+' is not installed for the toolchain"),
     "add the component, e.g. `rustup component add clippy rustfmt`"),
    (re.compile(r"error: no such command: `(?:clippy|fmt)`"),
     "add the component: `rustup component add clippy rustfmt`"),
    (re.compile(r"No module named (?:pytest|ruff|mypy)\b"),
     "install the tool into the environment the gate uses (e.g. `pip install pytest ruff`)"),
    (re.compile(r"(?:could not|failed to|unable to) (?:find|get|determine|create)[^\n]*"
                r"home directory", re.IGNORECASE),
     "give the gate a usable HOME (it must exist and be writable), or set CARGO_HOME/"
     "RUSTUP_HOME"),
)  # fmt: skip
_HEAD_CHARS = 4_000  # the toolchain complains before anything else runs
_HELP = re.compile(r"^help: (.+)$", re.MULTILINE)


def _for_this_python(cmd: tuple[str, ...], said: str, fix: str) -> str:
    """A module missing from `PYTHON -m TOOL` goes in with that very interpreter's pip: a bare
    `pip install` reaches whichever pip is first on PATH, often another Python's."""
    if said.startswith("No module named") and len(cmd) >= 2 and cmd[1] == "-m":
        return (
            f"install them into the Python the gate runs: "
            f"`{shlex.quote(cmd[0])} -m pip install pytest ruff`"
        )
    return fix


def environment_problem(step: str, result: ProcResult) -> EnvironmentProblem | None:
    """The environment problem this failed step reveals, or None (a red tree is not one)."""
    if result.ok:
        return None
    text = result.stderr[:_HEAD_CHARS] + "\n" + result.stdout[:_HEAD_CHARS]
    for pattern, fix in _SIGNS:
        found = pattern.search(text)
        if found is None:
            continue
        said = _HELP.search(text)
        return EnvironmentProblem(
            f"cannot run the {step} step `{' '.join(result.cmd)}`: {found.group(0)} "
            "(an environment problem, not your code; nothing was cached)",
            fix=said.group(1).strip()
            if said
            else _for_this_python(result.cmd, found.group(0), fix),
        )
    return None
