"""`tddhooks status`: the phase (who acts next and why), cycle, last commit and staged verdict."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from tddhooks import git, output

if TYPE_CHECKING:
    from tddhooks.policy.phase import PhaseInfo
    from tddhooks.policy.verdicts import Verdict

EXCERPT_LINES = 12
_PHASE_STYLE = {
    "uninitialized": "dim",
    "dirty": "yellow",
    "red": "red",
    "overshoot": "magenta",
    "mixed": "yellow",
    "green-feature": "green",
    "green": "green",
    "done": "cyan",
}


def run(work_dir: Path) -> int:
    """Print the state of the kata repository containing work_dir (exit 3 outside a repository)."""
    from tddhooks.policy.history import last_commit
    from tddhooks.policy.phase import current_phase
    from tddhooks.policy.settings import load_settings

    root = git.require_root(work_dir)
    settings = load_settings(root)
    info, verdict = current_phase(root, settings, judge_head=True)
    last = last_commit(root)
    _print(info, verdict, last, _something_staged(root))
    return 0


def _something_staged(root: Path) -> bool:
    from tddhooks.errors import GitError

    if git.head(root) is None:
        return bool(git.out(["ls-files"], root))
    try:
        return git.write_tree(root) != git.tree_of(root, "HEAD")
    except GitError:  # unmerged paths
        return True


def verdict_line(verdict: Verdict | None, staged: bool) -> str:
    """One line for the verdict row (rich markup)."""
    what = "staged tree" if staged else "HEAD's tree"
    if verdict is None:
        if staged:
            return f"{what}: not verified yet (runs when you commit)"
        return f"{what}: no verdict cached yet (`git commit` verifies the next one)"
    state = "[green]green[/green]" if verdict.green else "[red]red[/red]"
    summary = "; ".join(verdict.verification_lines()) or verdict.report.summary()
    cached = ", cached" if verdict.cached else ""
    return f"{what}: {state} — {summary} (tree {verdict.tree[:10]}{cached})"


def _print(
    info: PhaseInfo, verdict: Verdict | None, last: tuple[str, str] | None, staged: bool
) -> None:
    from rich.markup import escape
    from rich.table import Table

    style = _PHASE_STYLE.get(info.phase.value, "bold")
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_column(style="bold")
    table.add_column()
    table.add_row("phase", f"[{style}]{info.phase.value}[/{style}]")
    table.add_row("next", f"{info.next_actor}: {escape(info.reason)}")
    table.add_row("cycle", str(info.cycle))
    commit = f"{last[0][:10]} {escape(last[1])}" if last else "(none)"
    table.add_row("last commit", commit)
    table.add_row("verdict", verdict_line(verdict, staged))
    output.console().print(table)
    if verdict is not None and not verdict.green:
        if verdict.report.failing_tests:
            output.say(
                "[bold]failing tests:[/bold] " + escape(", ".join(verdict.report.failing_tests))
            )
        from tddhooks.policy.verdicts import FAILING_TESTS

        lines = verdict.failure_excerpt(EXCERPT_LINES + 1).splitlines()
        excerpt = "\n".join(ln for ln in lines if not ln.startswith(FAILING_TESTS))
        if excerpt:
            output.console().print(escape(excerpt), style="dim")
