"""`tddhooks audit [REV-RANGE]`: re-check history against the policy, trusting no cached verdict.

Each commit's tree is materialised into the repository's private audit folder outside the work tree
(policy/snapshot.py; only changed files are rewritten between commits) and gated afresh; its
message is checked against its own diff. Every commit is judged by the tdd.yaml of its first parent
(a root commit by its own), as the hooks judged it, so no commit can loosen the rules for itself.
Merge commits are exempt from the message rules, not from the gate.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from rich.markup import escape

from tddhooks import git, output
from tddhooks.errors import UsageError
from tddhooks.policy.judge import (  # re-exported: audit's names for a commit's findings
    EXCERPT_LINES as EXCERPT_LINES,
)
from tddhooks.policy.judge import (
    CommitInfo as CommitInfo,
)
from tddhooks.policy.judge import (
    Finding as Finding,
)
from tddhooks.policy.judge import (
    TreeVerdicts as TreeVerdicts,
)
from tddhooks.policy.judge import (
    commit_policy as commit_policy,
)
from tddhooks.policy.judge import (
    gate_finding as gate_finding,
)
from tddhooks.policy.judge import (
    gate_findings as gate_findings,
)
from tddhooks.policy.judge import (
    joined_roots as joined_roots,
)
from tddhooks.policy.judge import (
    merge_findings as merge_findings,
)
from tddhooks.policy.judge import (
    message_findings as message_findings,
)

if TYPE_CHECKING:
    from rich.progress import ProgressColumn

    from tddhooks.commands.audit_gate import AuditGate
    from tddhooks.policy.settings import PolicySettings

LOG_ARGS = ("log", "--reverse", "--topo-order", "--no-color", "--format=%H%x1f%P%x1f%s")


def list_commits(root: Path, rev_range: str | None) -> list[CommitInfo]:
    """The commits of rev_range (default: all of HEAD's history), oldest first."""
    spec = rev_range or "HEAD"
    if rev_range is None and git.head(root) is None:
        return []
    result = git.run_git([*LOG_ARGS, "--end-of-options", spec, "--"], root, check=False)
    if not result.ok:
        raise UsageError(
            f"not a revision range in {root}: {spec!r} ({result.stderr.strip()[:300]})",
            fix="give a range like `origin/main..HEAD`; in CI fetch the history it needs "
            "(actions/checkout with `fetch-depth: 0`)",
        )
    commits = []
    for line in result.stdout.split("\n"):
        if line.count("\x1f") >= 2:
            sha, parents, subject = line.split("\x1f", 2)
            commits.append(CommitInfo(sha, tuple(parents.split()), subject))
    return commits


def run(
    work_dir: Path,
    rev_range: str | None,
    *,
    as_json: bool,
    verbose: bool = False,
    since: str | None = None,
    jobs: int | None = None,
    fresh: bool = False,
) -> int:
    """Audit rev_range of the repository at work_dir; exit 1 when any commit breaks the policy.
    `since` is a baseline: only the commits after it are judged (adopting tddhooks late).
    `jobs` trees are gated at once (default: commands/audit_gate.py); `fresh` ignores the
    verdicts earlier audits stored."""
    from tddhooks.commands.audit_gate import (
        MAX_JOBS,
        AuditGate,
        default_jobs,
    )
    from tddhooks.commands.audit_report import AuditRun, render

    jobs = default_jobs() if jobs is None else jobs
    if not 1 <= jobs <= MAX_JOBS:
        raise UsageError(f"--jobs {jobs} is out of range", fix=f"give 1 to {MAX_JOBS}")
    root = git.require_root(work_dir)
    rev_range = with_baseline(root, rev_range, since)
    commits = list_commits(root, rev_range)
    joined = joined_roots(root, commits)
    plan = [(commit, commit_policy(root, commit, joined)) for commit in commits]
    reused = 0
    with AuditGate(root, jobs=jobs, reuse=not fresh) as gate:
        trees = {commit.sha: git.tree_of(root, commit.sha) for commit, _ in plan}
        _docs_only_trees(root, plan, trees, gate)
        for commit, settings in plan:  # queued in history order: each lane stays incremental
            if settings.enabled("green"):
                gate.submit(trees[commit.sha], settings)
        seen: set[tuple[str, PolicySettings]] = set()
        per_commit: dict[str, list[Finding]] = {}
        with _progress(2 * len(plan)) as advance:
            # the messages first, while the lanes gate: neither waits for the other
            for commit, settings in plan:
                advance(f"message {commit.sha[:10]} {commit.subject}")
                per_commit[commit.sha] = message_findings(
                    root, commit, settings, joined=commit.sha in joined
                )
            for commit, settings in plan:
                advance(f"gate {commit.sha[:10]} {commit.subject}")
                if not settings.enabled("green"):
                    continue
                reused += (trees[commit.sha], settings) in seen
                seen.add((trees[commit.sha], settings))
                per_commit[commit.sha] += gate_findings(root, commit, settings, gate)
        findings = [found for commit, _ in plan for found in per_commit[commit.sha]]
        summary = AuditRun(rev_range or "HEAD", since, len(commits), gate.judged, reused,
                           gate.stored)  # fmt: skip
    render(findings, summary, as_json=as_json, verbose=verbose)
    return 1 if findings else 0


def _docs_only_trees(
    root: Path,
    plan: list[tuple[CommitInfo, PolicySettings]],
    trees: dict[str, str],
    gate: AuditGate,
) -> None:
    """A commit that changes only documentation nothing reads takes its parent's verdict
    (policy/inert.py): the parent's tree, under the same policy, is gated instead."""
    from tddhooks.policy.inert import inert_change

    policies = {commit.sha: settings for commit, settings in plan}
    for commit, settings in plan:
        parent = commit.parents[0] if len(commit.parents) == 1 else None
        if parent is None or policies.get(parent) != settings:
            continue
        if inert_change(root, trees[parent], trees[commit.sha], settings):
            gate.same_as(trees[commit.sha], trees[parent])


@contextmanager
def _progress(total: int) -> Iterator[Callable[[str], None]]:
    """advance(label) per commit: a progress bar on a terminal (rich), else one line each."""
    console = output.err_console()
    if not console.is_terminal:
        count = iter(range(1, total + 1))

        def say(label: str) -> None:
            console.print(f"[dim]checking {next(count)}/{total} {escape(label)}[/dim]")

        yield say
        return
    from rich.progress import Progress

    with Progress(*progress_columns(), console=console, transient=True, expand=True) as progress:
        task = progress.add_task("", total=total)
        started = False

        def advance(label: str) -> None:
            nonlocal started
            progress.update(task, advance=1 if started else 0, description=escape(label))
            started = True

        yield advance
        progress.update(task, completed=total)


def progress_columns() -> tuple[ProgressColumn, ...]:
    """The bar's columns: the bar and the count keep their width on any terminal; a long
    subject is what gets cut (with …)."""
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn
    from rich.table import Column

    return (
        TextColumn("auditing", table_column=Column(no_wrap=True)),
        BarColumn(bar_width=24),
        MofNCompleteColumn(table_column=Column(no_wrap=True)),
        TextColumn(
            "{task.description}",
            table_column=Column(no_wrap=True, overflow="ellipsis", ratio=1, min_width=1),
        ),
    )


def with_baseline(root: Path, rev_range: str | None, since: str | None) -> str | None:
    """`--since REV`: the range from REV (excluded) to the range's end (HEAD by default)."""
    if since is None:
        return rev_range
    if rev_range is not None and ".." in rev_range:
        raise UsageError(
            f"--since {since} and the range {rev_range!r} both say where to start",
            fix="give either --since REV or a range A..B",
        )
    found = git.run_git(["rev-parse", "-q", "--verify", "--end-of-options", f"{since}^{{commit}}"],
                        root, check=False)  # fmt: skip
    if not found.ok:
        raise UsageError(
            f"--since {since!r} is not a commit in {root}",
            fix="name the last commit before tddhooks was adopted (a sha, tag or branch)",
        )
    return f"{found.stdout.strip()}..{rev_range or 'HEAD'}"
