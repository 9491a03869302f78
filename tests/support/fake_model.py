"""A deterministic model at the model layer (drive/ports.py `Model`): answers queued per role with
`enqueue`, every request kept. No HTTP, no SDK: supervisor and attempt scenarios run in
milliseconds; the fake OpenAI server stays for the client and the end-to-end tests."""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tddhooks.llm.client import ChatResult
from tddhooks.llm.settings import ModelSettings


@dataclass(frozen=True)
class Asked:
    """One request the fake received."""

    role: str
    messages: list[dict[str, str]]
    schema: dict[str, Any] | None
    temperature: float | None = None

    @property
    def user(self) -> str:
        return self.messages[-1]["content"]


@dataclass
class FakeModel:
    """Answers in the order queued; a dict becomes JSON text, an exception (Ctrl-C too) raised."""

    role: str = "tester"
    answers: deque[str | dict[str, Any] | BaseException] = field(default_factory=deque)
    asked: list[Asked] = field(default_factory=list)

    @property
    def settings(self) -> ModelSettings:
        return ModelSettings("custom", "fake-model", "http://fake.invalid/v1", role=self.role)

    def enqueue(self, *answers: str | dict[str, Any] | BaseException) -> FakeModel:
        self.answers.extend(answers)
        return self

    def complete(
        self,
        messages: list[dict[str, str]],
        *,
        role: str,
        on_delta: Callable[[str], None] | None = None,
        schema: dict[str, Any] | None = None,
        temperature: float | None = None,
    ) -> ChatResult:
        self.asked.append(Asked(role, messages, schema, temperature))
        if not self.answers:
            raise AssertionError(f"FakeModel: no answer queued for {role}")
        answer = self.answers.popleft()
        if isinstance(answer, BaseException):
            raise answer
        text = answer if isinstance(answer, str) else json.dumps(answer)
        if on_delta is not None:
            on_delta(text)
        return ChatResult(text, 10, 5, False, "stop", 0.0, "", False)
