"""`tddhooks hook agent aider gate`: aider's test and lint command, the gate on the work tree."""

from __future__ import annotations

import sys
from pathlib import Path

from tddhooks import git

WORK_INDEX = "aider-index"


def main() -> int:
    """Judge the work tree of the repository containing the working directory (aider appends file
    names, which do not matter: the whole tree is judged); exit 3 outside a repository."""
    root = git.find_root(Path.cwd())
    if root is None:
        print("tddhooks: not inside a git repository", file=sys.stderr)
        return 3
    return work_tree_gate(root)


def work_tree_gate(root: Path) -> int:
    """Judge the work tree as `git add -A` would stage it (the real index is not touched):
    0 green, 1 red with the gate's report."""
    from tddhooks.commands.hook import red_report
    from tddhooks.output import plain
    from tddhooks.policy.gate import tree_verdict
    from tddhooks.policy.settings import load_settings

    state = git.tddhooks_dir(root)
    index = str(state / WORK_INDEX)
    env = git.index_env(index)
    base = ["read-tree", "HEAD"] if git.head(root) else ["read-tree", "--empty"]
    git.run_git(base, root, env_extra=env)
    git.run_git(["add", "-A"], root, env_extra=env)
    tree = git.write_tree(root, index_file=index)
    settings = load_settings(root, state)
    verdict = tree_verdict(root, tree, settings)
    if verdict.green:
        plain(f"tddhooks: green ({'; '.join(verdict.verification_lines())})")
        return 0
    plain(red_report(root, verdict, settings, None))
    return 1
