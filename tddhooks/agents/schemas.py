"""Each role's answer as a JSON schema, as small as the role needs (docs/agents.md): the tester
never commits, the implementor never ends the kata, the refactorer's commit type is always
`refactor`. The schemas are strict-mode ready (every property required, no other properties);
they steer the model, and `agents.edits` still validates and sandboxes every answer."""

from __future__ import annotations

from collections.abc import Sequence
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


def _edits(actions: list[str], paths: Sequence[str], most: int | None) -> dict[str, Any]:
    # without a delete, content is always there: a model bound by the schema cannot send a
    # delete with content
    edit = _object(
        {
            "path": {"type": "string", "enum": list(paths)} if paths else _STRING,
            "action": {"type": "string", "enum": actions},
            "content": _NULLABLE_STRING if "delete" in actions else _STRING,
        }
    )
    # a length limit ends the array where a small model would repeat its edit until max_tokens
    # llm/formats.py drops it for strict json_schema
    return {"type": "array", "items": edit, **({"maxItems": most} if most else {})}


def _commit() -> dict[str, Any]:
    return _object(
        {
            "scope": {**_NULLABLE_STRING, "description": "one lowercase word, never a path"},
            "summary": _STRING,
            "rationale": {"type": "array", "items": _STRING},
        }
    )


def answer_schema(role: str, paths: Sequence[str] = ()) -> dict[str, Any]:
    """The JSON schema of `role`'s answer; `paths` (agents/offers.py), when given, are the only
    values `path` may take."""
    name = role_spec(role).name
    if name == "tester":
        return _object(
            {
                "plan": _STRING,
                # a tester adds one test in one file; it never deletes
                "edits": _edits(["upsert"], paths, 1),
                "done": {"type": "boolean"},
                "reason": _NULLABLE_STRING,
            }
        )
    if name == "implementor" and paths:  # it edits the files there are, so it needs no delete
        edits = _edits(["upsert"], paths, len(paths))
    else:
        edits = _edits(["upsert", "delete"], paths, None)
    # the type is the tool's: `refactor` for the refactorer, `feat` for the implementor, whose
    # test asks for a behaviour the code does not have yet
    return _object({"plan": _STRING, "edits": edits, "commit": _commit()})
