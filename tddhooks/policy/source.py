"""Which commit a hook judges the new commit against: HEAD, or HEAD's parent for `--amend`.

git tells the pre-commit and commit-msg hooks neither that it is amending nor what the new
commit's parent will be. On Linux the `git commit` process that runs the hook is one of our
ancestors, and its command line says `--amend` (policy/amend.py reads it, aliases expanded);
elsewhere the hooks fall back to HEAD, and `tddhooks audit` still judges the stored commit by its
real parent. See docs/policy.md, "Which policy judges a commit".
"""

from __future__ import annotations

from pathlib import Path

from tddhooks import git


def judged_base(root: Path) -> str | None:
    """The parent the new commit will have: HEAD, HEAD's first parent when amending, None for a
    root commit (then the staged tree judges itself)."""
    from tddhooks.policy.amend import amend_in_progress

    head = git.head(root)
    if head is None or not amend_in_progress(root):
        return head
    result = git.run_git(["rev-parse", "-q", "--verify", f"{head}^1"], root, check=False)
    return result.stdout.strip() or None
