"""The gate's environment: built from an allowlist, never copied from the committer's.

Every variable a test runner or toolchain reads to load code, flags or plugins
(`PYTEST_PLUGINS`, `PYTEST_ADDOPTS`, `PYTHONPATH`, `PYTHONSTARTUP`, `RUSTFLAGS`, `RUSTC_WRAPPER`,
`CARGO_*`, `LD_PRELOAD`, …) is one a committer could set to turn a red tree green. A denylist
would have to name them all, today's and tomorrow's; so the gate starts from nothing and takes only
what its commands need to be found and to run (ALLOWED below), plus the variables the parent
commit's `tdd.yaml` names under `gate.env`. Everything it lets through is part of the verdict key
(`fingerprint`). Imported on the hook path: standard library only. See docs/policy.md,
"The gate's environment".
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # not typing's: the hook path does not import typing (tddhooks/records.py)
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

# what the gate's commands need to be found and to run, and why (docs/gate.md)
ALLOWED = (
    "PATH",  # finds cargo, rustc, the Python tools (keyed by the tools it resolves to)
    "HOME",  # rustup's and cargo's default homes, a writable place for tools' caches
    "USER",
    "LOGNAME",  # some tools ask who runs them; they change no result
    "LANG",
    "LANGUAGE",  # text encoding of the tools' output (LC_* too, below)
    "TZ",
    "TMPDIR",  # where tools and tests put temporary files
    "CI",
    "BUILD_NUMBER",  # on CI pytest shows whole assertion diffs (the output, never the result)
    "CARGO_HOME",  # where cargo and its registry live (a rustup install needs it found)
    "VIRTUAL_ENV",
    "CONDA_PREFIX",  # which Python environment `poetry run`/`uv run` commands select
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",  # a fetch of dependencies through a company's TLS proxy
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
    "http_proxy",
    "https_proxy",
    "no_proxy",
)
# LC_*: the locale; RUSTUP_*: where the toolchains live, which one runs (its version is in the
# key), whether rustup may fetch one (RUSTUP_AUTO_INSTALL) and from where
ALLOWED_PREFIXES = ("LC_", "RUSTUP_")
# set by the gate, whatever the committer's say: output is read by a program, not a terminal
FIXED = {"TERM": "dumb", "NO_COLOR": "1"}
# kept out of the verdict key: PATH is keyed by the tools it resolves to (policy/stored.py), so a
# drive's PATH with its venv first and a person's without judge a tree alike
_UNKEYED = ("PATH",)


def gate_environment(
    named: Sequence[str] = (), environ: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The environment every gate command starts from: the allowlisted variables of `environ`
    (default: this process's), those `named` in the policy's gate.env, and FIXED."""
    source = os.environ if environ is None else environ
    wanted = set(ALLOWED) | set(named)
    kept = {
        name: value
        for name, value in source.items()
        if name in wanted or name.startswith(ALLOWED_PREFIXES)
    }
    kept.update(FIXED)
    return kept


def fingerprint(
    named: Sequence[str] = (), environ: Mapping[str, str] | None = None
) -> list[list[str]]:
    """The (name, value) pairs the gate lets through, sorted: part of the verdict key, so a
    verdict reached under one environment is never reused under another."""
    env = gate_environment(named, environ)
    return sorted([name, value] for name, value in env.items() if name not in _UNKEYED)
