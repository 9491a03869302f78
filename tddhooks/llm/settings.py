"""Which model, endpoint and key each role uses: flags over tdd.yaml over provider presets."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from tddhooks import keys
from tddhooks.config import ROLE_NAMES, TddConfig
from tddhooks.errors import ConfigError, UsageError
from tddhooks.llm.formats import ResponseForm
from tddhooks.llm.providers import CUSTOM, GENERIC_KEY_ENV, PRESETS, REPLAY, Preset, get_preset

_ENV_NAME = re.compile(r"[A-Z_][A-Z0-9_]*")
_LOOPBACK_HOSTS = {"localhost", "127.0.0.1", "::1", "0.0.0.0"}


@dataclass(frozen=True)
class ModelSettings:
    """Everything one role's client needs; the key is never part of repr(), str() or describe()."""

    provider: str
    model: str
    base_url: str
    api_key: str | None = field(default=None, repr=False)
    key_source: str = "none needed (local provider)"
    temperature: float = 0.2
    max_tokens: int | None = 4096
    timeout_s: float = 120.0
    response_format: ResponseForm = "text"  # the structured-output form asked for first
    max_retries: int = 3
    role: str = ""
    seed: int | None = None  # sent where the server takes one: sampling it can reproduce

    @property
    def spec(self) -> str:
        return f"{self.provider}:{self.model}"

    @property
    def json_mode(self) -> bool:
        return self.response_format != "text"

    @property
    def preset(self) -> Preset:
        return PRESETS[self.provider]

    def describe(self) -> str:
        """One line for logs and doctor: model, endpoint and key source (never the key)."""
        where = "recorded session" if self.provider == REPLAY else self.base_url
        return f"{self.spec} at {where} (key: {self.key_source})"

    def public_dict(self) -> dict[str, object]:
        """The settings as a dict without the key, for step files and JSON events."""
        return {
            "role": self.role, "provider": self.provider, "model": self.model,
            "base_url": self.base_url, "key_source": self.key_source,
            "temperature": self.temperature, "max_tokens": self.max_tokens,
            "timeout_s": self.timeout_s, "response_format": self.response_format,
            "max_retries": self.max_retries, "seed": self.seed,
        }  # fmt: skip

    def __str__(self) -> str:
        return self.describe()


def parse_role_models(values: Sequence[str]) -> dict[str, str]:
    """`--role-model ROLE=PROVIDER:MODEL` values as role -> model spec."""
    chosen: dict[str, str] = {}
    for value in values:
        role, equals, spec = value.partition("=")
        role = role.strip().lower()
        if not equals or not spec.strip():
            raise UsageError(
                f"--role-model {value!r} is not ROLE=PROVIDER:MODEL",
                fix="e.g. --role-model tester=openai:gpt-4.1-mini",
            )
        if role not in ROLE_NAMES:
            raise UsageError(
                f"--role-model {value!r}: unknown role {role!r}",
                fix=f"roles are {', '.join(ROLE_NAMES)}",
            )
        if role in chosen:
            raise UsageError(f"--role-model is given twice for {role}", fix="keep one of them")
        chosen[role] = spec.strip()
    return chosen


@dataclass(frozen=True)
class _Level:
    source: str
    model: str | None
    provider: str | None


def _pick_model(levels: list[_Level], role: str) -> tuple[str, str]:
    """(provider, model) from the highest level naming a model; see docs/llm.md."""
    index = next((i for i, level in enumerate(levels) if level.model), None)
    if index is None:
        raise ConfigError(
            f"no model is named for the {role} role",
            fix=f"pass --model deepseek:deepseek-chat (or --role-model {role}=PROVIDER:MODEL), "
            f"set roles.{role}.model in tdd.yaml, or run `tddhooks demo` to see a recorded "
            "session without a model",
        )
    level = levels[index]
    spec = (level.model or "").strip()
    prefix, colon, rest = spec.partition(":")
    spec_provider = prefix if colon and prefix in PRESETS else None
    for higher in levels[: index + 1]:
        if higher.provider and spec_provider and higher.provider != spec_provider:
            raise UsageError(
                f"{higher.source} says provider {higher.provider!r} but the {role} model "
                f"{spec!r} (from {level.source}) names {spec_provider!r}",
                fix=f"name the model for {higher.provider} too, e.g. "
                f"--model {higher.provider}:MODEL",
            )
    if spec_provider:
        provider, model = spec_provider, rest.strip()
    else:
        named = [lv.provider for lv in levels if lv.provider]
        if not named:
            # a prefix that is no preset stays part of the model name (qwen2.5-coder:7b)
            unknown = f" ('{prefix}' is not a provider)" if colon else ""
            example = "e.g. ollama:qwen2.5-coder:7b" if colon else f"e.g. deepseek:{spec}"
            raise UsageError(
                f"the {role} model {spec!r} (from {level.source}) does not say which provider "
                f"serves it{unknown}",
                fix=f"write PROVIDER:MODEL, {example}, or add --provider; the providers: "
                f"{', '.join(PRESETS)}",
            )
        provider, model = named[0], spec
    get_preset(provider)
    if not model:
        raise UsageError(
            f"the {role} model {spec!r} (from {level.source}) has an empty model name",
            fix="write PROVIDER:MODEL, e.g. ollama:qwen2.5-coder:7b",
        )
    return provider, model


