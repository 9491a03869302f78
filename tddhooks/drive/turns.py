"""The three agent turns. Each one starts on a tree the phase says is clean, writes only the paths
its answer names, and puts exactly those back when an attempt fails or the turn is interrupted."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tddhooks import git
from tddhooks.agents.context import crate_name
from tddhooks.agents.edits import AgentAnswer, EditRefused, apply_edits, check_edits
from tddhooks.agents.edits import normalize_path as _normalize
from tddhooks.agents.roles import path_policy
from tddhooks.drive import gather
from tddhooks.drive.attempts import Crew, Tried, edit_records, run_attempts, show_verdict, step_log
from tddhooks.drive.kinds import TurnOutcome
from tddhooks.drive.messages import feature_message, refactor_message
from tddhooks.drive.redcheck import changed_behaviour, misplaced_red, new_test_names
from tddhooks.drive.state import PhaseInfo, mark_done
from tddhooks.drive.steplog import AttemptRecord, StepLog
from tddhooks.policy.handoff import Handoff, clear_handoff, read_handoff, write_handoff
from tddhooks.policy.verdicts import Verdict

REFACTOR_ATTEMPTS = 3


@dataclass(frozen=True)
class TurnResult:
    """How a turn ended: "handed-over", "done", "committed", "empty", "reverted", "gave-up"."""

    role: str
    outcome: TurnOutcome
    commit: str | None = None
    subject: str | None = None
    test_names: tuple[str, ...] = ()
    done_reason: str | None = None
    cache_key: str = ""


def _paths(answer: AgentAnswer) -> list[str]:
    return [_normalize(edit.path) for edit in answer.edits]


def _refused(crew: Crew, role: str, answer: AgentAnswer, record: AttemptRecord) -> Tried | None:
    """The role's path rules, checked before anything is written."""
    record.edits = edit_records(answer.edits)
    try:
        check_edits(crew.root, answer.edits, path_policy(role, crew.settings))
    except EditRefused as error:
        return Tried(False, "refused", failure=error.message)
    crew.display.emit(
        "edits", role=role, files=[e.model_dump(include={"path", "action"}) for e in record.edits]
    )
    return None


def _write(crew: Crew, role: str, answer: AgentAnswer) -> list[str]:
    """Apply the edits, format the files written, stage them; returns the paths."""
    paths = apply_edits(crew.root, answer.edits, path_policy(role, crew.settings))
    crew.workspace.format_files(crew.root, crew.settings, paths)
    crew.workspace.stage(crew.root, paths)
    return paths


def kata_crate(root: Path) -> str | None:
    """The Rust crate name tests import (None for other languages)."""
    manifest = root / "Cargo.toml"
    return crate_name(manifest.read_text(encoding="utf-8")) if manifest.is_file() else None


def tester_turn(crew: Crew, info: PhaseInfo, *, hints: tuple[str, ...]) -> TurnResult:
    """Ask for one new failing test; stage it and hand it over when it is red for its own reason."""
    role, root = "tester", crew.root

    def judge(answer: AgentAnswer, record: AttemptRecord) -> Tried:
        if answer.done:
            return Tried(True, "done", done_reason=answer.reason)
        if not answer.edits:
            return Tried(
                False,
                "no-edits",
                failure="the answer has no edits: write exactly one "
                "new failing test, or answer done with a reason",
            )
        refused = _refused(crew, role, answer, record)
        if refused is not None:
            return refused
        planned, handed_over = _paths(answer), False
        try:
            paths = _write(crew, role, answer)
            verdict = crew.gate.staged(root, crew.settings)
            show_verdict(crew, role, verdict, record)
            new_tests = new_test_names(root, crew.settings, paths)
            if verdict.report.green:
                return Tried(
                    False,
                    "overshoot",
                    overshoot=tuple(new_tests),
                    failure=(
                        f"the new test already passes ({', '.join(new_tests) or 'no test found'}); "
                        "it was discarded: pick a behaviour the code does not have yet"
                    ),
                )
            wrong = misplaced_red(verdict, new_tests, paths, kata_crate(root))
            if wrong is not None:
                return Tried(False, "wrong-red", failure=wrong)
            write_handoff(
                root,
                Handoff(
                    head=git.head(root),
                    intent=answer.plan,
                    test_names=new_tests,
                    red_output=verdict.failure_excerpt(),
                    by="tester",
                    created_at=time.time(),
                    test_blobs=git.blob_ids(root, ":", paths),
                ),
            )
            handed_over = True
            crew.display.emit("handed-over", role=role, paths=paths, tests=new_tests)
            return Tried(True, "handed-over", test_names=tuple(new_tests))
        finally:
            if not handed_over:
                crew.workspace.restore_to_head(root, planned)

    with step_log(crew, role, info.cycle, info.phase.value) as log:
        ctx = gather.turn_context(root, crew.settings, role=role, cycle=info.cycle)
        tried = run_attempts(
            crew, role, info.cycle, ctx, judge, log, limit=crew.max_attempts, extra_hints=hints
        )
        if tried is None:
            log.outcome = "gave-up"
            return TurnResult(role, "gave-up")
        log.outcome = tried.outcome
        if tried.outcome == "done":
            mark_done(root, tried.done_reason or "the tester reported the kata complete")
            return TurnResult(role, "done", done_reason=tried.done_reason)
        return TurnResult(
            role, "handed-over", test_names=tried.test_names, cache_key=tried.cache_key
        )


