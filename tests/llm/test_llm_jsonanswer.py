"""Extracting the one JSON object from a model's answer."""

from __future__ import annotations

from typing import Any

import pytest

from tddhooks.errors import LLMAnswerError
from tddhooks.llm.jsonanswer import (
    escape_content_quotes,
    escape_inner_quotes,
    extract_json_object,
    triple_quoted,
)

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


# Qwen2.5-Coder 1.5B's answer to the first String Calculator test, as it wrote it in text form
UNESCAPED = (
    '```json\n{"plan": "empty string", "edits": [{"path": "tests/empty.rs", "action": "upsert", '
    '"content": "use k::add;\\n\\n#[test]\\nfn empty() {\\n    assert_eq!(add(""), 0, '
    '\\"The empty string sums to 0\\");\\n}\\n"}], "done": false, "reason": null}\n```'
)


def test_the_codes_own_unescaped_quotes_inside_a_string_are_taken_as_code() -> None:
    answer = extract_json_object(UNESCAPED)
    assert answer["edits"][0]["content"] == (
        'use k::add;\n\n#[test]\nfn empty() {\n    assert_eq!(add(""), 0, '
        '"The empty string sums to 0");\n}\n'
    )
    assert answer["done"] is False
    assert answer["reason"] is None


@pytest.mark.parametrize(
    "text",
    [
        '{"a": "b\\"c", "d": ["x", "y"], "e": {"f": "g"}, "h": null}',
        '{"content": "say \\"hi\\" and \\\\ back"}',
        "{}",
    ],
)
def test_valid_json_is_never_changed_by_the_repair(text: str) -> None:
    assert escape_inner_quotes(text) == text


def test_a_raw_line_end_inside_a_string_is_taken_as_one() -> None:
    assert extract_json_object('{"content": "line 1\nline 2"}') == {"content": "line 1\nline 2"}


def test_a_quote_that_can_only_end_the_string_still_ends_it() -> None:
    # `"a", "b"` inside code looks like two elements: the guess does not parse, so it is an error
    with pytest.raises(LLMAnswerError, match="invalid JSON"):
        extract_json_object('{"content": "f("a", "b")", "x": 1}')


# the 1.5B implementor's answer on bowling, as it came (a Python triple-quoted string)
TRIPLE = '''```json
{
  "plan": "Make score sum the rolls",
  "edits": [
    {
      "path": "src/lib.rs",
      "action": "upsert",
      "content": """
        pub fn score(rolls: &[u32]) -> u32 {
            let label = "sum";
            rolls.iter().sum()
        }
      """
    }
  ],
  "commit": {"type": "feat", "scope": "score", "summary": "sum", "rationale": ["r"]}
}
```'''


def test_a_triple_quoted_string_is_the_code_between_the_quotes_dedented() -> None:
    answer = extract_json_object(TRIPLE)
    # not `""` + the code + `""`, as the quote escaping alone read it
    assert answer["edits"][0]["content"] == (
        'pub fn score(rolls: &[u32]) -> u32 {\n    let label = "sum";\n    rolls.iter().sum()\n}\n'
    )
    assert answer["commit"]["scope"] == "score"


def test_triple_quotes_inside_a_valid_json_string_are_left_alone() -> None:
    text = '{"content": "def f():\\n    \\"\\"\\"doc\\"\\"\\"\\n"}'
    assert extract_json_object(text) == {"content": 'def f():\n    """doc"""\n'}
    assert triple_quoted('{"a": 1}') == '{"a": 1}'


def test_an_unclosed_triple_quote_is_still_reported_as_invalid() -> None:
    with pytest.raises(LLMAnswerError, match="not one JSON object"):
        extract_json_object('{"plan": "p", "content": """\npub fn f() {}\n}')


