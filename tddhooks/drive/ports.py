"""What the drive needs from the outside, as protocols: a Model per role (the LLM client, the
replay, or a test's scripted fake), the Gate (verdicts), the Workspace (the phase, files, git,
the notes in `.git/tddhooks/`, commits through the hooks) and the Turns (one object per role).
The loop depends on these, not on HTTP, git or cargo, so supervisor, attempt and loop scenarios
run as millisecond unit tests (tests/support/fake_model.py, tests/support/memory_drive.py); the
contract every Workspace keeps is in docs/dev/contracts.md, checked on both by
tests/drive/test_workspace_contract.py; the cargo end-to-end tests are the thin top layer over the
real ones (RealGate, GitWorkspace)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from tddhooks.agents.edits import FileEdit, PathPolicy
    from tddhooks.drive.crew import Crew
    from tddhooks.drive.turnkit import TurnResult
    from tddhooks.drive.workspace import CommitOutcome
    from tddhooks.llm.client import ChatResult
    from tddhooks.llm.settings import ModelSettings
    from tddhooks.policy.handoff import Handoff
    from tddhooks.policy.phase import PhaseInfo
    from tddhooks.policy.settings import PolicySettings
    from tddhooks.policy.verdicts import Verdict


class Model(Protocol):
    """One role's model: answers a chat; raises LLMError or UnusableAnswer like ChatClient."""

    @property
    def settings(self) -> ModelSettings: ...

    def complete(
        self,
        messages: list[dict[str, str]],
        *,
        role: str,
        on_delta: Callable[[str], None] | None = None,
        schema: dict[str, Any] | None = None,
        temperature: float | None = None,
    ) -> ChatResult: ...


class Gate(Protocol):
    """The green gate: the verdict on the staged tree, or on any tree."""

    def staged(self, root: Path, settings: PolicySettings) -> Verdict: ...

    def tree(self, root: Path, tree: str, settings: PolicySettings) -> Verdict: ...


class Workspace(Protocol):
    """The repository as the drive sees it: a working tree, a staging area, the commits, and
    the notes valid while HEAD stays where they were written (docs/dev/contracts.md)."""

    def phase(
        self, root: Path, settings: PolicySettings, gate: Gate
    ) -> tuple[PhaseInfo, Verdict | None]:
        """The phase (policy/phase.py `decide_phase` over this tree) and the verdict behind it."""
        ...

    def head(self, root: Path) -> str | None: ...

    def staged_paths(self, root: Path) -> list[str]:
        """Paths whose staged copy differs from HEAD (additions and deletions), sorted."""
        ...

    def blob_ids(self, root: Path, rev: str, paths: Collection[str]) -> dict[str, str]:
        """path -> content id in HEAD (rev "HEAD") or the index (rev ":"); absent paths left
        out. Equal content, equal id."""
        ...

    def read_blob(self, root: Path, rev: str, path: str) -> str | None:
        """The text of `path` in HEAD (rev "HEAD") or the index (rev ":"); None when absent."""
        ...

    def listed(self, root: Path) -> list[str]:
        """Every path in the index, sorted."""
        ...

    def last_commit(self, root: Path) -> tuple[str, str]:
        """HEAD's whole message (stripped) and a diff of what it changed (for prompts)."""
        ...

    def numstat_staged(self, root: Path) -> dict[str, tuple[int, int]]:
        """path -> (lines added, lines removed) of each staged change."""
        ...

    def head_tree(self, root: Path) -> str:
        """HEAD's tree, as the Gate's `tree` takes it."""
        ...

    def tree_with_file(self, root: Path, base: str, path: str, text: str) -> str:
        """A tree as the Gate's `tree` takes it: `base` (HEAD's tree, or ":" for the index's)
        with `path` holding `text`; the index and the working tree stay as they are."""
        ...

    def check_edits(self, root: Path, edits: Sequence[FileEdit], policy: PathPolicy) -> None:
        """agents/edits.py `check_edits`: EditRefused, nothing written, when a rule is broken
        (a path that is not the agents' to write: neither in HEAD nor new)."""
        ...

    def apply_edits(self, root: Path, edits: Sequence[FileEdit], policy: PathPolicy) -> list[str]:
        """Check, then write the plan into the working tree; returns the paths written."""
        ...

    def format_files(
        self, root: Path, settings: PolicySettings, paths: Collection[str], *, repairs: bool = True
    ) -> None: ...

    def stage(self, root: Path, paths: Collection[str]) -> None: ...

    def restore_to_head(self, root: Path, paths: Collection[str]) -> None: ...

    def commit(self, root: Path, message: str, settings: PolicySettings) -> CommitOutcome: ...

    def set_aside(self, root: Path, cycle: int, paths: Sequence[str]) -> Path: ...

    def bring_back(self, root: Path, directory: Path, paths: Sequence[str]) -> None: ...

    def read_handoff(self, root: Path) -> Handoff | None: ...

    def write_handoff(self, root: Path, handoff: Handoff) -> None: ...

    def clear_handoff(self, root: Path) -> None: ...

    def mark_done(self, root: Path, reason: str) -> None: ...

    def mark_refactor_turn(self, root: Path) -> None: ...

    def refactor_turn_taken(self, root: Path) -> bool: ...


