"""Red team: evil merges (issue 7). A real merge skips the message and type rules, because its
parents' commits were judged one by one; what the merge decides by itself is judged: a history
with no common ancestor (an orphan branch no hook judged), tests its result drops that neither
side removed, and `green` on the result (`git merge` runs no pre-commit hook). `audit` judges a
root commit that is not the repository's first like any other commit. Real git, real cargo."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.gatekit import crate_of as _crate
from support.gatekit import rust_feature_kata_fixture
from support.redteam import RED_ONE, UNHOOKED, commit, git, head, msg
from support.redteam import rust_code as _code
from support.redteam import write_crate_files as _write
from support.security_kit import tddhooks

pytestmark = pytest.mark.cargo
__all__ = ["rust_feature_kata_fixture"]  # the `kata` fixture

LOOSE = "language: rust\npolicy:\n  disabled_rules: [green, type-rules, prefixed, sections]\n"


def _branch_of_its_own(repo: Path, files: dict[str, str], message: str = "initial") -> str:
    """An orphan branch `evil` holding only `files`, committed past the hooks; back on main."""
    crate = _crate(repo)
    git(repo, "checkout", "-q", "--orphan", "evil")
    git(repo, "rm", "-rq", "--cached", ".")
    for path in list(repo.iterdir()):
        if path.name != ".git" and path.is_file():
            path.unlink()
    for relative, text in files.items():
        (repo / relative).parent.mkdir(parents=True, exist_ok=True)
        (repo / relative).write_text(text.replace("CRATE", crate), encoding="utf-8")
    git(repo, "add", *files)
    assert git(repo, "commit", "-q", "-m", message, env=UNHOOKED).returncode == 0
    sha = head(repo)
    git(repo, "clean", "-fdq")
    assert git(repo, "checkout", "-q", "-f", "main").returncode == 0
    return sha


def _merge(repo: Path, *args: str) -> str:
    before = head(repo)
    result = git(repo, "merge", *args)
    assert result.returncode != 0, result.stdout + result.stderr
    assert head(repo) == before
    return result.stdout + result.stderr


def test_merging_an_orphan_branch_with_a_red_test_is_refused(kata: Path) -> None:
    _branch_of_its_own(kata, {"tests/sneaky.rs": RED_ONE})

    text = _merge(kata, "--allow-unrelated-histories", "evil", "-m", "Merge branch 'evil'")

    assert "[type-rules] this merge joins" in text
    assert "a history with no common ancestor" in text
    assert "[green] the merge result" in text
    assert (kata / "tests/sneaky.rs").is_file()  # the merge stays for the person to finish


def test_merging_a_green_orphan_branch_is_refused_too(kata: Path) -> None:
    # nothing red, but none of its commits was judged here: a root passes as "the first commit"
    extra = '#[test]\nfn extra() {\n    assert_eq!(CRATE::add(""), 0);\n}\n'
    _branch_of_its_own(kata, {"tests/extra.rs": extra, "tdd.yaml": LOOSE})

    text = _merge(kata, "--allow-unrelated-histories", "-X", "ours", "evil", "-m", "Merge evil")

    assert "[type-rules] this merge joins" in text
    assert "git rebase --root --onto" in text


def _feature_branch(repo: Path, files: dict[str, str], message: str, *, verify: bool) -> None:
    git(repo, "checkout", "-q", "-b", "feature")
    _write(repo, files)
    git(repo, "add", "-A")
    result = commit(repo, message, env=None if verify else UNHOOKED)
    assert result.returncode == 0, result.stdout + result.stderr
    git(repo, "checkout", "-q", "main")


def test_a_red_test_committed_past_the_hooks_cannot_land_through_git_merge(kata: Path) -> None:
    # `git merge` runs pre-merge-commit, not pre-commit: commit-msg gates the result
    _feature_branch(kata, {"tests/red.rs": RED_ONE}, msg("test", "red"), verify=False)
    _write(kata, {"README.md": "notes\n"})
    git(kata, "add", "-A")
    assert commit(kata, "docs: notes\n").returncode == 0

    text = _merge(kata, "--no-ff", "feature", "-m", "Merge branch 'feature'")

    assert "[green] the merge result" in text


def test_a_merge_may_not_drop_a_test_both_sides_kept(kata: Path) -> None:
    two = '#[test]\nfn two() {\n    assert_eq!(CRATE::add(""), 0);\n}\n'
    _feature_branch(kata, {"tests/two.rs": two}, msg("test", "two"), verify=True)
    _write(kata, {"README.md": "notes\n"})
    git(kata, "add", "-A")
    assert commit(kata, "docs: notes\n").returncode == 0
    merged = git(kata, "merge", "--no-ff", "--no-commit", "feature")
    assert merged.returncode == 0, merged.stdout + merged.stderr
    git(kata, "rm", "-q", "tests/add.rs")
    before = head(kata)

    result = git(kata, "commit", "-q", "--no-edit")

    text = result.stdout + result.stderr
    assert result.returncode == 1, text
    assert "this merge removes tests that neither side removed: tests/add.rs::empty_is_zero" in text
    assert head(kata) == before


def test_a_merge_keeps_a_removal_one_side_made_in_a_test_commit(kata: Path) -> None:
    two = '#[test]\nfn two() {\n    assert_eq!(CRATE::add(""), 0);\n}\n'
    _write(kata, {"tests/two.rs": two})
    git(kata, "add", "-A")
    assert commit(kata, msg("test", "two")).returncode == 0
    git(kata, "checkout", "-q", "-b", "feature")
    git(kata, "rm", "-q", "tests/two.rs")
    assert commit(kata, msg("test", "drop two")).returncode == 0
    git(kata, "checkout", "-q", "main")
    _write(kata, {"README.md": "notes\n"})
    git(kata, "add", "-A")
    assert commit(kata, "docs: notes\n").returncode == 0

    result = git(kata, "merge", "--no-ff", "feature", "-m", "Merge branch 'feature'")

    assert result.returncode == 0, result.stdout + result.stderr


def test_audit_judges_a_merged_orphan_root_by_the_policy_where_it_landed(kata: Path) -> None:
    untested = _code("0", "\npub fn untested() -> i32 {\n    7\n}\n")
    files = {"src/lib.rs": untested, "Cargo.toml": (kata / "Cargo.toml").read_text()}
    root = _branch_of_its_own(kata, {**files, "tdd.yaml": LOOSE}, "chore: import")
    merged = git(
        kata, "merge", "--allow-unrelated-histories", "-X", "theirs", "evil",
        "-m", "Merge branch 'evil'", env=UNHOOKED,
    )  # fmt: skip
    assert merged.returncode == 0, merged.stdout + merged.stderr

    result = tddhooks(kata, "audit", "--json")

    report = json.loads(result.stdout)
    assert result.returncode == 1, result.stderr
    rules = {(v["commit"], v["rule"]) for v in report["violations"]}
    # its own tdd.yaml turned type-rules off; main's policy judges it, without the scaffold's
    # freedom: a chore may not change source files
    assert (root, "type-rules") in rules
    merge = head(kata)
    assert any(
        v["commit"] == merge and "no common ancestor" in v["message"] for v in report["violations"]
    )


def test_audit_flags_the_join_when_the_orphan_is_the_first_parent_line(kata: Path) -> None:
    # main merged INTO the orphan branch, then main reset to it: the orphan's root is now the
    # first-parent line's root (it passes as "the first commit"); the join is still a finding
    untested = _code("0", "\npub fn untested() -> i32 {\n    7\n}\n")
    files = {"src/lib.rs": untested, "Cargo.toml": (kata / "Cargo.toml").read_text()}
    _branch_of_its_own(kata, {**files, "tdd.yaml": LOOSE}, "chore: import")
    git(kata, "checkout", "-q", "evil")
    joined = git(
        kata, "merge", "--allow-unrelated-histories", "-X", "ours", "main",
        "-m", "Merge branch 'main' into evil", env=UNHOOKED,
    )  # fmt: skip
    assert joined.returncode == 0, joined.stdout + joined.stderr
    merge = head(kata)
    git(kata, "checkout", "-q", "main")
    refused = git(kata, "reset", "-q", "--hard", "evil")  # the reference-transaction hook judges it
    assert refused.returncode != 0, refused.stdout + refused.stderr
    git(kata, "reset", "-q", "--hard", "evil", env=UNHOOKED)

    result = tddhooks(kata, "audit", "--json")

    report = json.loads(result.stdout)
    assert result.returncode == 1, result.stderr
    assert any(
        v["commit"] == merge and v["rule"] == "type-rules" and "no common ancestor" in v["message"]
        for v in report["violations"]
    )
