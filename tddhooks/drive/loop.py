"""The drive: read the phase from git, give the turn to the role it calls for, repeat until a stop
reason. Nothing of ours survives between runs except what git (and `.git/tddhooks/`) holds, so a
drive stopped anywhere resumes with the next `tddhooks drive`."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tddhooks.drive.crew import Crew
from tddhooks.drive.kinds import StopReason
from tddhooks.drive.outcome import AGAIN, BLOCKED_FIX, PERSON_TURN, RESUME, DriveSummary
from tddhooks.drive.supervisor import Decision, set_aside_hint
from tddhooks.drive.turnkit import TurnResult, handoff_tokens
from tddhooks.errors import PolicyRejection, TddhooksError, UsageError
from tddhooks.policy.phase import Phase, PhaseInfo

if TYPE_CHECKING:
    from tddhooks.drive.ports import Turns
    from tddhooks.policy.verdicts import Verdict

_BLOCKED_STOP: dict[Phase, StopReason] = {
    Phase.DIRTY: "dirty",
    Phase.MIXED: "mixed",
    Phase.OVERSHOOT: "overshoot",
}


@dataclass(frozen=True)
class DrivePlan:
    """Which roles the agents play and how long to drive."""

    agent_roles: frozenset[str]
    single_turn: bool = False


class Drive:
    """One run of the loop over a prepared Crew: the loop asks the Workspace for the phase and
    hands the turn to a turn object (drive/turns.py unless `turns` says otherwise); nothing it
    calls calls back into it."""

    def __init__(self, crew: Crew, plan: DrivePlan, turns: Turns | None = None) -> None:
        if turns is None:
            from tddhooks.drive.turns import AgentTurns

            turns = AgentTurns()
        self.crew = crew
        self.plan = plan
        self.turns_of: Turns = turns
        self.summary = DriveSummary(work_dir=str(crew.root))
        self.turns = 0
        self.cycles_done = 0
        self.cycle_active = False  # this run has worked on the current cycle
        self.cycle_landed = False  # ... and a commit of it landed
        self.tester_hints: tuple[str, ...] = ()  # what the supervisor cannot tell the tester

    def run(self) -> DriveSummary:
        """Drive until a stop reason; Ctrl-C stops cleanly (exit 130), errors propagate."""
        start = time.monotonic()
        try:
            while not self._should_stop() and self._turn():
                pass
        except KeyboardInterrupt:
            self._stop("interrupted", "Ctrl-C; the turn's own changes were undone")
            self.crew.display.emit(
                "interrupted", message=f"interrupted: the turn's own changes were undone; {RESUME}"
            )
        except TddhooksError as error:
            self._stop("error", error.message)
            raise
        except Exception as error:  # a bug: the crash log has it; the summary says it too
            from tddhooks.keys import redact

            self._stop("error", redact(f"unexpected {type(error).__name__}: {error}"))
            raise
        finally:
            self._finish(time.monotonic() - start)
        return self.summary

    def _stop(self, reason: StopReason, detail: str) -> bool:
        if not self.summary.stop_reason:
            self.summary.stop_reason, self.summary.stop_detail = reason, detail
        return False

    def _should_stop(self) -> bool:
        if self.summary.stop_reason:
            return True
        if self.plan.single_turn and self.turns >= 1:
            self._stop("turn", "one agent turn done")
            return True
        supervisor, used = self.crew.supervisor, self.crew.ledger.total
        decision = supervisor.should_stop(
            cycles_done=self.cycles_done, tokens_used=used, done_reason=None
        )
        if decision is None:
            return False
        self.crew.decide(decision)
        reason: StopReason
        if self.cycles_done >= supervisor.steps:
            reason = "steps"
        elif supervisor.budget_tokens is not None and used >= supervisor.budget_tokens:
            reason = "budget"
        else:
            reason = "failed-cycles"
        self._stop(reason, decision.reason)
        return True

    def _close_cycle(self, committed: bool) -> None:
        self.crew.decide(self.crew.supervisor.record_cycle_done(committed))
        self.cycles_done += 1
        self.cycle_active = self.cycle_landed = False

    def _plays(self, role: str) -> bool:
        return role in self.plan.agent_roles

    def _turn(self) -> bool:
        """One turn of the role the phase calls for; False when the drive must stop."""
        crew, root = self.crew, self.crew.root
        info, verdict = crew.workspace.phase(root, crew.settings, crew.gate)
        person_refactors = info.phase is Phase.GREEN_FEATURE and not self._plays("refactorer")
        # state.py already reads an empty refactor turn on HEAD as green (tester next)
        refactored = info.phase is Phase.GREEN and crew.workspace.refactor_turn_taken(root)
        if person_refactors or refactored:
            # the refactorer had its turn on this feature (or the person plays it and moved on);
            # a test set aside without a commit leaves the cycle open: the tester tries a smaller
            # step and the supervisor's set-aside / preparatory-refactor / abandon ladder goes on
            if self.cycle_active and self.cycle_landed:
                self._close_cycle(committed=True)
                if self._should_stop():
                    return False
            cycle = info.cycle + 1 if person_refactors else info.cycle
            info = PhaseInfo(Phase.GREEN, "tester", "the refactorer had its turn", cycle)
        if info.phase is Phase.OVERSHOOT and self._discard_agent_overshoot():
            return True
        if info.phase in (Phase.DIRTY, Phase.MIXED, Phase.OVERSHOOT):
            return self._blocked(info)
        if info.phase is Phase.RED and info.next_actor == "person":  # HEAD itself is red
            raise PolicyRejection(
                f"cannot drive: {info.reason}", fix="make HEAD green, then " + AGAIN
            )
        if info.phase is Phase.UNINITIALIZED:
            raise UsageError(
                f"{root}: {info.reason}",
                fix="run `tddhooks init` there, or pass --kata FILE to drive an "
                "empty directory from scratch",
            )
        if info.phase is Phase.DONE:
            self.crew.display.emit("done", message=info.reason)
            return self._stop("done", info.reason)
        role = {Phase.GREEN: "tester", Phase.RED: "implementor"}.get(info.phase, "refactorer")
        if not self._plays(role):
            self.crew.display.emit("person-turn", role=role, message=PERSON_TURN[role])
            return self._stop("person", PERSON_TURN[role])
        self.turns += 1
        self.cycle_active = True
        return self._play(role, info, verdict)

    def _discard_agent_overshoot(self) -> bool:
        """A test our tester handed over passes already (a preparatory refactor implemented it):
        discard it like any overshoot. A person's passing test is theirs to decide about."""
        crew, root = self.crew, self.crew.root
        handoff = crew.workspace.read_handoff(root)
        if handoff is None or handoff.by != "tester":
            return False
        crew.workspace.restore_to_head(root, crew.workspace.staged_paths(root))
        crew.workspace.clear_handoff(root)
        crew.display.emit("overshoot", role="tester", tests=handoff.test_names)
        crew.decide(crew.supervisor.record_overshoot(handoff.test_names))
        return True

    def _blocked(self, info: PhaseInfo) -> bool:
        """A person's changes are in the way: stop without touching them."""
        if self.turns == 0:
            raise PolicyRejection(f"cannot drive: {info.reason}", fix=BLOCKED_FIX[info.phase])
        self.crew.display.emit("note", message=f"stopped: {info.reason}")
        return self._stop(_BLOCKED_STOP[info.phase], info.reason)

    def _play(self, role: str, info: PhaseInfo, verdict: Verdict | None) -> bool:
        crew = self.crew
        if role == "tester":
            result = self.turns_of.tester(crew, info, hints=self.tester_hints)
            if result.outcome == "gave-up":
                self._close_cycle(committed=False)
            elif result.outcome == "handed-over":
                self.tester_hints = ()
            return True
        if role == "implementor":
            result = self.turns_of.implementor(crew, info, verdict)
            self._landed(result)
            return result.outcome != "gave-up" or self._stuck(info, result)
        result = self.turns_of.refactorer(crew, info)
        self._landed(result)
        crew.workspace.mark_refactor_turn(crew.root)
        self._close_cycle(committed=True)
        return True

    def _landed(self, result: TurnResult) -> None:
        if result.commit and result.subject:
            self.cycle_landed = True
            self.summary.commits.append(
                {"sha": result.commit, "subject": result.subject, "role": result.role}
            )

    def _stuck(self, info: PhaseInfo, result: TurnResult) -> bool:
        """The implementor gave up: set the test aside, or refactor first, as the supervisor says.

        A person's staged test is never moved: the drive stops and leaves it staged.
        """
        crew, root = self.crew, self.crew.root
        handoff = crew.workspace.read_handoff(root)
        if handoff is None or handoff.by != "tester":
            return self._stop(
                "stuck",
                "the implementor could not make your staged test pass; "
                "it stays staged (see .tdd/logs/ for the attempts)",
            )
        from tddhooks.agents.context import tests_requirements
        from tddhooks.drive.gather import kata_text

        kata = kata_text(root, crew.settings)
        paths = crew.workspace.staged_paths(root)
        decision = crew.decide(crew.supervisor.record_implementor_stuck(result.test_names))
        # the tester takes the kata's other requirements first, not the set-aside test again
        crew.put_off |= tests_requirements(kata, result.test_names, crew.handed_focus)
        directory = crew.workspace.set_aside(root, info.cycle, paths)
        # that test was too big a step; if the tester is asked the same again, the cache
        # serves the next answer of that request (cache.py), never this one again
        if decision.action == "preparatory-refactor" and not self._plays("refactorer"):
            # the person plays the refactorer: ask the tester for a smaller step instead
            decision = crew.decide(
                Decision(
                    "set-aside-test",
                    "no refactorer agent to prepare "
                    "the code; the tester is asked for a smaller step",
                )
            )
            self.tester_hints = (
                set_aside_hint(", ".join(result.test_names) or "handed over last"),
            )
        crew.display.emit(
            "note", message=f"set aside {', '.join(paths)} in {directory.relative_to(root)}"
        )
        # the note would make the hooks demand the test in the refactor commit; it comes back below
        crew.workspace.clear_handoff(root)
        if decision.action != "preparatory-refactor":
            if decision.action == "abandon-cycle":
                self._close_cycle(committed=False)
            return True
        try:
            self.turns += 1
            self._landed(
                self.turns_of.refactorer(
                    crew, PhaseInfo(Phase.GREEN, "refactorer", "preparatory refactor", info.cycle)
                )
            )
        finally:
            crew.workspace.bring_back(root, directory, paths)
            head = crew.workspace.head(root)
            blobs = handoff_tokens(crew.workspace, root, crew.settings, paths)
            crew.workspace.write_handoff(
                root, handoff.model_copy(update={"head": head, "test_blobs": blobs})
            )
        return True

    def _finish(self, duration_s: float) -> None:
        summary, crew = self.summary, self.crew
        summary.cycles = self.cycles_done
        summary.overshoots = crew.supervisor.overshoots
        summary.retries = crew.failed_attempts
        summary.refusals = dict(crew.refusals)
        summary.duration_s = round(duration_s, 2)
        hits = misses = 0
        for role, totals in crew.ledger.per_role().items():
            summary.tokens[role] = {
                "prompt_tokens": totals.prompt_tokens,
                "completion_tokens": totals.completion_tokens,
                "calls": totals.calls,
                "cached_calls": totals.cached_calls,
                "saved_tokens": totals.saved_tokens,  # what the cached answers cost when fresh
            }
            hits += totals.cached_calls
            misses += totals.calls - totals.cached_calls
        summary.cache = {"enabled": int(crew.cache_enabled), "hits": hits, "misses": misses}
        if self.turns or summary.stop_reason != "error":  # an error before any turn says it all
            crew.display.emit("drive-finished", **summary.to_dict())


def unbounded_steps() -> int:
    """The step count of `tddhooks step`: only the single turn ends it."""
    return sys.maxsize
