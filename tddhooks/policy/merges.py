"""What a merge decides by itself (git CLI): its resolution, not its parents' commits.

A real merge skips the message and type rules, because its parents' commits were judged one by
one. Two things are still the merge's own: a history with no common ancestor (a branch made with
`git checkout --orphan`, whose commits no hook judged: its root passed as "the first commit"),
and the tests the result drops although neither side removed them. The commit-msg hook and `audit`
reject both under `type-rules` (the join even when a policy disables that rule); `green`
judges the result (docs/policy.md, "What a merge decides itself").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from tddhooks import git
from tddhooks.policy.rules import Violation

RULE = "type-rules"
_MAX_LISTED = 8


def merge_violations(
    root: Path,
    first: str,
    others: Sequence[str],
    result_names: frozenset[str],
    names_at: Callable[[str], frozenset[str]],
    *,
    type_rules: bool = True,
) -> list[Violation]:
    """Violations of a merge of `others` into `first` whose result has the test names
    `result_names`; `names_at(rev)` gives a commit's test names. A join of unrelated histories
    is reported even when the policy disables type-rules: that policy may be the unjudged
    history's own (its root passed as the first commit), so no policy may excuse the join."""
    found: list[Violation] = []
    for other in others:
        if merge_base(root, first, other) is None:
            found.append(
                Violation(
                    RULE,
                    f"this merge joins {other[:12]}, a history with no common ancestor with "
                    f"{first[:12]}: none of its commits was judged by this repository's policy",
                    f"replay them onto this branch so each one is judged: git rebase --root "
                    f"--onto {first[:12]} {other[:12]} (then merge that), or commit their content "
                    "as ordinary commits under their own types",
                )
            )
    if found or not type_rules:
        return found
    dropped = removed_by_resolution(root, first, others, result_names, names_at)
    if dropped:
        shown = ", ".join(dropped[:_MAX_LISTED]) + (" …" if len(dropped) > _MAX_LISTED else "")
        found.append(
            Violation(
                RULE,
                f"this merge removes tests that neither side removed: {shown}",
                "take them back into the merge result (git checkout <parent> -- <test file>); "
                "tests are removed in a test: commit of their own",
            )
        )
    return found


def removed_by_resolution(
    root: Path,
    first: str,
    others: Sequence[str],
    result_names: frozenset[str],
    names_at: Callable[[str], frozenset[str]],
) -> list[str]:
    """Test names a parent has that the result lacks, except those a side removed on its own
    (present in the merge base, missing in that side: the side's `test:` commit removed it)."""
    parents = [first, *others]
    names = {parent: names_at(parent) for parent in parents}
    base = merge_base(root, *parents)
    before = names_at(base) if base is not None else frozenset()
    gone = set().union(*names.values()) - result_names
    removed_by_a_side = {name for name in before if any(name not in n for n in names.values())}
    return sorted(gone - removed_by_a_side)


def merge_base(root: Path, *commits: str) -> str | None:
    """The best common ancestor of the commits (octopus-style for more than two), or None."""
    args = ["merge-base", *(["--octopus"] if len(commits) > 2 else []), *commits]
    found = git.run_git(args, root, check=False)
    return found.stdout.split()[0] if found.ok and found.stdout.split() else None


def merge_heads(git_dir: Path) -> list[str]:
    """The commits MERGE_HEAD names (git is concluding a merge of them)."""
    try:
        return (git_dir / "MERGE_HEAD").read_text(encoding="ascii").split()
    except (OSError, UnicodeDecodeError):
        return []
