"""The index git will really commit (git CLI).

`git commit` reads the index once more right after the pre-commit hook and commits that copy:
a file staged while the message editor is open (another terminal, an agent) is in `.git/index`
when commit-msg runs, but not in the commit, and stays staged after it. prepare-commit-msg runs
just after that read, so it records the tree; commit-msg judges the recorded tree, never one git
will not store (docs/hooks.md, "What git commits").
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from tddhooks import git

PREPARED = "prepared-tree.json"  # the tree git holds for the running `git commit`


def record_prepared(root: Path, state: Path, index_file: str | None) -> None:
    """Remember the tree of the index as git holds it for this `git commit` (its pid)."""
    from tddhooks.headstate import write_record
    from tddhooks.policy.commitmode import committing_pid

    pid = committing_pid()
    if pid is None:
        return  # no /proc: nothing ties a record to one commit; commit-msg judges the index
    tree = git.write_tree(root, index_file=index_file)
    with contextlib.suppress(OSError):
        write_record(state / PREPARED, git.head(root), {"tree": tree, "git": pid})


def prepared_tree(root: Path, state: Path, index_file: str | None) -> str | None:
    """The tree git will commit when it differs from the index commit-msg sees, else None."""
    from tddhooks.headstate import read_record
    from tddhooks.policy.commitmode import committing_pid

    record = read_record(state / PREPARED, git.head(root))
    if record is None or record.get("git") != committing_pid():
        return None
    tree = record.get("tree")
    if not isinstance(tree, str) or tree == git.write_tree(root, index_file=index_file):
        return None
    return tree


@contextlib.contextmanager
def index_of(root: Path, state: Path, tree: str) -> Iterator[str]:
    """A private index file holding `tree`, removed afterwards."""
    path = state / f"prepared-index-{os.getpid()}"
    try:
        git.run_git(["read-tree", tree], root, env_extra={"GIT_INDEX_FILE": str(path)})
        yield str(path)
    finally:
        path.unlink(missing_ok=True)
