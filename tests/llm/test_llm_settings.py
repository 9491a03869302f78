"""Per-role model, endpoint and key resolution: flags > tdd.yaml > presets."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tddhooks.config import TddConfig, parse_config
from tddhooks.errors import ConfigError, UsageError
from tddhooks.llm.providers import get_preset
from tddhooks.llm.settings import (
    ModelSettings,
    parse_role_models,
    resolve_api_key,
    resolve_role_settings,
)

KEY = "sk-live-ÄÖÜ-0123456789abcdef"


def config(text: str = "") -> TddConfig:
    return parse_config(text, Path("tdd.yaml"))


YAML = """
roles:
  tester: {model: "openai:gpt-4.1-mini", temperature: 0.4, max_tokens: 900, timeout_s: 30}
  implementor: {model: "qwen2.5-coder:7b", provider: ollama}
llm:
  model: "deepseek:deepseek-coder"
  timeout_s: 77
  max_retries: 5
"""


@pytest.mark.parametrize(
    ("role", "flags", "expected"),
    [
        # tdd.yaml roles.<role> beats llm.*
        ("tester", {}, ("openai", "gpt-4.1-mini")),
        ("implementor", {}, ("ollama", "qwen2.5-coder:7b")),
        ("refactorer", {}, ("deepseek", "deepseek-coder")),
        # --model beats tdd.yaml
        ("tester", {"model": "glm:glm-4-air"}, ("glm", "glm-4-air")),
        ("tester", {"model": "qwen2.5-coder:14b", "provider": "ollama"},
         ("ollama", "qwen2.5-coder:14b")),
        # --provider alone names the provider for a model without a prefix
        ("implementor", {"provider": "ollama"}, ("ollama", "qwen2.5-coder:7b")),
        # --role-model beats everything, for its role only
        ("tester", {"model": "glm:glm-4-air", "role_models": ["tester=mistral:codestral-latest"]},
         ("mistral", "codestral-latest")),
        ("refactorer", {"role_models": ["tester=mistral:codestral-latest"]},
         ("deepseek", "deepseek-coder")),
        ("implementor", {"role_models": ["implementor=ollama:qwen2.5-coder:7b"],
                         "provider": "openai", "model": "gpt-4.1"},
         ("ollama", "qwen2.5-coder:7b")),
        ("tester", {"role_models": ["Tester=gpt-4.1"], "provider": "openai"},
         ("openai", "gpt-4.1")),
    ],
)  # fmt: skip
def test_model_precedence(role: str, flags: dict[str, Any], expected: tuple[str, str]) -> None:
    env = {"OPENAI_API_KEY": KEY, "DEEPSEEK_API_KEY": KEY, "ZHIPUAI_API_KEY": KEY,
           "MISTRAL_API_KEY": KEY}  # fmt: skip
    settings = resolve_role_settings(config(YAML), role, environ=env, **flags)
    assert (settings.provider, settings.model) == expected
    assert settings.role == role


def test_role_settings_come_from_tdd_yaml() -> None:
    env = {"OPENAI_API_KEY": KEY, "DEEPSEEK_API_KEY": KEY}
    tester = resolve_role_settings(config(YAML), "tester", environ=env)
    assert (tester.temperature, tester.max_tokens, tester.timeout_s) == (0.4, 900, 30)
    assert tester.max_retries == 5
    assert tester.base_url == "https://api.openai.com/v1"
    assert tester.json_mode
    refactorer = resolve_role_settings(config(YAML), "refactorer", environ=env)
    assert refactorer.timeout_s == 77  # llm.timeout_s when the role sets none


def test_no_model_anywhere_says_how_to_name_one() -> None:
    with pytest.raises(ConfigError) as caught:
        resolve_role_settings(config(), "implementor", environ={})
    assert "no model is named for the implementor role" in caught.value.message
    fix = caught.value.fix or ""
    assert "--model deepseek:deepseek-chat" in fix
    assert "roles.implementor.model" in fix
    assert "tddhooks demo" in fix


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        ({"provider": "ollama"}, "--model/--provider says provider 'ollama'"),
        ({"model": "gpt-4.1"}, "does not say which provider"),
        ({"provider": "nosuch", "model": "x"}, "unknown provider 'nosuch'"),
        ({"role_models": ["tester"]}, "is not ROLE=PROVIDER:MODEL"),
        ({"role_models": ["reviewer=openai:gpt-4.1"]}, "unknown role 'reviewer'"),
        ({"role_models": ["tester=openai:a", "tester=openai:b"]}, "given twice"),
        ({"model": "openai:"}, "empty model name"),
    ],
)
def test_contradictory_or_broken_flags_are_usage_errors(
    flags: dict[str, Any], message: str
) -> None:
    text = "roles:\n  tester: {model: 'openai:gpt-4.1-mini'}\n"
    with pytest.raises(UsageError) as caught:
        resolve_role_settings(config(text), "tester", environ={"OPENAI_API_KEY": KEY}, **flags)
    assert message in caught.value.message
    assert caught.value.fix


@pytest.mark.parametrize("model", ["nosuch:qwen", "qwen"])
def test_a_model_without_a_known_provider_lists_the_providers(model: str) -> None:
    with pytest.raises(UsageError) as caught:
        resolve_role_settings(config(), "tester", model=model, environ={})
    assert "does not say which provider serves it" in caught.value.message
    assert ("'nosuch' is not a provider" in caught.value.message) == model.startswith("nosuch:")
    fix = caught.value.fix or ""
    assert "ollama, lmstudio" in fix
    assert "deepseek:nosuch" not in fix  # the unknown prefix is no part of a model name to keep


@pytest.mark.parametrize(
    ("yaml_text", "flags", "expected"),
    [
        ("", {}, "http://localhost:11434/v1"),
        ("llm: {base_url: 'http://gpu-box:11434/v1/'}", {}, "http://gpu-box:11434/v1"),
        ("llm: {base_url: 'http://a/v1'}\nroles: {tester: {base_url: 'http://b/v1'}}", {},
         "http://b/v1"),
        ("roles: {tester: {base_url: 'http://b/v1'}}", {"base_url": "http://c:1/v1"},
         "http://c:1/v1"),
    ],
)  # fmt: skip
def test_base_url_precedence(yaml_text: str, flags: dict[str, Any], expected: str) -> None:
    settings = resolve_role_settings(
        config(yaml_text), "tester", model="ollama:qwen2.5-coder:7b", environ={}, **flags
    )
    assert settings.base_url == expected


def test_custom_needs_a_base_url() -> None:
    with pytest.raises(ConfigError) as caught:
        resolve_role_settings(config(), "tester", model="custom:my-model", environ={})
    assert "needs a base URL" in caught.value.message
    assert "--base-url" in (caught.value.fix or "")


def test_a_base_url_must_be_http() -> None:
    with pytest.raises(ConfigError) as caught:
        resolve_role_settings(
            config(), "tester", model="ollama:x", base_url="localhost:11434", environ={}
        )
    assert "--base-url" in caught.value.message


@pytest.mark.parametrize(
    ("api_key", "api_key_env", "environ", "expected_key", "source"),
    [
        (KEY, "TEAM_KEY", {"TEAM_KEY": "team", "DEEPSEEK_API_KEY": "own"}, KEY, "--api-key"),
        ("MY_KEY", None, {"MY_KEY": "from-var"}, "from-var",
         "--api-key (environment variable MY_KEY)"),
        ("MY_KEY", None, {}, "MY_KEY", "--api-key (taken as the key"),
        (None, "TEAM_KEY", {"TEAM_KEY": "team", "DEEPSEEK_API_KEY": "own"}, "team",
         "TEAM_KEY (llm.api_key_env in tdd.yaml)"),
        (None, "TEAM_KEY", {"DEEPSEEK_API_KEY": "own"}, "own", "DEEPSEEK_API_KEY"),
        (None, None, {"DEEPSEEK_API_KEY": "own", "TDDHOOKS_API_KEY": "generic"}, "own",
         "DEEPSEEK_API_KEY"),
        (None, None, {"DEEPSEEK_API_KEY": "", "TDDHOOKS_API_KEY": "generic"}, "generic",
         "TDDHOOKS_API_KEY"),
    ],
)  # fmt: skip
def test_key_precedence(
    api_key: str | None,
    api_key_env: str | None,
    environ: dict[str, str],
    expected_key: str,
    source: str,
) -> None:
    key, where = resolve_api_key(
        get_preset("deepseek"),
        "https://api.deepseek.com/v1",
        api_key=api_key,
        api_key_env=api_key_env,
        environ=environ,
    )
    assert key == expected_key
    assert where.startswith(source)
    assert key not in where


def test_missing_key_names_every_variable_it_looked_in() -> None:
    text = "llm: {api_key_env: TEAM_KEY}\nroles: {tester: {model: 'groq:llama-3.3-70b'}}"
    with pytest.raises(ConfigError) as caught:
        resolve_role_settings(config(text), "tester", environ={"OPENAI_API_KEY": KEY})
    message = caught.value.message
    for name in ("--api-key", "TEAM_KEY", "GROQ_API_KEY", "TDDHOOKS_API_KEY", "tester"):
        assert name in message
    assert "export GROQ_API_KEY=" in (caught.value.fix or "")


@pytest.mark.parametrize(
    ("model", "base_url"),
    [("ollama:qwen2.5-coder:7b", None), ("lmstudio:qwen", None), ("vllm:qwen", None),
     ("custom:llama", "http://127.0.0.1:8080/v1"), ("custom:llama", "http://localhost:8080/v1")],
)  # fmt: skip
def test_local_endpoints_need_no_key(model: str, base_url: str | None) -> None:
    settings = resolve_role_settings(
        config(), "tester", model=model, base_url=base_url, environ={"TDDHOOKS_API_KEY": KEY}
    )
    assert settings.api_key is None  # the generic key is not sent to a local server
    assert settings.key_source == "none needed (local provider)"


def test_a_remote_custom_endpoint_needs_a_key() -> None:
    with pytest.raises(ConfigError):
        resolve_role_settings(
            config(), "tester", model="custom:m", base_url="https://gw.example/v1", environ={}
        )


def test_replay_needs_no_key_and_no_url() -> None:
    settings = resolve_role_settings(config(), "tester", model="replay:fizzbuzz", environ={})
    assert (settings.provider, settings.model, settings.api_key) == ("replay", "fizzbuzz", None)
    assert not settings.json_mode


def test_the_process_environment_is_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MISTRAL_API_KEY", KEY)
    settings = resolve_role_settings(config(), "tester", model="mistral:codestral-latest")
    assert settings.api_key == KEY
    assert settings.key_source == "MISTRAL_API_KEY"


def test_settings_never_show_the_key() -> None:
    settings = resolve_role_settings(
        config(), "refactorer", model="deepseek:deepseek-coder", api_key=KEY, environ={}
    )
    assert settings.api_key == KEY
    for text in (repr(settings), str(settings), settings.describe(),
                 repr(settings.public_dict())):  # fmt: skip
        assert KEY not in text
    assert "deepseek:deepseek-coder at https://api.deepseek.com/v1" in settings.describe()
    assert "key: --api-key" in settings.describe()


def test_parse_role_models_table() -> None:
    assert parse_role_models(["tester=openai:gpt-4.1-mini", " REFACTORER = glm:glm-4-air "]) == {
        "tester": "openai:gpt-4.1-mini",
        "refactorer": "glm:glm-4-air",
    }
    assert parse_role_models([]) == {}


def test_model_settings_is_a_plain_value() -> None:
    one = ModelSettings("ollama", "m", "http://localhost:11434/v1")
    assert one == ModelSettings("ollama", "m", "http://localhost:11434/v1")
    assert one.spec == "ollama:m"
    assert one.preset.name == "ollama"


def test_timeout_and_max_tokens_flags_override_every_roles_tdd_yaml() -> None:
    from tddhooks.commands.drive import LLMFlags

    flags = LLMFlags(None, None, "sk-test-0123456789", None, (), timeout_s=900.0, max_tokens=1500)
    resolved = flags.resolve(config(YAML), ["tester", "implementor"])
    assert {role: (s.timeout_s, s.max_tokens) for role, s in resolved.items()} == {
        "tester": (900.0, 1500),
        "implementor": (900.0, 1500),
    }
    plain = LLMFlags(None, None, "sk-test-0123456789", None, ()).resolve(config(YAML), ["tester"])
    assert (plain["tester"].timeout_s, plain["tester"].max_tokens) == (30, 900)
