"""Ordinary git commands pass the reference-transaction hook, one by one, without judging
anything again (real git, Python kata)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from support.gatekit import python_kata
from support.refkit import git, green_feature, hooked_commit, stage, tip

pytestmark = pytest.mark.pygate


def _two_judged(repo: Path) -> None:
    hooked_commit(repo, *green_feature(1, "zeros"))
    hooked_commit(repo, *green_feature(2, "ones"))


@pytest.fixture
def kata(tmp_path: Path, session_dir: Path) -> Path:
    """The kata with two commits the hooks judged, on main."""
    return python_kata(tmp_path, session_dir, scaffold="calc", setup=_two_judged)


def ok(done: object) -> None:
    assert done.returncode == 0, done.stdout + done.stderr  # type: ignore[attr-defined]
    assert "tddhooks" not in done.stderr  # type: ignore[attr-defined]


def judged_nothing(repo: Path, before: int) -> None:
    """No commit was judged on landing: the judged-records folder did not grow."""
    assert len(list((repo / ".git" / "tddhooks" / "judged").iterdir())) == before


def records(repo: Path) -> int:
    return len(list((repo / ".git" / "tddhooks" / "judged").iterdir()))


def test_checkout_switch_and_branch_creation_at_judged_commits_pass(kata: Path) -> None:
    count = records(kata)
    ok(git(kata, "branch", "topic", "HEAD~1"))
    ok(git(kata, "checkout", "-q", "topic"))
    ok(git(kata, "switch", "-q", "main"))
    ok(git(kata, "switch", "-q", "-c", "other", "HEAD~2"))  # the baseline
    ok(git(kata, "checkout", "-q", "-B", "main2", "main"))
    judged_nothing(kata, count)


def test_reset_back_to_an_old_commit_and_forward_again_passes(kata: Path) -> None:
    count, head = records(kata), tip(kata)
    ok(git(kata, "reset", "-q", "--hard", "HEAD~2"))
    ok(git(kata, "reset", "-q", "--hard", head))  # commits the hooks judged: their records
    ok(git(kata, "reset", "-q", "--soft", "HEAD~1"))
    judged_nothing(kata, count)


def test_stash_bisect_and_worktree_add_pass(kata: Path) -> None:
    count = records(kata)
    (kata / "NOTES.md").write_text("wip\n", encoding="utf-8")
    ok(git(kata, "stash", "push", "-u", "-q"))
    ok(git(kata, "stash", "pop", "-q"))
    ok(git(kata, "bisect", "start", "HEAD", "HEAD~2"))
    ok(git(kata, "bisect", "good"))
    ok(git(kata, "bisect", "reset"))
    ok(git(kata, "worktree", "add", "-q", str(kata.parent / "wt"), "-b", "wt-branch", "HEAD~1"))
    judged_nothing(kata, count)


def test_fetch_pull_and_fast_forward_to_fetched_commits_pass_unjudged(
    kata: Path, tmp_path: Path
) -> None:
    upstream = tmp_path / "upstream.git"
    ok(git(kata, "clone", "-q", "--bare", str(kata), str(upstream)))
    ok(git(kata, "remote", "add", "origin", str(upstream)))
    ok(git(kata, "fetch", "-q", "origin"))
    # someone else's commit, made without our hooks, lands on the remote (its CI runs audit)
    other = tmp_path / "other"
    ok(git(tmp_path, "clone", "-q", str(upstream), str(other)))
    stage(other, {"NOTES.md": "from upstream\n"})
    ok(git(other, "commit", "-q", "-m", "not even a conventional message"))
    ok(git(other, "push", "-q", "origin", "HEAD:main"))
    count = records(kata)
    ok(git(kata, "fetch", "-q", "origin"))
    ok(git(kata, "merge", "-q", "--ff-only", "origin/main"))
    assert tip(kata) == tip(other)
    ok(git(kata, "reset", "-q", "--hard", "HEAD~1"))
    ok(git(kata, "pull", "-q", "--ff-only", "origin", "main"))
    judged_nothing(kata, count)


def test_fetched_commits_are_judged_when_the_policy_does_not_trust_remotes(
    kata: Path, tmp_path: Path
) -> None:
    strict = "language: python\npolicy:\n  trust_remotes: false\n"
    hooked_commit(kata, {"tdd.yaml": strict}, "chore: judge fetched commits too")
    upstream = tmp_path / "upstream.git"
    ok(git(kata, "clone", "-q", "--bare", str(kata), str(upstream)))
    ok(git(kata, "remote", "add", "origin", str(upstream)))
    other = tmp_path / "other"
    ok(git(tmp_path, "clone", "-q", str(upstream), str(other)))
    stage(other, {"NOTES.md": "from upstream\n"})
    ok(git(other, "commit", "-q", "-m", "not even a conventional message"))
    ok(git(other, "push", "-q", "origin", "HEAD:main"))
    ok(git(kata, "fetch", "-q", "origin"))  # fetching moves no branch
    before = tip(kata)
    done = git(kata, "merge", "-q", "--ff-only", "origin/main")
    assert done.returncode != 0
    assert "[prefixed]" in done.stderr
    assert tip(kata) == before


def test_a_rebase_of_judged_commits_reuses_the_verdicts(kata: Path) -> None:
    """Rewording judged commits gives new commits on the same trees: judged on landing by
    their parent's policy, from the stored verdicts, without running the gate again."""
    for step in range(3, 7):
        hooked_commit(kata, *green_feature(step, f"n{step}"))
    verdicts = kata / ".git" / "tddhooks" / "verdicts"
    stored = sorted(path.name for path in verdicts.iterdir()) if verdicts.is_dir() else []
    started = time.monotonic()
    script = (
        "git commit -q --amend --no-verify -m \"$(git log -1 --format=%B | sed '1s/sum/add/')\""
    )
    done = git(kata, "rebase", "-q", "HEAD~4", "--exec", script)
    ok(done)
    assert git(kata, "log", "-4", "--format=%s").stdout.split("\n")[:4] == [
        f"feat: add n{step}" for step in range(6, 2, -1)
    ]
    assert (sorted(path.name for path in verdicts.iterdir()) if verdicts.is_dir() else []) == stored
    assert time.monotonic() - started < 30


def test_commits_in_a_linked_worktree_are_judged_like_any_other(kata: Path) -> None:
    from support.refkit import red_feature

    tree = kata.parent / "linked"
    ok(git(kata, "worktree", "add", "-q", str(tree), "-b", "linked"))
    hooked_commit(tree, *green_feature(3, "linked"))
    before = tip(tree)
    stage(tree, red_feature()[0])
    done = git(tree, "commit", "--no-verify", "-m", red_feature()[1])
    assert done.returncode != 0
    assert "[green]" in done.stderr
    assert tip(kata, "refs/heads/linked") == before
