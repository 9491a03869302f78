"""One agent turn's attempts: ask the model, parse its answer, let the role judge it, feed the
failure back, and stop when the supervisor says so. Role logic lives in `drive/turns.py`."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from tddhooks.agents.context import TurnContext, build_messages, estimate_tokens
from tddhooks.agents.edits import AgentAnswer, AnswerInvalid, FileEdit, normalize_path
from tddhooks.agents.schemas import answer_schema
from tddhooks.drive.console import Display, model_label
from tddhooks.drive.kinds import AttemptOutcome
from tddhooks.drive.ports import Gate, GitWorkspace, RealGate, Workspace
from tddhooks.drive.steplog import (
    AttemptRecord,
    EditRecord,
    RunnerOutput,
    StepLog,
    StepWriter,
    VerdictSummary,
    tail,
)
from tddhooks.drive.supervisor import Decision, Supervisor
from tddhooks.policy.settings import PolicySettings

if TYPE_CHECKING:
    from tddhooks.drive.ports import Model
    from tddhooks.llm.client import ChatResult
    from tddhooks.llm.usage import UsageLedger
    from tddhooks.policy.verdicts import Verdict

FAILURE_LINES = 30


@dataclass
class Crew:
    """What every turn shares: the repository, the agents' clients and the referees."""

    root: Path
    settings: PolicySettings
    clients: Mapping[str, Model]
    supervisor: Supervisor
    ledger: UsageLedger
    display: Display
    steps: StepWriter
    context_tokens: int
    max_attempts: int
    cache_enabled: bool = True
    gate: Gate = field(default_factory=RealGate)
    workspace: Workspace = field(default_factory=GitWorkspace)
    decisions: list[Decision] = field(default_factory=list)
    failed_attempts: int = 0

    def model_of(self, role: str) -> str:
        return model_label(self.clients[role].settings)

    def decide(self, decision: Decision, log: StepLog | None = None) -> Decision:
        """Show and keep a supervisor decision (every decision is logged with its reason)."""
        self.decisions.append(decision)
        if log is not None:
            log.decisions.append({"action": decision.action, "reason": decision.reason})
        self.steps.log_decision(decision.action, decision.reason)
        self.display.emit("decision", action=decision.action, reason=decision.reason)
        return decision


@dataclass(frozen=True)
class Tried:
    """What one answer came to: landed (handed over, committed, empty refactor, done) or not."""

    landed: bool
    outcome: AttemptOutcome
    failure: str | None = None
    overshoot: tuple[str, ...] | None = None  # the new tests that passed at once
    commit: str | None = None
    subject: str | None = None
    test_names: tuple[str, ...] = ()
    done_reason: str | None = None
    cache_key: str = ""  # the cache slot of the answer that landed


Judge = Callable[[AgentAnswer, AttemptRecord], Tried]


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


def _ask(
    crew: Crew, role: str, cycle: int, ctx: TurnContext, record: AttemptRecord
) -> tuple[AgentAnswer | None, ChatResult | None]:
    """One model call; the answer parsed, or None with record.failure saying why."""
    from tddhooks.llm.client import UnusableAnswer

    messages = build_messages(ctx, budget_tokens=crew.context_tokens)
    record.prompt_tokens_estimate = sum(estimate_tokens(m["content"]) for m in messages)
    client = crew.clients[role]
    on_delta = crew.display.delta if crew.display.live else None
    try:
        with crew.display.thinking(role, crew.model_of(role)):
            result = client.complete(
                messages, role=role, on_delta=on_delta, schema=answer_schema(role)
            )
    except UnusableAnswer as error:
        if error.result is None:
            raise
        result = error.result
        _account(crew, role, cycle, result, record)
        record.failure = error.message
        return None, result
    _account(crew, role, cycle, result, record)
    try:
        answer = _parse(result.content, role)
    except AnswerInvalid as error:
        record.failure = error.message
        return None, result
    record.plan = answer.plan
    crew.display.emit("plan", role=role, plan=answer.plan)
    return answer, result


def _parse(text: str, role: str) -> AgentAnswer:
    from tddhooks.agents.edits import parse_answer

    return parse_answer(text, role)


def _account(crew: Crew, role: str, cycle: int, result: ChatResult, record: AttemptRecord) -> None:
    crew.ledger.add(role, cycle, result)
    record.prompt_tokens = result.prompt_tokens
    record.completion_tokens = result.completion_tokens
    record.cached = result.cached
    record.latency_s = round(result.latency_s, 3)
    crew.display.emit(
        "model-answered",
        role=role,
        prompt_tokens=result.prompt_tokens,
        completion_tokens=result.completion_tokens,
        cached=result.cached,
        latency_s=round(result.latency_s, 3),
        prompt_estimate=record.prompt_tokens_estimate,
    )


def run_attempts(
    crew: Crew,
    role: str,
    cycle: int,
    ctx: TurnContext,
    judge: Judge,
    log: StepLog,
    *,
    limit: int,
    extra_hints: tuple[str, ...] = (),
) -> Tried | None:
    """Ask, judge, and feed failures back until an answer lands, the supervisor gives up, or
    `limit` attempts are used; None when nothing landed."""
    failure: str | None = None
    for number in range(1, limit + 1):
        hints = (*crew.supervisor.hints_for(role), *extra_hints)
        attempt_ctx = dataclasses.replace(ctx, previous_failure=failure, hints=hints)
        record = AttemptRecord(number=number)
        log.attempts.append(record)
        answer, result = _ask(crew, role, cycle, attempt_ctx, record)
        if answer is None:
            tried = Tried(False, "invalid-answer", failure=record.failure)
        else:
            tried = judge(answer, record)
        record.outcome = tried.outcome
        if tried.landed:
            crew.supervisor.record_attempt_succeeded(role)
            return dataclasses.replace(tried, cache_key=result.cache_key if result else "")
        failure = first_lines(tried.failure or tried.outcome)
        record.failure = failure
        crew.failed_attempts += 1
        crew.display.emit(
            "attempt-failed", role=role, attempt=number, outcome=tried.outcome, reason=failure
        )
        if tried.overshoot is not None:
            crew.display.emit("overshoot", role=role, tests=list(tried.overshoot))
            decision = crew.supervisor.record_overshoot(tried.overshoot)
        else:
            decision = crew.supervisor.record_attempt_failed(role, failure)
        crew.decide(decision, log)
        if decision.action == "give-up":
            return None
    return None


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
