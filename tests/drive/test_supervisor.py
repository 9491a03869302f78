"""The supervisor's rules, table-driven: attempts, overshoot penalty, stuck implementor, stops."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tddhooks.drive.supervisor import (
    AFTER_PREPARATORY_REFACTOR,
    STAY_MINIMAL,
    Decision,
    Supervisor,
)
from tddhooks.errors import UsageError


def _supervisor(
    *, attempts: int = 3, failed_cycles: int = 2, steps: int = 5, budget: int | None = 10_000
) -> Supervisor:
    return Supervisor(
        max_attempts=attempts, max_failed_cycles=failed_cycles, steps=steps, budget_tokens=budget
    )


@pytest.mark.parametrize(
    ("kwargs", "flag"),
    [
        ({"attempts": 0}, "max_attempts_per_agent"),
        ({"failed_cycles": 0}, "max_failed_cycles"),
        ({"steps": 0}, "--steps"),
        ({"budget": 0}, "--max-tokens-total"),
    ],
)
def test_invalid_limits_name_the_setting(kwargs: dict[str, int], flag: str) -> None:
    with pytest.raises(UsageError, match=flag):
        _supervisor(**kwargs)


@pytest.mark.parametrize(
    ("max_attempts", "failures", "actions"),
    [
        (1, 1, ["give-up"]),
        (3, 3, ["retry", "retry", "give-up"]),
        # after giving up, the role starts counting again
        (2, 4, ["retry", "give-up", "retry", "give-up"]),
    ],
)
def test_attempts_are_counted_up_to_the_limit(
    max_attempts: int, failures: int, actions: list[str]
) -> None:
    supervisor = _supervisor(attempts=max_attempts)
    got = [
        supervisor.record_attempt_failed("implementor", "error[E0425]: cannot find `to_röman`\n…")
        for _ in range(failures)
    ]
    assert [decision.action for decision in got] == actions
    assert "cannot find `to_röman`" in got[-1].reason
    assert supervisor.retries == actions.count("retry")


def test_attempts_are_counted_per_role_and_reset_by_success() -> None:
    supervisor = _supervisor(attempts=2)
    assert supervisor.record_attempt_failed("implementor", "red").action == "retry"
    assert supervisor.record_attempt_failed("tester", "bad json").action == "retry"
    supervisor.record_attempt_succeeded("tester")
    assert supervisor.record_attempt_failed("tester", "bad json").action == "retry"
    assert supervisor.record_attempt_failed("implementor", "red").action == "give-up"


def test_failure_reason_is_one_short_line() -> None:
    supervisor = _supervisor()
    decision = supervisor.record_attempt_failed("refactorer", "\n\n" + "x" * 500 + "\nsecond")
    assert decision.reason.startswith("refactorer attempt 1 of 3 failed: xxx")
    assert "second" not in decision.reason
    assert len(decision.reason) < 220
    assert supervisor.record_attempt_failed("refactorer", "").reason.endswith("no details")


def test_overshoot_penalises_the_implementor_and_tells_the_tester_what_is_covered() -> None:
    supervisor = _supervisor()
    decision = supervisor.record_overshoot(["tests/four.rs::four", "tests/five.rs::fünf"])
    assert decision.action == "retry"
    assert "overshoot" in decision.reason
    assert supervisor.overshoots == 1
    assert supervisor.hints_for("implementor") == [STAY_MINIMAL]
    assert supervisor.hints_for("tester") == [
        "Already covered: tests/four.rs::four, tests/five.rs::fünf; "
        "pick a behaviour not yet covered."
    ]
    assert supervisor.hints_for("refactorer") == []
    # a second overshoot adds to what is covered, without repeating names
    supervisor.record_overshoot(["tests/four.rs::four", "tests/six.rs::six"])
    assert "four, tests/five.rs::fünf, tests/six.rs::six;" in supervisor.hints_for("tester")[0]
    assert supervisor.overshoots == 2


def test_overshoot_counts_as_a_failed_tester_attempt() -> None:
    supervisor = _supervisor(attempts=2)
    assert supervisor.record_overshoot(["a"]).action == "retry"
    decision = supervisor.record_overshoot(["b"])
    assert decision.action == "give-up"
    assert "tester failed all 2 attempts" in decision.reason
    # one decision per event, not two
    assert len(supervisor.decisions) == 2


def test_penalties_end_with_the_cycle() -> None:
    supervisor = _supervisor()
    supervisor.record_overshoot(["a"])
    supervisor.record_cycle_done(committed=True)
    assert supervisor.hints_for("implementor") == []
    assert supervisor.hints_for("tester") == []


@pytest.mark.parametrize(
    ("stuck_times", "action", "role_with_hint", "hint_text"),
    [
        (1, "set-aside-test", "tester", "was too big a step and was set aside"),
        (2, "preparatory-refactor", "refactorer", "Preparatory refactor"),
        (3, "abandon-cycle", None, None),
    ],
)
def test_stuck_implementor_escalates(
    stuck_times: int, action: str, role_with_hint: str | None, hint_text: str | None
) -> None:
    supervisor = _supervisor()
    decision = Decision("retry", "")
    for _ in range(stuck_times):
        decision = supervisor.record_implementor_stuck(["tests/big.rs::big_step"])
    assert decision.action == action
    assert "tests/big.rs::big_step" in decision.reason
    if role_with_hint is not None:
        assert hint_text is not None
        assert any(hint_text in hint for hint in supervisor.hints_for(role_with_hint))
        assert "tests/big.rs::big_step" in supervisor.hints_for(role_with_hint)[0]


def test_a_commit_resets_the_stuck_streak() -> None:
    supervisor = _supervisor()
    assert supervisor.record_implementor_stuck().action == "set-aside-test"
    supervisor.record_cycle_done(committed=True)
    assert supervisor.record_implementor_stuck().action == "set-aside-test"


def test_a_failed_cycle_keeps_the_stuck_streak_and_abandoning_restarts_it() -> None:
    supervisor = _supervisor()
    supervisor.record_implementor_stuck()
    supervisor.record_cycle_done(committed=False)
    assert supervisor.record_implementor_stuck().action == "preparatory-refactor"
    assert supervisor.record_implementor_stuck().action == "abandon-cycle"
    assert supervisor.record_implementor_stuck().action == "set-aside-test"


def test_set_aside_hint_ends_when_the_tester_succeeds() -> None:
    supervisor = _supervisor()
    supervisor.record_implementor_stuck(["t"])
    supervisor.record_attempt_succeeded("tester")
    assert supervisor.hints_for("tester") == []


def test_after_a_preparatory_refactor_the_implementor_is_told_so() -> None:
    supervisor = _supervisor()
    supervisor.record_implementor_stuck(["t"])
    supervisor.record_implementor_stuck(["t"])
    assert supervisor.hints_for("implementor") == []
    supervisor.record_attempt_succeeded("refactorer")
    assert supervisor.hints_for("implementor") == [AFTER_PREPARATORY_REFACTOR]
    assert supervisor.hints_for("refactorer") == []


def test_stuck_resets_the_implementor_attempts() -> None:
    supervisor = _supervisor(attempts=2)
    supervisor.record_attempt_failed("implementor", "red")
    supervisor.record_implementor_stuck()
    assert supervisor.record_attempt_failed("implementor", "red").action == "retry"


@pytest.mark.parametrize(
    ("committed", "failed_cycles", "reason"),
    [
        ([True], 0, "cycle committed"),
        ([False], 1, "cycle failed (1 of 2 allowed in a row)"),
        ([False, True], 0, "cycle committed"),
        ([False, False], 2, "cycle failed (2 of 2 allowed in a row)"),
    ],
)
def test_cycle_outcomes(committed: list[bool], failed_cycles: int, reason: str) -> None:
    supervisor = _supervisor()
    decisions = [supervisor.record_cycle_done(outcome) for outcome in committed]
    assert decisions[-1] == Decision("next-cycle", reason)
    assert supervisor.failed_cycles == failed_cycles


Setup = Callable[[Supervisor], None]


def _fail_cycles(count: int) -> Setup:
    def setup(supervisor: Supervisor) -> None:
        for _ in range(count):
            supervisor.record_cycle_done(committed=False)

    return setup


@pytest.mark.parametrize(
    ("setup", "cycles_done", "tokens", "done_reason", "reason"),
    [
        (_fail_cycles(0), 0, 0, None, None),
        (_fail_cycles(0), 4, 9_999, None, None),
        (_fail_cycles(0), 1, 0, "all six rules of Zählen are covered", "kata complete: all six"),
        (_fail_cycles(0), 5, 0, None, "reached --steps 5 (5 cycles run)"),
        (_fail_cycles(0), 7, 0, None, "reached --steps 5"),
        (_fail_cycles(0), 1, 10_000, None, "token budget reached: 10000 of 10000"),
        (_fail_cycles(1), 1, 0, None, None),
        (_fail_cycles(2), 2, 0, None, "2 consecutive failed cycles"),
        # the tester's verdict wins over every other reason
        (_fail_cycles(2), 9, 99_999, "done", "kata complete: done"),
    ],
)
def test_should_stop(
    setup: Setup, cycles_done: int, tokens: int, done_reason: str | None, reason: str | None
) -> None:
    supervisor = _supervisor(failed_cycles=2, steps=5, budget=10_000)
    setup(supervisor)
    decision = supervisor.should_stop(
        cycles_done=cycles_done, tokens_used=tokens, done_reason=done_reason
    )
    if reason is None:
        assert decision is None
        assert supervisor.stop_reason is None
    else:
        assert decision is not None
        assert decision.action == "stop"
        assert reason in decision.reason
        assert supervisor.stop_reason == decision.reason
        assert supervisor.decisions[-1] == decision


def test_no_budget_means_tokens_never_stop_the_drive() -> None:
    supervisor = _supervisor(budget=None)
    assert supervisor.should_stop(cycles_done=0, tokens_used=10**9, done_reason=None) is None


def test_every_decision_is_logged_with_its_reason() -> None:
    supervisor = _supervisor()
    returned = [
        supervisor.record_overshoot(["a"]),
        supervisor.record_attempt_failed("implementor", "red"),
        supervisor.record_implementor_stuck(["b"]),
        supervisor.record_cycle_done(committed=False),
        supervisor.should_stop(cycles_done=5, tokens_used=0, done_reason=None),
    ]
    assert supervisor.decisions == returned
    assert all(decision is not None and decision.reason for decision in returned)


def test_the_preparatory_refactor_is_asked_for_until_it_lands() -> None:
    supervisor = _supervisor()
    supervisor.record_implementor_stuck(["t"])  # set aside: not the refactorer's
    assert supervisor.hints_for("refactorer") == []
    supervisor.record_implementor_stuck(["t"])
    hints = supervisor.hints_for("refactorer")
    assert hints[0].startswith("Preparatory refactor: the implementor could not make t pass.")
    supervisor.record_attempt_succeeded("refactorer")
    assert supervisor.hints_for("refactorer") == []


def test_a_preparatory_refactor_without_a_shape_gets_the_plain_hint() -> None:
    supervisor = _supervisor()
    supervisor.record_implementor_stuck(["t"])
    supervisor.record_implementor_stuck(["t"])
    assert len(supervisor.hints_for("refactorer")) == 1
