"""The drive's vocabularies as Literals, so mypy checks every role, outcome, decision, stop
reason and event kind the loop uses (a typo is a type error, not a silent new kind)."""

from __future__ import annotations

from typing import Literal, get_args

Role = Literal["tester", "implementor", "refactorer"]
# what one answer came to (drive/attempts.py: Tried.outcome; the step file's attempt outcome)
AttemptOutcome = Literal[
    "invalid-answer", "no-edits", "refused", "overshoot", "wrong-red", "red", "rejected",
    "tests-changed", "function-added", "examples-changed",
    "handed-over", "done", "committed", "empty",
]  # fmt: skip
# how a turn ended (drive/turns.py: TurnResult.outcome)
TurnOutcome = Literal["handed-over", "done", "committed", "empty", "reverted", "gave-up"]
# what the supervisor decided (drive/supervisor.py: Decision.action)
DecisionAction = Literal[
    "retry", "give-up", "set-aside-test", "preparatory-refactor", "abandon-cycle", "next-cycle",
    "stop",
]  # fmt: skip
# why a drive stopped (drive/outcome.py: DriveSummary.stop_reason; STOP_EXIT maps each to a code)
StopReason = Literal[
    "done", "steps", "turn", "budget", "person", "failed-cycles", "dirty", "mixed", "overshoot",
    "stuck", "interrupted", "error",
]  # fmt: skip
# what the display hears (drive/console.py; `--json` prints one object per event)
EventKind = Literal[
    "drive-started", "turn-started", "model-answered", "plan", "edits", "verdict",
    "handed-over", "committed", "refactor-empty", "reverted", "attempt-failed", "overshoot",
    "decision", "note", "person-turn", "done", "interrupted", "drive-finished",
]  # fmt: skip

ROLES: tuple[Role, ...] = get_args(Role)
STOP_REASONS: tuple[StopReason, ...] = get_args(StopReason)
EVENT_KINDS: tuple[EventKind, ...] = get_args(EventKind)
