"""Find the one JSON object in a model's answer: plain, fenced in Markdown, or wrapped in prose."""

from __future__ import annotations

import json
import re
from typing import Any

from tddhooks.errors import LLMAnswerError

# reasoning models (deepseek-reasoner, qwen3) may think aloud first, braces included
_THINKING = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
# a fence is a whole line; JSON strings cannot hold raw newlines, so such a line is never inside one
_FENCE = re.compile(r"^[ \t]*```[\w+-]*[ \t]*\n(.*?)^[ \t]*```[ \t]*$", re.DOTALL | re.MULTILINE)
_EXCERPT = 160


def _candidates(text: str) -> list[str]:
    found = [text]
    found.extend(match.group(1) for match in _FENCE.finditer(text))
    first, last = text.find("{"), text.rfind("}")
    if 0 <= first < last:
        found.append(text[first : last + 1])
    return found


def _excerpt(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= _EXCERPT else flat[:_EXCERPT] + "…"


def extract_json_object(text: str) -> dict[str, Any]:
    """The JSON object in `text`; raises LLMAnswerError saying what is wrong with the answer."""
    cleaned = _THINKING.sub("", text).strip().lstrip("\ufeff")
    if not cleaned:
        raise LLMAnswerError(
            "the model's answer is empty",
            fix="ask again; if it keeps happening, try another model",
        )
    not_object: str | None = None
    for candidate in _candidates(cleaned):
        try:
            value = json.loads(candidate)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
        not_object = f"expected a JSON object, got a JSON {type(value).__name__}"
    start = cleaned.find("{")
    reason = not_object or "there is no '{' in it"
    if start >= 0:
        try:
            # the first object, followed by more prose or a second object
            value, _end = json.JSONDecoder().raw_decode(cleaned, start)
        except ValueError as error:
            reason = not_object or f"invalid JSON: {error}"
        else:
            if isinstance(value, dict):
                return value
    raise LLMAnswerError(
        f"the model's answer is not one JSON object ({reason}): {_excerpt(cleaned)!r}",
        fix="answer with exactly one JSON object, optionally in a ```json fence",
    )
