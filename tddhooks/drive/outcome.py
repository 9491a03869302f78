"""How a drive ends: the summary the final table and the `drive-finished` event report, the exit
code of each stop reason, and what the drive tells a person when it hands over or is blocked."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from tddhooks.drive.kinds import StopReason
from tddhooks.errors import EXIT_INTERRUPTED
from tddhooks.policy.phase import Phase

# stop reason -> exit code; everything else (an error) propagates as a TddhooksError
STOP_EXIT = {
    "done": 0,
    "steps": 0,
    "turn": 0,
    "budget": 0,
    "person": 0,
    "failed-cycles": 1,
    "dirty": 1,
    "mixed": 1,
    "overshoot": 1,
    "stuck": 1,
    "interrupted": EXIT_INTERRUPTED,
    "error": 1,
}
RESUME = "run the same command again to resume: git holds the state (`tddhooks status` shows it)"
AGAIN = "then run the same command again"
BLOCKED_FIX = {
    Phase.DIRTY: "to have a failing test implemented, stage just the test (`git add "
    "tests/<name>.rs`); to keep working on your own, put the changes aside and keep what "
    "is staged (`git stash push --keep-index --include-untracked`); " + AGAIN,
    Phase.MIXED: f"split them as said above; {AGAIN}",
    Phase.OVERSHOOT: f"commit the passing tests as `test:` or unstage them; {AGAIN}",
}
PERSON_TURN = {
    "tester": "your turn (tester): write one failing test, stage it (`git add tests/<name>.rs`), "
    "then run `tddhooks step` to have it implemented",
    "implementor": "your turn (implementor): make the staged test pass and `git commit` (the "
    "hooks pre-fill the message; `tddhooks status` shows the failure)",
}


@dataclass
class DriveSummary:
    """What the final table (and the `drive-finished` event) reports."""

    work_dir: str
    cycles: int = 0
    commits: list[dict[str, str]] = field(default_factory=list)
    overshoots: int = 0
    retries: int = 0
    tokens: dict[str, dict[str, int]] = field(default_factory=dict)
    cache: dict[str, int] = field(default_factory=dict)
    duration_s: float = 0.0
    stop_reason: StopReason | Literal[""] = ""
    stop_detail: str = ""
    refusals: dict[str, int] = field(default_factory=dict)  # check id -> answers it refused

    @property
    def exit_code(self) -> int:
        return STOP_EXIT.get(self.stop_reason, 1)

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "exit_code": self.exit_code}
