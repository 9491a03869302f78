"""What every agent turn shares: the Turn object (ask, judge, finish, with its step file), the
path rules checked before any write, writing and staging, and the source roles' attempt (gate the
staged tree, commit through the Workspace). The roles themselves are in `drive/turns.py`."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from tddhooks.agents.context import crate_name
from tddhooks.agents.edits import AgentAnswer, EditRefused, copied_placeholder
from tddhooks.agents.edits import normalize_path as _normalize
from tddhooks.agents.roles import path_policy
from tddhooks.drive.asking import ask
from tddhooks.drive.attempts import Attempts, Tried
from tddhooks.drive.crew import Crew
from tddhooks.drive.kinds import AttemptOutcome, Role, TurnOutcome
from tddhooks.drive.records import edit_records, show_verdict, step_log
from tddhooks.drive.rusthints import rust_hints
from tddhooks.drive.steplog import AttemptRecord, StepLog
from tddhooks.policy.phase import PhaseInfo

if TYPE_CHECKING:
    from tddhooks.agents.context import TurnContext
    from tddhooks.drive.ports import Workspace
    from tddhooks.policy.settings import PolicySettings
    from tddhooks.policy.verdicts import Verdict


@dataclass(frozen=True)
class TurnResult:
    """How a turn ended: "handed-over", "done", "committed", "empty", "reverted", "gave-up"."""

    role: str
    outcome: TurnOutcome
    commit: str | None = None
    subject: str | None = None
    test_names: tuple[str, ...] = ()
    done_reason: str | None = None
    cache_key: str = ""


def answer_paths(answer: AgentAnswer) -> list[str]:
    return [_normalize(edit.path) for edit in answer.edits]


def kata_crate(root: Path) -> str | None:
    """The Rust crate name tests import (None for other languages, and for a manifest that is no
    UTF-8 text: cargo cannot read it either, and `tddhooks doctor` reads it too)."""
    manifest = root / "Cargo.toml"
    try:
        return crate_name(manifest.read_text(encoding="utf-8")) if manifest.is_file() else None
    except (OSError, UnicodeDecodeError):
        return None


def handoff_tokens(
    workspace: Workspace, root: Path, settings: PolicySettings, paths: list[str]
) -> dict[str, str]:
    """The handoff's test_blobs for the staged `paths`, read through the workspace: blob ids, or
    `items:` tokens for source files with the test beside the code (policy/handoff.py)."""
    from tddhooks.policy import handoff
    from tddhooks.policy.facts import CODE_SUFFIXES

    suffixes = CODE_SUFFIXES.get(settings.language, ())

    def index_files() -> dict[str, str]:
        listed = [path for path in workspace.listed(root) if suffixes and path.endswith(suffixes)]
        return {path: workspace.read_blob(root, ":", path) or "" for path in listed}

    return handoff.handoff_tokens(settings, workspace.blob_ids(root, ":", paths), index_files)


class Turn:
    """One role's turn: gather its context, ask and judge until an answer lands or the supervisor
    gives up, then say how it ended. Subclasses judge and finish. The turn calls down into
    drive/asking.py, drive/attempts.py and drive/records.py; nothing calls back up."""

    role: Role
    hints: tuple[str, ...] = ()

    def __init__(self, crew: Crew, info: PhaseInfo) -> None:
        self.crew, self.info, self.root = crew, info, crew.root
        self._log: StepLog | None = None

    @property
    def log(self) -> StepLog:
        assert self._log is not None, "the step log exists while the turn plays"
        return self._log

    @property
    def limit(self) -> int:
        return self.crew.max_attempts

    def context(self) -> TurnContext:
        from tddhooks.drive import gather

        crew = self.crew
        return gather.turn_context(self.root, crew.settings, role=self.role,
                                   cycle=self.info.cycle, workspace=crew.workspace,
                                   working=tuple(crew.working),
                                   put_off=tuple(crew.put_off),
                                   checks=crew.checks.ids())  # fmt: skip

    def prepared(self) -> TurnContext:
        """The turn's context, its offered paths closed only under check `offered-paths`."""
        closed = self.crew.on("offered-paths")
        return dataclasses.replace(self.context(), paths_closed=closed)

    def judge(self, answer: AgentAnswer, record: AttemptRecord) -> Tried:
        raise NotImplementedError

    def finish(self, tried: Tried | None) -> TurnResult:
        raise NotImplementedError

    def play(self) -> TurnResult:
        """Ask, judge and settle until an answer lands or no attempt is left; then finish."""
        crew, info = self.crew, self.info
        with step_log(crew, self.role, info.cycle, info.phase.value) as log:
            self._log = log
            self.ctx = self.prepared()
            attempts = Attempts(crew, self.role, log, self.limit, self.hints)
            while (attempt := attempts.next(self.ctx)) is not None:
                ctx, record = attempt
                answer, result = ask(crew, self.role, info.cycle, ctx, record)
                if answer is None:
                    tried = Tried(False, "invalid-answer", failure=record.failure)
                else:
                    tried = self.judge(answer, record)
                landed = attempts.settle(tried, record, result.cache_key if result else "")
                if landed is not None:
                    return self.finish(landed)
                if tried.overshoot is not None and self.learn_working(tried.overshoot):
                    self.ctx = self.prepared()  # pointed at the next requirement, new file offered
            return self.finish(None)

    def learn_working(self, passed: tuple[str, ...]) -> bool:
        """Remember the requirements a test that passed at once shows working; True when that
        is news (the tester is then pointed past them)."""
        from tddhooks.agents.context import focus_of, tests_requirements

        crew = self.crew
        found = tests_requirements(self.ctx.kata, passed, focus_of(self.ctx))
        news = found - crew.working
        crew.working |= news
        return bool(news)

    def refuse(self, check_id: str, failure: str, outcome: AttemptOutcome = "refused") -> Tried:
        """A failed attempt that names the check refusing it (drive/checks/registry.py)."""
        self.crew.refusals[check_id] = self.crew.refusals.get(check_id, 0) + 1
        return Tried(False, outcome, failure=self.crew.checks.refusal(check_id, failure))

    def refused(self, answer: AgentAnswer, record: AttemptRecord) -> Tried | None:
        """The role's path rules (check `path-rules`) and check `placeholder-copied`, before
        anything is written."""
        crew = self.crew
        record.edits = edit_records(answer.edits)
        try:
            crew.workspace.check_edits(
                crew.root, answer.edits, path_policy(self.role, crew.settings)
            )
        except EditRefused as error:
            return self.refuse("path-rules", error.message)
        copied = copied_placeholder(
            answer.edits, lambda path: crew.workspace.read_blob(crew.root, "HEAD", _normalize(path))
        )
        if copied is not None and crew.on("placeholder-copied"):
            failure = (f"edits refused, nothing was written: {copied} is a placeholder of the "
                       "example answer; write the real code in its place")  # fmt: skip
            return self.refuse("placeholder-copied", failure)
        files = [edit.model_dump(include={"path", "action"}) for edit in record.edits]
        crew.display.emit("edits", role=self.role, files=files)
        return None

    written: tuple[str, ...] = ()

    def write(self, answer: AgentAnswer) -> list[str]:
        """Apply the edits, format the files written, stage them; returns the paths."""
        crew = self.crew
        policy = path_policy(self.role, crew.settings)
        paths = crew.workspace.apply_edits(crew.root, answer.edits, policy)
        self.written = tuple(paths)
        if crew.on("format-fixes"):
            repairs = crew.on("compiler-fixes")
            crew.workspace.format_files(crew.root, crew.settings, paths, repairs=repairs)
        crew.workspace.stage(crew.root, paths)
        return paths


