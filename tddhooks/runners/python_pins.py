"""pytest's and ruff's configuration pinned to the tree being judged (reads the snapshot).

Both tools look for configuration in every parent folder of where they run, and the gate's
snapshot lives under the person's home (`~/.cache/tddhooks/snapshots/…`): a `~/pytest.ini` (with a
`~/conftest.py` beside it) or a `~/ruff.toml` would judge the kata when the kata has no such file of
its own. The gate therefore names the tree's own configuration file on the command line, or none
at all (docs/gate.md, "pytest and ruff configuration").
"""

from __future__ import annotations

import os
import re
import sys
import tomllib
from pathlib import Path

# the variable those plugins read in pytest's process, from python_places, which does nothing at
# import: importing python_confine here would confine tddhooks' own sys.path whenever the
# variable is inherited (a kata whose tests run tddhooks)
from tddhooks.limits import read_tree_file
from tddhooks.runners.python_places import WORK_TREE_VARIABLE as WORK_TREE_VARIABLE
from tddhooks.runners.python_places import interpreter_folders, within

TYPE_CHECKING = False  # not typing's: the hook path does not import typing (tddhooks/records.py)
if TYPE_CHECKING:
    from collections.abc import Collection

# pytest's own order of configuration files in one folder (_pytest/config/findpaths.py)
_PYTEST_ALWAYS = ("pytest.toml", ".pytest.toml", "pytest.ini", ".pytest.ini")
_INI_SECTIONS = (("tox.ini", "pytest"), ("setup.cfg", "tool:pytest"))
# ruff's order in one folder; a pyproject.toml without [tool.ruff] still gives requires-python
_RUFF_FILES = (".ruff.toml", "ruff.toml", "pyproject.toml")
_PYTEST_OWN = ("-c", "--config-file", "--rootdir", "--confcutdir")
_RUFF_OWN = ("--config", "--isolated")
CONFINE_PLUGIN = "tddhooks.runners.python_confine"
DEFINED_PLUGIN = "tddhooks.runners.python_defined"  # a test runs the function its file defines


def startup_modules_in(tree: Path) -> list[str]:
    """Files of the modules Python imported at start (`sitecustomize`, `usercustomize`) that lie
    in the work tree `tree`: a PYTHONPATH or an editable install naming `src/` makes an untracked
    `src/sitecustomize.py` run in every Python started there, the gate's pytest included, before
    any plugin (it can make every test pass). Read in the process that runs the gate, which
    started with the same environment and site folders."""
    real = tree.resolve()
    found = []
    for name in ("sitecustomize", "usercustomize"):
        where = getattr(sys.modules.get(name), "__file__", None)
        if where and Path(where).resolve().is_relative_to(real):
            found.append(where)
    return found


def pinned(
    cmd: tuple[str, ...],
    workdir: Path,
    work_tree: Path | None = None,
    declared: Collection[str] = (),
) -> tuple[str, ...]:
    """cmd with pytest's or ruff's configuration pinned to the tree at workdir; other commands,
    and commands that already name their configuration, unchanged. pytest run by this very Python
    runs without the plugins only tddhooks' requirements brought (the tree's `declared`
    distributions excepted: runners/python_plugins.py) and, given the work tree, loads the plugin
    that keeps the work tree off its sys.path."""
    at = _tool_at(cmd, "pytest", "py.test")
    if at is not None:
        trees = (workdir, *(() if work_tree is None else (work_tree,)))
        extra = (*_unbrought(cmd, at, declared, trees), *_confined(cmd, at, workdir, work_tree))
        if not _names_any(cmd, _PYTEST_OWN):
            folder = str(workdir)
            config = pytest_config(workdir)
            extra = (
                "--rootdir",
                folder,
                "--confcutdir",
                folder,
                "-c",
                str(config or os.devnull),
                *extra,
            )
        return (*cmd[: at + 1], *extra, *cmd[at + 1 :])
    at = _tool_at(cmd, "ruff")
    if at is not None and at + 1 < len(cmd) and not _names_any(cmd, _RUFF_OWN):
        config = ruff_config(workdir)
        options = ("--config", str(config)) if config else ("--isolated",)
        return _ruff_binary((*cmd[: at + 2], *options, *cmd[at + 2 :]))
    return cmd


