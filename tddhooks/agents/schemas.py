"""Each role's answer as a JSON schema, as small as the role needs (docs/agents.md): the tester
never commits, the implementor never ends the kata, the refactorer's commit type is always
`refactor`. The schemas are strict-mode ready (every property required, no other properties);
they steer the model, and `agents.edits` still validates and sandboxes every answer."""

from __future__ import annotations

from typing import Any

from tddhooks.agents.roles import role_spec

_STRING: dict[str, Any] = {"type": "string"}
_NULLABLE_STRING: dict[str, Any] = {"type": ["string", "null"]}


def _object(properties: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def _edits(actions: list[str]) -> dict[str, Any]:
    # without a delete, content is always there: a model bound by the schema cannot send a
    # delete with content (measured: Qwen2.5-Coder 1.5B under a llama.cpp grammar sent
    # `{"action": "delete", "content": …}` in 7 of its first 10 tester answers)
    edit = _object(
        {
            "path": _STRING,
            "action": {"type": "string", "enum": actions},
            "content": _NULLABLE_STRING if "delete" in actions else _STRING,
        }
    )
    return {"type": "array", "items": edit}


def _commit(types: list[str] | None) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    if types is not None:
        fields["type"] = {"type": "string", "enum": types}
    fields["scope"] = {**_NULLABLE_STRING, "description": "one lowercase word, never a path"}
    fields["summary"] = _STRING
    fields["rationale"] = {"type": "array", "items": _STRING}
    return _object(fields)


def answer_schema(role: str) -> dict[str, Any]:
    """The JSON schema of `role`'s answer."""
    name = role_spec(role).name
    if name == "tester":
        return _object(
            {
                "plan": _STRING,
                "edits": _edits(["upsert"]),  # a tester adds one test; it never deletes
                "done": {"type": "boolean"},
                "reason": _NULLABLE_STRING,
            }
        )
    types = ["feat", "fix"] if name == "implementor" else None
    return _object(
        {"plan": _STRING, "edits": _edits(["upsert", "delete"]), "commit": _commit(types)}
    )
