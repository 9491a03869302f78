"""Scripted turns for loop scenarios (tests/drive/test_loop_memory.py): what a role's turn does to
the workspace, through the drive's ports only, queued per role in ScriptedTurns (drive/ports.py
`Turns`). The real turns run on the same workspaces in tests/drive/test_loop_scenarios.py."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from tddhooks.drive.crew import Crew
from tddhooks.drive.kinds import TurnOutcome
from tddhooks.drive.turnkit import TurnResult
from tddhooks.llm.client import ChatResult
from tddhooks.policy.handoff import Handoff
from tddhooks.policy.phase import PhaseInfo
from tddhooks.policy.verdicts import Verdict

Play = Callable[[Crew, PhaseInfo], TurnResult]


def _usage(crew: Crew, role: str, cycle: int, tokens: int) -> None:
    crew.ledger.add(role, cycle, ChatResult("{}", tokens, 0, False, "stop", 0.0, "", False))


def hand_over(path: str, text: str, *, tokens: int = 10) -> Play:
    """The tester writes and stages a failing test and hands it over (the real TesterTurn's
    outcome when its red is the right red)."""

    def play(crew: Crew, info: PhaseInfo) -> TurnResult:
        ws, root = crew.workspace, crew.root
        _usage(crew, "tester", info.cycle, tokens)
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
        ws.stage(root, [path])
        verdict = crew.gate.staged(root, crew.settings)
        assert not verdict.green, f"the scripted test {path} passes already"
        names = list(verdict.report.failing_tests)
        ws.write_handoff(root, Handoff(
            head=ws.head(root), intent=f"test {path}", test_names=names, red_output="red",
            test_blobs=ws.blob_ids(root, ":", [path]), by="tester", created_at=time.time(),
        ))  # fmt: skip
        return TurnResult("tester", "handed-over", test_names=tuple(names))

    return play


def done(reason: str) -> Play:
    def play(crew: Crew, info: PhaseInfo) -> TurnResult:
        crew.workspace.mark_done(crew.root, reason)
        return TurnResult("tester", "done", done_reason=reason)

    return play


def give_up(role: str, *, tokens: int = 10) -> Play:
    def play(crew: Crew, info: PhaseInfo) -> TurnResult:
        _usage(crew, role, info.cycle, tokens)
        handoff = crew.workspace.read_handoff(crew.root)
        names = tuple(handoff.test_names) if handoff else ()
        outcome: TurnOutcome = "reverted" if role == "refactorer" else "gave-up"
        return TurnResult(role, outcome, test_names=names)

    return play


def commit(role: str, path: str, text: str, subject: str, *, tokens: int = 10) -> Play:
    """The implementor (feat) or refactorer (refactor) writes, stages and commits when green."""

    def play(crew: Crew, info: PhaseInfo) -> TurnResult:
        ws, root = crew.workspace, crew.root
        _usage(crew, role, info.cycle, tokens)
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
        ws.stage(root, [path])
        if not crew.gate.staged(root, crew.settings).green:
            ws.restore_to_head(root, [path])
            return give_up(role, tokens=0)(crew, info)
        landed = ws.commit(root, subject, crew.settings)
        assert landed.ok, landed.output
        if role == "implementor":
            ws.clear_handoff(root)
        return TurnResult(role, "committed", commit=landed.sha, subject=subject)

    return play


def nothing_to_refactor() -> Play:
    def play(crew: Crew, info: PhaseInfo) -> TurnResult:
        return TurnResult("refactorer", "empty")

    return play


def interrupted(path: str, text: str) -> Play:
    """Ctrl-C mid-step: the turn has written and staged a file, undoes it, and the interrupt
    propagates (what every real turn does in its `finally`)."""

    def play(crew: Crew, info: PhaseInfo) -> TurnResult:
        ws, root = crew.workspace, crew.root
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
        ws.stage(root, [path])
        try:
            raise KeyboardInterrupt
        finally:
            ws.restore_to_head(root, [path])

    return play


@dataclass
class ScriptedTurns:
    """drive/ports.py `Turns` playing queued plays per role; records who played, in order."""

    queued: dict[str, deque[Play]] = field(default_factory=dict)
    played: list[str] = field(default_factory=list)
    hints: list[tuple[str, ...]] = field(default_factory=list)  # what each turn would be told

    def enqueue(self, role: str, *plays: Play) -> ScriptedTurns:
        self.queued.setdefault(role, deque()).extend(plays)
        return self

    def _play(
        self, role: str, crew: Crew, info: PhaseInfo, hints: tuple[str, ...] = ()
    ) -> TurnResult:
        self.played.append(role)
        self.hints.append((*crew.supervisor.hints_for(role), *hints))
        plays = self.queued.get(role)
        if not plays:
            raise AssertionError(f"ScriptedTurns: no {role} turn queued (played: {self.played})")
        return plays.popleft()(crew, info)

    def tester(self, crew: Crew, info: PhaseInfo, *, hints: tuple[str, ...]) -> TurnResult:
        return self._play("tester", crew, info, hints)

    def implementor(self, crew: Crew, info: PhaseInfo, red: Verdict | None) -> TurnResult:
        return self._play("implementor", crew, info)

    def refactorer(self, crew: Crew, info: PhaseInfo) -> TurnResult:
        return self._play("refactorer", crew, info)
