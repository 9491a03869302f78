"""What the drive needs from the outside, as protocols: a Model per role (the LLM client, the
replay, or a test's scripted fake), the Gate (verdicts) and the Workspace (files, git, commits
through the hooks). The turns depend on these, not on HTTP or cargo, so supervisor, attempt and
turn scenarios run as fast unit tests (tests/support/fake_model.py); the cargo end-to-end tests
are the thin top layer that uses the real ones (RealGate, GitWorkspace)."""

from __future__ import annotations

from collections.abc import Callable, Collection
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from tddhooks.drive.workspace import CommitOutcome
    from tddhooks.llm.client import ChatResult
    from tddhooks.llm.settings import ModelSettings
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
    ) -> ChatResult: ...


class Gate(Protocol):
    """The green gate: the verdict on the staged tree, or on any tree."""

    def staged(self, root: Path, settings: PolicySettings) -> Verdict: ...

    def tree(self, root: Path, tree: str, settings: PolicySettings) -> Verdict: ...


class Workspace(Protocol):
    """The file and git operations of a turn; `commit` goes through the installed hooks."""

    def format_files(
        self, root: Path, settings: PolicySettings, paths: Collection[str]
    ) -> None: ...

    def stage(self, root: Path, paths: Collection[str]) -> None: ...

    def restore_to_head(self, root: Path, paths: Collection[str]) -> None: ...

    def commit(self, root: Path, message: str, settings: PolicySettings) -> CommitOutcome: ...


class RealGate:
    """policy/gate.py: the runner's fmt check, lint and tests on a snapshot of the tree."""

    def staged(self, root: Path, settings: PolicySettings) -> Verdict:
        from tddhooks.policy.gate import staged_tree_verdict

        return staged_tree_verdict(root, settings)

    def tree(self, root: Path, tree: str, settings: PolicySettings) -> Verdict:
        from tddhooks.policy.gate import tree_verdict

        return tree_verdict(root, tree, settings)


class GitWorkspace:
    """drive/workspace.py: real files, real git, real hooks."""

    def format_files(self, root: Path, settings: PolicySettings, paths: Collection[str]) -> None:
        from tddhooks.drive import workspace

        workspace.format_files(root, settings, paths)

    def stage(self, root: Path, paths: Collection[str]) -> None:
        from tddhooks.drive import workspace

        workspace.stage(root, paths)

    def restore_to_head(self, root: Path, paths: Collection[str]) -> None:
        from tddhooks.drive import workspace

        workspace.restore_to_head(root, paths)

    def commit(self, root: Path, message: str, settings: PolicySettings) -> CommitOutcome:
        from tddhooks.drive import workspace

        return workspace.commit(root, message, settings)
