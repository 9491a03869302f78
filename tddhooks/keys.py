"""API keys stay in this process: which variables hold one, scrubbing them from every child's
environment, and redacting any key (or a fragment of one) from text before it is cut or shown.

A key is known by the name of the variable that holds it (every provider preset's variable,
TDDHOOKS_API_KEY, anything named *_KEY, *_TOKEN, *_SECRET or *_PASSWORD, and whatever the LLM
layer resolved) and by its value. Imported on the hook path: standard library only. See
docs/llm.md (API keys).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping

TYPE_CHECKING = False  # not typing's: importing typing costs the hook path ~4 ms; mypy reads it
if TYPE_CHECKING:
    from typing import Any

REDACTED = "[key]"
# a run of this many characters of a key is treated as the key (a server may echo a prefix)
FRAGMENT = 8
_SHORTEST = 4
_KEY_SUFFIXES = ("_KEY", "_APIKEY", "_TOKEN", "_SECRET", "_PASSWORD")
_KNOWN_NAMES = {
    "TDDHOOKS_API_KEY", "OPENAI_API_KEY", "DEEPSEEK_API_KEY", "PERPLEXITY_API_KEY",
    "IFLOW_API_KEY", "ZHIPUAI_API_KEY", "OPENROUTER_API_KEY", "GROQ_API_KEY",
    "TOGETHER_API_KEY", "MISTRAL_API_KEY", "ANTHROPIC_API_KEY",
}  # fmt: skip
_registered_names: set[str] = set()
_registered_values: set[str] = set()


_PR_SET_DUMPABLE = 4
_protected: list[bool] = []


def register(*, name: str | None = None, value: str | None = None) -> None:
    """Remember a variable that holds a key and/or the key itself (from the LLM layer). A
    process that holds a key is made non-dumpable, so a test run by the gate cannot read it from
    this process's /proc/<pid>/environ (same user; root can still read it)."""
    if name:
        _registered_names.add(name)
    if value and value.strip():
        _registered_values.add(value.strip())
        protect_process()


def protect_process() -> None:
    """prctl(PR_SET_DUMPABLE, 0) once (Linux; silently nothing elsewhere). Children are not
    affected: execve makes them dumpable again."""
    if _protected:
        return
    _protected.append(True)
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def forget() -> None:
    """Drop every registered name and value (tests; a process that switches endpoints)."""
    _registered_names.clear()
    _registered_values.clear()


def is_key_name(name: str) -> bool:
    """Whether a variable of this name may hold a key (never handed to a child process)."""
    upper = name.upper()
    return (
        name in _registered_names
        or upper in _KNOWN_NAMES
        or upper.endswith(_KEY_SUFFIXES)
        or upper == "API_KEY"
    )


def key_values(environ: Mapping[str, str] | None = None) -> set[str]:
    """Every key value known now: registered ones and those in key-named variables."""
    env = os.environ if environ is None else environ
    found = {value.strip() for name, value in env.items() if is_key_name(name) and value.strip()}
    found |= {env[name].strip() for name in _registered_names if env.get(name, "").strip()}
    return found | _registered_values


def scrub_env(env: Mapping[str, str]) -> dict[str, str]:
    """`env` without any variable that holds a key: by name, or by carrying a known key's value
    under another name (`--api-key MY_KEY`, a copy in FOO=...). Every process start passes
    here, so `env` and this process's environment are each read once."""
    items = list(env.items())
    named = {name for name, _value in items if is_key_name(name)}
    values = {value.strip() for name, value in items if name in named and value.strip()}
    values |= key_values() if env is not os.environ else _registered_values
    values = {value for value in values if len(value) >= FRAGMENT}
    return {
        name: value
        for name, value in items
        if name not in named and not (value and any(secret in value for secret in values))
    }


def _fragments(secrets: Iterable[str]) -> list[str]:
    grams: set[str] = set()
    for secret in secrets:
        if len(secret) < FRAGMENT:
            continue
        grams.update(secret[i : i + FRAGMENT] for i in range(len(secret) - FRAGMENT + 1))
    return sorted(grams)


def redact(text: str, extra: Iterable[str] = ()) -> str:
    """`text` with every key, and every run of FRAGMENT or more characters of one, replaced by
    [key]. Call it BEFORE cutting text short: a cut key no longer matches as a whole."""
    if not text:
        return text
    secrets = key_values() | {value for value in extra if value}
    # a value this short is no provider's key: redacting it everywhere would garble all text;
    # a short one (tests, local servers) is redacted where it stands as a whole token
    short = [value for value in secrets if _SHORTEST <= len(value) < FRAGMENT]
    for value in short:
        text = re.sub(rf"(?<![\w-]){re.escape(value)}(?![\w-])", REDACTED, text)
    grams = _fragments(secrets)
    if not grams:
        return text
    pattern = re.compile("(?=(" + "|".join(re.escape(gram) for gram in grams) + "))")
    covered = bytearray(len(text))
    hit = False
    for match in pattern.finditer(text):
        start = match.start()
        covered[start : start + FRAGMENT] = b"\x01" * FRAGMENT
        hit = True
    if not hit:
        return text
    out: list[str] = []
    index = 0
    while index < len(text):
        if covered[index]:
            while index < len(text) and covered[index]:
                index += 1
            out.append(REDACTED)
        else:
            end = covered.find(b"\x01", index)
            end = len(text) if end < 0 else end
            out.append(text[index:end])
            index = end
    return "".join(out)


def redact_data(data: Any) -> Any:
    """A JSON-like value with every string in it redacted (event payloads, step files)."""
    if isinstance(data, str):
        return redact(data)
    if isinstance(data, dict):
        return {key: redact_data(value) for key, value in data.items()}
    if isinstance(data, list | tuple):
        return [redact_data(value) for value in data]
    return data
