"""The tripwire that keeps `scripts/test --quick` free of toolchains: a test that starts cargo
(or rustc, rustfmt, clippy) without `@pytest.mark.cargo`, or pytest without `@pytest.mark.pygate`,
fails, whether it starts the tool itself or through a child (an installed hook calling `tddhooks
hook`, a `tddhooks drive` subprocess). A drive run end to end always starts its kata's gate, so
the same wire catches a drive that lacks its markers (docs/dev/testing.md).

Three layers, none of them in product code:
- in this process, a `sys.addaudithook` hook sees every process start (`subprocess`, `os.exec*`,
  `os.posix_spawn`, `os.system`), however the tool was named (absolute path included);
- for children, fake `cargo`, `rustc`, ... executables first on PATH, which record the call;
- for children's `python -m pytest`, PYTEST_ADDOPTS asks any pytest that starts to write its
  debug trace to a file this module watches (pytest reads that variable, tddhooks does not);
- for a Python kata's gate run by a child (an installed hook), which starts pytest by the
  interpreter's path with an environment built from an allowlist (so neither of the above sees
  it): the `.ruff_cache` its ruff leaves in the gate's snapshot folder under the test's cache home
  (the gate runs ruff and pytest together; `gate_traces`).
"""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

CARGO_TOOLS = frozenset(
    {"cargo", "rustc", "rustfmt", "rustdoc", "cargo-clippy", "clippy-driver", "cargo-fmt"}
)
PYTEST_TOOLS = frozenset({"pytest", "py.test"})
# which marker lets a test start which kind of tool; the end-to-end tiers (a drive, the real
# aider, the installed wheel) run whatever gate their kata's language has
MARKER_OF = {"cargo": "cargo", "pytest": "pygate"}
END_TO_END = frozenset({"e2e", "aider", "install"})
SHIM_EXIT = 97
_CHILD_LOG = "children.log"
_PYTEST_TRACE = "pytest-started.log"

_PROCESS_EVENTS = frozenset({"subprocess.Popen", "os.exec", "os.posix_spawn", "os.system"})
_forbidden: frozenset[str] = frozenset()
_tripped: list[str] = []


def tool_kind(argv: Sequence[str]) -> str | None:
    """'cargo' or 'pytest' when argv starts that tool (by name, path, or `python -m pytest`)."""
    if not argv:
        return None
    name = os.path.basename(str(argv[0]))
    if name in CARGO_TOOLS:
        return "cargo"
    if name in PYTEST_TOOLS:
        return "pytest"
    words = [str(word) for word in argv[1:]]
    for index, word in enumerate(words[:-1]):
        if word == "-m" and words[index + 1] in PYTEST_TOOLS:
            return "pytest"
    if name in {"sh", "bash", "dash"} and "-c" in words:  # a shell line naming the tool
        line = words[words.index("-c") + 1] if words.index("-c") + 1 < len(words) else ""
        try:
            return tool_kind(shlex.split(line))
        except ValueError:
            return None
    return None


def _argv_of(event: str, args: tuple[Any, ...]) -> Sequence[str] | None:
    if event == "subprocess.Popen":  # (executable, args, cwd, env)
        executable, argv = args[0], args[1]
        if isinstance(argv, str | bytes | os.PathLike):
            argv = [argv]
        words = [os.fsdecode(word) for word in argv]
        if executable is not None and words:
            words[0] = os.fsdecode(executable)
        return words
    if event in {"os.exec", "os.posix_spawn"}:  # (path, args, env)
        return [os.fsdecode(args[0]), *[os.fsdecode(word) for word in list(args[1])[1:]]]
    if event == "os.system":  # (command,)
        try:
            return shlex.split(os.fsdecode(args[0]))
        except ValueError:
            return None
    return None


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if not _forbidden or event not in _PROCESS_EVENTS:
        return
    argv = _argv_of(event, args)
    kind = tool_kind(argv) if argv else None
    if kind in _forbidden:
        _tripped.append(" ".join(argv or ()))
        raise RuntimeError(unmarked_message(kind, argv or ()))


def allowed_kinds(markers: Iterable[str]) -> set[str]:
    """The tool kinds a test carrying these markers may start."""
    names = set(markers)
    if names & END_TO_END:
        return set(MARKER_OF)
    return {kind for kind, marker in MARKER_OF.items() if marker in names}


def unmarked_message(kind: str | None, argv: Iterable[str]) -> str:
    marker = MARKER_OF.get(kind or "", "?")
    return (
        f"tripwire: this test started {' '.join(argv)!r} without @pytest.mark.{marker}; "
        f"mark it (docs/dev/testing.md) so `scripts/test --quick` leaves it out"
    )


def install() -> None:
    """Register the audit hook (once per process; audit hooks cannot be removed)."""
    sys.addaudithook(_audit)


def write_shims(folder: Path) -> Path:
    """Fake toolchain executables in folder/bin that log each call to folder and fail loudly."""
    bin_dir = folder / "bin"
    bin_dir.mkdir(parents=True, exist_ok=True)
    log = folder / _CHILD_LOG
    for tool in sorted(CARGO_TOOLS):
        shim = bin_dir / tool
        shim.write_text(
            "#!/bin/sh\n"
            f'echo "{tool} $*" >> {shlex.quote(str(log))}\n'
            f'echo "tripwire: {tool} started without @pytest.mark.cargo '
            '(docs/dev/testing.md)" >&2\n'
            f"exit {SHIM_EXIT}\n",
            encoding="utf-8",
        )
        shim.chmod(0o755)
    return bin_dir


def arm(folder: Path, forbidden: Iterable[str]) -> dict[str, str]:
    """Forbid the given tool kinds for the test about to run; returns the environment variables
    to set for it (the shims first on PATH, PYTEST_ADDOPTS)."""
    global _forbidden
    _forbidden = frozenset(forbidden)
    _tripped.clear()
    for name in (_CHILD_LOG, _PYTEST_TRACE):
        (folder / name).unlink(missing_ok=True)
    env: dict[str, str] = {}
    if "cargo" in _forbidden:
        env["PATH"] = f"{folder / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"
    if "pytest" in _forbidden:
        extra = f"--debug={folder / _PYTEST_TRACE}"
        env["PYTEST_ADDOPTS"] = f"{os.environ.get('PYTEST_ADDOPTS', '')} {extra}".strip()
    return env


def gate_traces(cache_home: Path) -> list[Path]:
    """The gate snapshot folders under `cache_home` (the test's XDG cache) in which a Python
    kata's gate ran its commands: its ruff leaves a `.ruff_cache` there."""
    return sorted(cache_home.glob("tddhooks/snapshots/*/*/.ruff_cache"))


def disarm(folder: Path, cache_home: Path | None = None) -> list[str]:
    """Stop watching; what the test started that it was not allowed to, one line a start.
    `cache_home`: the test's XDG cache, searched for a Python gate's traces (`gate_traces`)."""
    global _forbidden
    pytest_forbidden = "pytest" in _forbidden
    _forbidden = frozenset()
    found = [f"{line} (in this process)" for line in _tripped]
    _tripped.clear()
    children = folder / _CHILD_LOG
    if children.exists():
        lines = children.read_text(encoding="utf-8").splitlines()
        found += [f"{line} (in a child process)" for line in lines]
    if (folder / _PYTEST_TRACE).exists():
        found.append("pytest (a child process ran it)")
    if pytest_forbidden and cache_home is not None:
        found += [
            f"a Python kata's gate (ruff and pytest) in {trace.parent} (in a child process)"
            for trace in gate_traces(cache_home)
        ]
    return found