class SourceTurn(Turn):
    """The implementor's and the refactorer's attempts: source edits, a green staged tree, and a
    commit with the message `compose` writes."""

    def compose(self, answer: AgentAnswer, verdict: Verdict) -> str | Tried:
        raise NotImplementedError

    def staged_versions(self, paths: list[str]) -> dict[str, str]:
        """The staged texts among `paths` that differ from HEAD (a handed-over unit test in the
        source file this attempt edits): a failed attempt puts them back after restore_to_head."""
        workspace, root = self.crew.workspace, self.root
        found = {}
        for path in paths:
            staged = workspace.read_blob(root, ":", path)
            if staged is not None and staged != workspace.read_blob(root, "HEAD", path):
                found[path] = staged
        return found

    def broken_interface(self) -> str | None:
        """Check `interface-kept`: why the written library breaks the kata's Interface section
        (drive/interface.py), before the gate spends a build on it; None when it keeps it, or
        when no kata names one."""
        if self.crew.settings.language != "rust" or not self.crew.on("interface-kept"):
            return None
        from tddhooks.drive.interface import LIB, broken_interface

        lib = self.root / LIB
        if not self.ctx.kata or not lib.is_file():
            return None
        before = self.crew.workspace.read_blob(self.root, "HEAD", LIB) or ""
        return broken_interface(self.ctx.kata, before, lib.read_text(encoding="utf-8"))

    def test_texts(self) -> dict[str, str]:
        """The turn's test files (path -> text)."""
        from tddhooks.agents.edits import matches_any

        globs = self.crew.settings.test_paths
        return {path: text for path, text in self.ctx.file_texts.items()
                if matches_any(path, globs)}  # fmt: skip

    def extras(self, failure: str) -> str:
        """Check `extra-values`: a hint for a test that gets its values and another
        requirement's (drive/extras.py)."""
        from tddhooks.drive.extras import extra_values

        if not self.crew.on("extra-values"):
            return ""
        language, kata = self.crew.settings.language, self.ctx.kata
        return extra_values(failure, self.test_texts(), language, kata)

    def stray_hints(self, failure: str) -> str:
        """Check `stray-values` (drive/strays.py) on `failure`, with the attempt's code files
        (as written) and the turn's test files."""
        from tddhooks.drive.strays import stray_values
        from tddhooks.vocabulary import CODE_SUFFIXES

        if not self.crew.on("stray-values"):
            return ""
        texts, tests = self.ctx.file_texts, self.test_texts()
        suffixes = tuple(CODE_SUFFIXES.get(self.crew.settings.language, ()))
        sources = {}
        for path in {*texts, *self.written}:
            code = path.endswith(suffixes)
            if code and path not in tests and (self.root / path).is_file():
                sources[path] = (self.root / path).read_text(encoding="utf-8", errors="replace")
        return stray_values(failure, sources, tests, self.ctx.kata)

    def settled(self, verdict: Verdict) -> Verdict:
        """The verdict the attempt is judged by: the gate's (the implementor may first have the
        linter's safe fixes applied to the tester's test, drive/turns.py)."""
        return verdict

    def broken_examples(self) -> str | None:
        """Check `examples-kept`: why the green attempt (the index, as the gate judged it)
        changes what an example of the kata gives, which HEAD gave as the kata says
        (drive/probe.py); None when it keeps them, when that cannot be told, or when the check
        is off."""
        from tddhooks.drive.probe import broken_examples, build_probe, python_package, unchecked
        from tddhooks.policy.compose import kata_requirements
        from tddhooks.policy.rules import is_test_path

        crew, kata = self.crew, self.ctx.kata
        if not crew.on("examples-kept"):
            return None
        language = crew.settings.language
        listed = crew.workspace.listed(self.root)
        project = kata_crate(self.root) if language == "rust" else python_package(listed)
        requirements = kata_requirements(kata, whole=True) if kata else []
        probe = build_probe(kata, requirements, language, project, listed)
        tests: list[str] = []
        if probe is not None:
            staged = [path for path in crew.workspace.staged_paths(self.root)
                      if is_test_path(path, crew.settings)]  # fmt: skip
            tests = [crew.workspace.read_blob(self.root, ":", path) or "" for path in staged]
            probe = unchecked(probe, tests, language)
        if probe is None:
            return None
        head = crew.workspace.head_tree(self.root)
        implementor = self.role == "implementor"
        invented = self.stray_hints if implementor else None
        held = self.tested_requirements() if implementor else None
        # ":": the index, as the gate judged it (a fake gate's verdict names no tree)
        tests += self.test_texts().values()
        return broken_examples(crew, probe, head, ":", self.role, invented, held, tests)

    def source_versions(self) -> tuple[dict[str, str], dict[str, str]]:
        """The turn's code files (not tests) as HEAD has them, and those the attempt wrote as
        the index has them (path -> text)."""
        from tddhooks.vocabulary import CODE_SUFFIXES

        workspace = self.crew.workspace
        suffixes = tuple(CODE_SUFFIXES.get(self.crew.settings.language, ()))
        tests = self.test_texts()
        paths = [path for path in {*self.ctx.file_texts, *self.written}
                 if path.endswith(suffixes) and path not in tests]  # fmt: skip
        before = {path: workspace.read_blob(self.root, "HEAD", path) or "" for path in paths}
        after = {path: workspace.read_blob(self.root, ":", path) or "" for path in self.written
                 if path in paths}  # fmt: skip
        return before, after

    def added_function(self) -> str | None:
        """Check `function-added`: why the refactor adds a function the kata's tests call that
        HEAD lacks (drive/added.py); None when it adds none. HEAD's every code file is read: the
        function may live in one the prompt did not show."""
        from tddhooks.drive.added import added_function
        from tddhooks.vocabulary import CODE_SUFFIXES

        if not self.ctx.kata or not self.crew.on("function-added"):
            return None
        workspace, language = self.crew.workspace, self.crew.settings.language
        suffixes = tuple(CODE_SUFFIXES.get(language, ()))
        tests = self.test_texts()
        # the index's paths and the staged ones (a file the refactor deleted is HEAD's too)
        paths = {*workspace.listed(self.root), *workspace.staged_paths(self.root)}
        head = {path: workspace.read_blob(self.root, "HEAD", path) or ""
                for path in paths if path.endswith(suffixes) and path not in tests}  # fmt: skip
        _, after = self.source_versions()
        return added_function(self.ctx.kata, language, head, after)

    def tested_requirements(self) -> set[int]:
        """The kata's requirements (numbered from 1) that a test of the turn's files is about,
        the staged one included (agents/context.py `tests_requirements`)."""
        from tddhooks.agents.context import tests_requirements
        from tddhooks.drive import gather

        # every file of the turn: unit tests beside the code count too
        names = gather.test_names(self.crew.settings, self.ctx.file_texts)
        return {index + 1 for index in tests_requirements(self.ctx.kata, names, None)}

    def put_back(self, versions: dict[str, str]) -> None:
        for path, text in versions.items():
            (self.root / path).write_text(text, encoding="utf-8")
        if versions:
            self.crew.workspace.stage(self.root, list(versions))

    def commit(self, message: str) -> Tried:
        outcome = self.crew.workspace.commit(self.root, message, self.crew.settings)
        if not outcome.ok:
            failure = "the commit hooks rejected the commit:\n" + outcome.output
            return Tried(False, "rejected", failure=failure)
        subject = message.splitlines()[0]
        self.log.commit, self.log.subject = outcome.sha, subject
        return Tried(True, "committed", commit=outcome.sha, subject=subject)

    def source_attempt(self, answer: AgentAnswer, record: AttemptRecord) -> Tried:
        crew, root = self.crew, self.root
        refused = self.refused(answer, record)
        if refused is not None:
            return refused
        planned, before, committed = answer_paths(answer), crew.workspace.head(root), False
        # a handed-over test inside a source file (unit tests beside the code) is staged there
        handed = self.staged_versions(planned)
        try:
            self.write(answer)
            broken = self.broken_interface()
            if broken is not None:
                return self.refuse("interface-kept", broken)
            verdict = self.settled(crew.gate.staged(root, crew.settings))
            show_verdict(crew, self.role, verdict, record)
            if not verdict.green:
                failure = verdict.failure_excerpt()
                rust = crew.settings.language == "rust" and crew.on("rust-hints")
                hints = rust_hints(verdict) if rust else ""
                hints += self.stray_hints(failure) + self.extras(failure)
                # the hints first: the prompt keeps the head of a long failure
                return Tried(False, "red", failure=hints + failure)
            message = self.compose(answer, verdict)
            if isinstance(message, Tried):
                return message
            tried = self.commit(message)
            committed = tried.landed
            if committed:
                crew.display.emit(
                    "committed", role=self.role, sha=tried.commit, subject=tried.subject
                )
            return tried
        finally:
            # a commit that landed stays; anything else of this attempt goes back to HEAD
            if not committed and crew.workspace.head(root) == before:
                crew.workspace.restore_to_head(root, planned)
                self.put_back(handed)
