"""What a git-shaped message really refers to (git CLI): is git making a merge, which commit does
a `fixup!` fix, does a revert undo exactly the commit it names.

Asked only when the message has that shape, so the usual commit-msg hook pays nothing for it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from tddhooks import git

TYPE_CHECKING = False  # not typing's: importing typing costs the hook path ~10 ms; mypy reads it
if TYPE_CHECKING:
    from tddhooks.policy.message import CommitMessage
    from tddhooks.policy.rules import CommitFacts

HISTORY_DEPTH = 1000  # commits searched for a fixup's target, newest first
_COMMIT_ID_RE = re.compile(r"^[0-9a-f]{4,64}$")
# plain, context-free, binary-complete patches, so equal changes give equal patch ids
_PATCH = (
    "-c", "core.quotePath=false", "diff", "-U0", "--no-renames", "--no-color", "--no-ext-diff",
    "--no-textconv", "--full-index", "--binary",
)  # fmt: skip


def git_dir(root: Path) -> Path:
    """The repository's (per-worktree) git directory, without a git call in the usual case."""
    from_env = os.environ.get("GIT_DIR")
    if from_env:
        return Path(from_env) if Path(from_env).is_absolute() else root / from_env
    if (root / ".git").is_dir():
        return root / ".git"
    return Path(git.out(["rev-parse", "--absolute-git-dir"], root))


def merging(root: Path) -> bool:
    """Whether git is making a merge commit now: MERGE_HEAD exists while it commits and the
    commit git writes will have two parents or more. Unless MERGE_MODE says `no-ff`, git reduces
    HEAD and the named commits to the independent ones (`git merge-base --independent`), so a
    hand-written MERGE_HEAD of an ancestor of HEAD, or of a commit that contains HEAD, makes an
    ordinary one-parent commit, judged as one."""
    folder = git_dir(root)
    try:
        named = (folder / "MERGE_HEAD").read_text(encoding="ascii").split()
    except (OSError, UnicodeDecodeError):
        return False
    head = git.head(root)
    if head is None or not named or any(_COMMIT_ID_RE.match(sha) is None for sha in named):
        return False
    try:
        mode = (folder / "MERGE_MODE").read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        mode = ""
    if mode == "no-ff":
        return any(not _is_ancestor(root, sha, head) for sha in named)
    parents = git.run_git(["merge-base", "--independent", head, *named], root, check=False)
    return parents.ok and len(parents.stdout.split()) >= 2


def fixup_target_subject(root: Path, target: str, head: str | None) -> str | None:
    """The subject of the commit `fixup! <target>` fixes, found as `rebase --autosquash` finds
    it: a commit id, else the newest commit with that exact subject, else the newest whose
    subject starts with it; only HEAD's history is searched. None when there is none."""
    if head is None or not target.strip():
        return None
    if _COMMIT_ID_RE.match(target):
        found = git.run_git(
            ["log", "-1", "--format=%s", f"{target}^{{commit}}", "--"], root, check=False
        )
        if found.ok and _is_ancestor(root, target, head):
            return found.stdout.rstrip("\n")
    listed = git.run_git(
        ["log", f"-{HISTORY_DEPTH}", "--format=%s", head, "--"], root, check=False
    ).stdout.splitlines()
    exact = next((subject for subject in listed if subject == target), None)
    return exact or next((subject for subject in listed if subject.startswith(target)), None)


def _is_ancestor(root: Path, commit: str, head: str) -> bool:
    return git.run_git(["merge-base", "--is-ancestor", commit, head], root, check=False).ok


def _patch_id(root: Path, revs: list[str], env: dict[str, str] | None) -> str | None:
    patch = git.run_git([*_PATCH, *revs], root, env_extra=env, check=False)
    if not patch.ok or not patch.stdout.strip():
        return None
    ids = git.run_git(["patch-id", "--stable"], root, stdin=patch.stdout, check=False)
    return ids.stdout.split()[0] if ids.ok and ids.stdout.strip() else None


def undoes_exactly(
    root: Path, reverted: str, *, base: str | None, tip: str | None, index_file: str | None
) -> bool:
    """Whether the change from `base` to `tip` (tip None: the index being committed) is exactly
    the inverse of commit `reverted`, a commit in base's history."""
    if base is None or not _is_ancestor(root, reverted, base):
        return False
    parent = git.run_git(["rev-parse", "-q", "--verify", f"{reverted}^1"], root, check=False)
    before = parent.stdout.strip() if parent.ok else git.EMPTY_TREE
    undo = _patch_id(root, [reverted, before], None)
    if tip is None:
        change = _patch_id(root, ["--cached", base], git.index_env(index_file))
    else:
        change = _patch_id(root, [base, tip], None)
    return undo is not None and undo == change


def exemption_facts(
    root: Path,
    message: CommitMessage,
    facts: CommitFacts,
    *,
    base: str | None,
    tip: str | None = None,
    index_file: str | None = None,
) -> CommitFacts:
    """`facts` plus what a git-shaped message needs: the subject of the commit a fixup fixes,
    whether a revert undoes exactly the commit it names. `base` is the parent (HEAD in a hook),
    `tip` the commit judged (None: the index being committed)."""
    from tddhooks.policy.message import parse_header

    if message.target is not None and parse_header(message.target) is None:
        return facts._replace(target_subject=fixup_target_subject(root, message.target, base))
    reverting = message.exempt == "revert" or (
        message.header is not None and message.header.type == "revert"
    )
    if reverting and message.reverts is not None:
        exact = undoes_exactly(root, message.reverts, base=base, tip=tip, index_file=index_file)
        return facts._replace(revert_exact=exact)
    return facts
