"""Provider presets and `provider:model` parsing."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from tddhooks.errors import UsageError
from tddhooks.llm.providers import PRESETS, get_preset, parse_model_spec

ISSUE_PRESETS = (
    "openai", "deepseek", "perplexity", "iflow", "glm", "openrouter", "groq", "together",
    "mistral", "ollama", "lmstudio", "vllm", "custom", "replay",
)  # fmt: skip


def test_every_preset_named_in_the_issue_exists_and_nothing_else() -> None:
    assert set(PRESETS) == set(ISSUE_PRESETS)


@pytest.mark.parametrize("name", [n for n in ISSUE_PRESETS if n not in ("custom", "replay")])
def test_hosted_and_local_presets_know_their_endpoint(name: str) -> None:
    preset = get_preset(name)
    assert preset.base_url is not None
    parts = urlsplit(preset.base_url)
    assert parts.scheme == ("http" if preset.local else "https")
    assert preset.local == (parts.hostname == "localhost")
    # hosted providers have their own key variable; local servers need none
    assert (preset.key_env is None) == preset.local
    assert preset.notes


def test_custom_has_no_endpoint_and_replay_needs_no_key() -> None:
    assert get_preset("custom").base_url is None
    assert get_preset("replay").local
    assert get_preset("replay").key_env is None


def test_json_mode_capability_is_per_preset() -> None:
    assert get_preset("openai").json_mode
    assert get_preset("ollama").json_mode
    assert get_preset("lmstudio").json_mode  # it accepts only the json_schema form
    assert not get_preset("perplexity").json_mode
    assert not get_preset("replay").json_mode


@pytest.mark.parametrize(
    ("spec", "provider", "expected"),
    [
        ("deepseek:deepseek-coder", None, ("deepseek", "deepseek-coder")),
        ("ollama:qwen2.5-coder:7b", None, ("ollama", "qwen2.5-coder:7b")),
        ("qwen2.5-coder:7b", "ollama", ("ollama", "qwen2.5-coder:7b")),
        ("gpt-4.1-mini", "openai", ("openai", "gpt-4.1-mini")),
        ("openai:gpt-4.1-mini", "openai", ("openai", "gpt-4.1-mini")),
        ("openrouter:qwen/qwen-2.5-coder-32b-instruct", None,
         ("openrouter", "qwen/qwen-2.5-coder-32b-instruct")),
        (" custom:modèle-λ ", None, ("custom", "modèle-λ")),
        ("replay:fizzbuzz", None, ("replay", "fizzbuzz")),
        ("vllm:Qwen/Qwen2.5-Coder-7B-Instruct", None, ("vllm", "Qwen/Qwen2.5-Coder-7B-Instruct")),
    ],
)  # fmt: skip
def test_parse_model_spec(spec: str, provider: str | None, expected: tuple[str, str]) -> None:
    assert parse_model_spec(spec, provider) == expected


@pytest.mark.parametrize(
    ("spec", "provider", "message"),
    [
        ("gpt-4.1-mini", None, "does not say which provider"),
        ("qwen2.5-coder:7b", None, "does not say which provider"),  # 'qwen2.5-coder' is no preset
        ("deepseek:", None, "empty model name"),
        ("deepseek:deepseek-coder", "openai", "names provider 'deepseek'"),
        ("gpt-4", "nosuch", "unknown provider 'nosuch'"),
    ],
)
def test_parse_model_spec_errors(spec: str, provider: str | None, message: str) -> None:
    with pytest.raises(UsageError) as caught:
        parse_model_spec(spec, provider)
    assert message in caught.value.message
    assert caught.value.fix


def test_unknown_provider_lists_the_known_ones() -> None:
    with pytest.raises(UsageError) as caught:
        get_preset("anthropic")
    assert "deepseek" in (caught.value.fix or "")
