"""ChatClient failures: the openai SDK's retries with backoff (Retry-After in seconds, as an HTTP
date, retry-after-ms), and one clear error per kind of failure."""

from __future__ import annotations

import itertools
import time
from email.utils import formatdate

import pytest
from support.fake_openai import (
    Delay,
    Drop,
    EmptyChoices,
    Fail,
    FakeOpenAI,
    Garbage,
    Reply,
    unused_port,
)

from tddhooks.errors import LLMAnswerError, LLMError
from tddhooks.llm.cache import AnswerCache
from tddhooks.llm.client import TruncatedAnswer, UnusableAnswer

from .conftest import MESSAGES, SECRET, SettingsFactory, make_client


def _gaps(server: FakeOpenAI) -> list[float]:
    times = [request.at for request in server.chat_requests]
    return [later - earlier for earlier, later in itertools.pairwise(times)]


QUICK = 1.0  # retry-after-ms that keeps a test fast


@pytest.mark.parametrize(
    "failure",
    [
        Fail(429, "slow down", retry_after_ms=QUICK),
        Fail(500, "boom", retry_after_ms=QUICK),
        Fail(503, "overloaded", retry_after_ms=QUICK),
        Fail(408, "request timeout", retry_after_ms=QUICK),
    ],
)
def test_transient_failures_are_retried_by_the_sdk(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory, failure: Fail
) -> None:
    fake_openai.enqueue(failure, failure, "finally")
    result = make_client(make_settings).complete(MESSAGES, role="tester")
    assert result.content == "finally"
    assert len(fake_openai.chat_requests) == 3
    assert all(gap < 0.3 for gap in _gaps(fake_openai))  # 1 ms asked, not the 0.5 s default


def test_a_dropped_connection_is_retried_with_exponential_backoff(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory
) -> None:
    fake_openai.enqueue(Drop(), Drop(), "finally")
    assert make_client(make_settings).complete(MESSAGES, role="tester").content == "finally"
    first, second = _gaps(fake_openai)
    # the SDK waits 0.5 s, then 1 s, each shortened by up to a quarter (jitter)
    assert 0.37 <= first < 0.9
    assert 0.74 <= second < 1.6


@pytest.mark.parametrize(
    "failure",
    [
        Fail(429, "wait", retry_after=1.5),
        Fail(429, "wait", retry_after_ms=1500),
        Fail(503, "wait", retry_after="HTTP-DATE"),
    ],
    ids=["seconds", "milliseconds", "http-date"],
)
def test_retry_after_is_honoured(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory, failure: Fail
) -> None:
    if failure.retry_after == "HTTP-DATE":
        failure = Fail(503, "wait", retry_after=formatdate(time.time() + 3, usegmt=True))
    fake_openai.enqueue(failure, "ok")
    assert make_client(make_settings, max_retries=1).complete(MESSAGES, role="t").content == "ok"
    (gap,) = _gaps(fake_openai)
    assert gap >= 1.0  # the default first backoff would be at most 0.5 s
    assert gap < 4.5


@pytest.mark.parametrize(
    ("failure", "message"),
    [
        (
            Fail(429, "slow down"),
            "still rate-limiting custom:fake-model (HTTP 429) after 3 attempts: slow down",
        ),
        (
            Fail(502, "bad gateway"),
            "keeps failing for custom:fake-model (HTTP 502) after 3 attempts: bad gateway",
        ),
        (Drop(), "cannot reach"),
    ],
)
def test_retries_give_up_with_a_clear_error(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory, failure: Fail | Drop, message: str
) -> None:
    if isinstance(failure, Fail):
        failure = Fail(failure.status, failure.message, retry_after_ms=QUICK)
    fake_openai.enqueue(failure, failure, failure, "never served")
    with pytest.raises(LLMError) as caught:
        make_client(make_settings).complete(MESSAGES, role="tester")
    assert message in caught.value.message
    assert "after 3 attempts" in caught.value.message
    assert len(fake_openai.chat_requests) == 3
    assert fake_openai.pending == 1


def test_401_names_the_key_source_not_the_key(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory
) -> None:
    fake_openai.enqueue(Fail(401, f"Incorrect API key provided: {SECRET}"))
    with pytest.raises(LLMError) as caught:
        make_client(make_settings).complete(MESSAGES, role="tester")
    assert "HTTP 401" in caught.value.message
    assert "FAKE_API_KEY" in caught.value.message
    assert SECRET not in str(caught.value)
    assert caught.value.exit_code == 3
    assert len(fake_openai.chat_requests) == 1  # a wrong key is not retried


