"""Structured-output request forms, from most to least precise, and how an endpoint's refusal of
one falls back to the next (docs/llm.md, "Structured answers").

- `json_schema`: OpenAI-style `{"type": "json_schema", "json_schema": {…, "strict": true}}`
  (OpenAI, vLLM, ollama, LM Studio, llama.cpp's server, OpenRouter);
- `json_object_schema`: llama-cpp-python's `{"type": "json_object", "schema": …}`;
- `json_object`: plain JSON mode;
- `text`: no `response_format` at all (the prompt still shows the answer's shape).
"""

from __future__ import annotations

from typing import Any, Literal, get_args

ResponseForm = Literal["json_schema", "json_object_schema", "json_object", "text"]
FORMS: tuple[ResponseForm, ...] = get_args(ResponseForm)
# llama-cpp-python's server answers the json_schema form with HTTP 500 and this text
_LLAMA_CPP_REFUSAL = "'text' or 'json_object'"


def request_format(
    form: ResponseForm, schema: dict[str, Any] | None, name: str
) -> dict[str, Any] | None:
    """The `response_format` request field for `form`; without a schema the schema forms become
    plain JSON mode."""
    if form == "text":
        return None
    if schema is None or form == "json_object":
        return {"type": "json_object"}
    if form == "json_object_schema":
        return {"type": "json_object", "schema": schema}
    strict = _without_lengths(schema)
    return {"type": "json_schema", "json_schema": {"name": name, "strict": True, "schema": strict}}


_LENGTHS = ("maxItems", "minItems")


def _without_lengths(node: Any) -> Any:
    """The schema without array length limits: OpenAI's strict mode has not always taken them
    (a 400 would cost the whole form), and a grammar-bound small model is the one that needs
    them (agents/schemas.py)."""
    if isinstance(node, dict):
        return {key: _without_lengths(value) for key, value in node.items() if key not in _LENGTHS}
    if isinstance(node, list):
        return [_without_lengths(value) for value in node]
    return node


def next_form(form: ResponseForm) -> ResponseForm:
    """The form to try after `form` was refused (text is the last one)."""
    index = FORMS.index(form)
    return FORMS[min(index + 1, len(FORMS) - 1)]


def is_refusal(status: int, message: str, form: ResponseForm) -> bool:
    """True when an HTTP error means "this endpoint does not take this response_format": any 400,
    or the 500 with which llama-cpp-python refuses the json_schema form."""
    if form == "text":
        return False
    return status == 400 or (status == 500 and _LLAMA_CPP_REFUSAL in message)


class FormatMemory:
    """The form each endpoint+model accepted, remembered for one drive (shared by its clients),
    so a refusal costs one extra request per drive, not one per answer."""

    def __init__(self) -> None:
        self._forms: dict[tuple[str, str], ResponseForm] = {}
        self._accepted: set[tuple[str, str]] = set()

    def form_for(self, base_url: str, model: str, configured: ResponseForm) -> ResponseForm:
        remembered = self._forms.get((base_url, model))
        if remembered is None:
            return configured
        return max(remembered, configured, key=FORMS.index)  # never more precise than configured

    def confirmed(self, base_url: str, model: str) -> bool:
        """True once the endpoint answered a request in its current form."""
        return (base_url, model) in self._accepted

    def accepted(self, base_url: str, model: str) -> None:
        self._accepted.add((base_url, model))

    def refused(self, base_url: str, model: str, form: ResponseForm) -> ResponseForm:
        """Remember that `form` was refused; returns the form to use from now on."""
        fallback = next_form(form)
        self._forms[(base_url, model)] = fallback
        return fallback
