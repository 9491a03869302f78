"""A char literal the JSON string turned into a raw line end is written back as its escape
(agents/literals.py), only where that cannot change the person's code."""

from __future__ import annotations

import json
import time

import pytest

from tddhooks.agents.edits import parse_answer
from tddhooks.agents.literals import escape_raw_char_literals, unescaped_flat_file

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


# the 1.5B FizzBuzz implementor's file as the JSON string decoded it (r33): escaped once too often
FLAT = (
    r"pub fn say(n: u32) -> String {\n    if n % 15 == 0 {\n        \"FizzBuzz\".to_string()\n"
    r"    } else {\n        n.to_string()\n    }\n}"
)
CODE = (
    'pub fn say(n: u32) -> String {\n    if n % 15 == 0 {\n        "FizzBuzz".to_string()\n'
    "    } else {\n        n.to_string()\n    }\n}"
)


def test_a_file_sent_escaped_twice_is_decoded_once_more() -> None:
    assert unescaped_flat_file("src/lib.rs", FLAT) == CODE
    assert unescaped_flat_file("src/lib.rs", FLAT + "\n") == CODE + "\n"
    # quotes sent as they are, only the line ends escaped twice
    assert unescaped_flat_file("src/lib.rs", FLAT.replace('\\"', '"')) == CODE


@pytest.mark.parametrize(
    ("path", "content"),
    [
        ("src/lib.rs", r'const S: &str = "a\nb\n";'),  # the escapes are inside a literal
        ("src/lib.rs", r"// a\nb\nc"),  # inside a comment
        ("src/lib.rs", CODE),  # real line ends
        ("src/lib.rs", r"pub fn f() {}\n"),  # one escaped line end
        ("README.md", FLAT),  # not code
        ("t.py", r'print("a\nb\n")'),  # valid Python as it is
    ],
)
def test_anything_else_is_left_as_it_is(path: str, content: str) -> None:
    assert unescaped_flat_file(path, content) == content


def test_python_sent_escaped_twice_is_decoded_when_only_the_decoded_parses() -> None:
    assert unescaped_flat_file("t.py", r"def f():\n    return 1\n") == "def f():\n    return 1\n"


def test_the_answer_parser_decodes_a_file_sent_escaped_twice() -> None:
    text = json.dumps({"plan": "p", "edits": [{"path": "src/lib.rs", "content": FLAT}]})
    assert parse_answer(text, "implementor").edits[0].content == CODE


def test_a_long_line_of_literals_is_judged_in_linear_time() -> None:
    # 80 kB on one line: 16000 literals, then 16000 escapes in the last one; one comparison of each
    # backslash with every literal took minutes
    content = '"x" ' * 16000 + '"' + r"\n" * 16000 + '"'
    start = time.monotonic()
    assert unescaped_flat_file("src/lib.rs", content) == content
    assert time.monotonic() - start < 5


def test_the_repairs_run_only_when_the_caller_lists_them() -> None:
    """Checks `raw-char-literals` and `double-escaped-file` (small-model, docs/checks.md): the
    drive passes the ids in effect; under `core` neither runs."""
    from tddhooks.agents.edits import DOUBLE_ESCAPED, RAW_CHARS, answer_repairs

    assert {DOUBLE_ESCAPED, RAW_CHARS} <= answer_repairs()
    flat = json.dumps({"plan": "p", "edits": [{"path": "src/lib.rs", "content": FLAT}]})
    assert parse_answer(flat, "implementor", repairs=()).edits[0].content == FLAT
    assert parse_answer(flat, "implementor", repairs=[DOUBLE_ESCAPED]).edits[0].content == CODE
    raw = json.dumps({"plan": "p", "edits": [{"path": "src/lib.rs", "content": SPLIT}]})
    read = {"src/lib.rs": "pub fn add() {}\n"}.get
    assert parse_answer(raw, "implementor", read=read, repairs=()).edits[0].content == SPLIT
    repaired = parse_answer(raw, "implementor", read=read, repairs=[RAW_CHARS]).edits[0]
    assert repaired.content == SPLIT.replace("'\n'", "'\\n'")
