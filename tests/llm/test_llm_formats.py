"""Structured answers: each role's schema, sent in the most precise form the endpoint takes, with
one remembered fallback per refusal (the real openai SDK against the fake server)."""

from __future__ import annotations

from typing import Any

import pytest
from support.fake_openai import Fail, FakeOpenAI, response_form

from tddhooks.agents.schemas import answer_schema
from tddhooks.config import parse_config
from tddhooks.errors import ConfigError, LLMError
from tddhooks.llm.cache import AnswerCache
from tddhooks.llm.client import ChatClient
from tddhooks.llm.formats import FormatMemory, request_format
from tddhooks.llm.providers import get_preset
from tddhooks.llm.settings import resolve_role_settings

from .conftest import MESSAGES, SettingsFactory, make_client

ANSWER = '{"plan": "p", "edits": []}'


def _forms(server: FakeOpenAI) -> list[str]:
    return [response_form(request.body or {}) for request in server.chat_requests]


def test_an_openai_style_endpoint_gets_the_roles_strict_json_schema(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory
) -> None:
    fake_openai.enqueue(ANSWER)
    schema = answer_schema("implementor")
    client = make_client(make_settings, response_format="json_schema", role="implementor")
    client.complete(MESSAGES, role="implementor", schema=schema)
    body = fake_openai.chat_requests[0].body or {}
    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "implementor_answer", "strict": True, "schema": schema},
    }


def test_llama_cpp_pythons_500_falls_back_to_its_schema_form_once_per_drive(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory
) -> None:
    fake_openai.llama_cpp_python().enqueue(ANSWER, ANSWER, ANSWER)
    formats = FormatMemory()
    settings = make_settings(response_format="json_schema")
    tester = ChatClient(settings, None, formats=formats)
    schema = answer_schema("tester")
    assert tester.complete(MESSAGES, role="tester", schema=schema).content == ANSWER
    tester.complete(MESSAGES, role="tester", schema=schema)
    # another role's client of the same drive knows it already
    ChatClient(settings, None, formats=formats).complete(
        MESSAGES, role="implementor", schema=answer_schema("implementor")
    )
    assert _forms(fake_openai) == [
        "json_schema",
        "json_object_schema",
        "json_object_schema",
        "json_object_schema",
    ]
    assert (fake_openai.chat_requests[1].body or {})["response_format"] == {
        "type": "json_object",
        "schema": schema,
    }
    assert fake_openai.pending == 0


def test_each_400_refusal_steps_down_one_form_until_text(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory
) -> None:
    for form in ("json_schema", "json_object_schema", "json_object"):
        fake_openai.refuse[form] = Fail(400, f"{form} is not supported")
    fake_openai.enqueue(ANSWER)
    client = make_client(make_settings, response_format="json_schema")
    client.complete(MESSAGES, role="tester", schema=answer_schema("tester"))
    assert _forms(fake_openai) == ["json_schema", "json_object_schema", "json_object", "text"]
    assert "response_format" not in (fake_openai.chat_requests[-1].body or {})


def test_a_500_that_is_not_about_the_format_is_retried_not_a_fallback(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory
) -> None:
    fake_openai.enqueue(Fail(500, "out of memory"), ANSWER)
    client = make_client(make_settings, response_format="json_schema")
    client.complete(MESSAGES, role="tester", schema=answer_schema("tester"))
    assert _forms(fake_openai) == ["json_schema", "json_schema"]


def test_a_400_in_text_form_is_an_error_not_a_fallback(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory
) -> None:
    fake_openai.enqueue(Fail(400, "context length exceeded"))
    with pytest.raises(LLMError, match="HTTP 400"):
        make_client(make_settings, response_format="text").complete(
            MESSAGES, role="tester", schema=answer_schema("tester")
        )
    assert len(fake_openai.chat_requests) == 1


def test_the_cache_key_is_the_form_asked_for_so_a_replay_needs_no_fallback(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory, answer_cache: AnswerCache
) -> None:
    fake_openai.llama_cpp_python().enqueue(ANSWER)
    settings = make_settings(response_format="json_schema")
    schema = answer_schema("tester")
    first = ChatClient(settings, answer_cache).complete(MESSAGES, role="tester", schema=schema)
    fake_openai.stop()
    replay_cache = AnswerCache(answer_cache.directory)
    try:
        again = ChatClient(settings, replay_cache).complete(MESSAGES, role="tester", schema=schema)
    finally:
        replay_cache.close()
    assert again.cached
    assert again.content == first.content == ANSWER


def _properties(schema: dict[str, Any]) -> set[str]:
    return set(schema["properties"])


