"""A snippet answer (`"action": "insert"` with only the items it changed) merged into its file
item by item (agents/snippets.py), and what is never merged."""

from __future__ import annotations

from pathlib import Path

import pytest

from tddhooks.agents.edits import AnswerInvalid, FileEdit, parse_answer
from tddhooks.agents.itemedits import item_refusals
from tddhooks.agents.roles import path_policy
from tddhooks.agents.snippets import merge_snippet
from tddhooks.policy.settings import PolicySettings

LIB = """use std::collections::HashMap;

/// Scores a game.
pub fn score(rolls: &[u32]) -> u32 {
    rolls.iter().sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gutter() {
        assert_eq!(score(&[0; 20]), 0);
    }
}
"""

SCORE = """pub fn score(rolls: &[u32]) -> u32 {
    let text = "}"; // a brace in a string { and a comment
    let mut total = 0;
    for (index, roll) in rolls.iter().enumerate() {
        total += roll + index as u32 * 0;
    }
    total + text.len() as u32 * 0
}"""


def test_a_function_replaces_the_one_of_the_same_name_and_keeps_the_rest() -> None:
    merged = merge_snippet("src/lib.rs", LIB, "\n        " + SCORE.replace("\n", "\n        "))

    assert merged == LIB.replace("pub fn score(rolls: &[u32]) -> u32 {\n    rolls.iter().sum()\n}",
                                 SCORE)  # fmt: skip
    assert merged.count("fn score") == 1
    assert "/// Scores a game." in merged  # the file's doc comment stays
    assert "fn gutter()" in merged


def test_new_items_go_before_the_test_module_and_a_use_after_the_last_use() -> None:
    snippet = (
        "/// Two rolls that make ten.\nfn is_spare(a: u32, b: u32) -> bool {\n    a + b == 10\n}\n"
        "use std::fmt;\n"
    )

    merged = merge_snippet("src/lib.rs", LIB, snippet)

    assert merged is not None
    assert merged.index("use std::collections::HashMap;\nuse std::fmt;\n") == 0
    # clippy's items_after_test_module: a new item after the tests would be a lint error
    assert merged.index("/// Two rolls that make ten.\nfn is_spare") < merged.index("#[cfg(test)]")
    assert merged.index("pub fn score") < merged.index("fn is_spare")


@pytest.mark.parametrize(
    "snippet",
    [
        "pub fn score(rolls: &[u32]) -> u32 {\n    0\n",  # unbalanced
        "pub fn score() -> u32 { 0 }\npub fn score() -> u32 { 1 }",  # one place, two items
        "   \n\n",
    ],
)
def test_a_snippet_that_is_not_whole_items_is_not_merged(snippet: str) -> None:
    assert merge_snippet("src/lib.rs", LIB, snippet) is None


TWO = "pub fn a(x: u32) -> u32 {\n    x\n}\n\npub fn b(y: u32) -> u32 {\n    y\n}\n"


@pytest.mark.parametrize(
    "snippet",
    [
        "    assert_eq!(score(&[1; 20]), 20);",
        "let total = 0;",
        "if rolls.is_empty() {\n    return 0;\n}",
    ],
)
def test_statements_no_single_function_is_meant_for_are_not_merged(snippet: str) -> None:
    assert merge_snippet("src/lib.rs", TWO, snippet) is None


def test_impl_blocks_structs_and_consts_are_items_by_name() -> None:
    before = (
        "pub struct Game {\n    rolls: Vec<u32>,\n}\n\n"
        "impl Game {\n    pub fn new() -> Self {\n        Game { rolls: vec![] }\n    }\n}\n"
    )
    snippet = (
        "impl Game {\n    pub fn new() -> Self {\n        Game { rolls: Vec::new() }\n    }\n\n"
        "    pub fn roll(&mut self, pins: u32) {\n        self.rolls.push(pins);\n    }\n}\n"
        "const FRAMES: usize = 10;\n"
    )

    merged = merge_snippet("src/lib.rs", before, snippet)

    assert merged is not None
    assert merged.count("impl Game") == 1
    assert "Vec::new()" in merged
    assert "fn roll" in merged
    assert merged.startswith("pub struct Game {")
    assert merged.rstrip().endswith("const FRAMES: usize = 10;")


def test_python_definitions_replace_by_name_and_imports_join_the_imports() -> None:
    before = "import re\n\n\ndef add(text: str) -> int:\n    return 0\n\n\nclass Keep:\n    pass\n"
    snippet = (
        "    def add(text: str) -> int:\n        if not text:\n            return 0\n"
        "        return sum(int(n) for n in re.split(',|\\n', text))\n    import os\n"
    )

    merged = merge_snippet("src/kata/calc.py", before, snippet)

    assert merged is not None
    assert merged.startswith("import re\nimport os\n")
    assert merged.count("def add") == 1
    assert "re.split" in merged
    assert "class Keep" in merged
    assert merge_snippet("src/kata/calc.py", before, "return 1") is None
    assert merge_snippet("src/kata/calc.py", before, "def add(:\n") is None
    assert merge_snippet("src/kata/calc.py", "def broken(:\n", "def add():\n    pass\n") is None