class Turns(Protocol):
    """One turn object per role; the loop gives the turn to the role the phase calls for."""

    def tester(self, crew: Crew, info: PhaseInfo, *, hints: tuple[str, ...]) -> TurnResult: ...

    def implementor(self, crew: Crew, info: PhaseInfo, red: Verdict | None) -> TurnResult: ...

    def refactorer(self, crew: Crew, info: PhaseInfo) -> TurnResult: ...


class RealGate:
    """policy/gate.py: the runner's fmt check, lint and tests on a snapshot of the tree."""

    def staged(self, root: Path, settings: PolicySettings) -> Verdict:
        from tddhooks.policy.gate import staged_tree_verdict

        return staged_tree_verdict(root, settings)

    def tree(self, root: Path, tree: str, settings: PolicySettings) -> Verdict:
        from tddhooks.policy.gate import tree_verdict

        return tree_verdict(root, tree, settings)


class GitWorkspace:
    """drive/workspace.py and policy/phase.py: real files, real git, real hooks."""

    def phase(
        self, root: Path, settings: PolicySettings, gate: Gate
    ) -> tuple[PhaseInfo, Verdict | None]:
        from tddhooks.policy.phase import current_phase

        return current_phase(root, settings, gate=gate)

    def head(self, root: Path) -> str | None:
        from tddhooks import git

        return git.head(root)

    def staged_paths(self, root: Path) -> list[str]:
        from tddhooks import git

        return sorted(change.path for change in git.staged_changes(root))

    def blob_ids(self, root: Path, rev: str, paths: Collection[str]) -> dict[str, str]:
        from tddhooks import git

        return git.blob_ids(root, rev, sorted(paths)) if paths else {}

    def read_blob(self, root: Path, rev: str, path: str) -> str | None:
        from tddhooks import git

        return git.read_blob(root, rev, path)

    def listed(self, root: Path) -> list[str]:
        from tddhooks import git

        return sorted(path for path in git.out(["ls-files", "-z"], root).split("\0") if path)

    def last_commit(self, root: Path) -> tuple[str, str]:
        from tddhooks import git

        message = git.out(["log", "-1", "--format=%B", "HEAD"], root).strip()
        diff = git.out(["show", "--format=", "--no-color", "--no-ext-diff", "-U2", "HEAD"], root)
        return message, diff

    def numstat_staged(self, root: Path) -> dict[str, tuple[int, int]]:
        from tddhooks.drive import workspace

        return workspace.numstat_staged(root)

    def head_tree(self, root: Path) -> str:
        from tddhooks import git

        return git.tree_of(root, "HEAD")

    def tree_with_file(self, root: Path, base: str, path: str, text: str) -> str:
        from tddhooks.drive.interface import tree_with_file

        return tree_with_file(root, path, text, base=None if base == ":" else base)

    def check_edits(self, root: Path, edits: Sequence[FileEdit], policy: PathPolicy) -> None:
        from tddhooks.agents.edits import check_edits

        check_edits(root, edits, policy)

    def apply_edits(self, root: Path, edits: Sequence[FileEdit], policy: PathPolicy) -> list[str]:
        from tddhooks.agents.edits import apply_edits

        return apply_edits(root, edits, policy)

    def format_files(
        self, root: Path, settings: PolicySettings, paths: Collection[str], *, repairs: bool = True
    ) -> None:
        from tddhooks.drive import workspace

        workspace.format_files(root, settings, paths, repairs=repairs)

    def stage(self, root: Path, paths: Collection[str]) -> None:
        from tddhooks.drive import workspace

        workspace.stage(root, paths)

    def restore_to_head(self, root: Path, paths: Collection[str]) -> None:
        from tddhooks.drive import workspace

        workspace.restore_to_head(root, paths)

    def commit(self, root: Path, message: str, settings: PolicySettings) -> CommitOutcome:
        from tddhooks.drive import workspace

        return workspace.commit(root, message, settings)

    def set_aside(self, root: Path, cycle: int, paths: Sequence[str]) -> Path:
        from tddhooks.drive import workspace

        return workspace.set_aside(root, cycle, paths)

    def bring_back(self, root: Path, directory: Path, paths: Sequence[str]) -> None:
        from tddhooks.drive import workspace

        workspace.bring_back(root, directory, paths)

    def read_handoff(self, root: Path) -> Handoff | None:
        from tddhooks.policy.handoff import read_handoff

        return read_handoff(root)

    def write_handoff(self, root: Path, handoff: Handoff) -> None:
        from tddhooks.policy.handoff import write_handoff

        write_handoff(root, handoff)

    def clear_handoff(self, root: Path) -> None:
        from tddhooks.policy.handoff import clear_handoff

        clear_handoff(root)

    def mark_done(self, root: Path, reason: str) -> None:
        from tddhooks.policy.phase import mark_done

        mark_done(root, reason)

    def mark_refactor_turn(self, root: Path) -> None:
        from tddhooks.drive import workspace

        workspace.mark_refactor_turn(root)

    def refactor_turn_taken(self, root: Path) -> bool:
        from tddhooks.drive import workspace

        return workspace.refactor_turn_taken(root)