def _ruff_binary(cmd: tuple[str, ...]) -> tuple[str, ...]:
    """`<this python> -m ruff ARGS` as the ruff binary beside this interpreter, in a virtual
    environment (pipx's, a project's) where pip put both: what `python -m ruff` itself would
    exec after starting an interpreter only to find it (~20 ms of each of a Python gate's two
    ruff steps). Outside a venv the `ruff` beside the interpreter may be another one (a distro's
    /usr/bin/ruff beside a user-installed module): as it is, like anything else."""
    if cmd[:3] != (sys.executable, "-m", "ruff") or sys.prefix == sys.base_prefix:
        return cmd
    binary = os.path.join(os.path.dirname(sys.executable), "ruff")
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        return cmd
    return (binary, *cmd[3:])


def _unbrought(
    cmd: tuple[str, ...], at: int, declared: Collection[str], trees: tuple[Path, ...]
) -> tuple[str, ...]:
    """`-p no:NAME` for each plugin tddhooks' own requirements brought, when this very Python
    runs `-m pytest` (another interpreter's environment is the person's own). Metadata inside
    the judged trees is never read: the tree cannot name what is turned off. This Python's own
    environment is read even inside the work tree (`python -m venv .venv` there, ignored by git):
    the person made it, the commit does not hold it."""
    if at < 2 or cmd[at - 1] != "-m" or cmd[0] != sys.executable:
        return ()
    from tddhooks.runners.python_plugins import brought_plugins

    folders = [os.path.realpath(tree) for tree in trees]
    own = interpreter_folders(*folders)  # none that holds a whole tree (/usr of /usr/src/kata)
    path = []
    for entry in sys.path:
        real = os.path.realpath(entry)
        if not os.path.isabs(entry) or within(real, folders[0]):  # the snapshot: never
            continue
        if any(within(real, folder) for folder in own) or not any(
            within(real, folder) for folder in folders
        ):
            path.append(entry)
    names = brought_plugins(declared, path=path)
    return tuple(option for name in names for option in ("-p", f"no:{name}"))


def _confined(
    cmd: tuple[str, ...], at: int, workdir: Path, work_tree: Path | None
) -> tuple[str, ...]:
    """`-p` the confining plugin (runners/python_confine.py) and the one that keeps each test
    on its own function (runners/python_defined.py) when the gate's own Python runs `-m pytest`
    (tddhooks is importable there) and no top-level tddhooks of the tree would answer for them
    instead (the tree's top folder is first on sys.path)."""
    if work_tree is None or at < 2 or cmd[at - 1] != "-m" or cmd[0] != sys.executable:
        return ()
    if (workdir / "tddhooks.py").exists() or (workdir / "tddhooks").is_dir():
        return ()
    return ("-p", DEFINED_PLUGIN, "-p", CONFINE_PLUGIN)


def pytest_config(workdir: Path) -> Path | None:
    """The file pytest would take as its configuration in the tree's top folder, or None."""
    for name in _PYTEST_ALWAYS:
        if (workdir / name).is_file():
            return workdir / name
    pyproject = workdir / "pyproject.toml"
    tool = _toml(pyproject, workdir).get("tool")
    if isinstance(tool, dict) and isinstance(tool.get("pytest"), dict):
        return pyproject
    for name, section in _INI_SECTIONS:
        if _has_section(workdir / name, section, workdir):
            return workdir / name
    # pytest's last resort: a pyproject.toml without pytest settings still fixes the rootdir
    return pyproject if pyproject.is_file() else None


def ruff_config(workdir: Path) -> Path | None:
    """The tree's own ruff configuration file in its top folder, or None."""
    return next((workdir / n for n in _RUFF_FILES if (workdir / n).is_file()), None)


def _tool_at(cmd: tuple[str, ...], *names: str) -> int | None:
    """Where the tool's own arguments start: after `pytest`, or after `-m pytest`."""
    for index, word in enumerate(cmd):
        if Path(word).name in names or (index and cmd[index - 1] == "-m" and word in names):
            return index
    return None


def _names_any(cmd: tuple[str, ...], options: tuple[str, ...]) -> bool:
    return any(word in options or word.startswith(tuple(f"{o}=" for o in options)) for word in cmd)


def _toml(path: Path, top: Path) -> dict[str, object]:
    try:
        return tomllib.loads(read_tree_file(path, top) or "")
    except tomllib.TOMLDecodeError:
        return {}


def _has_section(path: Path, section: str, top: Path) -> bool:
    text = read_tree_file(path, top)
    if text is None:
        return False
    return re.search(rf"^\[{re.escape(section)}\]\s*$", text, re.MULTILINE) is not None