def test_what_the_file_has_besides_items_stays_where_it_is() -> None:
    python = '"""The kata."""\n\nRESULT = 1\n\nif __name__ == "__main__":\n    print(RESULT)\n'
    merged = merge_snippet("calc.py", python, "def add():\n    return RESULT\n")
    # a new definition goes before `if __name__ == "__main__":` (run as a script, it is defined)
    assert merged == python.replace("if __name__", "def add():\n    return RESULT\n\nif __name__")

    rust = "thread_local! {\n    static N: u32 = 0;\n}\n\npub fn n() -> u32 {\n    0\n}\n"
    merged = merge_snippet("src/lib.rs", rust, "pub fn n() -> u32 {\n    1\n}")
    assert merged == rust.replace("    0\n}", "    1\n}")
    # in a snippet the same macro call is no item: it is a statement for the one function
    call = "thread_local! {\n    static M: u32 = 0;\n}"
    merged = merge_snippet("src/lib.rs", rust, call)
    assert merged is not None
    assert merged.index("pub fn n()") < merged.index("static M")


def test_other_files_are_never_merged() -> None:
    assert merge_snippet("Cargo.toml", '[package]\nname = "k"\n', "[dependencies]\n") is None
    assert merge_snippet("kata.md", "# Kata\n", "fn x() {}") is None


# ---------------------------------------------------------------- the answer as parsed


def _answer(action: str, path: str, content: str) -> str:
    import json

    edit = {"path": path, "action": action, "content": content}
    commit = {"type": "feat", "scope": "score", "summary": "s", "rationale": []}
    return json.dumps({"plan": "p", "edits": [edit], "commit": commit})


@pytest.mark.parametrize("action", ["insert", "add", "replace", "Update", "append"])
def test_a_snippet_action_becomes_the_upsert_of_the_merged_file(action: str) -> None:
    merged: list[str] = []

    answer = parse_answer(
        _answer(action, "src/lib.rs", SCORE), "implementor",
        read={"src/lib.rs": LIB}.get, merged=merged,
    )  # fmt: skip

    (edit,) = answer.edits
    assert (edit.action, merged) == ("upsert", ["src/lib.rs"])
    assert edit.content == merge_snippet("src/lib.rs", LIB, SCORE)


@pytest.mark.parametrize(
    ("path", "content", "files"),
    [
        ("src/lib.rs", "return 0;", {"src/lib.rs": TWO}),  # no item, and no one function
        ("src/new.rs", SCORE, {"src/lib.rs": LIB}),  # no such file to merge into
        ("src/lib.rs", SCORE, None),  # no reader: the protocol as it was
    ],
)
def test_an_unmergeable_snippet_stays_an_invalid_answer(
    path: str, content: str, files: dict[str, str] | None
) -> None:
    merged: list[str] = []
    with pytest.raises(AnswerInvalid, match=r"'edits\.0\.action': input should be 'upsert'"):
        parse_answer(_answer("insert", path, content), "implementor",
                     read=files.get if files else None, merged=merged)  # fmt: skip
    assert merged == []


# --- red team: a merge is only a whole-file upsert, judged as any other ------------------------


def test_a_merged_snippet_that_replaces_the_test_module_is_refused_for_the_implementor(
    tmp_path: Path,
) -> None:
    # the implementor's snippet brings its own `#[cfg(test)] mod tests`: merged, it would replace
    # the staged tests; the item rules see a changed test item and refuse the edit
    snippet = "#[cfg(test)]\nmod tests {\n    #[test]\n    fn gutter() {}\n}\n"
    merged = merge_snippet("src/lib.rs", LIB, snippet)
    assert merged is not None
    assert "assert_eq!(score(&[0; 20]), 0)" not in merged

    policy = path_policy("implementor", PolicySettings())
    reasons = item_refusals(
        tmp_path, [FileEdit(path="src/lib.rs", content=merged)], policy,
        index_files=lambda: {"src/lib.rs": LIB, "Cargo.toml": '[package]\nname = "k"\n'},
    )  # fmt: skip

    assert "src/lib.rs" in reasons
    assert "test" in reasons["src/lib.rs"]


def test_a_snippet_into_a_path_outside_the_repository_reads_nothing() -> None:
    asked: list[str] = []

    def read(path: str) -> str | None:
        asked.append(path)
        return None

    with pytest.raises(AnswerInvalid):
        parse_answer(_answer("insert", "../outside.rs", SCORE), "implementor", read=read)
    # the reader is the one that refuses (drive/asking.py): it is asked for that path only
    assert set(asked) == {"../outside.rs"}


