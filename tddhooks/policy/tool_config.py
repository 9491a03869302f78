"""Committed tool configuration the default test command does not run under (reads the snapshot).

A committed cargo `runner`, `linker`, compiler wrapper or `rustdoc` replacement sits between cargo
and the test binary, so it can print libtest's lines for every test and make a red tree read
green; a committed pytest hook that rewrites outcomes does the same for Python. With the runner's
default test command such a tree is red, with a message saying what to do instead: set
`ci.test_cmd` in tdd.yaml when the kata really needs it (docs/hooks.md, "Committed tool
configuration").
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

CARGO_CONFIGS = (".cargo/config.toml", ".cargo/config")
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


def untrusted_settings(workdir: Path, language: str, files: Mapping[str, str]) -> list[str]:
    """What in the tree at workdir would let it fake the default test command's result, one
    description each ("the committed .cargo/config.toml sets target.x.runner"); `files` are the
    language's code files (path -> text) the gate has read already."""
    if language == "rust":
        return [item for name in CARGO_CONFIGS for item in _cargo_settings(workdir, name)]
    if language == "python":
        return [
            f"the committed {path} implements the pytest hook {match[0]}"
            for path, text in sorted(files.items())
            if path.endswith(".py") and (match := _PYTEST_OUTCOME_HOOKS.search(text))
        ]
    return []


def _cargo_settings(workdir: Path, name: str) -> Iterator[str]:
    path = workdir / name
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
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
