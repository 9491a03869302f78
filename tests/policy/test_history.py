"""The cycle number and the last commit, read from the history with the git CLI."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from support.repo import git, write_files

from tddhooks.policy.history import count_cycles, cycle_number, last_commit

MakeRepo = Callable[..., Path]


@pytest.mark.parametrize(
    ("subjects", "expected"),
    [
        ([], 0),
        (["chore: scaffold rust kata"], 0),
        (["chore: scaffold", "feat: one", "refactor: tidy", "fix(parser): two"], 2),
        (["chore: scaffold", "feat!: breaking", "feat(api)!: scoped breaking"], 2),
        (["chore: scaffold", "test: characterise", "docs: readme", "chore: deps"], 0),
        # before the scaffold commit nothing counts; a root feat is the root, never a cycle
        (["feat: early", "chore: scaffold", "feat: after"], 1),
        (["feat: root commit", "feat: second"], 1),
        (["chore(scaffold): scaffold kata", "feat: x"], 1),
        # only real Conventional headers count
        (["chore: scaffold", "feature: nope", "feat:", "Feat: upper", "feat(x: broken"], 0),
        (["chore: scaffold", "feat(ñandú): números romanos", "fix: ¿qué?"], 2),
        (["chore: scaffold", "feat: one", "chore: scaffold again", "feat: two"], 2),
    ],
)
def test_count_cycles(subjects: list[str], expected: int) -> None:
    assert count_cycles(subjects) == expected


def _commit(repo: Path, subject: str, name: str) -> None:
    write_files(repo, {name: subject + "\n"})
    git(repo, "add", name)
    git(repo, "commit", "-q", "--no-verify", "-m", subject)


def test_cycle_number_follows_the_first_parent_chain(make_repo: MakeRepo) -> None:
    repo = make_repo()
    assert cycle_number(repo) == 0
    assert last_commit(repo) is None
    _commit(repo, "docs: before the scaffold", "a.md")
    _commit(repo, "chore: scaffold kata", "b.md")
    _commit(repo, "feat: one", "c.md")
    git(repo, "checkout", "-q", "-b", "side")
    _commit(repo, "feat: on a side branch", "d.md")
    _commit(repo, "fix: also on the side", "e.md")
    git(repo, "checkout", "-q", "main")
    _commit(repo, "fix(núcleo): two", "f.md")
    git(repo, "merge", "-q", "--no-ff", "--no-verify", "-m", "Merge branch 'side'", "side")
    assert cycle_number(repo) == 2

    sha = git(repo, "rev-parse", "HEAD").stdout.strip()
    assert last_commit(repo) == (sha, "Merge branch 'side'")


@pytest.mark.parametrize(
    "subject",
    ["feat:add", "Feat: add", "feat (x): add", "feat(): add", "fix!:x", "feat: ", "feat"],
)
def test_a_subject_the_hooks_reject_is_no_cycle(subject: str) -> None:
    from tddhooks.policy.message import parse_header

    assert parse_header(subject) is None  # the one home of the header says it is none
    assert count_cycles(["chore: scaffold kata", subject]) == 0
    assert count_cycles(["chore: scaffold kata", "feat: add"]) == 1
