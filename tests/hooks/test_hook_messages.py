"""commit-msg and prepare-commit-msg through real `git commit` (and merge, revert), real cargo.

Rejections on one staged tree reuse its cached green verdict, so cargo runs once per tree."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from support.hookkit import (
    CRATE,
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

from tddhooks.policy.handoff import Handoff, write_handoff

__all__ = ["kata", "kata_template"]  # fixtures
pytestmark = pytest.mark.cargo
DIFF = "- tests/sub.rs: new test\n- src/lib.rs: sub"


def test_message_rules_on_a_test_and_code_change(kata: Path) -> None:
    write(kata, {**SUB_TEST, **SUB_CODE})
    git(kata, "add", "-A")
    before = head(kata)

    unprefixed = commit(kata, "add sub\n\nsome words\n")
    assert unprefixed.returncode == 1
    assert "[prefixed]" in unprefixed.stderr
    kept = kata / ".git" / "tddhooks" / "last-message"
    assert kept.read_text(encoding="utf-8") == "add sub\n\nsome words\n"
    assert (
        "your message is kept in .git/tddhooks/last-message; reuse it with: "
        "git commit -e -F .git/tddhooks/last-message" in unprefixed.stderr
    )

    # an agent (TDDHOOKS_AGENT set by its configuration) writes the sections itself
    bare = commit(kata, "feat: subtract two numbers\n", env={"TDDHOOKS_AGENT": "test"})
    assert bare.returncode == 1
    assert "[sections] feat: commits need the sections" in bare.stderr
    assert (
        "reuse it with: git commit -e -F .git/tddhooks/last-message (the editor opens with the "
        "sections filled in)" in bare.stderr
    )
    assert "sections filled in" not in unprefixed.stderr

    refactor = commit(kata, tdd_message("refactor", "sub", role="Refactorer", diff=DIFF))
    assert refactor.returncode == 1
    assert "[type-rules] refactor: commits may not change tests/sub.rs" in refactor.stderr

    test_only = commit(kata, tdd_message("test", "sub", role="Tester", diff=DIFF))
    assert test_only.returncode == 1
    assert "[type-rules] test: commits may change only test files" in test_only.stderr
    assert head(kata) == before
    assert all("[cached]" in r.stderr for r in (bare, refactor, test_only))

    accepted = commit(kata, tdd_message("feat", "subtract two numbers", diff=DIFF))
    assert accepted.returncode == 0, accepted.stderr
    assert head(kata) != before


def test_feat_without_a_test_is_rejected_and_passes_as_refactor(kata: Path) -> None:
    write(kata, {"src/lib.rs": CRATE["src/lib.rs"].replace("a + b", "b + a")})
    git(kata, "add", "src/lib.rs")

    feat = commit(kata, tdd_message("feat", "commutative", diff="- src/lib.rs: b + a"))
    assert feat.returncode == 1
    assert "[type-rules] feat: commits must add or change a test" in feat.stderr

    refactor = commit(kata, tdd_message("refactor", "commutative", role="Refactorer",
                                        diff="- src/lib.rs: b + a"))  # fmt: skip
    assert refactor.returncode == 0, refactor.stderr


def test_a_new_ignore_marker_is_rejected(kata: Path) -> None:
    write(kata, {"tests/add.rs": CRATE["tests/add.rs"].replace("#[test]", "#[test]\n#[ignore]")})
    git(kata, "add", "tests/add.rs")

    rejected = commit(kata, tdd_message("feat", "skip it", diff="- tests/add.rs: ignore"))

    assert rejected.returncode == 1
    assert "[no-skip] tests/add.rs adds a skip marker: #[ignore]" in rejected.stderr
    assert "[type-rules]" not in rejected.stderr


def test_merges_and_reverts_made_by_git_pass(kata: Path) -> None:
    git(kata, "checkout", "-q", "-b", "feature")
    write(kata, {**SUB_TEST, **SUB_CODE})
    git(kata, "add", "-A")
    assert commit(kata, tdd_message("feat", "subtract", diff=DIFF)).returncode == 0
    git(kata, "checkout", "-q", "main")

    merged = git(kata, "merge", "--no-ff", "--no-edit", "feature")
    assert merged.returncode == 0, merged.stderr
    assert git(kata, "log", "-1", "--format=%B").stdout.strip() == "Merge branch 'feature'"

    # git 2.39 skips commit-msg on `git revert`; with --no-commit the person's commit runs it
    merge = head(kata)
    reverted = git(kata, "revert", "--no-commit", "-m", "1", "HEAD")
    assert reverted.returncode == 0, reverted.stderr
    message = f"Revert \"Merge branch 'feature'\"\n\nThis reverts commit {merge}.\n"
    landed = commit(kata, message)
    assert landed.returncode == 0, landed.stdout + landed.stderr
    assert (
        git(kata, "log", "-1", "--format=%s").stdout.strip() == "Revert \"Merge branch 'feature'\""
    )


def _editor(tmp_path: Path, header: str) -> dict[str, str]:
    """GIT_EDITOR that keeps a copy of the pre-filled message and writes a header on top."""
    script = tmp_path / "editor.sh"
    copy = tmp_path / "prefilled.txt"
    script.write_text(
        f'#!/bin/sh\ncp "$1" "{copy}"\n{{ echo "{header}"; cat "{copy}"; }} > "$1"\n',
        encoding="utf-8",
    )
    script.chmod(0o755)
    return {"GIT_EDITOR": str(script)}


def test_prepare_commit_msg_prefills_an_empty_message(kata: Path, tmp_path: Path) -> None:
    write(kata, SUB_TEST)
    git(kata, "add", "tests/sub.rs")
    blob = git(kata, "rev-parse", ":tests/sub.rs").stdout.strip()
    write_handoff(kata, Handoff(head=head(kata), intent="subtract two numbers (ñ)",
                                test_names=["tests/sub.rs::subtracts_ñ"], red_output="E0425",
                                test_blobs={"tests/sub.rs": blob}, by="tester",
                                created_at=time.time()))  # fmt: skip
    write(kata, SUB_CODE)
    git(kata, "add", "src/lib.rs")

    done = git(kata, "commit", env=_editor(tmp_path, "feat: subtract two numbers"))

    assert done.returncode == 0, done.stderr
    prefilled = (tmp_path / "prefilled.txt").read_text(encoding="utf-8")
    for line in (
        "- Role: Implementor",
        "- Step: 1",
        "- Kata goal: Add two numbers, also negative ones.",
        "- subtract two numbers (ñ)",
        "- src/lib.rs: changed",
        "- tests/sub.rs: added",
        "- cargo test: 2 passed, 0 failed; clippy clean; fmt clean",
        "# suggested: feat(<scope>): subtract two numbers (ñ)",
    ):
        assert line in prefilled.splitlines(), line
    # git's own help stays, after ours
    assert prefilled.index("Verification:") < prefilled.index("# Please enter the commit message")
    body = git(kata, "log", "-1", "--format=%B").stdout
    assert body.startswith("feat: subtract two numbers\n\nContext:\n- Role: Implementor\n")
    assert "#" not in body


def test_a_message_with_content_is_left_alone(kata: Path, tmp_path: Path) -> None:
    write(kata, {"README.md": "# Adder\n"})
    git(kata, "add", "README.md")
    done = git(kata, "commit", "-m", "docs: readme", env=_editor(tmp_path, "never used"))
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "prefilled.txt").exists()
    stored = git(kata, "cat-file", "commit", "HEAD").stdout
    assert stored.split("\n\n", 1)[1] == "docs: readme\n"
