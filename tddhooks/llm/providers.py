"""Provider presets: every OpenAI-compatible endpoint is one table row, not a class."""

from __future__ import annotations

from dataclasses import dataclass

from tddhooks.errors import UsageError
from tddhooks.llm.formats import ResponseForm

REPLAY = "replay"
CUSTOM = "custom"
GENERIC_KEY_ENV = "TDDHOOKS_API_KEY"


@dataclass(frozen=True)
class Preset:
    """What tddhooks knows about one provider: where it lives and what it supports."""

    name: str
    base_url: str | None
    key_env: str | None
    local: bool
    response_format: ResponseForm  # the most precise structured-output form it takes
    notes: str
    lists_models: bool = True  # answers GET /models

    @property
    def json_mode(self) -> bool:
        return self.response_format != "text"


def _preset(
    name: str,
    base_url: str | None,
    key_env: str | None,
    *,
    form: ResponseForm,
    notes: str,
    local: bool = False,
    lists_models: bool = True,
) -> Preset:
    return Preset(name, base_url, key_env, local, form, notes, lists_models)


PRESETS: dict[str, Preset] = {
    preset.name: preset
    for preset in (
        _preset("openai", "https://api.openai.com/v1", "OPENAI_API_KEY", form="json_schema",
                notes="e.g. gpt-4.1-mini (cheap, steady at code); gpt-4.1 for harder katas"),
        _preset("deepseek", "https://api.deepseek.com/v1", "DEEPSEEK_API_KEY", form="json_object",
                notes="e.g. deepseek-chat (older configs say deepseek-coder); strong, cheap"),
        _preset("perplexity", "https://api.perplexity.ai", "PERPLEXITY_API_KEY", form="text",
                notes="sonar models are tuned for web search: a weak choice for code",
                lists_models=False),
        _preset("iflow", "https://apis.iflow.cn/v1", "IFLOW_API_KEY", form="text",
                notes="e.g. qwen3-coder-plus, kimi-k2, deepseek-v3"),
        _preset("glm", "https://open.bigmodel.cn/api/paas/v4", "ZHIPUAI_API_KEY",
                form="json_object",
                notes="Zhipu; e.g. glm-4-air, glm-4-plus; codegeex-4 for code",
                lists_models=False),
        _preset("openrouter", "https://openrouter.ai/api/v1", "OPENROUTER_API_KEY",
                form="json_schema",
                notes="one key, many models, e.g. qwen/qwen-2.5-coder-32b-instruct, "
                "mistralai/codestral-2501"),
        _preset("groq", "https://api.groq.com/openai/v1", "GROQ_API_KEY", form="json_object",
                notes="very fast; e.g. llama-3.3-70b-versatile"),
        _preset("together", "https://api.together.xyz/v1", "TOGETHER_API_KEY", form="json_object",
                notes="e.g. Qwen/Qwen2.5-Coder-32B-Instruct, deepseek-ai/DeepSeek-V3"),
        _preset("mistral", "https://api.mistral.ai/v1", "MISTRAL_API_KEY", form="json_object",
                notes="e.g. codestral-latest (made for code), mistral-large-latest"),
        _preset("ollama", "http://localhost:11434/v1", None, form="json_schema", local=True,
                notes="local; e.g. qwen2.5-coder:7b (:14b or :32b with more memory)"),
        _preset("lmstudio", "http://localhost:1234/v1", None, form="json_schema", local=True,
                notes="local; load a coder model (e.g. qwen2.5-coder-7b-instruct); it accepts "
                "only the json_schema form"),
        _preset("vllm", "http://localhost:8000/v1", None, form="json_schema", local=True,
                notes="local server; e.g. Qwen/Qwen2.5-Coder-7B-Instruct"),
        _preset(CUSTOM, None, None, form="json_schema",
                notes="any OpenAI-compatible endpoint (llama.cpp, LiteLLM, a gateway; "
                "llama-cpp-python falls back to its json_object+schema form); "
                "needs --base-url; a key unless the URL is on this machine"),
        _preset(REPLAY, None, None, form="text", local=True, lists_models=False,
                notes="answers from a recorded session (JSONL); the model is the file or a "
                "shipped session name"),
    )
}  # fmt: skip


def get_preset(name: str) -> Preset:
    """The preset called `name`; an unknown name is a usage error listing the known ones."""
    try:
        return PRESETS[name]
    except KeyError:
        raise UsageError(
            f"unknown provider {name!r}",
            fix=f"use one of: {', '.join(PRESETS)} (or `custom` with --base-url)",
        ) from None


def parse_model_spec(spec: str, provider: str | None = None) -> tuple[str, str]:
    """Split `provider:model`; only a known preset name counts as a prefix, so model names
    may contain colons (`ollama:qwen2.5-coder:7b`, or `qwen2.5-coder:7b` with provider=ollama)."""
    text = spec.strip()
    prefix, colon, rest = text.partition(":")
    if colon and prefix in PRESETS:
        if provider is not None and provider != prefix:
            raise UsageError(
                f"the model {text!r} names provider {prefix!r} but the provider is {provider!r}",
                fix=f"drop the provider, or name the model without the '{prefix}:' prefix",
            )
        name, model = prefix, rest.strip()
    elif provider is not None:
        name, model = provider, text
    else:
        raise UsageError(
            f"the model {text!r} does not say which provider serves it",
            fix="write PROVIDER:MODEL, e.g. deepseek:deepseek-chat, or add --provider "
            f"(known providers: {', '.join(PRESETS)})",
        )
    get_preset(name)
    if not model:
        raise UsageError(
            f"the model {text!r} has an empty model name",
            fix="write PROVIDER:MODEL, e.g. ollama:qwen2.5-coder:7b",
        )
    return name, model
