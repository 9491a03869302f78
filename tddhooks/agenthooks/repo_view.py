"""The repository as the agent hooks see it, in as few git processes as possible.

One `rev-parse` (top level, git directory, hooks directory) and one `status --porcelain=v2`
(HEAD, staged, unstaged and untracked paths) stand in for the reads of `policy/phase.py`
`read_facts`; the rest of the facts (the staged diff, item-aware, HEAD's stored verdict) come
from the same `facts_at` every surface uses, so the agent hooks tell the phase `status` tells.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from tddhooks import git

if TYPE_CHECKING:
    from tddhooks.policy.phase import RepoFacts
    from tddhooks.policy.settings import PolicySettings


@dataclass(frozen=True)
class RepoView:
    """Where the repository is and what `git status` says about it (paths relative to root)."""

    root: Path
    state: Path  # .git/tddhooks/
    hooks: Path
    common: Path  # the common git directory
    head: str | None
    staged: tuple[str, ...]
    unstaged: tuple[str, ...]
    untracked: tuple[str, ...]


def _absolute(path: str, cwd: str) -> Path:
    candidate = Path(path)
    return (candidate if candidate.is_absolute() else Path(cwd) / candidate).resolve()


def parse_status(text: str) -> tuple[str | None, list[str], list[str], list[str]]:
    """(HEAD, staged, unstaged, untracked) from `git status --porcelain=v2 -z --branch`."""
    head: str | None = None
    staged: list[str] = []
    unstaged: list[str] = []
    untracked: list[str] = []
    for entry in text.split("\0"):
        if entry.startswith("# branch.oid "):
            oid = entry.removeprefix("# branch.oid ")
            head = None if oid == "(initial)" else oid
        elif entry.startswith(("1 ", "u ")):
            fields = entry.split(" ", 8 if entry[0] == "1" else 10)
            path, code = fields[-1], fields[1]
            if code[0] != "." or entry[0] == "u":
                staged.append(path)
            if code[1] != "." or entry[0] == "u":
                unstaged.append(path)
        elif entry.startswith("? "):
            untracked.append(entry[2:])
    return head, staged, unstaged, untracked


def repo_view(cwd: str) -> RepoView | None:
    """The view of the repository containing `cwd`; None outside any repository."""
    located = git.run_git(
        ["rev-parse", "--show-toplevel", "--git-common-dir", "--git-path", "hooks"],
        Path(cwd),
        check=False,
    )
    lines = located.stdout.splitlines()
    if not located.ok or len(lines) < 3:
        return None
    root, common, hooks = Path(lines[0]), _absolute(lines[1], cwd), _absolute(lines[2], cwd)
    state = common / "tddhooks"
    state.mkdir(parents=True, exist_ok=True)  # the settings cache lives there
    status = git.run_git(
        ["status", "--porcelain=v2", "-z", "--branch", "--no-renames", "--untracked-files=all"],
        root,
        check=False,
    )
    head, staged, unstaged, untracked = parse_status(status.stdout)
    return RepoView(
        root, state, hooks, common, head, tuple(staged), tuple(unstaged), tuple(untracked)
    )


def light_facts(
    view: RepoView, settings: PolicySettings, subjects: list[tuple[str, str]]
) -> RepoFacts:
    """policy/phase.py's RepoFacts from the view (no staged verdict: the caller adds a cached
    one), read by the same `facts_at` as every other surface."""
    from tddhooks.policy.phase import RepoFacts, facts_at

    if view.head is None:
        return RepoFacts(is_repo=True, has_commit=False, has_scaffold=False)
    return facts_at(
        view.root,
        settings,
        head=view.head,
        subject=subjects[-1][1] if subjects else "",
        changed=[*view.unstaged, *view.untracked],
        staged=bool(view.staged),
        state=view.state,
    )
