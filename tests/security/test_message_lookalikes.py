"""Red team, class 3: messages shaped like git's own (merge, revert, fixup!/squash!/amend!) are
no exemption by their shape. A merge is one only while git makes it; a revert must undo exactly
the commit it names; a fixup is judged by the type of the commit it fixes. Every attack commits
through the installed hooks with real git and asserts the rule and that HEAD did not move."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.rules_kit import (
    SUB_CODE,
    SUB_TEST,
    accepted,
    commit_with,
    git,
    head,
    make_kata,
    rejected,
    stored,
    tdd,
    write,
)

UNTESTED = {"src/lib.rs": SUB_CODE}
IGNORED = {
    "tests/add.rs": "#[test]\n#[ignore]\nfn adds() {\n    assert_eq!(kata::add(1, 2), 3);\n}\n"
}


@pytest.fixture
def kata(tmp_path: Path) -> Path:
    return make_kata(tmp_path)


def _stage(repo: Path, files: dict[str, str]) -> str:
    write(repo, files)
    git(repo, "add", "-A")
    return head(repo)


def _feature(repo: Path) -> str:
    """Land a legal feature (test + code); its commit id."""
    before = _stage(repo, {"tests/sub.rs": SUB_TEST, **UNTESTED})
    accepted(commit_with(repo, tdd("feat", "subtract")), before, repo)
    return head(repo)


def test_merge_lookalike_without_a_merge_is_rejected(kata: Path) -> None:
    before = _stage(kata, UNTESTED)
    text = rejected(commit_with(kata, "Merge branch 'feature'\n"), "prefixed", before, kata)
    assert "no merge is being made" in text


def test_merge_lookalike_cannot_add_an_ignore(kata: Path) -> None:
    before = _stage(kata, IGNORED)
    text = rejected(
        commit_with(kata, "Merge branch 'feature' into main\n"), "no-skip", before, kata
    )
    assert "[prefixed]" in text


@pytest.mark.parametrize(
    "subject", ["Merge pull request #1 from x/y", "Merge remote-tracking branch 'origin/main'"]
)
def test_other_merge_shapes_are_not_merges_either(kata: Path, subject: str) -> None:
    before = _stage(kata, UNTESTED)
    rejected(commit_with(kata, subject + "\n"), "prefixed", before, kata)


@pytest.mark.cargo
def test_a_real_merge_passes_whatever_its_message(kata: Path) -> None:
    git(kata, "checkout", "-q", "-b", "feature")
    _feature(kata)
    git(kata, "checkout", "-q", "main")
    write(kata, {"README.md": "notes\n"})
    before = _stage(kata, {})
    accepted(commit_with(kata, "docs: notes\n"), before, kata)
    before = head(kata)
    merged = git(kata, "merge", "--no-ff", "-m", "bring the feature in", "feature")
    assert merged.returncode == 0, merged.stdout + merged.stderr
    assert head(kata) != before
    assert git(kata, "rev-list", "--parents", "-1", "HEAD").stdout.count(" ") == 2


@pytest.mark.cargo
def test_a_real_merge_still_may_not_add_an_ignore(kata: Path) -> None:
    git(kata, "checkout", "-q", "-b", "feature")
    _feature(kata)
    git(kata, "checkout", "-q", "main")
    git(kata, "merge", "--no-ff", "--no-commit", "feature")
    before = _stage(kata, IGNORED)  # an "evil merge": the resolution adds a skip marker
    assert (kata / ".git" / "MERGE_HEAD").is_file()
    rejected(commit_with(kata, "Merge branch 'feature'\n"), "no-skip", before, kata)


def test_revert_lookalike_naming_nothing_is_rejected(kata: Path) -> None:
    before = _stage(kata, UNTESTED)
    text = rejected(commit_with(kata, 'Revert "nothing"\n'), "type-rules", before, kata)
    assert "names no commit" in text


def test_revert_naming_a_real_commit_but_changing_more_is_rejected(kata: Path) -> None:
    feature = _feature(kata)
    git(kata, "revert", "--no-commit", feature)
    before = _stage(kata, {"src/extra.rs": "pub fn extra() {}\n"})
    message = f'Revert "feat: subtract"\n\nThis reverts commit {feature}.\n'
    rejected(commit_with(kata, message), "type-rules", before, kata)


def test_revert_naming_a_commit_outside_the_history_is_rejected(kata: Path) -> None:
    git(kata, "checkout", "-q", "-b", "side")
    side = _feature(kata)
    git(kata, "checkout", "-q", "main")
    before = _stage(kata, UNTESTED)
    message = f'Revert "feat: subtract"\n\nThis reverts commit {side}.\n'
    rejected(commit_with(kata, message), "type-rules", before, kata)


def test_a_real_revert_that_removes_a_test_lands(kata: Path) -> None:
    feature = _feature(kata)
    git(kata, "revert", "--no-commit", feature)
    before = head(kata)
    message = f'Revert "feat: subtract"\n\nThis reverts commit {feature}.\n'
    accepted(commit_with(kata, message), before, kata)
    assert not (kata / "tests/sub.rs").exists()


def test_a_conventional_revert_header_needs_an_exact_revert_too(kata: Path) -> None:
    before = _stage(kata, UNTESTED)
    rejected(commit_with(kata, "revert: undo the thing\n"), "type-rules", before, kata)


def test_fixup_of_nothing_is_rejected(kata: Path) -> None:
    before = _stage(kata, UNTESTED)
    text = rejected(commit_with(kata, "fixup! whatever\n"), "prefixed", before, kata)
    assert "names no commit" in text


def test_fixup_of_a_feature_may_not_remove_a_test(kata: Path) -> None:
    _feature(kata)
    (kata / "tests/add.rs").unlink()
    before = _stage(kata, {})
    text = rejected(commit_with(kata, "fixup! feat: subtract\n"), "type-rules", before, kata)
    assert "may not remove a test" in text


def test_fixup_named_by_subject_prefix_is_judged_as_its_target(kata: Path) -> None:
    write(kata, {"src/lib.rs": "pub fn add(a: i32, b: i32) -> i32 {\n    b + a\n}\n"})
    before = _stage(kata, {})
    refactor = tdd("refactor", "swap the operands", role="Refactorer")
    accepted(commit_with(kata, refactor), before, kata)
    before = _stage(
        kata, {"tests/add.rs": "#[test]\nfn adds() {\n    assert_eq!(kata::add(2, 2), 4);\n}\n"}
    )
    text = rejected(commit_with(kata, "fixup! refactor: swap\n"), "type-rules", before, kata)
    assert "refactor: commits may not change tests/add.rs" in text


def test_fixup_made_by_git_for_a_feature_lands(kata: Path) -> None:
    feature = _feature(kata)
    before = _stage(kata, {"tests/sub.rs": SUB_TEST.replace("(3, 1), 2", "(5, 1), 4")})
    accepted(git(kata, "commit", "-q", f"--fixup={feature}"), before, kata)
    assert stored(kata, "%s").strip() == "fixup! feat: subtract"


def test_nested_fixup_is_judged_by_the_innermost_type(kata: Path) -> None:
    before = _stage(kata, UNTESTED)
    text = rejected(commit_with(kata, "fixup! fixup! docs: readme\n"), "type-rules", before, kata)
    assert "docs: commits may not change source files" in text


@pytest.mark.parametrize("kind", ["squash", "amend"])
def test_squash_and_amend_of_docs_may_not_change_code(kata: Path, kind: str) -> None:
    before = _stage(kata, {"README.md": "x\n"})
    accepted(commit_with(kata, "docs: readme\n"), before, kata)
    before = _stage(kata, UNTESTED)
    text = rejected(commit_with(kata, f"{kind}! docs: readme\n"), "type-rules", before, kata)
    assert "docs: commits may not change source files: src/lib.rs" in text
    assert "commit it as refactor:" in text


def test_a_hand_written_merge_head_of_an_ancestor_is_no_merge(kata: Path) -> None:
    # git drops a parent HEAD already contains: the commit it makes is an ordinary one
    before = _stage(kata, UNTESTED)
    (kata / ".git" / "MERGE_HEAD").write_text(before + "\n", encoding="ascii")
    rejected(commit_with(kata, "Merge branch 'feature'\n"), "prefixed", before, kata)
    (kata / ".git" / "MERGE_HEAD").write_text("not a commit\n", encoding="ascii")
    rejected(commit_with(kata, "feat: untested\n"), "type-rules", before, kata)
