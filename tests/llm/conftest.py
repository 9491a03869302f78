"""Fixtures for the LLM layer: the fake OpenAI server and settings pointing at it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from support.fake_openai import FakeOpenAI, fake_openai  # noqa: F401  (fixture re-export)

from tddhooks.llm.cache import AnswerCache
from tddhooks.llm.client import ChatClient
from tddhooks.llm.settings import ModelSettings

SECRET = "sk-test-Zq9V1x-DO-NOT-LEAK-7f3e"

SettingsFactory = Callable[..., ModelSettings]


@pytest.fixture
def make_settings(fake_openai: FakeOpenAI) -> SettingsFactory:  # noqa: F811
    """ModelSettings for the fake server; keyword arguments override fields."""

    def factory(**overrides: Any) -> ModelSettings:
        values: dict[str, Any] = {
            "provider": "custom",
            "model": "fake-model",
            "base_url": fake_openai.base_url,
            "api_key": SECRET,
            "key_source": "FAKE_API_KEY",
            "temperature": 0.2,
            "max_tokens": 256,
            "timeout_s": 5.0,
            "response_format": "text",
            "max_retries": 2,
            "role": "tester",
        }
        values.update(overrides)
        return ModelSettings(**values)

    return factory


@pytest.fixture
def answer_cache(tmp_path: Path) -> Iterator[AnswerCache]:
    cache = AnswerCache(tmp_path / "llm-cache")
    yield cache
    cache.close()


MESSAGES = [
    {"role": "system", "content": "You are the tester."},
    {"role": "user", "content": "Schreib einen Test für «römische» Zahlen."},
]


def make_client(
    make_settings: SettingsFactory, cache: AnswerCache | None = None, **overrides: Any
) -> ChatClient:
    """A client for the fake server (the SDK's own retries and backoff)."""
    return ChatClient(make_settings(**overrides), cache)