# the 1.5B implementor's FizzBuzz answers, as they came: an empty Rust string `""` whose second
# quote, followed by a line end and `}`, the general repair read as the end of the content; and
# a content string whose edit object was never closed (`"` then `],`)
EMPTY_STRING = (
    '```json\n{\n  "plan": "Return an empty string for zero.",\n  "edits": [{"path": '
    '"src/lib.rs", "action": "upsert", "content": "pub fn say(n: u32) -> String {\n    if n == '
    '0 {\n        ""\n    } else {\n        format!("{}", n)\n    }\n}\\n"}],\n  "commit": '
    '{"type": "fix", "scope": "say", "summary": "zero", "rationale": ["r"]}\n}\n```'
)
UNCLOSED_EDIT = (
    '```json\n{\n  "plan": "FizzBuzz for 15.",\n  "edits": [\n    {\n      "path": '
    '"src/lib.rs",\n      "action": "upsert",\n      "content": "pub fn say(n: u32) -> String {\n'
    '    if n % 15 == 0 {\n        \\"FizzBuzz\\".to_string()\n    } else {\n'
    '        format!("{}", n)\n    }\n}"\n  ],\n  "commit": {"type": "feat", "scope": "say", '
    '"summary": "fizzbuzz", "rationale": ["r"]}\n}\n```'
)


def test_quotes_inside_a_files_content_are_code_up_to_the_end_of_its_edit() -> None:
    answer = extract_json_object(EMPTY_STRING)
    assert answer["edits"][0]["content"] == (
        'pub fn say(n: u32) -> String {\n    if n == 0 {\n        ""\n    } else {\n'
        '        format!("{}", n)\n    }\n}\n'
    )
    assert answer["commit"]["scope"] == "say"


def test_an_edit_object_left_unclosed_after_its_content_is_closed() -> None:
    answer = extract_json_object(UNCLOSED_EDIT)
    (edit,) = answer["edits"]
    assert edit["path"] == "src/lib.rs"
    assert edit["content"].endswith('format!("{}", n)\n    }\n}')
    assert answer["commit"]["summary"] == "fizzbuzz"


@pytest.mark.parametrize(
    "text",
    [
        '{"edits": [{"path": "a", "content": "say \\"hi\\"\\n"}, {"path": "b", "content": "x"}]}',
        '{"content": "f(\\"a\\", \\"b\\")", "action": "upsert"}',
        '{"plan": "no content here", "x": "\\"q\\""}',
    ],
)
def test_valid_content_is_never_changed_by_the_content_repair(text: str) -> None:
    assert escape_content_quotes(text) == text


def test_two_edits_are_each_repaired_up_to_their_own_end() -> None:
    text = (
        '{"edits": [{"path": "a.rs", "content": "let s = "x";"}, '
        '{"path": "b.rs", "content": "let t = "y";"}]}'
    )
    edits = extract_json_object(text)["edits"]
    assert [edit["content"] for edit in edits] == ['let s = "x";', 'let t = "y";']


# the 1.5B implementor's shape in 16 of the 64 cached answers that did not parse: raw line ends in
# the content, the function's last `}`, then the edits' `],` with no closing quote and no `}`
UNTERMINATED = (
    '{"plan": "Check the length.", "edits": [{"path": "src/lib.rs", "action": "upsert", '
    '"content": "pub fn validate(password: &str) -> Vec<String> {\n    let mut errors = '
    'Vec::new();\n    if password.chars().count() < 8 {\n        errors.push("must be at least '
    '8 characters".to_string());\n    }\n    errors\n}\n],\n"commit": {"type": "feat", '
    '"scope": "length", "summary": "length", "rationale": ["r"]}}'
)


def test_a_content_string_never_closed_ends_before_the_edits_own_bracket() -> None:
    answer = extract_json_object(UNTERMINATED)
    (edit,) = answer["edits"]
    assert edit == {
        "path": "src/lib.rs",
        "action": "upsert",
        "content": (
            "pub fn validate(password: &str) -> Vec<String> {\n    let mut errors = Vec::new();\n"
            "    if password.chars().count() < 8 {\n"
            '        errors.push("must be at least 8 characters".to_string());\n    }\n'
            "    errors\n}"
        ),
    }
    assert answer["commit"]["scope"] == "length"


def test_an_unclosed_content_at_the_end_of_the_answer_is_closed_too() -> None:
    code = 'pub fn f() -> String {\n    "a".to_string()\n}'
    text = '{"edits": [{"path": "src/lib.rs", "content": "' + code + "\n]}"
    assert extract_json_object(text)["edits"][0]["content"] == code


def test_the_last_bracket_line_ends_the_content_not_one_inside_the_code() -> None:
    code = 'pub fn f() -> Vec<&\'static str> {\n    vec![\n        "a",\n    ]\n}'
    text = '{"edits": [{"path": "src/lib.rs", "content": "' + code + '\n],\n"plan": "p"}'
    assert extract_json_object(text)["edits"][0]["content"] == code


