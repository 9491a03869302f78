"""Attempt and supervisor scenarios against the model fake (no HTTP, no cargo): what goes back to
the model after each failure, when the supervisor gives up, what each role's request carries."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support.fake_model import FakeModel

from tddhooks.agents.context import TurnContext
from tddhooks.agents.edits import AgentAnswer
from tddhooks.agents.schemas import answer_schema
from tddhooks.drive.attempts import Tried
from tddhooks.drive.console import QuietDisplay
from tddhooks.drive.crew import Crew
from tddhooks.drive.kinds import Role
from tddhooks.drive.steplog import AttemptRecord, StepLog, StepWriter
from tddhooks.drive.supervisor import Supervisor
from tddhooks.drive.turnkit import Turn, TurnResult
from tddhooks.llm.usage import UsageLedger
from tddhooks.policy.phase import Phase, PhaseInfo
from tddhooks.policy.settings import PolicySettings

GOOD = {
    "plan": "p",
    "edits": [{"path": "src/lib.rs", "content": "pub fn f() {}\n"}],
    "commit": {"type": "feat", "scope": "f", "summary": "f exists", "rationale": []},
}


def _crew(tmp_path: Path, model: FakeModel, max_attempts: int = 3) -> Crew:
    supervisor = Supervisor(
        max_attempts=max_attempts, max_failed_cycles=3, steps=5, budget_tokens=None
    )
    return Crew(
        root=tmp_path,
        settings=PolicySettings(),
        clients={model.role: model},
        supervisor=supervisor,
        ledger=UsageLedger(),
        display=QuietDisplay(),
        steps=StepWriter(tmp_path),
        context_tokens=1800,
        max_attempts=max_attempts,
    )


def _ctx(role: str) -> TurnContext:
    return TurnContext(
        role=role, cycle=1, kata="# K\n\n## Requirements\n\n1. f exists.\n", language="rust",
        last_commit_message="", last_diff="", files=(), file_texts={}, test_output_tail="",
        hints=(), previous_failure=None, handoff_intent=None, covered_behaviours=(),
    )  # fmt: skip


class Judged(Turn):
    """A turn whose judge is the test's: the real attempt loop (Turn.play) around it."""

    def __init__(self, crew: Crew, role: Role, judge: Any, limit: int) -> None:
        super().__init__(crew, PhaseInfo(Phase.RED, role, "test", 1))
        self.role, self.judged, self.attempt_limit = role, judge, limit
        self.tried: Tried | None = None

    @property
    def limit(self) -> int:
        return self.attempt_limit

    def context(self) -> TurnContext:
        return _ctx(self.role)

    def judge(self, answer: AgentAnswer, record: AttemptRecord) -> Tried:
        tried: Tried = self.judged(answer, record)
        return tried

    def finish(self, tried: Tried | None) -> TurnResult:
        self.tried = tried
        return TurnResult(self.role, "committed" if tried else "gave-up")


def _run(crew: Crew, role: Role, judge: Any, limit: int = 3) -> tuple[Tried | None, StepLog]:
    turn = Judged(crew, role, judge, limit)
    turn.play()
    return turn.tried, turn.log


def _lands(answer: AgentAnswer, record: AttemptRecord) -> Tried:
    return Tried(True, "committed", commit="abc", subject="feat(f): f exists")


def test_an_invalid_answer_is_fed_back_and_the_next_one_lands(tmp_path: Path) -> None:
    model = FakeModel("implementor").enqueue("not JSON at all", GOOD)
    tried, log = _run(_crew(tmp_path, model), "implementor", _lands)
    assert tried is not None
    assert tried.commit == "abc"
    assert [a.outcome for a in log.attempts] == ["invalid-answer", "committed"]
    assert "Previous attempt failed because" not in model.asked[0].user
    assert "not one JSON object" in model.asked[1].user.split("Previous attempt failed because")[1]


def test_every_request_carries_the_roles_own_schema(tmp_path: Path) -> None:
    model = FakeModel("implementor").enqueue(GOOD)
    _run(_crew(tmp_path, model), "implementor", _lands)
    assert model.asked[0].schema == answer_schema("implementor")


def test_an_implementor_saying_done_is_refused_with_the_reason(tmp_path: Path) -> None:
    done = {"plan": "all done", "edits": [], "done": True, "reason": "complete"}
    model = FakeModel("implementor").enqueue(done, GOOD)
    tried, log = _run(_crew(tmp_path, model), "implementor", _lands)
    assert tried is not None
    assert log.attempts[0].outcome == "invalid-answer"
    assert "the implementor cannot end the kata" in model.asked[1].user


def test_the_supervisor_gives_up_after_max_attempts_with_every_decision_logged(
    tmp_path: Path,
) -> None:
    model = FakeModel("tester").enqueue("no", "still no", "never")
    crew = _crew(tmp_path, model, max_attempts=3)
    tried, log = _run(crew, "tester", _lands)
    assert tried is None
    assert [d.action for d in crew.decisions] == ["retry", "retry", "give-up"]
    assert [d["action"] for d in log.decisions] == ["retry", "retry", "give-up"]
    assert crew.failed_attempts == 3
    assert not model.answers  # exactly three requests


@pytest.mark.parametrize("outcome", ["red", "refused", "rejected"])
def test_a_judged_failure_goes_back_word_for_word(tmp_path: Path, outcome: str) -> None:
    model = FakeModel("implementor").enqueue(GOOD, GOOD)
    verdicts = iter(
        [Tried(False, outcome, failure=f"{outcome}: tests/f.rs:3 expected 2, got 1"),  # type: ignore[arg-type]
         Tried(True, "committed", commit="c2")]
    )  # fmt: skip
    tried, _log = _run(_crew(tmp_path, model), "implementor", lambda a, r: next(verdicts))
    assert tried is not None
    assert f"{outcome}: tests/f.rs:3 expected 2, got 1" in model.asked[1].user


def test_an_overshoot_is_reported_to_the_supervisor_and_hinted(tmp_path: Path) -> None:
    model = FakeModel("tester").enqueue(GOOD, GOOD)
    verdicts = iter(
        [Tried(False, "overshoot", overshoot=("tests/a.rs::already",), failure="passes already"),
         Tried(True, "handed-over")]
    )  # fmt: skip
    crew = _crew(tmp_path, model)
    tried, _log = _run(crew, "tester", lambda a, r: next(verdicts))
    assert tried is not None
    assert crew.supervisor.overshoots == 1
    assert "already" in model.asked[1].user
