"""Committed tool configuration the default test command does not run under (reads the snapshot).

A committed cargo `runner`, `linker`, compiler wrapper or `rustdoc` replacement sits between cargo
and the test binary, so it can print libtest's lines for every test and make a red tree read
green; a committed pytest hook that rewrites outcomes does the same for Python. With the runner's
default test command such a tree is red, with a message saying what to do instead: set
`ci.test_cmd` in tdd.yaml when the kata really needs it (docs/hooks.md, "Committed tool
configuration").
"""

from __future__ import annotations

import os
import re
import sys
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from tddhooks.limits import read_tree_file

CARGO_CONFIGS = (".cargo/config.toml", ".cargo/config")
# Cargo.toml target tables: one with `harness = false` is built without libtest, so its own
# `main` prints whatever lines it likes (`test red_one ... ok` for a test compiled out)
_TARGET_TABLES = ("lib", "bin", "test", "bench", "example")
TOOLCHAIN_FILES = ("rust-toolchain.toml", "rust-toolchain")
# build.<key>: a program cargo runs instead of rustc/rustdoc, or around it
_BUILD_PROGRAMS = ("rustc", "rustc-wrapper", "rustc-workspace-wrapper", "rustdoc")
# target.<triple or cfg>.<key>: a program the test binary is run or linked through
_TARGET_PROGRAMS = ("runner", "linker")
_FLAG_KEYS = ("rustflags", "rustdocflags")
# flags that link in or run through something else: -C linker=, -C link-arg(s)=, --runtool
_FLAG_RE = re.compile(r"link|runtool|-Z", re.IGNORECASE)
_ENV_RE = re.compile(r"^(?:LD_|RUSTC|RUSTDOC|CARGO_BUILD_|CARGO_TARGET_)", re.IGNORECASE)
# pytest hooks that decide or report a test's outcome: a conftest or plugin implementing one can
# turn a failure into a pass (collection hooks are caught by the gate's "did not run" check)
_PYTEST_OUTCOME_HOOKS = re.compile(
    r"\bpytest_(?:runtest_makereport|runtest_logreport|runtest_call|runtest_protocol|"
    r"runtestloop|pyfunc_call|report_teststatus|terminal_summary|report_to_serializable|"
    r"report_from_serializable)\b"
)


# what `python -m pytest` / `python -m ruff` import before any test runs: with `-m` the top
# folder of the tree comes first on sys.path, so a top-level `pytest.py` would be run instead
# tddhooks: the gate loads its own pytest plugins from it (runners/python_defined.py)
_TOOL_MODULES = frozenset(
    {"pytest", "_pytest", "pluggy", "iniconfig", "packaging", "py", "ruff", "tddhooks"}
)
_MODULE_SUFFIXES = (".py", ".pyc", ".so", ".pyd")
_GENERATED = frozenset({"target", "__pycache__", ".pytest_cache", ".ruff_cache", ".mypy_cache"})
_ADVICE = "remove it, or commit a ci.test_cmd of your own in tdd.yaml first if the kata needs it"


def untrusted_settings(workdir: Path, language: str, files: Mapping[str, str]) -> list[str]:
    """What in the tree at workdir would let it fake the default test command's result, one
    sentence each with its fix; `files` are the language's code files (path -> text) the gate
    has read already."""
    if language == "rust":
        return (
            [
                f"the committed {name} sets {key}: the default test command does not run tests "
                f"through a program the tree chooses, which could print any result; {_ADVICE}"
                for name in CARGO_CONFIGS
                for key in _cargo_settings(workdir, name)
            ]
            + [
                f"the committed {name} sets harness = false on the {kind} target {target}: the "
                "default test command runs tests through libtest, whose lines a target without it "
                f"could print for tests that never ran; {_ADVICE}"
                for name, kind, target in _harness_off(workdir)
            ]
            + [
                f"the committed {name} picks the toolchain in {where}: cargo, rustc and the tests "
                f"would be programs the tree chooses; name a released channel instead, or {_ADVICE}"
                for name, where in _toolchain_paths(workdir)
            ]
        )
    if language != "python":
        return []
    found = [
        f"the committed {path} implements the pytest hook {match[0]}, which can rewrite a "
        f"test's outcome; {_ADVICE}"
        for path, text in sorted(files.items())
        if path.endswith(".py") and (match := _PYTEST_OUTCOME_HOOKS.search(text))
    ]
    return found + [
        f"the committed {entry} shadows the module {module}, which `python -m pytest` and "
        f"`python -m ruff` would import from the tree's top folder; rename it, or {_ADVICE}"
        for entry, module in _shadowing(workdir)
    ]


