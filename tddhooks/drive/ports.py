"""What the drive needs from the outside, as protocols: a Model per role (the LLM client, the
replay, or a test's scripted fake). The loop depends on these, not on HTTP, so supervisor and
attempt scenarios run as millisecond unit tests (tests/support/fake_model.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from tddhooks.llm.client import ChatResult
    from tddhooks.llm.settings import ModelSettings


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
