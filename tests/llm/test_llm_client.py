"""ChatClient over the wire: the real openai SDK against the local fake server."""

from __future__ import annotations

from typing import Any

import pytest
from support.fake_openai import (
    Fail,
    FakeOpenAI,
    Reply,
)

from tddhooks.errors import LLMError
from tddhooks.llm.cache import AnswerCache

from .conftest import MESSAGES, SECRET, SettingsFactory, make_client


def test_a_completion_over_the_wire(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory
) -> None:
    fake_openai.enqueue(Reply('{"plan": "ok"}', prompt_tokens=42, completion_tokens=9))
    result = make_client(make_settings).complete(MESSAGES, role="tester")
    assert result.content == '{"plan": "ok"}'
    assert (result.prompt_tokens, result.completion_tokens) == (42, 9)
    assert not result.estimated_usage
    assert not result.cached
    assert result.finish_reason == "stop"
    assert result.latency_s > 0
    request = fake_openai.chat_requests[0]
    assert request.headers["authorization"] == f"Bearer {SECRET}"
    assert request.body is not None
    assert request.body["messages"] == MESSAGES
    assert request.body["model"] == "fake-model"
    assert request.body["temperature"] == 0.2
    assert request.body["max_tokens"] == 256
    assert "response_format" not in request.body
    assert not request.body.get("stream")


def test_a_local_server_gets_a_placeholder_key(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory
) -> None:
    fake_openai.enqueue("fine")
    make_client(make_settings, api_key=None).complete(MESSAGES, role="tester")
    assert fake_openai.chat_requests[0].headers["authorization"] == "Bearer not-needed"


def test_openai_gets_max_completion_tokens(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory
) -> None:
    fake_openai.enqueue("fine")
    make_client(make_settings, provider="openai").complete(MESSAGES, role="tester")
    body = fake_openai.chat_requests[0].body or {}
    assert body["max_completion_tokens"] == 256
    assert "max_tokens" not in body


