"""The reference-transaction and pre-push hooks: refuse a branch move or a push that brings a commit
the policy refuses (policy/landing.py decides; docs/security.md)."""

from __future__ import annotations

import os

from tddhooks.policy.landing import (
    Judge,
    all_recorded,
    checked_out_paths,
    current_tips,
    is_zero,
    parse_updates,
    rejection_text,
    unjudged,
)

TYPE_CHECKING = False  # not typing's: importing typing costs the hook path ~10 ms; mypy reads it
if TYPE_CHECKING:
    from pathlib import Path


def reference_transaction(state_name: str, text: str) -> int:
    """The reference-transaction hook: refuse (1) a `prepared` transaction that brings a commit
    the policy refuses onto a branch; 0 otherwise."""
    if state_name != "prepared":
        return 0
    updates = parse_updates(text)
    if not updates or all_recorded(updates):
        return 0
    root, state = _locate()
    unknown = sorted({ref for old, _, ref in updates if is_zero(old)})  # creation, or no old value
    tips = current_tips(root, unknown) if unknown else {}
    moves = [(ref, new, [old, tips.get(ref, "")]) for old, new, ref in updates]
    refusals = unjudged(root, state, moves, Judge(root, state))
    if not refusals:
        return 0
    from pathlib import Path

    from tddhooks.output import plain

    action = os.environ.get("GIT_REFLOG_ACTION", "")
    tips = current_tips(root, sorted({refusal.ref for refusal in refusals}))
    news = {ref: new for _, new, ref in updates}
    written = {
        ref: (news[ref], checked_out_paths(Path.cwd(), tips.get(ref), news[ref], action))
        for ref in {refusal.ref for refusal in refusals}
        if ref in news
    }
    plain(rejection_text(refusals, tips, action, written))
    return 1


def _locate() -> tuple[Path, Path]:
    """(a work tree of the repository, its `.git/tddhooks/`), whatever GIT_DIR, `--git-dir`,
    `--work-tree` or `--bare` the git that runs this hook was given: the judging reads the
    repository's objects only, from its main work tree."""
    from pathlib import Path

    from tddhooks import git
    from tddhooks.errors import GitError

    args = ["rev-parse", "--git-common-dir", "--show-toplevel"]
    result = git.run_git(args, Path.cwd(), check=False, keep_env=True)
    lines = result.stdout.splitlines()
    if not lines:
        raise GitError(
            f"tddhooks cannot find the repository this branch move is in ({result.output[:300]})",
            fix="run git from inside the repository's work tree",
        )
    common = Path(lines[0]) if Path(lines[0]).is_absolute() else Path.cwd() / lines[0]
    common = common.resolve()
    if common.name == ".git":
        root = common.parent
    elif result.ok and len(lines) == 2:
        root = Path(lines[1])
    else:
        raise GitError(
            f"tddhooks judges branch moves from a work tree, and {common} has none here",
            fix="run git from inside the repository's work tree (without --bare)",
        )
    state = common / "tddhooks"
    state.mkdir(parents=True, exist_ok=True)
    return root, state


def pre_push(text: str) -> int:
    """The pre-push hook: refuse (1) to push a commit the remote does not have that no hook
    judged and the policy refuses; each input line is `<local ref> <local sha> <remote ref>
    <remote sha>`."""
    root, state = _locate()
    moves = []
    for line in text.splitlines():
        parts = line.split(" ")
        if len(parts) != 4 or is_zero(parts[1]):
            continue
        remote_sha = parts[3] if not is_zero(parts[3]) and _exists(root, parts[3]) else ""
        moves.append((parts[0], parts[1], [remote_sha]))
    refusals = unjudged(root, state, moves, Judge(root, state))
    if not refusals:
        return 0
    from tddhooks.output import plain

    plain(rejection_text(refusals, {}, "push").replace("brought onto", "pushed from"))
    return 1


def _exists(root: Path, oid: str) -> bool:
    from tddhooks import git

    args = ["cat-file", "-e", f"{oid}^{{commit}}"]
    return git.run_git(args, root, check=False, keep_env=True).ok


USAGE = "usage: tddhooks hook reference-transaction STATE | pre-push REMOTE URL (updates on stdin)"


def main(argv: list[str]) -> int:
    """Run the reference-transaction or pre-push hook from its arguments and stdin; errors are
    reported and mapped to exit codes as the CLI does (a hook that cannot judge refuses)."""
    import sys

    from tddhooks.errors import TddhooksError, UsageError, error_handler

    def report(error: TddhooksError) -> None:
        from tddhooks.output import report_error

        report_error(error)

    name, args = (argv[0], argv[1:]) if argv else ("", [])
    with error_handler(report) as result:
        if name == "reference-transaction" and len(args) == 1:
            result[0] = reference_transaction(args[0], sys.stdin.read())
        elif name == "pre-push" and len(args) == 2:
            result[0] = pre_push(sys.stdin.read())
        else:
            raise UsageError(f"unknown hook call: {' '.join(argv) or '(nothing)'}", fix=USAGE)
    return result[0]