def _commit(crew: Crew, message: str, log: StepLog) -> Tried:
    outcome = crew.workspace.commit(crew.root, message, crew.settings)
    if not outcome.ok:
        return Tried(
            False, "rejected", failure="the commit hooks rejected the commit:\n" + outcome.output
        )
    subject = message.splitlines()[0]
    log.commit, log.subject = outcome.sha, subject
    return Tried(True, "committed", commit=outcome.sha, subject=subject)


Compose = Callable[[AgentAnswer, Verdict], "str | Tried"]


def _source_attempt(
    crew: Crew,
    role: str,
    answer: AgentAnswer,
    record: AttemptRecord,
    log: StepLog,
    compose: Compose,
) -> Tried:
    """Write source edits, gate the staged tree, commit with the message `compose` writes (or
    return its Tried saying why the green tree is still not acceptable)."""
    root = crew.root
    refused = _refused(crew, role, answer, record)
    if refused is not None:
        return refused
    planned, before, committed = _paths(answer), git.head(root), False
    try:
        _write(crew, role, answer)
        verdict = crew.gate.staged(root, crew.settings)
        show_verdict(crew, role, verdict, record)
        if not verdict.green:
            return Tried(False, "red", failure=verdict.failure_excerpt())
        message = compose(answer, verdict)
        if isinstance(message, Tried):
            return message
        tried = _commit(crew, message, log)
        committed = tried.landed
        if committed:
            crew.display.emit("committed", role=role, sha=tried.commit, subject=tried.subject)
        return tried
    finally:
        # a commit that landed stays; anything else of this attempt goes back to HEAD
        if not committed and git.head(root) == before:
            crew.workspace.restore_to_head(root, planned)


def staged_tests(root: Path) -> list[str]:
    """Paths of the staged changes (in phase red: the test files handed over)."""
    return sorted(change.path for change in git.staged_changes(root))


def implementor_turn(crew: Crew, info: PhaseInfo, red: Verdict | None) -> TurnResult:
    """Make the staged test pass with source edits and commit both through the real hooks."""
    role, root = "implementor", crew.root
    handoff = read_handoff(root)
    tests = list(handoff.test_names) if handoff else list(red.report.failing_tests if red else [])
    with step_log(crew, role, info.cycle, info.phase.value) as log:
        red_output = red.failure_excerpt() if red is not None else ""
        ctx = gather.turn_context(
            root,
            crew.settings,
            role=role,
            cycle=info.cycle,
            staged=staged_tests(root),
            test_output=red_output or (handoff.red_output if handoff else ""),
            handoff_intent=handoff.intent if handoff else None,
        )

        def judge(answer: AgentAnswer, record: AttemptRecord) -> Tried:
            if not answer.edits:
                return Tried(
                    False,
                    "no-edits",
                    failure="the answer has no edits: change the source so the staged test passes",
                )
            return _source_attempt(crew, role, answer, record, log, compose)

        def compose(answer: AgentAnswer, verdict: Verdict) -> str:
            return feature_message(
                root,
                crew.settings,
                cycle=info.cycle,
                answer=answer,
                handoff_intent=handoff.intent if handoff else None,
                test_names=tests,
                verification=verdict.verification_lines(),
                fallback_scope=gather.scope_from(ctx.expectations),
            )

        tried = run_attempts(crew, role, info.cycle, ctx, judge, log, limit=crew.max_attempts)
        if tried is None:
            log.outcome = "gave-up"
            return TurnResult(role, "gave-up", test_names=tuple(tests))
        clear_handoff(root)
        log.outcome = "committed"
        return TurnResult(
            role, "committed", commit=tried.commit, subject=tried.subject, test_names=tuple(tests)
        )


def refactorer_turn(crew: Crew, info: PhaseInfo) -> TurnResult:
    """Tidy the code without changing behaviour, or say there is nothing worth changing."""
    role, root = "refactorer", crew.root
    baseline = crew.gate.tree(root, git.tree_of(root, "HEAD"), crew.settings)
    with step_log(crew, role, info.cycle, info.phase.value) as log:

        def judge(answer: AgentAnswer, record: AttemptRecord) -> Tried:
            if not answer.edits:
                crew.display.emit("refactor-empty", role=role, plan=answer.plan)
                return Tried(True, "empty")
            return _source_attempt(crew, role, answer, record, log, compose)

        def compose(answer: AgentAnswer, verdict: Verdict) -> str | Tried:
            changed = changed_behaviour(baseline, verdict)
            if changed is not None:
                return Tried(False, "tests-changed", failure=changed)
            return refactor_message(
                root,
                crew.settings,
                cycle=info.cycle,
                answer=answer,
                verification=verdict.verification_lines(),
            )

        ctx = gather.turn_context(root, crew.settings, role=role, cycle=info.cycle)
        limit = min(REFACTOR_ATTEMPTS, crew.max_attempts)
        tried = run_attempts(crew, role, info.cycle, ctx, judge, log, limit=limit)
        if tried is None:
            log.outcome = "reverted"
            crew.display.emit(
                "reverted",
                role=role,
                reason=f"no acceptable refactor in {limit} attempts; tree at HEAD",
            )
            return TurnResult(role, "reverted")
        log.outcome = tried.outcome
        outcome: TurnOutcome = "committed" if tried.commit else "empty"
        return TurnResult(role, outcome, commit=tried.commit, subject=tried.subject)
