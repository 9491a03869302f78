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
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from rich.markup import escape

from tddhooks import git, output
from tddhooks.errors import UsageError

if TYPE_CHECKING:
    from tddhooks.commands.audit_gate import AuditGate
    from tddhooks.policy.settings import PolicySettings
    from tddhooks.policy.verdicts import Verdict

EXCERPT_LINES = 6
LOG_ARGS = ("log", "--reverse", "--topo-order", "--no-color", "--format=%H%x1f%P%x1f%s")


class TreeVerdicts(Protocol):
    """What judges a tree under a policy: audit's lanes, or the hooks' verdict store
    (commands/refcheck.py)."""

    def verdict(self, tree: str, settings: PolicySettings) -> Verdict: ...


@dataclass(frozen=True)
class Finding:
    """One violation of one commit, as the table and the JSON report show it."""

    commit: str
    subject: str
    rule: str
    message: str
    hint: str
    kind: str = ""  # `green`: tests fail / does not build|import / lint/format only


@dataclass(frozen=True)
class CommitInfo:
    sha: str
    parents: tuple[str, ...]
    subject: str


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


def message_findings(
    root: Path, commit: CommitInfo, settings: PolicySettings, *, joined: bool = False
) -> list[Finding]:
    """Violations of the message and type rules by one commit; a merge is judged by its own
    resolution only (policy/merges.py); a `joined` root commit (not the repository's first)
    like any commit, against the empty tree."""
    from tddhooks.policy.facts import commit_facts
    from tddhooks.policy.lineage import exemption_facts
    from tddhooks.policy.message import STORED, parse_message
    from tddhooks.policy.rules import check_message

    if len(commit.parents) > 1:
        return merge_findings(root, commit, settings)
    # judged as stored: a `#` line that git kept is part of the message
    message = parse_message(git.out(["show", "-s", "--format=%B", commit.sha], root), "", STORED)
    base = commit.parents[0] if commit.parents else None
    facts = commit_facts(root, commit.sha, settings)
    if joined:
        facts = facts._replace(first_commit=False, joined_root=True)
    facts = exemption_facts(root, message, facts, base=base, tip=commit.sha)
    violations = check_message(message, facts, settings)
    if violations and message.header is not None and message.header.type == "style":
        from tddhooks.policy.formatting import formatting_only_paths

        revs = [base or git.EMPTY_TREE, commit.sha]
        facts = facts._replace(formatting_only=formatting_only_paths(root, revs, settings))
        violations = check_message(message, facts, settings)
    return [
        Finding(commit.sha, commit.subject, violation.rule, violation.message, violation.hint)
        for violation in violations
    ]


def merge_findings(root: Path, commit: CommitInfo, settings: PolicySettings) -> list[Finding]:
    """A merge's own violations: a history with no common ancestor (whatever the policy), tests
    its result drops."""
    from tddhooks.policy.facts import test_names_at
    from tddhooks.policy.merges import merge_violations

    first, *others = commit.parents
    violations = merge_violations(
        root,
        first,
        others,
        test_names_at(root, commit.sha, settings),
        lambda rev: test_names_at(root, rev, settings),
        type_rules=settings.enabled("type-rules"),
    )
    if settings.enabled("type-rules") and len(others) == 1:
        from tddhooks.policy.merge_own import own_change_violations, own_changes
        from tddhooks.policy.message import STORED, parse_message

        text = git.out(["show", "-s", "--format=%B", commit.sha], root)
        header = parse_message(text, "", STORED).header
        own = own_changes(root, first, others[0], f"{commit.sha}^{{tree}}")
        violations += own_change_violations(own, header.type if header else None, settings)
    return [Finding(commit.sha, commit.subject, v.rule, v.message, v.hint) for v in violations]


