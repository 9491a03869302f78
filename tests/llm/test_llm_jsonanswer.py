"""Extracting the one JSON object from a model's answer."""

from __future__ import annotations

from typing import Any

import pytest

from tddhooks.errors import LLMAnswerError
from tddhooks.llm.jsonanswer import extract_json_object

PLAN = {"plan": "add a test for «römisch» numerals", "edits": [], "done": False}
WITH_FENCE_INSIDE = {
    "plan": "write docs",
    "edits": [{"path": "README.md", "action": "upsert", "content": "```rust\nfn x() {}\n```\n"}],
}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"plan": "add a test for «römisch» numerals", "edits": [], "done": false}', PLAN),
        ('  \n{"a": 1}\n\n', {"a": 1}),
        ('```json\n{"a": 1}\n```', {"a": 1}),
        ('```JSON\n{"a": 1}\n```\n', {"a": 1}),
        ('```\n{"a": "ü"}\n```', {"a": "ü"}),
        ('Here is my plan:\n```json\n{"a": 1}\n```\nGood luck!', {"a": 1}),
        ('Sure! {"a": {"b": [1, 2]}} That is all.', {"a": {"b": [1, 2]}}),
        ('{"a": 1} and a second one {"b": 2}', {"a": 1}),
        ('{"a": 1}\nNote: use {braces} carefully', {"a": 1}),
        ('<think>maybe {"wrong": true}?</think>\n{"right": true}', {"right": True}),
        ("\ufeff{\"bom\": 1}", {"bom": 1}),
        ('[{"a": 1}]', {"a": 1}),
        # a fence inside a JSON string is not a fence: the object stays whole
        ('```json\n' + '{"plan": "write docs", "edits": [{"path": "README.md", "action": '
         '"upsert", "content": "```rust\\nfn x() {}\\n```\\n"}]}' + '\n```', WITH_FENCE_INSIDE),
    ],
)  # fmt: skip
def test_extracts_the_object(text: str, expected: dict[str, Any]) -> None:
    assert extract_json_object(text) == expected


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ("   \n", "empty"),
        ("<think>hmm</think>", "empty"),
        ("I cannot help with that.", "there is no '{' in it"),
        ('{"plan": "x",}', "invalid JSON"),
        ('```json\n{"plan": "x" "edits": []}\n```', "invalid JSON"),
        ("[1, 2, 3]", "expected a JSON object, got a JSON list"),
        ('"just a string"', "expected a JSON object, got a JSON str"),
    ],
)
def test_reports_what_is_wrong(text: str, reason: str) -> None:
    with pytest.raises(LLMAnswerError) as caught:
        extract_json_object(text)
    assert reason in caught.value.message
    assert caught.value.fix


def test_the_error_quotes_a_short_excerpt_of_the_answer() -> None:
    answer = "Voilà: {" + "x" * 1000
    with pytest.raises(LLMAnswerError) as caught:
        extract_json_object(answer)
    assert "Voilà: {xxx" in caught.value.message
    assert len(caught.value.message) < 400
