"""Amend and reword are judged against HEAD's parent; a `fix:` that makes an already-committed
failing test pass is legal (real git, real cargo, the shims)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.hookkit import (
    SUB_CODE,
    SUB_TEST,
    commit,
    git,
    head,
    kata,
    kata_template,
    tdd_message,
    write,
)

from tddhooks.policy.amend import is_all_args, is_amend_args

__all__ = ["kata", "kata_template"]  # fixtures


def _no_alias(_name: str) -> str | None:
    return None


@pytest.mark.parametrize(
    ("args", "amend"),
    [
        (["commit", "--amend"], True),
        (["commit", "-q", "--amend", "-m", "x"], True),
        (["commit", "--amen"], True),
        (["-c", "core.x=1", "-C", "dir", "commit", "--amend"], True),
        (["commit", "-m", "--amend"], False),  # a message, as git reads it
        (["commit", "-m", "feat: x", "-m", "--amend"], False),
        (["commit", "--amend", "--no-amend"], False),
        (["commit", "--no-amend", "--amend"], True),
        (["commit", "--no-amend"], False),
        (["commit", "--", "--amend"], False),
        (["commit", "-m", "x"], False),
        (["commit", "--all"], False),
        (["log", "--amend"], False),
        ([], False),
    ],
)
def test_is_amend_args(args: list[str], amend: bool) -> None:
    assert is_amend_args(args, _no_alias) is amend


def test_aliases_are_expanded_shell_aliases_are_not() -> None:
    aliases = {"ca": "commit --amend", "cm": "commit -m", "sh": "!git commit --amend"}
    assert is_amend_args(["ca", "--no-edit"], aliases.get) is True
    assert is_amend_args(["cm", "x"], aliases.get) is False
    assert is_amend_args(["sh"], aliases.get) is False


FEATURE = tdd_message("feat", "subtract two numbers", diff="- tests/sub.rs: new\n- src/lib.rs: sub")


@pytest.mark.cargo
def test_rewording_a_feature_with_its_test_by_amend_is_accepted(kata: Path) -> None:
    write(kata, {**SUB_TEST, **SUB_CODE})
    git(kata, "add", "-A")
    first = commit(kata, FEATURE)
    assert first.returncode == 0, first.stderr
    reworded = FEATURE.replace("subtract two numbers", "subtract numbers")
    amended = git(kata, "commit", "--amend", "-F", "-", stdin=reworded)
    assert amended.returncode == 0, amended.stderr
    assert git(kata, "log", "-1", "--format=%s").stdout.strip() == "feat: subtract numbers"
    # through a git alias too
    git(kata, "config", "alias.ca", "commit --amend")
    again = git(kata, "ca", "-F", "-", stdin=FEATURE)
    assert again.returncode == 0, again.stderr
    # without --amend the same message on nothing new is judged against HEAD: no test, rejected
    write(kata, {"src/lib.rs": SUB_CODE["src/lib.rs"] + "// more\n"})
    git(kata, "add", "-A")
    before = head(kata)
    plain = commit(kata, FEATURE)
    assert plain.returncode == 1
    assert "[type-rules] feat: commits must add or change a test" in plain.stderr
    assert head(kata) == before


@pytest.mark.cargo
def test_a_fix_for_a_test_committed_red_is_legal(kata: Path) -> None:
    write(kata, SUB_TEST)
    git(kata, "add", "-A")
    # a red test from before the hooks (here: committed with the hooks off; --no-verify would
    # be refused by the reference-transaction hook)
    red = git(
        kata, "-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "test: subtraction, red"
    )
    assert red.returncode == 0, red.stderr
    write(kata, SUB_CODE)
    git(kata, "add", "-A")
    fixed = commit(kata, tdd_message("fix", "subtract", diff="- src/lib.rs: sub"))
    assert fixed.returncode == 0, fixed.stderr
    # a fix with no test on a green parent is still rejected
    write(kata, {"src/lib.rs": SUB_CODE["src/lib.rs"] + "\n// tidy\n"})
    git(kata, "add", "-A")
    again = commit(kata, tdd_message("fix", "tidy", diff="- src/lib.rs: tidy"))
    assert again.returncode == 1
    assert "[type-rules] fix: commits must add or change a test" in again.stderr


@pytest.mark.parametrize(
    ("args", "all_"),
    [
        (["commit", "-a"], True),
        (["commit", "-am", "x"], True),
        (["commit", "--all", "-m", "x"], True),
        (["commit", "-uall"], False),
        (["commit", "-m", "-a"], False),
        (["commit", "-mabc"], False),
        (["commit", "--", "-a"], False),
        (["status", "-a"], False),
    ],
)
def test_is_all_args(args: list[str], all_: bool) -> None:
    assert is_all_args(args) is all_


@pytest.mark.cargo
def test_after_commit_a_the_hint_is_a_command_that_changes_the_outcome(kata: Path) -> None:
    test = "#[test]\nfn adds() {\n    assert_eq!(hookkata::add(2, 2), 4);\n}\n"
    write(
        kata,
        {"tests/add.rs": test, "src/lib.rs": "pub fn add(a: i32, b: i32) -> i32 {\n    b + a\n}\n"},
    )
    refactor = tdd_message("refactor", "swap", role="Refactorer", diff="- src/lib.rs: swap")
    rejected = git(kata, "commit", "-a", "-F", "-", stdin=refactor)
    assert rejected.returncode == 1
    assert "git commit src/lib.rs" in rejected.stderr
    assert "git restore --staged" not in rejected.stderr
    accepted = git(kata, "commit", "src/lib.rs", "-F", "-", stdin=refactor)  # as printed
    assert accepted.returncode == 0, accepted.stderr
    assert git(kata, "status", "--porcelain").stdout.strip() == "M tests/add.rs"
