"""The attempts of one turn: what the next prompt is told, what one answer came to (Tried), and
what follows a failure (fed back to the model, the supervisor told, maybe the end). The turn
drives them (drive/turnkit.py `Turn.play`): it asks (drive/asking.py), judges, and settles here;
nothing here calls back into the turn or the loop."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from tddhooks.agents.context import TurnContext
from tddhooks.drive.crew import Crew
from tddhooks.drive.kinds import AttemptOutcome, Role
from tddhooks.drive.records import first_lines
from tddhooks.drive.steplog import AttemptRecord, StepLog

__all__ = ["Attempts", "Crew", "Tried"]  # Crew lives in drive/crew.py; older imports find it here


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


@dataclass
class Attempts:
    """The count of a turn's attempts and the failure the next prompt carries."""

    crew: Crew
    role: Role
    log: StepLog
    limit: int
    extra_hints: tuple[str, ...] = ()
    failure: str | None = None
    number: int = 0
    given_up: bool = False

    def next(self, ctx: TurnContext) -> tuple[TurnContext, AttemptRecord] | None:
        """The next attempt's context and record; None when the turn has no attempt left."""
        if self.given_up or self.number >= self.limit:
            return None
        self.number += 1
        hints = (*self.crew.supervisor.hints_for(self.role), *self.extra_hints)
        record = AttemptRecord(number=self.number)
        self.log.attempts.append(record)
        broken: tuple[str, ...] = ()
        if self.role != "tester":
            from tddhooks.drive.gather import broken_expectations

            broken = broken_expectations(
                self.crew.settings, ctx.file_texts, ctx.staged_files, self.failure, ctx.kata
            )
        expected = (*ctx.expectations, *broken)
        ctx = dataclasses.replace(
            ctx, previous_failure=self.failure, hints=hints, expectations=expected
        )
        return ctx, record

    def settle(self, tried: Tried, record: AttemptRecord, cache_key: str = "") -> Tried | None:
        """The landed Tried (with the cache slot of its answer), or None: the failure goes back
        to the model next time, and the supervisor decides whether there is a next time."""
        crew, role = self.crew, self.role
        record.outcome = tried.outcome
        if tried.landed:
            crew.supervisor.record_attempt_succeeded(role)
            return dataclasses.replace(tried, cache_key=cache_key)
        failure = first_lines(tried.failure or tried.outcome)
        self.failure = record.failure = failure
        crew.failed_attempts += 1
        crew.display.emit(
            "attempt-failed", role=role, attempt=self.number, outcome=tried.outcome, reason=failure
        )
        if tried.overshoot is not None:
            crew.display.emit("overshoot", role=role, tests=list(tried.overshoot))
            decision = crew.supervisor.record_overshoot(tried.overshoot)
        else:
            decision = crew.supervisor.record_attempt_failed(role, failure)
        crew.decide(decision, self.log)
        self.given_up = decision.action == "give-up"
        return None