def joined_roots(root: Path, commits: list[CommitInfo]) -> dict[str, str | None]:
    """Root commits of the list that are not the repository's first commit (not on the first-
    parent line of the newest commit listed), each with the commit whose tdd.yaml judges it:
    the first parent of the merge that brings it in (else the newest commit listed)."""
    roots = {commit.sha for commit in commits if not commit.parents}
    if not roots:
        return {}
    tip = commits[-1].sha
    mainline = set(git.out(["rev-list", "--first-parent", tip, "--"], root).split())
    joined: dict[str, str | None] = {sha: tip for sha in roots - mainline}
    for commit in commits:
        if len(commit.parents) < 2 or not joined:
            continue
        first = commit.parents[0]
        brought = git.out(
            ["rev-list", "--max-parents=0", *commit.parents[1:], f"^{first}", "--"], root
        ).split()
        for sha in brought:
            if joined.get(sha) == tip:
                joined[sha] = first
    return joined


def gate_finding(commit: CommitInfo, verdict: Verdict) -> Finding | None:
    """A `green` finding when the commit's tree is red, with what kind of red it is."""
    from tddhooks.commands.audit_report import KIND_STYLE, red_kind, style_message

    if verdict.green:
        return None
    kind = red_kind(verdict)
    failing = verdict.report.failing_tests
    message = "the committed tree is red: " + verdict.report.summary()
    if failing:
        message += "; failing: " + ", ".join(failing)
    if kind == KIND_STYLE:
        message = style_message(verdict)
    from tddhooks.policy.verdicts import FAILING_TESTS

    lines = verdict.failure_excerpt(EXCERPT_LINES + 1).splitlines()
    hint = "\n".join(line for line in lines if not line.startswith(FAILING_TESTS))
    return Finding(commit.sha, commit.subject, "green", message, hint, kind)


def gate_findings(
    root: Path, commit: CommitInfo, settings: PolicySettings, gate: TreeVerdicts
) -> list[Finding]:
    """`green` and report-based `no-skip` findings of one commit, judged as the pre-commit hook
    judged it: red-start commits pass (policy/diagnosis.py), skips come from both reports."""
    from tddhooks.policy.diagnosis import OWN_FILES
    from tddhooks.policy.skips import newly_ignored, violation

    def verdict_of(rev: str) -> Verdict:
        return gate.verdict(git.tree_of(root, rev), settings)

    verdict, parent = verdict_of(commit.sha), commit.parents[0] if commit.parents else None
    found = gate_finding(commit, verdict)
    if found is not None and parent is not None:
        changed = git.out(["diff", "--name-only", "-z", "--no-renames", parent, commit.sha], root)
        paths = [path for path in changed.split("\0") if path]
        if paths and set(paths) <= OWN_FILES and not verdict_of(parent).green:
            found = None  # a red start: the install commit on a red parent
    if found is None and parent is not None:
        from tddhooks.commands.audit_report import KIND_STYLE
        from tddhooks.policy.ratchet import ratchet_message, ratchet_problems

        problems = ratchet_problems(settings, verdict, lambda: verdict_of(parent))
        if problems:
            text = ratchet_message(problems)
            found = Finding(commit.sha, commit.subject, "green", text, text, KIND_STYLE)
    findings = [found] if found is not None else []
    if verdict.report.ignored_tests and parent is not None and settings.enabled("no-skip"):
        before = verdict_of(parent).report.model_dump(mode="json")
        skipped = newly_ignored(before, verdict.report.ignored_tests)
        if skipped:
            rule = violation(skipped)
            findings.append(Finding(commit.sha, commit.subject, rule.rule, rule.message, rule.hint))
    return findings


def commit_policy(root: Path, commit: CommitInfo, joined: dict[str, str | None]) -> PolicySettings:
    """The policy that judged `commit`: its first parent's tdd.yaml, the repository's first
    commit's own; a joined root's is the one in force where it was merged (joined_roots)."""
    from tddhooks.policy.facts import state_dir
    from tddhooks.policy.settings import settings_at

    base = commit.parents[0] if commit.parents else joined.get(commit.sha)
    return settings_at(root, base, state_dir(root), own=commit.sha)


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
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    columns = (
        TextColumn("auditing"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.description}"),
    )
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task("", total=total)
        started = False

        def advance(label: str) -> None:
            nonlocal started
            progress.update(task, advance=1 if started else 0, description=escape(label))
            started = True

        yield advance
        progress.update(task, completed=total)


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