def _strict_ready(schema: dict[str, Any]) -> None:
    if schema.get("type") == "object":
        assert schema["additionalProperties"] is False
        assert schema["required"] == list(schema["properties"])
        for value in schema["properties"].values():
            _strict_ready(value)
    if schema.get("type") == "array":
        _strict_ready(schema["items"])


@pytest.mark.parametrize("role", ["tester", "implementor", "refactorer"])
def test_every_role_schema_is_strict_ready(role: str) -> None:
    _strict_ready(answer_schema(role))


def test_each_role_schema_has_only_the_fields_the_role_can_use() -> None:
    tester, implementor = answer_schema("tester"), answer_schema("implementor")
    refactorer = answer_schema("refactorer")
    assert _properties(tester) == {"plan", "edits", "done", "reason"}
    assert _properties(implementor) == {"plan", "edits", "commit"}  # never `done`
    assert _properties(refactorer) == {"plan", "edits", "commit"}
    # the commit type is the tool's: feat for the implementor, refactor for the refactorer
    assert "type" not in implementor["properties"]["commit"]["properties"]
    assert "type" not in refactorer["properties"]["commit"]["properties"]
    edit = implementor["properties"]["edits"]["items"]
    assert edit["properties"]["action"]["enum"] == ["upsert", "delete"]


def test_without_a_schema_the_schema_forms_are_plain_json_mode() -> None:
    assert request_format("json_schema", None, "x") == {"type": "json_object"}
    assert request_format("text", {"type": "object"}, "x") is None


def test_presets_say_which_form_they_take() -> None:
    assert get_preset("openai").response_format == "json_schema"
    assert get_preset("deepseek").response_format == "json_object"
    assert get_preset("lmstudio").response_format == "json_schema"
    assert get_preset("replay").response_format == "text"


def test_tdd_yaml_overrides_the_form_for_every_role_or_one(tmp_path: Any) -> None:
    config = parse_config(
        "llm: {response_format: json_object_schema}\nroles: {tester: {response_format: text}}\n",
        tmp_path / "tdd.yaml",
    )
    environ = {"OPENAI_API_KEY": "k"}
    tester = resolve_role_settings(config, "tester", model="openai:m", environ=environ)
    implementor = resolve_role_settings(config, "implementor", model="openai:m", environ=environ)
    assert tester.response_format == "text"
    assert implementor.response_format == "json_object_schema"
    default = resolve_role_settings(
        parse_config("", tmp_path / "tdd.yaml"), "tester", model="openai:m", environ=environ
    )
    assert default.response_format == "json_schema"


def test_an_unknown_form_in_tdd_yaml_is_a_config_error(tmp_path: Any) -> None:
    with pytest.raises(ConfigError, match=r"llm\.response_format"):
        parse_config("llm: {response_format: xml}\n", tmp_path / "tdd.yaml")


def test_strict_json_schema_drops_the_array_limits_the_grammar_form_keeps() -> None:
    schema = answer_schema("tester", ("tests/empty.rs",))
    assert schema["properties"]["edits"]["maxItems"] == 1
    grammar = request_format("json_object_schema", schema, "tester_answer")
    assert grammar == {"type": "json_object", "schema": schema}
    strict = request_format("json_schema", schema, "tester_answer")
    assert strict is not None
    sent = strict["json_schema"]["schema"]
    assert "maxItems" not in sent["properties"]["edits"]
    # everything else is the role's schema, the offered paths included
    assert sent["properties"]["edits"]["items"] == schema["properties"]["edits"]["items"]
    assert schema["properties"]["edits"]["maxItems"] == 1  # the role's schema is not changed


def test_a_temperature_override_is_sent_and_keys_its_own_cache_slot(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory, answer_cache: AnswerCache
) -> None:
    fake_openai.enqueue(ANSWER, ANSWER)
    client = make_client(make_settings, answer_cache, temperature=0.2, response_format="text")
    first = client.complete(MESSAGES, role="implementor")
    hotter = client.complete(MESSAGES, role="implementor", temperature=0.6)
    assert [(r.body or {})["temperature"] for r in fake_openai.chat_requests] == [0.2, 0.6]
    assert first.cache_key != hotter.cache_key
    # a second drive asks the same two requests: both come from the cache, nothing is sent
    again = make_client(make_settings, AnswerCache(answer_cache.directory), temperature=0.2,
                        response_format="text")  # fmt: skip
    assert again.complete(MESSAGES, role="implementor").cached
    assert again.complete(MESSAGES, role="implementor", temperature=0.6).cached
    assert len(fake_openai.chat_requests) == 2
