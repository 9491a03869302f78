"""What a turn writes down: its step file (written when the turn ends, however it ends), each
attempt's edits and verdict as the step file keeps them, and what goes back to the model."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from tddhooks.agents.edits import FileEdit, normalize_path
from tddhooks.drive.crew import Crew
from tddhooks.drive.steplog import (
    AttemptRecord,
    EditRecord,
    RunnerOutput,
    StepLog,
    VerdictSummary,
    tail,
)

if TYPE_CHECKING:
    from tddhooks.policy.verdicts import Verdict

FAILURE_LINES = 30


def first_lines(text: str, count: int = FAILURE_LINES) -> str:
    """The first `count` non-empty lines: what goes back to the model after a failure."""
    lines = [line.rstrip() for line in text.splitlines() if line.strip()]
    more = len(lines) - count
    return "\n".join(lines[:count] + ([f"… ({more} more lines)"] if more > 0 else []))


def edit_records(edits: list[FileEdit]) -> list[EditRecord]:
    """Paths, actions and sizes of a plan's edits (contents stay out of the step file)."""
    records = []
    for edit in edits:
        try:
            path = normalize_path(edit.path)
        except ValueError:
            path = edit.path
        content = edit.content or ""
        records.append(
            EditRecord(
                path=path,
                action=edit.action,
                bytes=len(content.encode("utf-8")),
                lines=content.count("\n") + (0 if content.endswith("\n") else 1) if content else 0,
            )
        )
    return records


def verdict_summary(verdict: Verdict) -> VerdictSummary:
    """The gate's verdict as the step file keeps it (summaries and output tails)."""
    return VerdictSummary(
        green=verdict.green,
        cached=verdict.cached,
        summary=verdict.verification_lines(),
        failing_tests=list(verdict.report.failing_tests),
        compile_errors=list(verdict.report.compile_errors),
        steps=[
            RunnerOutput(
                name=step.name,
                returncode=step.returncode,
                timed_out=step.timed_out,
                duration_s=step.duration_s,
                output_tail=tail(step.output_tail),
            )
            for step in verdict.steps
        ],
    )


def show_verdict(crew: Crew, role: str, verdict: Verdict, record: AttemptRecord) -> None:
    record.verdict = verdict_summary(verdict)
    crew.display.emit(
        "verdict",
        role=role,
        green=verdict.green,
        cached=verdict.cached,
        summary=verdict.verification_lines(),
        failing_tests=list(verdict.report.failing_tests),
    )


@contextmanager
def step_log(crew: Crew, role: str, cycle: int, phase: str) -> Iterator[StepLog]:
    """A StepLog for one turn, written when the turn ends, however it ends."""
    settings = crew.clients[role].settings
    log = StepLog(
        cycle=cycle,
        role=role,
        provider=settings.provider,
        model=settings.model,
        phase=phase,
        started_at=round(time.time(), 3),
    )
    start = time.monotonic()
    crew.display.emit(
        "turn-started", role=role, cycle=cycle, phase=phase, model=crew.model_of(role)
    )
    try:
        yield log
    except BaseException as error:
        log.outcome = log.outcome or (
            "interrupted" if isinstance(error, KeyboardInterrupt) else f"error: {error}"
        )
        raise
    finally:
        log.duration_s = round(time.monotonic() - start, 3)
        log.prompt_tokens = sum(attempt.prompt_tokens for attempt in log.attempts)
        log.completion_tokens = sum(attempt.completion_tokens for attempt in log.attempts)
        crew.steps.write(log)
