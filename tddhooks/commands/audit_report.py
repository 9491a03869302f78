"""What `tddhooks audit` prints: a summary by default (per-rule counts, the first offending
commits), every violation with its output under --verbose, or one JSON document (--json).

A red tree is split by what failed: the tests (or the build), or only lint/format, because a
history where every test passes but clippy warns is a different repair from a broken one.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Protocol

from tddhooks import output
from tddhooks.policy.judge import (
    KIND_BUILD as KIND_BUILD,
)
from tddhooks.policy.judge import (
    KIND_IMPORT as KIND_IMPORT,
)
from tddhooks.policy.judge import (
    KIND_STYLE as KIND_STYLE,
)
from tddhooks.policy.judge import (  # re-exported
    KIND_TESTS as KIND_TESTS,
)
from tddhooks.policy.judge import (
    KIND_TIMEOUT as KIND_TIMEOUT,
)
from tddhooks.policy.judge import (
    red_kind as red_kind,
)
from tddhooks.policy.judge import (
    style_message as style_message,
)

if TYPE_CHECKING:
    pass

FIRST_SHOWN = 10


class FindingLike(Protocol):
    @property
    def commit(self) -> str: ...
    @property
    def subject(self) -> str: ...
    @property
    def rule(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def hint(self) -> str: ...
    @property
    def kind(self) -> str: ...


@dataclass(frozen=True)
class AuditRun:
    """Everything the report needs besides the findings."""

    range_spec: str
    baseline: str | None
    commits: int
    trees_judged: int
    trees_reused: int
    trees_stored: int = 0  # of trees_judged: verdicts an earlier audit stored (audit_gate.py)


def label(finding: FindingLike) -> str:
    """The rule as the summary groups it: `green` is split by kind."""
    kind = finding.kind
    return f"{finding.rule} ({kind})" if finding.rule == "green" and kind else finding.rule


def _first_line(text: str, limit: int = 160) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= limit else line[: limit - 1] + "…"


def counts(findings: Sequence[FindingLike]) -> list[tuple[str, int, int, str]]:
    """(rule label, violations, commits, first commit) per rule, most violations first."""
    violations: Counter[str] = Counter()
    commits: dict[str, set[str]] = {}
    first: dict[str, str] = {}
    for finding in findings:
        name = label(finding)
        violations[name] += 1
        commits.setdefault(name, set()).add(finding.commit)
        first.setdefault(name, finding.commit)
    return [
        (name, count, len(commits[name]), first[name]) for name, count in violations.most_common()
    ]


def render(
    findings: Sequence[FindingLike],
    run: AuditRun,
    *,
    as_json: bool,
    verbose: bool,
) -> None:
    """Print the audit's result in the chosen form."""
    if as_json:
        output.plain(json.dumps(as_document(findings, run), ensure_ascii=False, indent=2))
    elif verbose:
        _table(findings, "policy violations", hints=True)
        _footer(findings, run)
    else:
        _summary(findings, run)


def as_document(findings: Sequence[FindingLike], run: AuditRun) -> dict[str, object]:
    """The --json report (a stable shape: docs/commands.md, `tddhooks audit`, shows every field)."""
    rows = [_as_dict(finding) for finding in findings]
    return {
        "range": run.range_spec,
        "baseline": run.baseline,
        "commits": run.commits,
        "ok": not findings,
        "trees_judged": run.trees_judged,
        "trees_reused": run.trees_reused,
        "trees_from_store": run.trees_stored,
        "summary": [
            {"rule": name, "violations": count, "commits": commits, "first_commit": first}
            for name, count, commits, first in counts(findings)
        ],
        "violations": rows,
    }


def _as_dict(finding: FindingLike) -> dict[str, object]:
    try:
        return asdict(finding)  # type: ignore[call-overload, no-any-return]
    except TypeError:
        names = ("commit", "subject", "rule", "message", "hint", "kind")
        return {name: getattr(finding, name) for name in names}


def _summary(findings: Sequence[FindingLike], run: AuditRun) -> None:
    from rich.markup import escape
    from rich.table import Table

    if not findings:
        _footer(findings, run)
        return
    table = Table(title="violations by rule")
    for column in ("rule", "violations", "commits", "first commit"):
        table.add_column(column, overflow="fold")
    for name, count, commits, first in counts(findings):
        table.add_row(escape(name), str(count), str(commits), first[:10])
    output.console().print(table)
    shown = list(findings[:FIRST_SHOWN])
    _table(shown, "first offending commits", hints=False)
    _footer(findings, run)
    if len(findings) > len(shown) or any(finding.hint for finding in shown):
        output.say(
            f"[dim]run `tddhooks audit --verbose` for all {len(findings)} violation(s) with "
            "their output, or --json[/dim]"
        )


def _table(findings: Sequence[FindingLike], title: str, *, hints: bool) -> None:
    from rich.markup import escape
    from rich.table import Table

    if not findings:
        return
    table = Table(title=title, show_lines=hints)
    for column in ("commit", "subject", "rule", "detail"):
        table.add_column(column, overflow="fold")
    for finding in findings:
        detail = finding.message + (f"\n{finding.hint}" if hints and finding.hint else "")
        if not hints:
            detail = _first_line(detail, 200)
        name = label(finding)
        table.add_row(finding.commit[:10], escape(finding.subject), escape(name), escape(detail))
    output.console().print(table)


def _footer(findings: Sequence[FindingLike], run: AuditRun) -> None:
    since = f" after the baseline {run.baseline}" if run.baseline else ""
    notes = []
    if run.trees_reused:
        notes.append(f"{run.trees_reused} commit(s) reused the verdict of an identical tree")
    if run.trees_stored:
        notes.append(
            f"{run.trees_stored} tree verdict(s) from earlier audits; --fresh re-runs them"
        )
    reused = f" ({'; '.join(notes)})" if notes else ""
    if not findings:
        output.ok(f"{run.commits} commit(s) checked{since}: every one follows the policy{reused}")
        return
    commits = len({finding.commit for finding in findings})
    output.fail(
        f"{len(findings)} violation(s) in {commits} of {run.commits} commit(s){since}{reused}"
    )
    # findings come in history order: the first is the oldest offending commit
    oldest, newest = findings[0].commit[:10], findings[-1].commit[:10]
    output.err_console().print(
        f"  [bold]fix:[/bold] these commits are history. Not pushed yet: rewrite them with "
        f"`git rebase -i {oldest}^` (`--root` for the first commit; `reword` a message, `edit` "
        f"to add a test or fix the code). Pushed: keep them and judge what follows with "
        f"`tddhooks audit --since {newest}`",
        highlight=False,
    )
