"""A zero-dependency Cargo workspace (a root `[workspace]` with members, no root package) that
keeps an old kata crate beside it, outside the workspace: cargo never builds that crate, so its
tests are not tests the tree runs. Install, doctor, a red test, feat, refactor, style, audit
(real git, the real `tddhooks` executable, real cargo)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.shapekit import commit_with_editor, make, message, run

pytestmark = pytest.mark.cargo

STACK = "stack/src/lib.rs"
STACK_CODE = "pub fn size(items: &[u32]) -> usize {\n    items.len()\n}\n"
STACK_TESTS = (
    "\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn empty_has_no_items() {\n"
    "        assert_eq!(size(&[]), 0);\n    }\n}\n"
)
PEEK_TEST = (
    "\n    #[test]\n    fn peeks_the_top() {\n        assert_eq!(peek(&[1, 2]), Some(2));\n"
    "    }\n}\n"
)
PEEK_CODE = "\npub fn peek(items: &[u32]) -> Option<u32> {\n    items.last().copied()\n}\n"


def _package(name: str) -> str:
    return f'[package]\nname = "{name}"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n'


WORKSPACE = {
    ".gitignore": "target/\n",
    "Cargo.toml": '[workspace]\nmembers = ["stack"]\nresolver = "2"\n',
    "stack/Cargo.toml": _package("stack"),
    STACK: STACK_CODE + STACK_TESTS,
    # an old kata kept beside the workspace: not a member, never built (its test would fail)
    "old/queue/Cargo.toml": _package("queue"),
    "old/queue/src/lib.rs": "#[cfg(test)]\nmod tests {\n    #[test]\n    fn unfinished() {\n"
    "        assert_eq!(1, 2);\n    }\n}\n",
}


def _lib(repo: Path) -> str:
    return (repo / STACK).read_text(encoding="utf-8")


def test_a_workspace_with_an_old_crate_beside_it_through_a_whole_cycle(tmp_path: Path) -> None:
    unformatted = STACK_TESTS.replace("assert_eq!(size(&[]), 0);", "assert_eq!( size(&[]),0 );")
    repo = make(tmp_path / "katas", {**WORKSPACE, STACK: STACK_CODE + unformatted})
    start = run(repo, "git", "rev-parse", "HEAD").stdout.strip()
    installed = run(repo, "tddhooks", "install", "--direct")
    said = installed.stdout + installed.stderr
    assert installed.returncode == 0, said
    assert "did not run" not in said, said  # old/queue's test is not the tree's
    assert "fmt only" in said, said
    assert "style: cargo fmt" in said, said
    # formatting the member crate's tests lands as style
    assert run(repo, "cargo", "fmt", "--all").returncode == 0
    style = run(repo, "git", "commit", "-am", "style: cargo fmt")
    assert style.returncode == 0, style.stdout + style.stderr
    assert "cargo test: 1 passed" in style.stderr, style.stderr
    doctor = run(repo, "tddhooks", "doctor", "--offline")
    runner_row = next(line for line in doctor.stdout.splitlines() if "runner" in line)
    assert "rust: detected from Cargo.toml" in runner_row, doctor.stdout

    # tester: a failing unit test in the member crate is the implementor's turn
    (repo / STACK).write_text(_lib(repo).removesuffix("    }\n}\n") + "    }\n" + PEEK_TEST,
                              encoding="utf-8")  # fmt: skip
    run(repo, "git", "add", STACK)
    status = " ".join(run(repo, "tddhooks", "status").stdout.split())
    assert "red" in status, status
    assert "implementor" in status, status

    (repo / STACK).write_text(_lib(repo).replace(STACK_CODE, STACK_CODE + PEEK_CODE),
                              encoding="utf-8")  # fmt: skip
    run(repo, "git", "add", STACK)
    feat = commit_with_editor(repo, "feat(stack): peek the top item")
    assert feat.returncode == 0, feat.stdout + feat.stderr
    assert "cargo test: 2 passed" in feat.stderr, feat.stderr
    assert "- Role: Implementor\n" in message(repo)

    (repo / STACK).write_text(_lib(repo).replace("items.last().copied()",
                                                 "items.iter().last().copied()"),
                              encoding="utf-8")  # fmt: skip
    run(repo, "git", "add", STACK)
    refactor = commit_with_editor(repo, "refactor(stack): peek through an iterator")
    assert refactor.returncode == 0, refactor.stdout + refactor.stderr
    assert "- Role: Refactorer\n" in message(repo)

    audit = run(repo, "tddhooks", "audit", f"{start}..HEAD")
    assert audit.returncode == 0, audit.stdout + audit.stderr
