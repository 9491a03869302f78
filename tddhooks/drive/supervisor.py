"""The supervisor: procedural rules over a drive's events, each decision kept with its reason.

Pure: the loop reports events (overshoot, failed attempt, stuck implementor, finished cycle) and
acts on the returned Decision; nothing here touches git, files or models.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tddhooks.drive.kinds import DecisionAction
from tddhooks.errors import UsageError

STAY_MINIMAL = "Stay minimal: implement only what the staged test demands."
AFTER_PREPARATORY_REFACTOR = (
    "The source was just restructured by a preparatory refactor; try the staged test again "
    "with the smallest change."
)


@dataclass(frozen=True)
class Decision:
    """What the supervisor decided and why (logged verbatim).

    Actions: "retry", "give-up", "set-aside-test", "preparatory-refactor", "abandon-cycle",
    "next-cycle", "stop".
    """

    action: DecisionAction
    reason: str


def _first_line(text: str, limit: int = 160) -> str:
    line = next((line.strip() for line in text.splitlines() if line.strip()), "no details")
    return line if len(line) <= limit else line[: limit - 1] + "…"


@dataclass
class _Hints:
    covered: list[str] = field(default_factory=list)
    stay_minimal: bool = False
    set_aside: list[str] | None = None
    preparatory: list[str] | None = None
    after_refactor: bool = False


def set_aside_hint(names: str) -> str:
    """The tester's hint once the test(s) `names` were set aside (also drive/loop.py's, when the
    person plays the refactorer). Not "one step towards it": its requirement is put off, and the
    prompt points at another."""
    return f"The test {names} was too big a step and was set aside; write a smaller test."


class Supervisor:
    """Counts attempts, overshoots and failed cycles; hands out hints; says when to stop."""

    def __init__(
        self,
        *,
        max_attempts: int,
        max_failed_cycles: int,
        steps: int,
        budget_tokens: int | None,
    ) -> None:
        for name, value in (
            ("max_attempts_per_agent", max_attempts),
            ("max_failed_cycles", max_failed_cycles),
            ("--steps", steps),
        ):
            if value < 1:
                raise UsageError(f"{name} must be at least 1 (got {value})", fix=f"set {name} >= 1")
        if budget_tokens is not None and budget_tokens < 1:
            raise UsageError(
                f"--max-tokens-total must be positive (got {budget_tokens})",
                fix="leave it unset for no budget",
            )
        self.max_attempts = max_attempts
        self.max_failed_cycles = max_failed_cycles
        self.steps = steps
        self.budget_tokens = budget_tokens
        self.decisions: list[Decision] = []
        self.attempts: dict[str, int] = {}
        self.overshoots = 0
        self.retries = 0
        self.failed_cycles = 0
        self.consecutive_stuck = 0
        self._hints = _Hints()

    def _decide(self, action: DecisionAction, reason: str) -> Decision:
        decision = Decision(action, reason)
        self.decisions.append(decision)
        return decision

    @property
    def stop_reason(self) -> str | None:
        """The reason of the stop decision, once there is one."""
        return next((d.reason for d in reversed(self.decisions) if d.action == "stop"), None)

    def hints_for(self, role: str) -> list[str]:
        """What the next prompt of `role` must be told because of what happened so far."""
        hints = self._hints
        found: list[str] = []
        if role == "tester":
            if hints.set_aside is not None:
                found.append(set_aside_hint(", ".join(hints.set_aside) or "the last test"))
            if hints.covered:
                covered = ", ".join(hints.covered)
                found.append(f"Already covered: {covered}; pick a behaviour not yet covered.")
        elif role == "implementor":
            if hints.stay_minimal:
                found.append(STAY_MINIMAL)
            if hints.after_refactor:
                found.append(AFTER_PREPARATORY_REFACTOR)
        elif role == "refactorer" and hints.preparatory is not None:
            names = ", ".join(hints.preparatory) or "the staged test"
            found.append(
                f"Preparatory refactor: the implementor could not make {names} pass. Restructure "
                "the source, without changing behaviour, so that change becomes easy."
            )
        return found

    def record_overshoot(self, test_names: Sequence[str]) -> Decision:
        """The tester's new test passed at once: penalise, and count it as a failed tester attempt.

        The loop must not also call record_attempt_failed for the same answer.
        """
        self.overshoots += 1
        names = list(dict.fromkeys(test_names))
        self._hints.covered = list(dict.fromkeys([*self._hints.covered, *names]))
        self._hints.stay_minimal = True
        listed = ", ".join(names) or "the new test"
        decision = self.record_attempt_failed("tester", f"overshoot: {listed} already passes")
        return self._replace_last(
            decision.action,
            f"overshoot: {listed} passed before any implementation; the next implementor is told "
            f"to stay minimal and the tester what is covered; {decision.reason}",
        )

    def _replace_last(self, action: DecisionAction, reason: str) -> Decision:
        self.decisions.pop()
        return self._decide(action, reason)

    def record_attempt_failed(self, role: str, failure: str) -> Decision:
        """One failed attempt of `role`: "retry" while attempts remain, else "give-up"."""
        count = self.attempts.get(role, 0) + 1
        self.attempts[role] = count
        detail = _first_line(failure)
        if count < self.max_attempts:
            self.retries += 1
            return self._decide(
                "retry", f"{role} attempt {count} of {self.max_attempts} failed: {detail}"
            )
        self.attempts[role] = 0
        return self._decide(
            "give-up", f"{role} failed all {self.max_attempts} attempts; last failure: {detail}"
        )

    def record_attempt_succeeded(self, role: str) -> None:
        """The role's turn worked: its attempt count starts again next time."""
        self.attempts[role] = 0
        if role == "tester":
            self._hints.set_aside = None
        elif role == "refactorer":
            if self._hints.preparatory is not None:
                self._hints.after_refactor = True
            self._hints.preparatory = None

    def record_implementor_stuck(self, test_names: Sequence[str] = ()) -> Decision:
        """The implementor gave up on the staged test: set it aside first, then ask for a
        preparatory refactor, then abandon the cycle."""
        self.consecutive_stuck += 1
        self.attempts["implementor"] = 0
        names = list(dict.fromkeys(test_names))
        listed = ", ".join(names) or "the staged test"
        if self.consecutive_stuck == 1:
            self._hints.set_aside = names
            return self._decide(
                "set-aside-test",
                f"implementor stuck on {listed}: set it aside in .tdd/set-aside/ and ask the "
                "tester for a smaller step",
            )
        if self.consecutive_stuck == 2:
            self._hints.preparatory = names
            return self._decide(
                "preparatory-refactor",
                f"implementor stuck twice in a row (now on {listed}): ask the refactorer for a "
                "preparatory refactor, then retry",
            )
        stuck, self.consecutive_stuck = self.consecutive_stuck, 0
        return self._decide(
            "abandon-cycle",
            f"implementor stuck {stuck} times in a row (now on {listed}): set the test aside "
            "and end this cycle as failed",
        )

    def record_cycle_done(self, committed: bool) -> Decision:
        """Close a cycle: a commit resets the failure streak; otherwise the streak grows."""
        self.attempts.clear()
        self._hints = _Hints()
        if committed:
            self.failed_cycles = 0
            self.consecutive_stuck = 0
            return self._decide("next-cycle", "cycle committed")
        self.failed_cycles += 1
        return self._decide(
            "next-cycle",
            f"cycle failed ({self.failed_cycles} of {self.max_failed_cycles} allowed in a row)",
        )

    def should_stop(
        self, *, cycles_done: int, tokens_used: int, done_reason: str | None
    ) -> Decision | None:
        """A "stop" Decision when the drive must end (kata done, steps, budget, failures)."""
        if done_reason:
            return self._decide("stop", f"the tester reported the kata complete: {done_reason}")
        if cycles_done >= self.steps:
            return self._decide("stop", f"reached --steps {self.steps} ({cycles_done} cycles run)")
        if self.budget_tokens is not None and tokens_used >= self.budget_tokens:
            return self._decide(
                "stop", f"token budget reached: {tokens_used} of {self.budget_tokens} tokens used"
            )
        if self.failed_cycles >= self.max_failed_cycles:
            return self._decide(
                "stop", f"{self.failed_cycles} consecutive failed cycles (max_failed_cycles)"
            )
        return None
