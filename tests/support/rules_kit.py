"""Shared by the red-team tests of the message and type rules: a small Rust kata with only the
commit-msg and prepare-commit-msg hooks installed as plain shims (these attacks target the message
rules; the gate has its own suite), and helpers that commit through real git."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from pathlib import Path

IDENTITY = ("-c", "user.name=Test Person", "-c", "user.email=person@example.com")
CRATE = {
    "Cargo.toml": '[package]\nname = "kata"\nversion = "0.1.0"\nedition = "2021"\n',
    "kata.md": "# Adder\n\n## Requirements\n\n- Add two numbers.\n",
    "src/lib.rs": "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n",
    "tests/add.rs": "#[test]\nfn adds() {\n    assert_eq!(kata::add(1, 2), 3);\n}\n",
}
PYTHON_KATA = {
    "tdd.yaml": "language: python\n",
    "pyproject.toml": '[project]\nname = "kata"\nversion = "0.1.0"\n',
    "kata.md": "# Adder\n\n## Requirements\n\n- Add two numbers.\n",
    "src/kata/__init__.py": "def add(a, b):\n    return a + b\n",
    "tests/test_add.py": "from kata import add\n\n\ndef test_adds():\n    assert add(1, 2) == 3\n",
}
HOOKS = ("commit-msg", "prepare-commit-msg")
SUB_TEST = "#[test]\nfn subtracts() {\n    assert_eq!(kata::sub(3, 1), 2);\n}\n"
SUB_CODE = CRATE["src/lib.rs"] + "\npub fn sub(a: i32, b: i32) -> i32 {\n    a - b\n}\n"


def run(repo: Path, *args: str, stdin: str | None = None,
        env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:  # fmt: skip
    return subprocess.run(
        list(args), cwd=repo, capture_output=True, text=True, input=stdin,
        env={**os.environ, **(env or {})}, timeout=120,
    )  # fmt: skip


def git(repo: Path, *args: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    return run(repo, "git", *IDENTITY, *args, **kwargs)  # type: ignore[arg-type]


def write(repo: Path, files: Mapping[str, str]) -> None:
    for relative, text in files.items():
        path = repo / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def make_kata(folder: Path, files: Mapping[str, str] = CRATE) -> Path:
    """A repository with one scaffold commit and the message hooks installed."""
    repo = folder / "kata"
    repo.mkdir()
    write(repo, files)
    run(repo, "git", "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "chore: scaffold adder kata")
    for name in HOOKS:
        shim = repo / ".git" / "hooks" / name
        shim.write_text(f'#!/bin/sh\nexec tddhooks hook {name} "$@"\n', encoding="utf-8")
        shim.chmod(0o755)
    return repo


def head(repo: Path) -> str:
    return git(repo, "rev-parse", "HEAD").stdout.strip()


def stored(repo: Path, fmt: str = "%B") -> str:
    """What git stored for HEAD's message."""
    return git(repo, "log", "-1", f"--format={fmt}").stdout


def tdd(kind: str, summary: str, role: str = "Implementor") -> str:
    """A complete message in the DESIGN §3 format."""
    return (
        f"{kind}: {summary}\n\nContext:\n- Role: {role}\n- Step: 1\n- Kata goal: Add two "
        f"numbers.\n\nRationale:\n- {summary}\n\nDiff summary:\n- src/lib.rs: {summary}\n\n"
        "Verification:\n- cargo test: all green\n"
    )


def commit_with(
    repo: Path, message: str, *args: str, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`git commit -F <file> ARGS` through the installed hooks."""
    path = repo.parent / "message.txt"
    path.write_text(message, encoding="utf-8", newline="")
    return git(repo, "commit", "-q", "-F", str(path), *args, env=env)


def rejected(result: subprocess.CompletedProcess[str], rule: str, before: str, repo: Path) -> str:
    """Assert the hooks refused the commit for `rule` and HEAD did not move; the hook's text."""
    text = result.stdout + result.stderr
    assert result.returncode != 0, text
    assert f"[{rule}]" in text, text
    assert head(repo) == before
    return text


def accepted(result: subprocess.CompletedProcess[str], before: str, repo: Path) -> None:
    text = result.stdout + result.stderr
    assert result.returncode == 0, text
    assert head(repo) != before, text
