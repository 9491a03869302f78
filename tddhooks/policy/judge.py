"""Judging one commit as `tddhooks audit` does: its message and type rules, a merge's own
resolution, and its tree's gate verdict, each by the commit's parent's policy. The audit command,
the reference-transaction and pre-push hooks and the agent hooks' landed-commit check all judge
through these functions (docs/security.md)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from tddhooks import git

if TYPE_CHECKING:
    from tddhooks.policy.settings import PolicySettings
    from tddhooks.policy.verdicts import Verdict

KIND_TESTS = "tests fail"


KIND_BUILD = "does not build"


KIND_IMPORT = "does not import"  # Python: pytest cannot collect a test module


KIND_TIMEOUT = "tests time out"


KIND_STYLE = "lint/format only"


KIND_NOTHING_RAN = "no test ran"  # the test step stopped before any test: no manifest, …

EXCERPT_LINES = 6


def red_kind(verdict: Verdict) -> str:
    """Why a red tree is red: its tests (failing, not building, too slow) or only lint/format."""
    report = verdict.report
    test = verdict.step("test")
    if report.timed_out or (test is not None and test.timed_out):
        return KIND_TIMEOUT
    if report.compile_errors:
        return KIND_IMPORT if report.error_kind == "import" else KIND_BUILD
    if nothing_ran(verdict):
        return KIND_NOTHING_RAN
    if not report.green or (test is not None and not test.ok):
        return KIND_TESTS
    return KIND_STYLE


def nothing_ran(verdict: Verdict) -> bool:
    """The test step failed before any test ran and said why (no manifest at the top, a runner
    that cannot start): no test failed, so the tree is not "tests fail"."""
    report, test = verdict.report, verdict.step("test")
    ran = report.passed or report.failed or report.failing_tests
    return bool(report.error_lines) and not ran and test is not None and not test.ok


def style_message(verdict: Verdict) -> str:
    """For a lint/format-only red tree: the tests pass, and which steps did not."""
    failed = [step.name for step in verdict.steps if not step.ok and step.name != "test"]
    what = " and ".join(failed) or "lint/format"
    return (
        f"the tests pass ({verdict.report.summary()}) but {what} fails: a lint/format-only red tree"
    )


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
    if verdict.green:
        return None
    kind = red_kind(verdict)
    failing = verdict.report.failing_tests
    message = "the committed tree is red: " + verdict.report.summary()
    if nothing_ran(verdict):
        message = "the committed tree is red: " + verdict.report.error_lines[0].split("; ")[0]
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
