"""`tddhooks audit [REV-RANGE]`: re-check history against the policy, trusting no cached verdict.

Each commit's tree is materialised into one scratch directory under a tempdir (only changed files
are rewritten between commits) and gated afresh; its message is checked against its own diff.
Every commit is judged by the policy of the checked-out tdd.yaml, so no commit can loosen the
rules for itself. Merge commits are exempt from the message rules, not from the gate.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from tddhooks import git, output
from tddhooks.errors import UsageError

if TYPE_CHECKING:
    from tddhooks.policy.settings import PolicySettings
    from tddhooks.policy.verdicts import Verdict

EXCERPT_LINES = 6
LOG_ARGS = ("log", "--reverse", "--topo-order", "--no-color", "--format=%H%x1f%P%x1f%s")


@dataclass(frozen=True)
class Finding:
    """One violation of one commit, as the table and the JSON report show it."""

    commit: str
    subject: str
    rule: str
    message: str
    hint: str


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


def message_findings(root: Path, commit: CommitInfo, settings: PolicySettings) -> list[Finding]:
    """Violations of the message and type rules by one (non-merge) commit."""
    from tddhooks.policy.facts import commit_facts
    from tddhooks.policy.lineage import exemption_facts
    from tddhooks.policy.message import STORED, parse_message
    from tddhooks.policy.rules import check_message

    if len(commit.parents) > 1:
        return []
    # judged as stored: a `#` line that git kept is part of the message
    message = parse_message(git.out(["show", "-s", "--format=%B", commit.sha], root), "", STORED)
    base = commit.parents[0] if commit.parents else None
    facts = exemption_facts(
        root, message, commit_facts(root, commit.sha, settings), base=base, tip=commit.sha
    )
    violations = check_message(message, facts, settings)
    return [
        Finding(commit.sha, commit.subject, violation.rule, violation.message, violation.hint)
        for violation in violations
    ]


def gate_finding(commit: CommitInfo, verdict: Verdict) -> Finding | None:
    """A `green` finding when the commit's tree is red."""
    if verdict.green:
        return None
    failing = verdict.report.failing_tests
    message = "the committed tree is red: " + verdict.report.summary()
    if failing:
        message += "; failing: " + ", ".join(failing)
    lines = verdict.failure_excerpt(EXCERPT_LINES + 1).splitlines()
    hint = "\n".join(line for line in lines if not line.startswith("failing tests: "))
    return Finding(commit.sha, commit.subject, "green", message, hint)


def run(work_dir: Path, rev_range: str | None, *, as_json: bool) -> int:
    """Audit rev_range of the repository at work_dir; exit 1 when any commit breaks the policy."""
    from tddhooks.policy.gate import tree_verdict
    from tddhooks.policy.settings import load_settings

    root = git.require_root(work_dir)
    settings = load_settings(root)
    commits = list_commits(root, rev_range)
    findings: list[Finding] = []
    verdicts: dict[str, Verdict] = {}  # per tree, for this run only
    with tempfile.TemporaryDirectory(prefix="tddhooks-audit-") as scratch:
        for number, commit in enumerate(commits, start=1):
            output.err_console().print(
                f"[dim]checking {number}/{len(commits)} {commit.sha[:10]} {commit.subject}[/dim]",
                markup=True,
                highlight=False,
            )
            findings += message_findings(root, commit, settings)
            if not settings.enabled("green"):
                continue
            tree = git.tree_of(root, commit.sha)
            if tree not in verdicts:
                verdicts[tree] = tree_verdict(
                    root, tree, settings, use_cache=False, snapshot_dir=Path(scratch) / "tree"
                )
            found = gate_finding(commit, verdicts[tree])
            if found is not None:
                findings.append(found)
    if as_json:
        report = {
            "range": rev_range or "HEAD",
            "commits": len(commits),
            "ok": not findings,
            "violations": [asdict(finding) for finding in findings],
        }
        output.plain(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        _print_table(findings, len(commits))
    return 1 if findings else 0


def _print_table(findings: list[Finding], checked: int) -> None:
    from rich.markup import escape
    from rich.table import Table

    if not findings:
        output.ok(f"{checked} commit(s) checked: every one follows the policy")
        return
    table = Table(title="policy violations", show_lines=True)
    for column in ("commit", "subject", "rule", "detail"):
        table.add_column(column, overflow="fold")
    for finding in findings:
        detail = finding.message + (f"\n{finding.hint}" if finding.hint else "")
        table.add_row(finding.commit[:10], escape(finding.subject), finding.rule, escape(detail))
    output.console().print(table)
    commits = len({finding.commit for finding in findings})
    output.fail(f"{len(findings)} violation(s) in {commits} of {checked} commit(s)")
