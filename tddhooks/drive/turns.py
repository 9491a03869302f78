"""The three agent turns, one object per role. Each starts on a tree the phase says is clean,
writes only the paths its answer names, and puts exactly those back when an attempt fails or the
turn is interrupted. What they share is in `drive/turnkit.py`."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from tddhooks.agents.context import TurnContext
from tddhooks.agents.edits import AgentAnswer, FileEdit, normalize_path
from tddhooks.drive import gather
from tddhooks.drive.attempts import Tried
from tddhooks.drive.crew import Crew
from tddhooks.drive.emptyvecs import typed_answer
from tddhooks.drive.interface import interface_functions, interface_mismatch
from tddhooks.drive.kinds import Role, TurnOutcome
from tddhooks.drive.messages import feature_message, refactor_message
from tddhooks.drive.misplaced import Tells
from tddhooks.drive.records import show_verdict
from tddhooks.drive.redcheck import (
    changed_behaviour,
    lints_in_test,
    misplaced_red,
    new_test_names,
    too_many_checks,
)
from tddhooks.drive.steplog import AttemptRecord
from tddhooks.drive.testimports import repaired_answer
from tddhooks.drive.turnkit import (
    SourceTurn,
    Turn,
    TurnResult,
    answer_paths,
    handoff_tokens,
    kata_crate,
)
from tddhooks.policy.handoff import Handoff
from tddhooks.policy.phase import PhaseInfo
from tddhooks.policy.verdicts import Verdict

REFACTOR_ATTEMPTS = 3
__all__ = ["AgentTurns", "TurnResult", "implementor_turn", "refactorer_turn", "tester_turn"]


class TesterTurn(Turn):
    """Ask for one new failing test; stage it and hand it over when it is red for its own reason."""

    role: Role = "tester"

    def __init__(self, crew: Crew, info: PhaseInfo, hints: tuple[str, ...] = ()) -> None:
        super().__init__(crew, info)
        self.hints = hints

    def not_offered(self, answer: AgentAnswer) -> Tried | None:
        """Check `offered-paths`: an existing file the tester was not offered (agents/offers.py)
        is not rewritten; a new file of its own naming is fine."""
        if not self.crew.on("offered-paths"):
            return None
        offered, listed = self.ctx.write_paths, set(self.ctx.files)
        stray = [
            path for edit in answer.edits
            if (path := normalize_path(edit.path)) not in offered and path in listed
        ]  # fmt: skip
        if not offered or not stray:
            return None
        failure = (f"edits refused, nothing was written: {stray[0]!r} is an existing test file "
                   f"not under \"Write to\"; leave it as it is and put the new test in "
                   f"{offered[0]!r}")  # fmt: skip
        return self.refuse("offered-paths", failure)

    def too_broad(self, answer: AgentAnswer) -> Tried | None:
        """Check `assertion-count` (drive/redcheck.py `too_many_checks`), before anything is
        written."""
        crew = self.crew
        if not crew.on("assertion-count"):
            return None
        files = [
            (path, crew.workspace.read_blob(self.root, "HEAD", path), edit.content or "")
            for edit in answer.edits
            if edit.action == "upsert" and (path := normalize_path(edit.path))
        ]
        failure = too_many_checks(files)
        return None if failure is None else self.refuse("assertion-count", failure)

    def contradicts(self, answer: AgentAnswer) -> Tried | None:
        """Check `example-contradicted` (agents/examples.py), before anything is written."""
        from tddhooks.agents.examples import contradicted_example
        from tddhooks.policy.compose import kata_requirements

        if not self.crew.on("example-contradicted"):
            return None
        crew, tests = self.crew, self.upserts(answer)
        before = {path: crew.workspace.read_blob(self.root, "HEAD", path) or "" for path in tests}
        language = crew.settings.language
        package = kata_crate(self.root) if language == "rust" else None
        requirements = kata_requirements(self.ctx.kata, whole=True)
        functions = interface_functions(self.ctx.kata, language)
        failure = contradicted_example(tests, requirements, language, package, before, functions)
        return None if failure is None else self.refuse("example-contradicted", failure)

    @staticmethod
    def upserts(answer: AgentAnswer) -> dict[str, str]:
        """path -> the new text of each file the answer writes whole."""
        return {
            path: edit.content or "" for edit in answer.edits
            if edit.action == "upsert" and (path := normalize_path(edit.path))
        }  # fmt: skip

    def intent(self, answer: AgentAnswer) -> str:
        """The plan handed over with the test: whole, or under check `handed-intent` only when
        it is about that test (drive/intent.py)."""
        from tddhooks.drive.intent import handed_intent

        if not self.crew.on("handed-intent"):
            return answer.plan
        language = self.crew.settings.language
        package = kata_crate(self.root) if language == "rust" else None
        return handed_intent(answer.plan, self.ctx.kata, self.upserts(answer), language, package)

    def refuse_done(self) -> str | None:
        """Check `done-open`: refuse a `done` and count the refusal while the kata lists a
        requirement that no test covers and that was not found already working (the one the
        tester is pointed at). None: the done is taken. A done refused for a whole turn
        (max_attempts) on the same requirement is taken: a listed item no test can show would
        otherwise fail every cycle the supervisor allows."""
        from tddhooks.agents.context import focus_of
        from tddhooks.policy.compose import kata_requirements

        if not self.crew.on("done-open"):
            return None
        index = focus_of(self.ctx)
        if index is None or self.crew.done_refused.get(index, 0) >= self.crew.max_attempts:
            return None
        self.crew.done_refused[index] = self.crew.done_refused.get(index, 0) + 1
        listed = kata_requirements(self.ctx.kata)
        return self.crew.checks.refusal(
            "done-open",
            f"done refused: requirement {index + 1} of {len(listed)} has no test yet: "
            f"{listed[index]}; write one failing test for it, with done false",
        )

    def repaired(self, answer: AgentAnswer) -> AgentAnswer:
        """Checks `crate-path` (drive/testimports.py) and `typed-empty-vec` (drive/emptyvecs.py):
        a Rust test repaired before it is judged."""
        if self.crew.settings.language != "rust":
            return answer
        if self.crew.on("crate-path"):
            manifest = self.crew.workspace.read_blob(self.root, "HEAD", "Cargo.toml")
            answer, changed = repaired_answer(answer, self.ctx.kata, manifest)
            for path in changed:
                self.crew.display.emit(
                    "note", message=f"{path}: the test's path to the kata's crate was repaired"
                )
        if not self.crew.on("typed-empty-vec"):
            return answer
        answer, typed = typed_answer(answer, interface_functions(self.ctx.kata))
        for path in typed:
            self.crew.display.emit(
                "note", message=f"{path}: `vec![]` given the Interface's element type"
            )
        return answer

    def judge(self, answer: AgentAnswer, record: AttemptRecord) -> Tried:
        if answer.done:
            refusal = self.refuse_done()
            if refusal is None:
                return Tried(True, "done", done_reason=answer.reason)
            return Tried(False, "refused", failure=refusal)
        if not answer.edits:
            failure = ("the answer has no edits: write exactly one new failing test, or answer "
                       "done with a reason")  # fmt: skip
            return self.refuse("no-edits", failure, "no-edits")
        answer = self.repaired(answer)
        refused = (
            self.refused(answer, record) or self.not_offered(answer) or self.too_broad(answer)
            or self.contradicts(answer)
        )  # fmt: skip
        if refused is not None:
            return refused
        crew, root = self.crew, self.root
        planned, handed_over = answer_paths(answer), False
        try:
            paths = self.write(answer)
            verdict = crew.gate.staged(root, crew.settings)
            show_verdict(crew, self.role, verdict, record)
            new_tests = new_test_names(root, crew.settings, paths, crew.workspace)
            if verdict.report.green:
                failure = (
                    f"the new test already passes ({', '.join(new_tests) or 'no test found'}); "
                    "it was discarded: pick a behaviour the code does not have yet"
                )
                return Tried(False, "overshoot", overshoot=tuple(new_tests), failure=failure)
            wrong = self.wrong_red(verdict, new_tests, paths)
            if wrong is not None:
                return wrong
            crew.workspace.write_handoff(
                root,
                Handoff(
                    head=crew.workspace.head(root), intent=self.intent(answer),
                    test_names=new_tests, red_output=verdict.failure_excerpt(), by="tester",
                    created_at=time.time(),
                    test_blobs=handoff_tokens(crew.workspace, root, crew.settings, paths),
                ),
            )  # fmt: skip
            handed_over = True
            crew.display.emit("handed-over", role=self.role, paths=paths, tests=new_tests)
            return Tried(True, "handed-over", test_names=tuple(new_tests))
        finally:
            if not handed_over:
                crew.workspace.restore_to_head(root, planned)

    def wrong_red(self, verdict: Verdict, new_tests: list[str], paths: list[str]) -> Tried | None:
        """Checks `one-new-test`, `own-red`, `interface-compiles` and `test-lints` on the red
        verdict of the written test."""
        crew, root = self.crew, self.root
        if len(new_tests) > 1 and crew.on("one-new-test"):
            names = ", ".join(name.rsplit("::", 1)[-1] for name in new_tests[:5])
            failure = f"the attempt adds {len(new_tests)} tests ({names}): hand over exactly one"
            return self.refuse("one-new-test", failure, "wrong-red")
        checks: tuple[tuple[str, Callable[[], str | None]], ...] = (
            ("own-red", lambda: misplaced_red(verdict, new_tests, paths, kata_crate(root))),
            ("interface-compiles", lambda: interface_mismatch(
                crew.gate, root, crew.settings, self.ctx.kata, paths, verdict)),
            ("test-lints", lambda: lints_in_test(verdict, paths)),
        )  # fmt: skip
        for check_id, check in checks:
            why = check() if crew.on(check_id) else None
            if why is not None:
                return self.refuse(check_id, why, "wrong-red")
        return None

    def finish(self, tried: Tried | None) -> TurnResult:
        if tried is None:
            self.log.outcome = "gave-up"
            return TurnResult(self.role, "gave-up")
        self.log.outcome = tried.outcome
        if tried.outcome == "done":
            reason = tried.done_reason or "the tester reported the kata complete"
            self.crew.workspace.mark_done(self.root, reason)
            return TurnResult(self.role, "done", done_reason=tried.done_reason)
        from tddhooks.agents.context import focus_of

        # what the test was written for, should the implementor give up on it
        self.crew.handed_focus = focus_of(self.ctx)
        return TurnResult(self.role, "handed-over", test_names=tried.test_names,
                          cache_key=tried.cache_key)  # fmt: skip


class ImplementorTurn(SourceTurn):
    """Make the staged test pass with source edits and commit both through the real hooks."""

    role: Role = "implementor"

    def __init__(self, crew: Crew, info: PhaseInfo, red: Verdict | None) -> None:
        super().__init__(crew, info)
        self.red = red
        self.handoff = crew.workspace.read_handoff(self.root)
        failing = list(red.report.failing_tests if red else [])
        self.tests = list(self.handoff.test_names) if self.handoff else failing
        self.tells = Tells()  # drive/misplaced.py: said at most twice of one call in a turn

    def context(self) -> TurnContext:
        red_output = self.red.failure_excerpt() if self.red is not None else ""
        handoff = self.handoff
        return gather.turn_context(
            self.root, self.crew.settings, role=self.role, cycle=self.info.cycle,
            staged=self.crew.workspace.staged_paths(self.root),
            test_output=red_output or (handoff.red_output if handoff else ""),
            handoff_intent=handoff.intent if handoff else None, workspace=self.crew.workspace,
            checks=self.crew.checks.ids(),
        )  # fmt: skip

    def judge(self, answer: AgentAnswer, record: AttemptRecord) -> Tried:
        if not answer.edits:
            failure = "the answer has no edits: change the source so the staged test passes"
            return self.refuse("no-edits", failure, "no-edits")
        unchanged = all(_unchanged(edit, self.ctx.file_texts) for edit in answer.edits)
        if unchanged and self.crew.on("unchanged-edits"):
            # no gate run: the staged test fails as before
            paths = ", ".join(dict.fromkeys(edit.path for edit in answer.edits))
            failure = (f"your edits leave {paths} exactly as it is, so the staged test still "
                       "fails: change the code so it passes")  # fmt: skip
            return self.refuse("unchanged-edits", failure, "no-edits")
        return self.source_attempt(answer, record)

    def settled(self, verdict: Verdict) -> Verdict:
        """Check `test-lint-fixes` (core: only the tester may change its test, so the linter's
        own safe fixes are the one way past a lint that shows once the code builds): when only
        the linter stands between this attempt and green, and what it rejects is in the agent
        tester's handed-over test, the linter's machine-applicable fixes are applied to that
        test by the drive, never by the model; the handoff is pinned to the fixed test. A
        person's staged test (no handoff note) is never touched (docs/agents.md)."""
        handoff, crew, root = self.handoff, self.crew, self.root
        if verdict.green or handoff is None or handoff.by != "tester":
            return verdict
        if not crew.on("test-lint-fixes"):
            return verdict
        tests = [path for path, token in handoff.test_blobs.items() if ":" not in token]
        if not verdict.report.green or not tests or lints_in_test(verdict, tests) is None:
            return verdict
        handed = {path: crew.workspace.read_blob(root, ":", path) for path in tests}
        fixed: Verdict | None = None
        try:
            crew.workspace.format_files(root, crew.settings, tests)
            crew.workspace.stage(root, tests)
            fixed = crew.gate.staged(root, crew.settings)
        finally:
            # not green, or interrupted: the handed test again, as the handoff pins it
            if fixed is None or not fixed.green:
                for path, text in handed.items():
                    if text is not None:
                        (root / path).write_text(text, encoding="utf-8")
                crew.workspace.stage(root, tests)
        if not fixed.green:
            return verdict
        blobs = handoff_tokens(crew.workspace, root, crew.settings, tests)
        self.handoff = handoff.model_copy(update={"test_blobs": {**handoff.test_blobs, **blobs}})
        crew.workspace.write_handoff(root, self.handoff)
        for path in tests:
            crew.display.emit(
                "note", message=f"{path}: the linter's safe fixes applied to the handed-over test"
            )
        return fixed

    def compose(self, answer: AgentAnswer, verdict: Verdict) -> str | Tried:
        broken = self.tells.heard(self.broken_examples())
        if broken is not None:
            return self.refuse("examples-kept", broken, "examples-changed")
        return feature_message(
            self.root, self.crew.settings, cycle=self.info.cycle, answer=answer,
            handoff_intent=self.handoff.intent if self.handoff else None, test_names=self.tests,
            verification=verdict.verification_lines(),
            fallback_scope=gather.scope_from(self.ctx.expectations),
            workspace=self.crew.workspace, project=gather.project_names(self.ctx),
        )  # fmt: skip

    def finish(self, tried: Tried | None) -> TurnResult:
        tests = tuple(self.tests)
        if tried is None:
            self.log.outcome = "gave-up"
            return TurnResult(self.role, "gave-up", test_names=tests)
        self.crew.workspace.clear_handoff(self.root)
        self.log.outcome = "committed"
        return TurnResult(self.role, "committed", commit=tried.commit, subject=tried.subject,
                          test_names=tests)  # fmt: skip


