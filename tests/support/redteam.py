"""The string-calculator kata with its hooks for red-team tests: real commits through the
installed hooks, tests and code built from one-line bodies, and the refusal a person reads."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from pathlib import Path

from support.security_kit import kata as make_kata

IDENTITY = ("-c", "user.name=Test Person", "-c", "user.email=person@example.com")
SECRET = "sk-Rt7Qm2Xv9Lp4Wn6Kd3"


def feature_kata(tmp_path: Path, session_dir: Path) -> Path:
    """The string-calculator kata with one legal feature committed (`add("")` is 0)."""
    repo = make_kata(tmp_path, session_dir)
    write_crate_files(
        repo, {"tests/add.rs": rust_test("empty_is_zero", '""', 0), "src/lib.rs": rust_code("0")}
    )
    git(repo, "add", "-A")
    assert commit(repo, msg("feat", "an empty string sums to zero")).returncode == 0
    return repo


# every hook off (core.hooksPath through git's environment): history made "past the hooks", which
# `--no-verify` no longer makes (the reference-transaction hook judges it on landing)
UNHOOKED = {"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "core.hooksPath",
            "GIT_CONFIG_VALUE_0": "/dev/null"}  # fmt: skip


def git(
    repo: Path, *args: str, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", *IDENTITY, *args], cwd=repo, capture_output=True, text=True, timeout=600,
        env={**os.environ, **(env or {})},
    )  # fmt: skip


def commit(
    repo: Path, message: str, *args: str, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`git commit -F <file> ARGS` through the installed hooks (ARGS before the subcommand's
    own options when they start with `-c`: those are git's)."""
    path = repo.parent / "message.txt"
    path.write_bytes(message.encode("utf-8"))
    return git(repo, "commit", "-q", "-F", str(path), *args, env=env)


def msg(kind: str, summary: str) -> str:
    return (
        f"{kind}: {summary}\n\nContext:\n- Role: Implementor\n- Step: 1\n- Kata goal: Sum "
        f"numbers.\n\nRationale:\n- {summary}\n\nDiff summary:\n- src/lib.rs: {summary}\n\n"
        "Verification:\n- cargo test: all green\n"
    )


def crate_of(repo: Path) -> str:
    for line in (repo / "Cargo.toml").read_text(encoding="utf-8").splitlines():
        if line.startswith("name"):
            return line.split('"')[1].replace("-", "_")
    raise AssertionError("no package name")


def rust_test(name: str, text: str, want: int, crate: str = "CRATE") -> str:
    return f"#[test]\nfn {name}() {{\n    assert_eq!({crate}::add({text}), {want});\n}}\n"


def rust_code(body: str, extra: str = "") -> str:
    return f"//! kata\npub fn add(_text: &str) -> i32 {{\n    {body}\n}}\n{extra}"


def write_crate_files(repo: Path, files: Mapping[str, str]) -> None:
    crate = crate_of(repo)
    for relative, text in files.items():
        path = repo / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.replace("CRATE", crate), encoding="utf-8")


def head(repo: Path) -> str:
    return git(repo, "rev-parse", "HEAD").stdout.strip()


def refused(result: subprocess.CompletedProcess[str], rule: str, before: str, repo: Path) -> str:
    text = result.stdout + result.stderr
    assert result.returncode == 1, text
    assert rule in text, text
    assert head(repo) == before, text
    return text


RED_ONE = rust_test("red_one", '"1"', 1)  # compiles, fails: add is 0 for everything
UNTESTED = rust_code("0", "\npub fn untested() -> i32 {\n    7\n}\n")
RED_PY = "from calc import add\n\n\ndef test_red_one() -> None:\n    assert add(1, 1) == 3\n"
