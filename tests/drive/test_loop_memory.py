"""The drive loop's decisions in milliseconds: the real Drive and Supervisor over the in-memory
Workspace and Gate (tests/support/memory_drive.py, held to git's behaviour by
test_workspace_contract.py) with scripted turns. No git, no HTTP, no suite run. Who plays next,
when a cycle closes, every stop condition, a stuck agent's test set aside, an overshoot discarded,
Ctrl-C mid-step. The turns themselves are test_loop_scenarios.py's (real turns, real git)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from support.fake_model import FakeModel
from support.memory_drive import MemoryGate, MemoryWorkspace, no_processes
from support.scripted_turns import (
    ScriptedTurns,
    commit,
    done,
    give_up,
    hand_over,
    interrupted,
    nothing_to_refactor,
)

from tddhooks.drive.console import QuietDisplay
from tddhooks.drive.crew import Crew
from tddhooks.drive.loop import Drive, DrivePlan
from tddhooks.drive.outcome import DriveSummary
from tddhooks.drive.steplog import StepWriter
from tddhooks.drive.supervisor import Supervisor
from tddhooks.errors import EXIT_INTERRUPTED, LLMError, PolicyRejection
from tddhooks.llm.usage import UsageLedger
from tddhooks.policy.phase import Phase
from tddhooks.policy.settings import load_settings

ROLES = ("tester", "implementor", "refactorer")
SCAFFOLD = {
    "tdd.yaml": "language: python\n",
    "kata.md": "# Adder\n\n## Requirements\n\n1. add() exists.\n2. add(1) is 1.\n",
    "pyproject.toml": '[project]\nname = "kata"\nversion = "0.1.0"\n',
    "src/kata/__init__.py": '"""The kata."""\n',
    "tests/.gitkeep": "",
}
SOURCE = "src/kata/__init__.py"
T1, T2 = "tests/test_add.py", "tests/test_one.py"
NEEDS_ADD = "def test_add_exists():  # needs: def add\n    pass\n"
NEEDS_ONE = "def test_add_one():  # needs: or 0\n    pass\n"
ADD = '"""The kata."""\n\n\ndef add(*numbers):\n    return sum(numbers)\n'
FEAT = "feat(add): add numbers"


@dataclass
class Run:
    summary: DriveSummary
    crew: Crew
    ws: MemoryWorkspace
    turns: ScriptedTurns

    @property
    def actions(self) -> list[str]:
        return [decision.action for decision in self.crew.decisions]

    @property
    def subjects(self) -> list[str]:
        return [commit.subject for commit in self.ws.commits[1:]]

    def phase(self) -> Phase:
        return self.ws.phase(self.crew.root, self.crew.settings, self.crew.gate)[0].phase


def _memory_crew(
    tmp_path: Path,
    *,
    steps: int = 1,
    budget: int | None = None,
    failed_cycles: int = 3,
    before: Callable[[MemoryWorkspace], None] | None = None,
) -> tuple[Crew, MemoryWorkspace]:
    root = tmp_path / "kata"
    ws = MemoryWorkspace(root, SCAFFOLD, "chore: scaffold the kata")
    if before is not None:
        before(ws)
    supervisor = Supervisor(
        max_attempts=3, max_failed_cycles=failed_cycles, steps=steps, budget_tokens=budget
    )
    crew = Crew(
        root=root, settings=load_settings(root), clients={r: FakeModel(r) for r in ROLES},
        supervisor=supervisor, ledger=UsageLedger(), display=QuietDisplay(),
        steps=StepWriter(root), context_tokens=1800, max_attempts=3,
        gate=MemoryGate(ws), workspace=ws,
    )  # fmt: skip
    return crew, ws


def drive_once(
    tmp_path: Path,
    turns: ScriptedTurns,
    *,
    steps: int = 1,
    budget: int | None = None,
    failed_cycles: int = 3,
    roles: tuple[str, ...] = ROLES,
    before: Callable[[MemoryWorkspace], None] | None = None,
) -> Run:
    crew, ws = _memory_crew(tmp_path, steps=steps, budget=budget, failed_cycles=failed_cycles,
                            before=before)  # fmt: skip
    with no_processes():  # no git, no suite, nothing: checked, not assumed
        summary = Drive(crew, DrivePlan(agent_roles=frozenset(roles)), turns).run()
    return Run(summary, crew, ws, turns)


def _cycle(turns: ScriptedTurns, refactor: bool = False) -> ScriptedTurns:
    turns.enqueue("tester", hand_over(T1, NEEDS_ADD))
    turns.enqueue("implementor", commit("implementor", SOURCE, ADD, FEAT))
    if refactor:
        return turns.enqueue("refactorer", commit("refactorer", SOURCE, ADD + "\n", "refactor: x"))
    return turns.enqueue("refactorer", nothing_to_refactor())


def test_a_cycle_hands_over_red_commits_green_and_the_refactor_commits(tmp_path: Path) -> None:
    run = drive_once(tmp_path, _cycle(ScriptedTurns(), refactor=True))

    assert run.turns.played == ["tester", "implementor", "refactorer"]
    assert run.subjects == [FEAT, "refactor: x"]
    assert [c["role"] for c in run.summary.commits] == ["implementor", "refactorer"]
    assert (run.summary.stop_reason, run.summary.cycles, run.summary.exit_code) == ("steps", 1, 0)
    assert run.ws.staged_paths(run.crew.root) == []
    assert run.ws.read_handoff(run.crew.root) is None  # the implementor's commit consumed it
    assert run.phase() is Phase.GREEN  # the refactorer had its turn


def test_a_refactor_with_nothing_to_change_commits_nothing_and_closes_the_cycle(
    tmp_path: Path,
) -> None:
    turns = _cycle(ScriptedTurns()).enqueue("tester", done("all covered"))
    run = drive_once(tmp_path, turns, steps=3)

    assert run.subjects == [FEAT]
    assert run.turns.played == ["tester", "implementor", "refactorer", "tester"]
    assert run.actions == ["next-cycle"]  # done is read from the workspace, not decided
    assert (run.summary.stop_reason, run.summary.cycles) == ("done", 1)
    assert run.ws.refactor_turn_taken(run.crew.root)


def test_a_refactorer_without_an_acceptable_refactor_leaves_head_and_the_cycle_counts(
    tmp_path: Path,
) -> None:
    turns = ScriptedTurns().enqueue("tester", hand_over(T1, NEEDS_ADD))
    turns.enqueue("implementor", commit("implementor", SOURCE, ADD, FEAT))
    turns.enqueue("refactorer", give_up("refactorer"))
    run = drive_once(tmp_path, turns)

    assert run.subjects == [FEAT]
    assert (run.summary.stop_reason, run.summary.cycles) == ("steps", 1)
    assert run.crew.supervisor.failed_cycles == 0


def test_the_tester_saying_done_stops_the_drive_at_once(tmp_path: Path) -> None:
    run = drive_once(tmp_path, ScriptedTurns().enqueue("tester", done("nothing left")), steps=5)

    assert (run.summary.stop_reason, run.summary.exit_code, run.summary.cycles) == ("done", 0, 0)
    assert run.summary.stop_detail == "kata complete: nothing left"
    assert run.phase() is Phase.DONE


def test_the_drive_stops_after_steps_cycles(tmp_path: Path) -> None:
    turns = _cycle(ScriptedTurns())
    turns.enqueue("tester", hand_over(T2, NEEDS_ONE))
    turns.enqueue(
        "implementor", commit("implementor", SOURCE, ADD.replace("numbers)", "numbers) or 0"), FEAT)
    )
    turns.enqueue("refactorer", nothing_to_refactor())
    run = drive_once(tmp_path, turns, steps=2)

    assert (run.summary.stop_reason, run.summary.cycles) == ("steps", 2)
    assert len(run.subjects) == 2
    assert not run.turns.queued["tester"]  # every queued turn was played


def test_the_drive_stops_when_the_token_budget_is_used(tmp_path: Path) -> None:
    run = drive_once(tmp_path, _cycle(ScriptedTurns()), steps=5, budget=20)

    assert (run.summary.stop_reason, run.summary.exit_code) == ("budget", 0)
    assert "token budget reached: 20 of 20" in run.summary.stop_detail
    assert run.turns.played == ["tester", "implementor"]  # checked before every turn
    assert run.subjects == [FEAT]


def test_k_failed_cycles_in_a_row_stop_the_drive_with_exit_1(tmp_path: Path) -> None:
    turns = ScriptedTurns().enqueue("tester", give_up("tester"), give_up("tester"))
    run = drive_once(tmp_path, turns, steps=5, failed_cycles=2)

    assert (run.summary.stop_reason, run.summary.exit_code) == ("failed-cycles", 1)
    assert (run.summary.cycles, run.subjects) == (2, [])
    assert run.actions == ["next-cycle", "next-cycle", "stop"]


def test_a_stuck_implementor_has_its_test_set_aside_and_the_tester_asked_again(
    tmp_path: Path,
) -> None:
    turns = ScriptedTurns().enqueue("tester", hand_over(T1, NEEDS_ADD), done("enough"))
    turns.enqueue("implementor", give_up("implementor"))
    run = drive_once(tmp_path, turns, steps=3)

    assert run.actions[0] == "set-aside-test"
    assert (run.crew.root / ".tdd" / "set-aside" / "1" / T1).read_text() == NEEDS_ADD
    assert not (run.crew.root / T1).exists()
    assert run.ws.read_handoff(run.crew.root) is None
    assert run.turns.played == ["tester", "implementor", "tester"]
    assert run.turns.hints[0] == ()
    assert run.turns.hints[2][0].startswith(
        "The test tests/test_add.py::test_add_exists was too big a step and was set aside"
    )
    assert run.summary.stop_reason == "done"


def test_a_test_a_preparatory_refactor_made_pass_is_discarded_as_an_overshoot(
    tmp_path: Path,
) -> None:
    turns = ScriptedTurns().enqueue(
        "tester", hand_over(T1, NEEDS_ADD), hand_over(T2, NEEDS_ADD), done("enough")
    )
    turns.enqueue("implementor", give_up("implementor"), give_up("implementor"))
    # asked to prepare the code, the refactorer implements the set-aside test outright
    turns.enqueue("refactorer", commit("refactorer", SOURCE, ADD, "refactor: prepare add"))
    run = drive_once(tmp_path, turns, steps=3)

    assert run.actions[:2] == ["set-aside-test", "preparatory-refactor"]
    assert run.subjects == ["refactor: prepare add"]
    assert run.summary.overshoots == 1
    assert not (run.crew.root / T2).exists()
    assert run.ws.staged_paths(run.crew.root) == []
    assert run.ws.read_handoff(run.crew.root) is None
    assert run.summary.stop_reason == "done"


def test_a_persons_staged_test_the_implementor_cannot_pass_stays_staged(tmp_path: Path) -> None:
    def person_stages(ws: MemoryWorkspace) -> None:
        (ws.root / T1).write_text(NEEDS_ADD)
        ws.stage(ws.root, [T1])  # no handoff note: the person's, not our tester's

    turns = ScriptedTurns().enqueue("implementor", give_up("implementor"))
    run = drive_once(tmp_path, turns, steps=3, roles=("implementor",), before=person_stages)

    assert (run.summary.stop_reason, run.summary.exit_code) == ("stuck", 1)
    assert run.ws.staged_paths(run.crew.root) == [T1]
    assert (run.crew.root / T1).read_text() == NEEDS_ADD
    assert not (run.crew.root / ".tdd" / "set-aside").exists()


def test_ctrl_c_mid_step_stops_with_130_and_keeps_the_handed_over_test(tmp_path: Path) -> None:
    turns = ScriptedTurns().enqueue("tester", hand_over(T1, NEEDS_ADD))
    turns.enqueue("implementor", interrupted(SOURCE, ADD))
    run = drive_once(tmp_path, turns, steps=3)

    assert (run.summary.stop_reason, run.summary.exit_code) == ("interrupted", EXIT_INTERRUPTED)
    assert run.ws.staged_paths(run.crew.root) == [T1]  # the tester's turn is kept
    assert (run.crew.root / SOURCE).read_text() == SCAFFOLD[SOURCE]  # the cut turn is undone
    assert run.phase() is Phase.RED  # the next drive resumes with the implementor


def test_a_role_the_person_plays_ends_the_drive_on_its_turn(tmp_path: Path) -> None:
    turns = ScriptedTurns().enqueue("tester", hand_over(T1, NEEDS_ADD))
    run = drive_once(tmp_path, turns, steps=3, roles=("tester",))

    assert (run.summary.stop_reason, run.summary.exit_code) == ("person", 0)
    assert run.turns.played == ["tester"]


def test_a_persons_changes_block_the_first_turn(tmp_path: Path) -> None:
    root = tmp_path / "kata"
    root.mkdir()
    (root / "notes.txt").write_text("mine\n")
    with pytest.raises(PolicyRejection, match="cannot drive: unstaged or untracked"):
        drive_once(tmp_path, ScriptedTurns(), steps=3)
    assert (root / "notes.txt").read_text() == "mine\n"


def test_a_red_head_is_the_persons_to_make_green_before_the_drive(tmp_path: Path) -> None:
    def red(ws: MemoryWorkspace) -> None:
        ws.head_green = False

    with pytest.raises(PolicyRejection, match="cannot drive: HEAD's tree is red") as raised:
        drive_once(tmp_path, ScriptedTurns(), steps=3, before=red)
    assert "make HEAD green" in str(raised.value.fix)


def test_an_error_in_a_turn_stops_the_drive_and_propagates(tmp_path: Path) -> None:
    def fails(crew: Crew, info: object) -> object:
        raise LLMError("the endpoint is gone")

    turns = ScriptedTurns().enqueue("tester", fails)  # type: ignore[arg-type]
    with pytest.raises(LLMError, match="the endpoint is gone"):
        drive_once(tmp_path, turns)


def test_a_bug_in_a_turn_ends_the_drive_with_error_and_says_what(tmp_path: Path) -> None:
    def broken(crew: Crew, info: object) -> object:
        raise ValueError("the Diff summary section needs at least one non-empty bullet")

    turns = ScriptedTurns().enqueue("tester", broken)  # type: ignore[arg-type]
    crew, _ws = _memory_crew(tmp_path)
    drive = Drive(crew, DrivePlan(agent_roles=frozenset(ROLES)), turns)
    with no_processes(), pytest.raises(ValueError, match="Diff summary"):
        drive.run()  # the crash log and exit 3 are the CLI's (tests/commands)
    # the bench reads the stop reason from the summary's drive-finished event
    assert drive.summary.stop_reason == "error"
    assert drive.summary.stop_detail == (
        "unexpected ValueError: the Diff summary section needs at least one non-empty bullet"
    )
