"""Tool failures that say the environment is broken, not the code: a toolchain rustup cannot
pick, a missing component or tool, a dependency the tree declares but the gate's Python lacks,
a dependency cargo could not fetch, an unusable home directory. The gate raises these as an
environment problem (exit 3, with the tool's own fix) and never stores them as a red verdict."""

from __future__ import annotations

import re
import shlex
from typing import TYPE_CHECKING

from tddhooks.errors import EnvironmentProblem

if TYPE_CHECKING:
    from collections.abc import Collection

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
    # cargo could not fetch a dependency (offline, no registry): the code was never judged
    (re.compile(r"^error: (?:failed to get `[^`]+` as a dependency[^\n]*"
                r"|failed to download [^\n]*|failed to load source for dependency `[^`]+`"
                r"|attempting to make an HTTP request, but --offline was specified)"
                r"|^As a reminder, you're using offline mode[^\n]*",
                re.MULTILINE),
     "fetch the dependencies once while online (`cargo fetch` in the work tree: the gate "
     "shares CARGO_HOME's registry), or vendor them"),
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


_MISSING_MODULE = re.compile(r"No module named '([\w.]+)'")


def missing_dependency(
    output: str, own_modules: Collection[str], dependencies: Collection[str]
) -> str | None:
    """The top-level module a Python run could not import that the tree declares as a
    dependency (pyproject.toml, requirements*.txt: policy/dependencies.py) and does not hold
    itself, or None. A module the tree neither holds nor declares is the code's business (a
    test naming a module that does not exist yet is red, not an environment problem)."""
    for found in _MISSING_MODULE.finditer(output):
        top = found.group(1).split(".")[0]
        if top in own_modules:
            continue
        if _normal(top) in {_normal(name) for name in dependencies}:
            return top
    return None


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def environment_problem(
    step: str,
    result: ProcResult,
    own_modules: Collection[str] = (),
    dependencies: Collection[str] = (),
) -> EnvironmentProblem | None:
    """The environment problem this failed step reveals, or None (a red tree is not one).
    own_modules: the tree's top-level Python modules; dependencies: the module names of the
    distributions it declares (policy/dependencies.py)."""
    if result.ok:
        return None
    text = result.stderr[:_HEAD_CHARS] + "\n" + result.stdout[:_HEAD_CHARS]
    module = missing_dependency(result.output, own_modules, dependencies)
    if module is not None:
        where = shlex.quote(result.cmd[0]) if len(result.cmd) > 1 and result.cmd[1] == "-m" else ""
        install = f"`{where} -m pip install {module}`" if where else f"`pip install {module}`"
        return EnvironmentProblem(
            f"cannot run the {step} step `{' '.join(result.cmd)}`: No module named "
            f"'{module}', a dependency the tree declares (an environment problem, not your "
            "code; nothing was cached)",
            fix=f"install the project's dependencies into the Python the gate runs, e.g. "
            f"{install} (or `{where or 'python'} -m pip install -e .`)",
        )
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