def test_404_names_the_model_and_the_url(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory
) -> None:
    fake_openai.enqueue(Fail(404, "The model `gpt-9` does not exist"))
    with pytest.raises(LLMError) as caught:
        make_client(make_settings, model="gpt-9").complete(MESSAGES, role="tester")
    assert "'gpt-9'" in caught.value.message
    assert fake_openai.base_url in caught.value.message
    assert "HTTP 404" in caught.value.message
    assert "tddhooks doctor" in (caught.value.fix or "")


def test_403_is_a_permission_problem(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory
) -> None:
    fake_openai.enqueue(Fail(403, "not allowed"))
    with pytest.raises(LLMError, match="may not use custom:fake-model"):
        make_client(make_settings).complete(MESSAGES, role="tester")


@pytest.mark.parametrize("answer", [Garbage(), Garbage(""), Garbage("{truncated")])
def test_a_non_json_body_is_an_unusable_answer(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory, answer: Garbage
) -> None:
    fake_openai.enqueue(answer)
    with pytest.raises(UnusableAnswer) as caught:
        make_client(make_settings).complete(MESSAGES, role="tester")
    assert "not an OpenAI-style completion" in caught.value.message
    assert isinstance(caught.value, LLMAnswerError)


def test_no_choices_is_an_unusable_answer(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory
) -> None:
    fake_openai.enqueue(EmptyChoices())
    with pytest.raises(UnusableAnswer, match="no choices"):
        make_client(make_settings).complete(MESSAGES, role="tester")


def test_an_empty_answer_is_unusable_and_the_repeat_asks_the_model(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory, answer_cache: AnswerCache
) -> None:
    fake_openai.enqueue(Reply("  \n", prompt_tokens=5, completion_tokens=1), "now")
    client = make_client(make_settings, answer_cache)
    with pytest.raises(UnusableAnswer, match="empty answer") as caught:
        client.complete(MESSAGES, role="tester")
    assert caught.value.result is not None
    assert caught.value.result.prompt_tokens == 5
    assert client.complete(MESSAGES, role="tester").content == "now"


def test_a_cut_off_answer_names_the_setting_to_raise(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory, answer_cache: AnswerCache
) -> None:
    # the model's time is counted for a cut-off answer too (bench's model time)
    fake_openai.enqueue(
        Delay(0.2, Reply('{"plan": "half', finish_reason="length")), '{"plan": "whole"}'
    )
    client = make_client(make_settings, answer_cache, role="implementor")
    with pytest.raises(TruncatedAnswer) as caught:
        client.complete(MESSAGES, role="implementor")
    assert "cut off at max_tokens=256" in caught.value.message
    assert "not invalid" in caught.value.message
    assert "roles.implementor.max_tokens" in (caught.value.fix or "")
    assert caught.value.result is not None
    assert caught.value.result.completion_tokens == 7
    assert caught.value.result.latency_s >= 0.2
    assert not caught.value.result.cached
    # the next identical request of the drive is a new occurrence: it asks the model
    assert client.complete(MESSAGES, role="implementor").content == '{"plan": "whole"}'


def test_a_slow_server_times_out_with_the_setting_to_raise(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory
) -> None:
    fake_openai.enqueue(Delay(5), Delay(5))
    started = time.monotonic()
    with pytest.raises(LLMError) as caught:
        make_client(make_settings, timeout_s=0.3, max_retries=1, role="refactorer").complete(
            MESSAGES, role="refactorer"
        )
    assert time.monotonic() - started < 3
    assert "no answer from" in caught.value.message
    assert "within 0.3 s after 2 attempts" in caught.value.message
    assert "roles.refactorer.timeout_s" in (caught.value.fix or "")


def test_an_unreachable_host(make_settings: SettingsFactory) -> None:
    url = f"http://127.0.0.1:{unused_port()}/v1"
    with pytest.raises(LLMError) as caught:
        make_client(make_settings, base_url=url, max_retries=1).complete(MESSAGES, role="tester")
    assert f"cannot reach {url} after 2 attempts" in caught.value.message
    assert "refused" in caught.value.message.lower()


def test_a_cut_off_answer_is_kept_and_cut_off_again_in_a_replay(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory, answer_cache: AnswerCache
) -> None:
    fake_openai.enqueue(Reply('{"plan": "half', finish_reason="length"))
    with pytest.raises(TruncatedAnswer):
        make_client(make_settings, answer_cache).complete(MESSAGES, role="tester")
    fake_openai.stop()
    replay = AnswerCache(answer_cache.directory)
    try:
        with pytest.raises(TruncatedAnswer) as caught:
            make_client(make_settings, replay).complete(MESSAGES, role="tester")
    finally:
        replay.close()
    assert caught.value.result is not None
    assert caught.value.result.cached