def outside_references(workdir: Path, files: Mapping[str, str]) -> list[str]:
    """Symlinks in the tree, and Rust includes, that reach outside it: the gate would judge a
    file the commit does not hold (whatever the test command)."""
    top = workdir.resolve()
    found = []
    for folder, dirs, names in os.walk(workdir):
        if Path(folder) == workdir:
            dirs[:] = [name for name in dirs if name not in _GENERATED]
        for name in (*dirs, *names):
            path = Path(folder, name)
            # realpath, not resolve(): a committed symlink loop leads nowhere, and must not crash
            if path.is_symlink() and not Path(os.path.realpath(path)).is_relative_to(top):
                relative = path.relative_to(workdir).as_posix()
                found.append(
                    f"{relative} is a symlink to {os.readlink(path)}, outside the committed tree: "
                    "the gate judges only what is committed; commit the file itself"
                )
    from tddhooks.policy.build_inputs import rust_references

    for relative, text in sorted(files.items()):
        if not relative.endswith(".rs"):
            continue
        for written in rust_references(text):
            target = (workdir / relative).parent / written
            if not Path(os.path.realpath(target)).is_relative_to(top):
                found.append(
                    f"{relative} includes {written}, outside the committed tree: the gate judges "
                    "only what is committed; commit the file itself"
                )
    return found


def _shadowing(workdir: Path) -> Iterator[tuple[str, str]]:
    """(top-level entry, module) for the tree's top-level modules named like a module the test
    tools import (their own, or the standard library's)."""
    try:
        entries = sorted(os.listdir(workdir))
    except OSError:
        return
    for entry in entries:
        path = workdir / entry
        module = entry.split(".", 1)[0]
        is_module = entry.endswith(_MODULE_SUFFIXES) and path.is_file()
        if not is_module and not (path / "__init__.py").is_file():
            continue
        if module in _TOOL_MODULES or module in sys.stdlib_module_names:
            yield entry, module


def _harness_off(workdir: Path) -> Iterator[tuple[str, str, str]]:
    """(manifest, target kind, target name) for every target of every committed Cargo.toml
    (workspace members included) that is built without libtest."""
    for folder, dirs, names in os.walk(workdir):
        dirs[:] = sorted(name for name in dirs if name not in _GENERATED and name != ".git")
        if "Cargo.toml" not in names:
            continue
        path = Path(folder, "Cargo.toml")
        try:
            data = tomllib.loads(read_tree_file(path, workdir) or "")
        except tomllib.TOMLDecodeError:
            continue  # cargo refuses it itself: the build is red
        relative = path.relative_to(workdir).as_posix()
        for kind in _TARGET_TABLES:
            tables = data.get(kind)
            for table in tables if isinstance(tables, list) else [tables]:
                if not isinstance(table, dict) or table.get("harness") is not False:
                    continue
                # `cargo test` runs benches and examples only with `test = true`: criterion's
                # `[[bench]] harness = false` is never run as a test, so it fakes nothing
                if kind in ("bench", "example") and table.get("test") is not True:
                    continue
                yield relative, kind, str(table.get("name", kind))


def _toolchain_paths(workdir: Path) -> Iterator[tuple[str, str]]:
    """rust-toolchain(.toml) files that point rustup at a toolchain folder (`path = …`, or a
    channel that is a path) instead of a released channel."""
    for name in TOOLCHAIN_FILES:
        text = read_tree_file(workdir / name, workdir)
        if text is None:
            continue
        try:
            toolchain = _table(tomllib.loads(text).get("toolchain"))
        except tomllib.TOMLDecodeError:
            toolchain = {"channel": text.strip()}  # the legacy one-line form
        where = toolchain.get("path")
        channel = toolchain.get("channel")
        if isinstance(where, str):
            yield name, where
        elif isinstance(channel, str) and ("/" in channel or channel.startswith(".")):
            yield name, channel


def _cargo_settings(workdir: Path, name: str) -> Iterator[str]:
    path = workdir / name
    try:
        data = tomllib.loads(read_tree_file(path, workdir) or "")
    except tomllib.TOMLDecodeError:
        return  # none, or one cargo itself refuses (the build is red then)
    for key in _keys(data):
        yield f"the committed {name} sets {key}"


def _keys(data: dict[str, Any]) -> Iterator[str]:
    """The dotted names of the settings that put a program or flags between cargo and a test."""
    if "include" in data:
        yield "include (configuration from other files)"
    build = _table(data.get("build"))
    yield from (f"build.{key}" for key in _BUILD_PROGRAMS if key in build)
    yield from (f"build.{key}" for key in _FLAG_KEYS if _suspicious(build.get(key)))
    for triple, table in _table(data.get("target")).items():
        yield from _program_keys(f"target.{triple}", _table(table))
    host = _table(data.get("host"))
    yield from _program_keys("host", host)
    for triple, table in host.items():
        yield from _program_keys(f"host.{triple}", _table(table))
    yield from (f"env.{key}" for key in _table(data.get("env")) if _ENV_RE.match(key))


def _program_keys(prefix: str, table: dict[str, Any]) -> Iterator[str]:
    yield from (f"{prefix}.{key}" for key in _TARGET_PROGRAMS if key in table)
    yield from (f"{prefix}.{key}" for key in _FLAG_KEYS if _suspicious(table.get(key)))


def _table(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _suspicious(flags: object) -> bool:
    words = flags.split() if isinstance(flags, str) else flags if isinstance(flags, list) else []
    return any(isinstance(word, str) and _FLAG_RE.search(word) for word in words)
