"""A char literal the JSON string turned into a raw line end is written back as its escape
(agents/literals.py), only where that cannot change the person's code."""

from __future__ import annotations

import json

import pytest

from tddhooks.agents.edits import parse_answer
from tddhooks.agents.literals import escape_raw_char_literals

SPLIT = "pub fn add(text: &str) -> i32 {\n    text.split('\n').count() as i32\n}\n"


@pytest.mark.parametrize(("raw", "escaped"), [("\n", "\\n"), ("\t", "\\t"), ("\r", "\\r")])
def test_a_raw_control_char_between_quotes_becomes_its_escape_in_rust(
    raw: str, escaped: str
) -> None:
    code = f"let c = '{raw}';\n"
    assert escape_raw_char_literals("src/lib.rs", code, None) == f"let c = '{escaped}';\n"


def test_the_model_answer_as_json_reads_it_and_the_file_gets_the_escape() -> None:
    # the model wrote `'\n'` inside the JSON string: JSON reads a real line end
    sent = "pub fn add(text: &str) -> i32 {\\n    text.split('\\n').count() as i32\\n}\\n"
    answer = (
        '{"plan": "p", "edits": [{"path": "src/lib.rs", "content": "' + sent + '"}], '
        '"commit": {"type": "feat", "scope": "add", "summary": "s", "rationale": []}}'
    )
    assert json.loads(answer)["edits"][0]["content"] == SPLIT
    edit = parse_answer(answer, "implementor", read=lambda _path: "pub fn add() {}\n").edits[0]
    assert edit.content == SPLIT.replace("'\n'", "'\\n'")
    # without a reader (no drive): the answer as it came
    assert parse_answer(answer, "implementor").edits[0].content == SPLIT


def test_what_the_file_already_had_is_the_persons_and_stays() -> None:
    persons = "const S: &str = \"it'\n's\";\n"
    assert escape_raw_char_literals("src/lib.rs", SPLIT, persons) == SPLIT


def test_python_is_repaired_only_when_that_makes_it_parse() -> None:
    assert escape_raw_char_literals("a.py", "x.split('\n')\n", None) == "x.split('\\n')\n"
    # valid as sent (implicit concatenation across a line end): left alone
    joined = "x = ('a'\n'b')\n"
    assert escape_raw_char_literals("a.py", joined, None) == joined


def test_other_files_and_clean_code_are_left_alone() -> None:
    assert escape_raw_char_literals("notes.md", "'\n'", None) == "'\n'"
    assert escape_raw_char_literals("src/lib.rs", "let c = '\\n';\n", None) == "let c = '\\n';\n"


def test_each_file_is_read_once_per_answer_and_only_when_needed() -> None:
    # every read is a `git cat-file`: a clean upsert needs none, a snippet one per path
    reads: list[str] = []

    def read(path: str) -> str | None:
        reads.append(path)
        return "pub fn a() -> u32 {\n    1\n}\n"

    snippet = "pub fn b() -> char {\n    '\n'\n}\n"
    answer = json.dumps({"plan": "p", "edits": [
        {"path": "src/clean.rs", "action": "upsert", "content": "pub fn c() {}\n"},
        {"path": "src/lib.rs", "action": "insert", "content": snippet},
    ]})  # fmt: skip

    parsed = parse_answer(answer, "implementor", read=read)

    assert reads == ["src/lib.rs"]
    merged = parsed.edits[1].content or ""
    assert "'\\n'" in merged
    assert "pub fn a()" in merged