def test_an_answer_cut_off_inside_its_content_is_still_reported() -> None:
    with pytest.raises(LLMAnswerError, match="not one JSON object"):
        extract_json_object('{"edits": [{"path": "src/lib.rs", "content": "pub fn f() {\n    "a"')


def test_an_unclosed_content_never_takes_the_next_edits_content() -> None:
    # the first content runs into the second edit's `"content"`: read as one object with the key
    # twice, a.py would get b.py's file
    for second in ('y = 2\n}\n],\n"commit": "c"}', 'y = 2"\n}\n],\n"commit": "c"}'):
        text = (
            '{"edits": [\n{"path": "a.py", "content": "x = 1\n},\n'
            '{"path": "b.py", "content": "' + second
        )
        with pytest.raises(LLMAnswerError, match="not one JSON object"):
            extract_json_object(text)


@pytest.mark.parametrize("brace", ["}", "  }"])
def test_an_unclosed_content_keeps_the_edit_objects_own_brace_out_of_the_code(brace: str) -> None:
    code = 'pub fn f() -> &\'static str {\n    "}"\n}'
    text = '{"edits": [{"path": "src/lib.rs", "content": "' + code + "\n" + brace + '\n],\n"p": 1}'
    assert extract_json_object(text)["edits"][0]["content"] == code


def test_a_plan_that_quotes_a_list_literal_keeps_its_quotes() -> None:
    # measured: a 1.5B tester copied a refusal's `vec!["must contain a digit"]` into its plan;
    # the `"` before `]` was read as the plan's end, and the whole answer as invalid JSON
    text = (
        '{"plan": "expect `vec!["must contain a digit"]` there", "edits": '
        '[{"path": "tests/x.rs", "content": "use k::v;\\n"}], "done": false, "reason": null}'
    )
    found = extract_json_object(text)
    assert found["plan"] == 'expect `vec!["must contain a digit"]` there'
    assert found["edits"] == [{"path": "tests/x.rs", "content": "use k::v;\n"}]


def test_in_an_array_a_quote_before_the_closing_bracket_still_ends_the_string() -> None:
    text = '{"rationale": ["say "hi" to all"], "plan": "p"}'
    assert extract_json_object(text) == {"rationale": ['say "hi" to all'], "plan": "p"}


# ------------------------------------------------------------ repairs the caller turns off
# (checks json-wrapped, json-triple-quotes, json-code-quotes: docs/checks.md)


def test_a_repair_left_out_of_repairs_does_not_run() -> None:
    from tddhooks.llm.jsonanswer import CODE_QUOTES, REPAIRS, TRIPLE_QUOTES, WRAPPED

    assert {WRAPPED, TRIPLE_QUOTES, CODE_QUOTES} == REPAIRS
    # the code's own quotes: read only with json-code-quotes
    with pytest.raises(LLMAnswerError, match="not one JSON object"):
        extract_json_object(UNESCAPED, {WRAPPED, TRIPLE_QUOTES})
    assert extract_json_object(UNESCAPED, {WRAPPED, CODE_QUOTES})["done"] is False
    # triple quotes: read only with json-triple-quotes (the quote escaping alone reads `""`)
    without = extract_json_object(TRIPLE, {WRAPPED, CODE_QUOTES})
    assert not without["edits"][0]["content"].startswith("pub fn")
    with pytest.raises(LLMAnswerError):
        extract_json_object(TRIPLE, {WRAPPED})
    assert extract_json_object(TRIPLE, {WRAPPED, TRIPLE_QUOTES})["commit"]["scope"] == "score"


@pytest.mark.parametrize(
    "text",
    [
        '```json\n{"a": 1}\n```',
        'Sure! {"a": 1} That is all.',
        '<think>x</think>\n{"a": 1}',
        '{"a": 1} and a second one {"b": 2}',
    ],
)
def test_without_json_wrapped_only_the_answer_as_a_whole_is_read(text: str) -> None:
    from tddhooks.llm.jsonanswer import WRAPPED

    assert extract_json_object(text, {WRAPPED}) == {"a": 1}
    with pytest.raises(LLMAnswerError, match="invalid JSON"):
        extract_json_object(text, frozenset())
    assert extract_json_object('  {"a": 1}\n', frozenset()) == {"a": 1}