def test_usage_is_estimated_when_the_api_reports_none(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory
) -> None:
    fake_openai.enqueue(Reply("x" * 40, prompt_tokens=None, completion_tokens=None))
    result = make_client(make_settings).complete(MESSAGES, role="tester")
    assert result.estimated_usage
    assert result.completion_tokens == 10
    expected_prompt = sum(-(-len(m["content"]) // 4) for m in MESSAGES)
    assert result.prompt_tokens == expected_prompt


def test_json_object_form_sends_response_format(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory
) -> None:
    fake_openai.enqueue('{"a": 1}')
    make_client(make_settings, response_format="json_object").complete(MESSAGES, role="tester")
    assert (fake_openai.chat_requests[0].body or {})["response_format"] == {"type": "json_object"}


def test_a_server_that_rejects_response_format_is_asked_again_without_it(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory
) -> None:
    fake_openai.enqueue(Fail(400, "response_format json_object is not supported"), '{"a": 1}', "b")
    client = make_client(make_settings, response_format="json_object")
    assert client.complete(MESSAGES, role="tester").content == '{"a": 1}'
    bodies = [request.body or {} for request in fake_openai.chat_requests]
    assert "response_format" in bodies[0]
    assert "response_format" not in bodies[1]
    client.complete(MESSAGES, role="tester")  # remembered for this client
    assert "response_format" not in (fake_openai.chat_requests[2].body or {})


def test_a_bad_request_without_json_mode_is_reported(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory
) -> None:
    fake_openai.enqueue(Fail(400, "context length exceeded: 9000 > 8192"))
    with pytest.raises(LLMError) as caught:
        make_client(make_settings).complete(MESSAGES, role="tester")
    assert "HTTP 400" in caught.value.message
    assert "context length exceeded" in caught.value.message


def test_streaming_feeds_on_delta_and_reads_the_usage_chunk(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory
) -> None:
    text = '{"plan": "streamed «piece» by piece"}'
    fake_openai.enqueue(Reply(text, prompt_tokens=50, completion_tokens=12))
    pieces: list[str] = []
    result = make_client(make_settings).complete(MESSAGES, role="tester", on_delta=pieces.append)
    assert len(pieces) > 3
    assert "".join(pieces) == text == result.content
    assert (result.prompt_tokens, result.completion_tokens) == (50, 12)
    body = fake_openai.chat_requests[0].body or {}
    assert body["stream"] is True
    assert body["stream_options"] == {"include_usage": True}


def test_streaming_without_usage_estimates(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory
) -> None:
    fake_openai.enqueue(Reply("abcdefgh", prompt_tokens=None, completion_tokens=None))
    result = make_client(make_settings).complete(MESSAGES, role="tester", on_delta=lambda _: None)
    assert result.estimated_usage
    assert result.completion_tokens == 2


def test_a_cached_answer_does_not_touch_the_server(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory, answer_cache: AnswerCache
) -> None:
    fake_openai.enqueue(Reply('{"plan": "once"}', prompt_tokens=30, completion_tokens=4))
    first = make_client(make_settings, answer_cache).complete(MESSAGES, role="tester")
    pieces: list[str] = []
    next_drive = AnswerCache(answer_cache.directory)
    try:
        client = make_client(make_settings, next_drive)
        second = client.complete(MESSAGES, role="tester", on_delta=pieces.append)
    finally:
        next_drive.close()
    assert second.cached
    assert not first.cached
    assert second.content == first.content == "".join(pieces)
    assert (second.prompt_tokens, second.completion_tokens) == (30, 4)
    assert second.cache_key == first.cache_key
    assert len(fake_openai.chat_requests) == 1


def test_the_cache_is_shared_across_clients_but_not_across_models(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory, answer_cache: AnswerCache
) -> None:
    fake_openai.enqueue("a", "b")
    make_client(make_settings, answer_cache).complete(MESSAGES, role="tester")
    next_drive = AnswerCache(answer_cache.directory)
    try:
        assert make_client(make_settings, next_drive).complete(MESSAGES, role="x").cached
    finally:
        next_drive.close()
    other = make_client(make_settings, answer_cache, model="fake-coder:7b")
    assert other.complete(MESSAGES, role="tester").content == "b"


def test_no_cache_always_asks(fake_openai: FakeOpenAI, make_settings: SettingsFactory) -> None:
    fake_openai.enqueue("a", "b")
    client = make_client(make_settings, None)
    assert [client.complete(MESSAGES, role="t").content for _ in range(2)] == ["a", "b"]


def test_a_repeated_request_asks_the_model_and_a_replay_gets_the_same_answers(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory, answer_cache: AnswerCache
) -> None:
    fake_openai.enqueue("not json at all", '{"plan": "fixed"}')
    client = make_client(make_settings, answer_cache)
    # the first answer was rejected; the same request again is its 2nd occurrence: the model
    first = client.complete(MESSAGES, role="tester")
    retry = client.complete(MESSAGES, role="tester")
    assert (first.content, retry.content) == ("not json at all", '{"plan": "fixed"}')
    assert not retry.cached
    assert retry.cache_key == f"{first.cache_key}#1"
    fake_openai.stop()
    replay_cache = AnswerCache(answer_cache.directory)  # the next drive, offline
    try:
        replay = make_client(make_settings, replay_cache)
        again = [replay.complete(MESSAGES, role="tester") for _ in range(2)]
    finally:
        replay_cache.close()
    assert [a.content for a in again] == ["not json at all", '{"plan": "fixed"}']
    assert all(a.cached for a in again)


def test_refresh_cache_asks_again_and_stores_the_new_answer(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory, answer_cache: AnswerCache
) -> None:
    fake_openai.enqueue("old", "new")
    make_client(make_settings, answer_cache).complete(MESSAGES, role="tester")
    refresh = AnswerCache(answer_cache.directory, read=False)
    try:
        assert (
            make_client(make_settings, refresh).complete(MESSAGES, role="tester").content == "new"
        )
    finally:
        refresh.close()
    later = AnswerCache(answer_cache.directory)
    try:
        assert make_client(make_settings, later).complete(MESSAGES, role="tester").content == "new"
    finally:
        later.close()


def test_import_of_the_llm_package_stays_cheap() -> None:
    import subprocess
    import sys

    code = (
        "import sys, tddhooks.llm.client, tddhooks.llm.cache, tddhooks.llm.replay, "
        "tddhooks.llm.usage, tddhooks.llm.jsonanswer, tddhooks.llm.providers\n"
        "print(sorted(m for m in ('openai', 'diskcache', 'httpx2', 'rich') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_responder_scripts_whole_sessions_by_role(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory
) -> None:
    def by_role(body: dict[str, Any]) -> str:
        system = body["messages"][0]["content"]
        return '{"role": "tester"}' if "tester" in system else '{"role": "other"}'

    fake_openai.responder = by_role
    client = make_client(make_settings)
    assert client.complete(MESSAGES, role="tester").content == '{"role": "tester"}'
    implementor = [{"role": "system", "content": "You are the implementor."}, MESSAGES[1]]
    assert client.complete(implementor, role="implementor").content == '{"role": "other"}'
    fake_openai.enqueue("queued answers come first")
    assert client.complete(implementor, role="implementor").content == "queued answers come first"


def test_a_stopped_server_is_unreachable(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory
) -> None:
    client = make_client(make_settings, max_retries=0)
    fake_openai.stop()
    fake_openai.stop()  # idempotent: the fixture stops it again
    with pytest.raises(LLMError, match="cannot reach"):
        client.complete(MESSAGES, role="tester")


def test_a_seed_reaches_the_request_and_the_cache_key(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory, tmp_path: Any
) -> None:
    fake_openai.enqueue("seeded", "unseeded")
    cache = AnswerCache(tmp_path / "cache")
    seeded = make_client(make_settings, seed=7, temperature=0.0, cache=cache)
    first = seeded.complete(MESSAGES, role="tester")
    body = fake_openai.chat_requests[0].body or {}
    assert (body["seed"], body["temperature"]) == (7, 0.0)
    # without a seed none is sent, and the request is another one for the cache
    plain = make_client(make_settings, temperature=0.0, cache=AnswerCache(tmp_path / "cache"))
    second = plain.complete(MESSAGES, role="tester")
    assert "seed" not in (fake_openai.chat_requests[1].body or {})
    assert (first.content, second.content) == ("seeded", "unseeded")
    assert first.cache_key != second.cache_key
    key = AnswerCache.key_for(fake_openai.base_url, "fake-model", 0.0, MESSAGES, None, 256)
    assert second.cache_key == key  # a request without a seed keeps the key it always had
    assert AnswerCache.key_for(fake_openai.base_url, "fake-model", 0.0, MESSAGES, None, 256,
                               7) == first.cache_key  # fmt: skip