def test_statements_go_at_the_top_of_the_one_function_they_are_meant_for() -> None:
    add = "pub fn add(text: &str) -> i32 {\n    if text.is_empty() {\n        return 0;\n    }\n"
    add += "    1\n}\n"
    guard = "\n        if text.contains('\\n') {\n            return 2;\n        }\n"

    merged = merge_snippet("src/lib.rs", add, guard)

    assert merged == add.replace(
        " {\n    if text.is_empty",
        " {\n    if text.contains('\\n') {\n        return 2;\n    }\n\n    if text.is_empty",
    )
    # two functions: the one whose parameter the snippet names
    helper = "\nfn helper(rolls: &[u32]) -> u32 {\n    0\n}\n"
    both = merge_snippet("src/lib.rs", add + helper, guard)
    assert both is not None
    assert both.endswith(helper)
    assert both.index("text.contains") < both.index("text.is_empty")
    # none named, or unbalanced, or a file without a function: not merged
    assert merge_snippet("src/lib.rs", add + helper, "let x = 1;") is None
    assert merge_snippet("src/lib.rs", add, "if text.is_empty() {") is None
    assert merge_snippet("src/lib.rs", "pub struct S;\n", "let x = 1;") is None


def test_a_snippet_after_an_upsert_of_the_same_path_merges_into_it() -> None:
    import json

    edits = [
        {"path": "src/lib.rs", "action": "upsert", "content": "pub struct Frame;\n"},
        {
            "path": "./src/lib.rs",
            "action": "insert",
            "content": "impl Frame {\n    pub fn new() -> Self {\n        Frame\n    }\n}\n",
        },
    ]
    commit = {"type": "feat", "scope": "frame", "summary": "s", "rationale": []}
    text = json.dumps({"plan": "p", "edits": edits, "commit": commit})
    merged: list[str] = []

    answer = parse_answer(text, "implementor", read={"src/lib.rs": LIB}.get, merged=merged)

    (edit,) = answer.edits
    assert edit.content == "pub struct Frame;\n\n" + edits[1]["content"]
    assert merged == ["./src/lib.rs"]
    # an upsert after a snippet of the same path is still one path twice
    with pytest.raises(AnswerInvalid, match="appears twice"):
        parse_answer(json.dumps({"plan": "p", "edits": edits[::-1], "commit": commit}),
                     "implementor", read={"src/lib.rs": LIB, "./src/lib.rs": LIB}.get)  # fmt: skip


ADD = "pub fn add(text: &str) -> i32 {\n    text.len() as i32\n}\n"
# the 1.5B implementor's answer: a guard clause, sent as the whole file, `'\n'` unescaped
GUARD = "\n        if text.chars().last().unwrap() == '\\n' {\n            return 0;\n        }\n"


def _upsert_answer(content: str, action: str = "upsert") -> str:
    import json

    edit = {"path": "src/lib.rs", "action": action, "content": content}
    commit = {"type": "feat", "scope": "add", "summary": "s", "rationale": []}
    return json.dumps({"plan": "p", "edits": [edit], "commit": commit})


@pytest.mark.parametrize("action", ["upsert", "insert"])
def test_statements_sent_as_the_whole_file_go_into_the_function_with_their_escapes(
    action: str,
) -> None:
    merged: list[str] = []
    answer = parse_answer(
        _upsert_answer(GUARD, action), "implementor", read={"src/lib.rs": ADD}.get, merged=merged
    )

    content = answer.edits[0].content
    assert content == (
        "pub fn add(text: &str) -> i32 {\n    if text.chars().last().unwrap() == '\\n' {\n"
        "        return 0;\n    }\n\n    text.len() as i32\n}\n"
    )
    assert merged == ["src/lib.rs"]


@pytest.mark.parametrize(
    "content",
    [
        # a whole file whose macro call is no item: never stuffed into a function
        "thread_local! {\n    static N: u32 = 0;\n}\n\npub fn add(text: &str) -> i32 {\n    0\n}\n",
        "extern crate core;\n\npub fn add(text: &str) -> i32 {\n    0\n}\n",
        "#![allow(dead_code)]\npub fn add(text: &str) -> i32 {\n    0\n}\n",
    ],
)
def test_a_whole_file_upsert_is_never_taken_for_statements(content: str) -> None:
    answer = parse_answer(_upsert_answer(content), "implementor", read={"src/lib.rs": ADD}.get)
    assert answer.edits[0].content == content
    # sent as an insert: merged by item name, or not at all; never one function inside another
    merged = merge_snippet("src/lib.rs", ADD, content)
    assert merged is None or merged.count("fn add") == 1


def test_without_snippet_merge_a_snippet_action_stays_invalid() -> None:
    """Check `snippet-merge` (small-model, docs/checks.md): off, nothing is merged or read."""
    from tddhooks.agents.edits import SNIPPET_MERGE

    asked: list[str] = []

    def read(path: str) -> str | None:
        asked.append(path)
        return LIB

    with pytest.raises(AnswerInvalid, match="action"):
        parse_answer(_answer("insert", "src/lib.rs", SCORE), "implementor", read=read, repairs=())
    assert asked == []
    merged: list[str] = []
    answer = parse_answer(
        _answer("insert", "src/lib.rs", SCORE), "implementor", read=read, merged=merged,
        repairs=[SNIPPET_MERGE],
    )  # fmt: skip
    assert merged == ["src/lib.rs"]
    assert answer.edits[0].content == merge_snippet("src/lib.rs", LIB, SCORE)