def _check_url(url: str, source: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ConfigError(
            f"{source}: {url!r} is not an http(s) URL",
            fix="give the endpoint's base URL, e.g. http://localhost:8080/v1",
        )
    return url.rstrip("/")


def is_loopback(url: str) -> bool:
    """True when the URL points at this machine (a local server needs no key)."""
    return (urlsplit(url).hostname or "") in _LOOPBACK_HOSTS


def resolve_api_key(
    preset: Preset,
    base_url: str,
    *,
    api_key: str | None,
    api_key_env: str | None,
    environ: Mapping[str, str],
    role: str = "",
) -> tuple[str | None, str]:
    """(key, where it came from): --api-key > llm.api_key_env > the preset's variable >
    TDDHOOKS_API_KEY; local endpoints may have none. The source never contains the key, and the
    key and its variable are registered so no child process inherits them (tddhooks/keys.py)."""
    key, source = _find_api_key(
        preset, base_url, api_key=api_key, api_key_env=api_key_env, environ=environ, role=role
    )
    if api_key and _ENV_NAME.fullmatch(api_key):
        keys.register(name=api_key)
    if api_key_env:
        keys.register(name=api_key_env)
    keys.register(value=key)
    return key, source


def _find_api_key(
    preset: Preset,
    base_url: str,
    *,
    api_key: str | None,
    api_key_env: str | None,
    environ: Mapping[str, str],
    role: str,
) -> tuple[str | None, str]:
    if api_key:
        if _ENV_NAME.fullmatch(api_key) and environ.get(api_key):
            return environ[api_key], f"--api-key (environment variable {api_key})"
        if _ENV_NAME.fullmatch(api_key):
            # never echo the value: it may be a key that happens to look like a name
            return api_key, "--api-key (taken as the key: no environment variable of that name)"
        return api_key, "--api-key"
    local = preset.local or (preset.name == CUSTOM and is_loopback(base_url))
    looked: list[str] = []
    candidates = [(api_key_env, "llm.api_key_env in tdd.yaml"), (preset.key_env, "")]
    if not local:
        candidates.append((GENERIC_KEY_ENV, ""))
    for name, note in candidates:
        if not name or name in looked:
            continue
        looked.append(name)
        if environ.get(name):
            return environ[name], f"{name} ({note})" if note else name
    if local:
        return None, "none needed (local provider)"
    whose = f" for the {role} role" if role else ""
    variable = preset.key_env or GENERIC_KEY_ENV
    raise ConfigError(
        f"no API key for provider {preset.name!r}{whose}: looked in --api-key and the "
        f"environment variables {', '.join(looked)}",
        fix=f"export {variable}=<your key>, or pass --api-key NAME_OF_A_VARIABLE",
    )


def resolve_role_settings(
    config: TddConfig,
    role: str,
    *,
    model: str | None = None,
    provider: str | None = None,
    api_key: str | None = None,
    base_url: str | None = None,
    role_models: Sequence[str] = (),
    environ: Mapping[str, str] | None = None,
) -> ModelSettings:
    """The settings for `role`; a missing model or key fails here, before any work starts."""
    if role not in ROLE_NAMES:
        raise UsageError(f"unknown role {role!r}", fix=f"roles are {', '.join(ROLE_NAMES)}")
    if provider:
        get_preset(provider)
    role_config = config.roles.for_role(role)
    llm = config.llm
    levels = [
        _Level(f"--role-model {role}=…", parse_role_models(role_models).get(role), None),
        _Level("--model/--provider", model, provider),
        _Level(f"roles.{role} in tdd.yaml", role_config.model, role_config.provider),
        _Level("llm in tdd.yaml", llm.model, llm.provider),
    ]
    provider_name, model_name = _pick_model(levels, role)
    preset = get_preset(provider_name)
    if provider_name == REPLAY:
        url = f"replay:{model_name}"
    else:
        url_sources = [
            (base_url, "--base-url"),
            (role_config.base_url, f"roles.{role}.base_url in tdd.yaml"),
            (llm.base_url, "llm.base_url in tdd.yaml"),
            (preset.base_url, f"the {provider_name} preset"),
        ]
        chosen = next(((url, src) for url, src in url_sources if url), None)
        if chosen is None:
            raise ConfigError(
                f"provider 'custom' needs a base URL (role {role})",
                fix="pass --base-url http://host:port/v1 or set llm.base_url in tdd.yaml",
            )
        url = _check_url(*chosen)
    key, key_source = resolve_api_key(
        preset,
        url,
        api_key=api_key,
        api_key_env=llm.api_key_env,
        environ=os.environ if environ is None else environ,
        role=role,
    )
    return ModelSettings(
        provider=provider_name,
        model=model_name,
        base_url=url,
        api_key=key,
        key_source=key_source,
        temperature=role_config.temperature,
        max_tokens=role_config.max_tokens,
        timeout_s=role_config.timeout_s or llm.timeout_s,
        response_format=role_config.response_format
        or llm.response_format
        or preset.response_format,
        max_retries=llm.max_retries,
        role=role,
    )
