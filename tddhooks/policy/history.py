"""What the commit history says about the kata: the cycle number and the last commit (git CLI)."""

from __future__ import annotations

from pathlib import Path

from tddhooks import git
from tddhooks.policy.message import parse_header
from tddhooks.vocabulary import FEATURE_TYPES


def closes_cycle(subject: str) -> bool:
    """A feat/fix commit closes a red-green cycle (the header as the hooks read it)."""
    header = parse_header(subject)
    return header is not None and header.type in FEATURE_TYPES


def is_scaffold(subject: str) -> bool:
    """The scaffold commit `tddhooks init` makes: `chore(...): scaffold …`."""
    header = parse_header(subject)
    return header is not None and header.type == "chore" and header.summary.startswith("scaffold")


def first_parent_subjects(root: Path) -> list[tuple[str, str]]:
    """(sha, subject) along HEAD's first-parent chain, oldest first; [] before the first commit."""
    result = git.run_git(
        ["log", "--first-parent", "--reverse", "--format=%H%x00%s", "HEAD"], root, check=False
    )
    if not result.ok:
        return []
    rows = []
    for line in result.stdout.splitlines():
        sha, _, subject = line.partition("\0")
        rows.append((sha, subject))
    return rows


def count_cycles(subjects: list[str]) -> int:
    """feat/fix subjects after the scaffold commit (the first `chore: scaffold`, else the root),
    oldest first (pure)."""
    start = next((i for i, subject in enumerate(subjects) if is_scaffold(subject)), 0)
    return sum(1 for subject in subjects[start + 1 :] if closes_cycle(subject))


def cycle_number(root: Path) -> int:
    """Completed red-green cycles: feat/fix commits since the scaffold commit (first parents)."""
    return count_cycles([subject for _sha, subject in first_parent_subjects(root)])


def last_commit(root: Path) -> tuple[str, str] | None:
    """(sha, subject) of HEAD, or None before the first commit."""
    result = git.run_git(["log", "-1", "--format=%H%x00%s", "HEAD"], root, check=False)
    if not result.ok or "\0" not in result.stdout:
        return None
    sha, _, subject = result.stdout.rstrip("\n").partition("\0")
    return sha, subject