def _unchanged(edit: FileEdit, texts: Mapping[str, str]) -> bool:
    """An upsert that sends back the file as the turn found it (line ends aside)."""
    try:
        before = texts.get(normalize_path(edit.path))
    except ValueError:
        return False  # the path rules say what is wrong with it
    return (
        edit.action == "upsert"
        and before is not None
        and ((edit.content or "").rstrip("\n") == before.rstrip("\n"))
    )


class RefactorerTurn(SourceTurn):
    """Tidy the code without changing behaviour, or say there is nothing worth changing."""

    role: Role = "refactorer"

    def __init__(self, crew: Crew, info: PhaseInfo) -> None:
        super().__init__(crew, info)
        head_tree = crew.workspace.head_tree(self.root)
        self.baseline = crew.gate.tree(self.root, head_tree, crew.settings)

    @property
    def limit(self) -> int:
        return min(REFACTOR_ATTEMPTS, self.crew.max_attempts)

    def judge(self, answer: AgentAnswer, record: AttemptRecord) -> Tried:
        if not answer.edits:
            self.crew.display.emit("refactor-empty", role=self.role, plan=answer.plan)
            return Tried(True, "empty")
        return self.source_attempt(answer, record)

    def compose(self, answer: AgentAnswer, verdict: Verdict) -> str | Tried:
        if not self.crew.workspace.numstat_staged(self.root):
            # the whole file sent back as it was (or as the formatter makes it): nothing to tidy
            self.crew.display.emit("refactor-empty", role=self.role, plan=answer.plan)
            return Tried(True, "empty")
        changed = changed_behaviour(self.baseline, verdict) if self.crew.on("tests-kept") else None
        if changed is not None:
            return self.refuse("tests-kept", changed, "tests-changed")
        added = self.added_function()
        if added is not None:
            return self.refuse("function-added", added, "function-added")
        broken = self.broken_examples()
        if broken is not None:
            return self.refuse("examples-kept", broken, "examples-changed")
        lines = verdict.verification_lines()
        return refactor_message(self.root, self.crew.settings, cycle=self.info.cycle,
                                answer=answer, verification=lines,
                                workspace=self.crew.workspace)  # fmt: skip

    def finish(self, tried: Tried | None) -> TurnResult:
        if tried is None:
            self.log.outcome = "reverted"
            reason = f"no acceptable refactor in {self.limit} attempts; tree at HEAD"
            self.crew.display.emit("reverted", role=self.role, reason=reason)
            return TurnResult(self.role, "reverted")
        self.log.outcome = tried.outcome
        outcome: TurnOutcome = "committed" if tried.commit else "empty"
        return TurnResult(self.role, outcome, commit=tried.commit, subject=tried.subject)


def tester_turn(crew: Crew, info: PhaseInfo, *, hints: tuple[str, ...]) -> TurnResult:
    return TesterTurn(crew, info, hints).play()


def implementor_turn(crew: Crew, info: PhaseInfo, red: Verdict | None) -> TurnResult:
    return ImplementorTurn(crew, info, red).play()


def refactorer_turn(crew: Crew, info: PhaseInfo) -> TurnResult:
    return RefactorerTurn(crew, info).play()


class AgentTurns:
    """The agents' turn objects, one per role (drive/ports.py `Turns`)."""

    def tester(self, crew: Crew, info: PhaseInfo, *, hints: tuple[str, ...]) -> TurnResult:
        return tester_turn(crew, info, hints=hints)

    def implementor(self, crew: Crew, info: PhaseInfo, red: Verdict | None) -> TurnResult:
        return implementor_turn(crew, info, red)

    def refactorer(self, crew: Crew, info: PhaseInfo) -> TurnResult:
        return refactorer_turn(crew, info)
