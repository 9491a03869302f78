"""Red team: a snippet answer merged into its file (agents/snippets.py, docs/agents.md
"Snippets"). A merge may never lose the person's code, read outside the index, crash the drive,
or turn an edit the sandbox refuses into one it accepts."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import pytest
from support.item_edits import OPS, PYPROJECT

from tddhooks.agents.context import (
    TurnContext,
    build_messages,
    implementor_task,
    what_the_test_checks,
)
from tddhooks.agents.edits import (
    AnswerInvalid,
    EditRefused,
    FileEdit,
    check_edits,
    parse_answer,
)
from tddhooks.agents.roles import path_policy
from tddhooks.agents.snippets import MAX_SNIPPET, merge_snippet
from tddhooks.drive.asking import _reader
from tddhooks.drive.ports import GitWorkspace
from tddhooks.policy.settings import load_settings

MakeRepo = Callable[..., Path]

GAME = """pub struct Game {
    rolls: Vec<u32>,
}

impl Game {
    pub fn new() -> Self {
        Game { rolls: vec![] }
    }

    pub fn roll(&mut self, pins: u32) {
        self.rolls.push(pins);
    }

    pub fn score(&self) -> u32 {
        0
    }
}

#[cfg(test)]
fn helper() -> u32 {
    1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gutter() {
        assert_eq!(Game::new().score(), 0);
    }
}
"""
SCORE = "impl Game {\n    pub fn score(&self) -> u32 {\n        self.rolls.iter().sum()\n    }\n}"


def _merge(path: str, before: str, snippet: str) -> str | None:
    return merge_snippet(path, before, snippet)


# ------------------------------------------------------------ nothing of the file is lost


def test_a_method_sent_in_its_impl_block_keeps_the_blocks_other_methods() -> None:
    # measured before the fix: `impl Game { fn score }` replaced the whole impl (new, roll lost)
    merged = _merge("src/lib.rs", GAME, SCORE)

    assert merged == GAME.replace(
        "        0\n    }\n}", "        self.rolls.iter().sum()\n    }\n}"
    )


def test_a_method_sent_in_its_class_keeps_the_other_methods_and_the_decorator() -> None:
    before = (
        "from dataclasses import dataclass, field\n\n\n@dataclass\nclass Game:\n"
        "    rolls: list[int] = field(default_factory=list)\n\n"
        "    def roll(self, pins: int) -> None:\n        self.rolls.append(pins)\n\n"
        "    def score(self) -> int:\n        return 0\n"
    )
    # the model's method at two spaces is moved to the file's four, its body with it
    snippet = "class Game:\n  def score(self) -> int:\n    return sum(self.rolls)\n"

    merged = _merge("src/game.py", before, snippet)

    assert merged == before.replace("        return 0", "      return sum(self.rolls)")


def test_a_new_method_is_added_to_the_end_of_its_class() -> None:
    before = "class Game:\n    def roll(self) -> None:\n        pass\n\n\nX = 1\n"

    merged = _merge("a.py", before, "class Game:\n    def score(self) -> int:\n        return 0\n")

    assert merged == (
        "class Game:\n    def roll(self) -> None:\n        pass\n\n"
        "    def score(self) -> int:\n        return 0\n\n\nX = 1\n"
    )


def test_the_testers_new_test_in_the_test_module_keeps_the_tests_there() -> None:
    snippet = "#[cfg(test)]\nmod tests {\n    #[test]\n    fn strike() {\n        assert!(true);\n"
    snippet += "    }\n}"

    merged = _merge("src/lib.rs", GAME, snippet)

    assert merged == GAME.replace(
        "        assert_eq!(Game::new().score(), 0);\n    }\n}",
        "        assert_eq!(Game::new().score(), 0);\n    }\n\n"
        "    #[test]\n    fn strike() {\n        assert!(true);\n    }\n}",
    )


def test_a_cfg_test_helper_is_not_the_test_module() -> None:
    # measured before the fix: every `#[cfg(test)]` item had one key, so this snippet took the
    # place of `helper` and the file had two `mod tests`
    merged = _merge("src/lib.rs", GAME, "#[cfg(test)]\nfn helper() -> u32 {\n    2\n}")

    assert merged == GAME.replace(
        "fn helper() -> u32 {\n    1\n}", "fn helper() -> u32 {\n    2\n}"
    )


def test_a_replaced_cfg_test_item_and_a_new_item_at_the_same_place_both_land() -> None:
    snippet = "#[cfg(test)]\nfn helper() -> u32 {\n    2\n}\nfn bonus() -> u32 {\n    0\n}"

    merged = _merge("src/lib.rs", GAME, snippet)

    assert merged == GAME.replace(
        "#[cfg(test)]\nfn helper() -> u32 {\n    1\n}",
        "fn bonus() -> u32 {\n    0\n}\n\n#[cfg(test)]\nfn helper() -> u32 {\n    2\n}",
    )


@pytest.mark.parametrize(
    ("path", "before", "snippet"),
    [
        (  # typing overloads: three `def f`
            "a.py",
            "from typing import overload\n\n\n@overload\ndef f(x: int) -> int: ...\n"
            "@overload\ndef f(x: str) -> str: ...\ndef f(x):\n    return x\n",
            "def f(x):\n    return 2 * x\n",
        ),
        (  # the same fn under two cfgs
            "src/lib.rs",
            '#[cfg(feature = "a")]\nfn f() -> u32 {\n    1\n}\n'
            '#[cfg(not(feature = "a"))]\nfn f() -> u32 {\n    2\n}\n',
            "fn f() -> u32 {\n    3\n}",
        ),
        (  # two impl blocks of one type
            "src/lib.rs",
            "impl Game {\n    fn a() {}\n}\n\nimpl Game {\n    fn b() {}\n}\n",
            "impl Game {\n    fn a() -> u32 {\n        1\n    }\n}",
        ),
        ("a.py", "a = 1; b = 2\n", "a = 3\n"),  # two statements on one line
        ("a.py", "a = 1\n", "a = 3; b = 2\n"),
    ],
)
def test_an_item_that_names_more_than_one_place_is_not_merged(
    path: str, before: str, snippet: str
) -> None:
    assert _merge(path, before, snippet) is None


def test_an_inner_attribute_stays_when_the_first_item_is_replaced() -> None:
    before = "#![allow(dead_code)]\n\npub fn score() -> u32 {\n    0\n}\n"

    merged = _merge("src/lib.rs", before, "pub fn score() -> u32 {\n    1\n}")

    assert merged == before.replace("    0", "    1")
    # a snippet's inner attribute is no item, and items are never put inside a function
    assert _merge("src/lib.rs", before, "#![allow(unused)]\nfn x() {}") is None


def test_the_snippets_doc_comment_takes_the_place_of_the_files() -> None:
    before = "/// Old doc.\npub fn score() -> u32 {\n    0\n}\n"

    merged = _merge("src/lib.rs", before, "/// New doc.\npub fn score() -> u32 {\n    1\n}")

    assert merged == "/// New doc.\npub fn score() -> u32 {\n    1\n}\n"
    assert _merge("src/lib.rs", before, "pub fn score() -> u32 {\n    1\n}") == before.replace(
        "    0", "    1"
    )


def test_new_items_keep_the_snippets_order() -> None:
    merged = _merge("src/lib.rs", "fn a() {}\n", "fn x() {}\nfn y() {}")

    assert merged == "fn a() {}\n\nfn x() {}\n\nfn y() {}\n"


def test_generic_impls_and_a_free_fn_are_not_the_impls_method() -> None:
    before = "impl<T> Wrap<T> {\n    fn get() {}\n}\n\nimpl Wrap<u8> {\n    fn get() {}\n}\n"

    merged = _merge("src/lib.rs", before, "fn get() -> u32 {\n    7\n}")

    assert merged == before + "\nfn get() -> u32 {\n    7\n}\n"
    merged = _merge(
        "src/lib.rs", before, "impl Wrap<u8> {\n    fn get() -> u8 {\n        1\n    }\n}"
    )
    assert merged == before.replace(
        "impl Wrap<u8> {\n    fn get() {}",
        "impl Wrap<u8> {\n    fn get() -> u8 {\n        1\n    }",
    )


@pytest.mark.parametrize("separator", ["\u2028", "\x0c", "\x85", "\x1e"])
def test_python_lines_are_counted_as_ast_counts_them(separator: str) -> None:
    # measured before the fix: str.splitlines splits at these too, so the offsets slid and a
    # merge cut a function in half (`return 42` followed by the old `return 0`)
    before = f'A = "x{separator}y"\n\n\ndef keep():\n    return 1\n\n\ndef score():\n    return 0\n'
    snippet = f'def score():\n    s = "a{separator}b"\n    return 42\n'

    merged = _merge("a.py", before, snippet)

    assert merged == before.replace("    return 0", f'    s = "a{separator}b"\n    return 42')


def test_a_crlf_file_keeps_its_lines() -> None:
    assert _merge("a.py", "y = 1\r\nz = 2\r\n", "z = 3\r\n") == "y = 1\r\nz = 3\r\n"
    assert _merge("src/lib.rs", "fn a() {}\r\nfn b() {}\r\n", "fn b() { 1 }\r\n") == (
        "fn a() {}\r\nfn b() { 1 }\r\n"
    )


@pytest.mark.parametrize(
    "snippet",
    [
        "fn f<'a>(x: &'a str) -> char { '{' }",
        'fn f() -> &\'static str { r#"}"# }',
        "fn f() -> u8 { b'}' }",
        'fn f() { let s = "\\"}"; }',
        'fn f() -> &\'static [u8] { br##"}"## }',
        "fn f() { 'outer: loop { break 'outer; } let c = '\\''; }",
        'fn f() -> &\'static str { "é}ü\t}" }',
    ],
)
def test_braces_in_literals_and_lifetimes_do_not_end_an_item(snippet: str) -> None:
    assert (
        _merge("src/lib.rs", "fn f() {}\n\nfn g() {}\n", snippet) == f"{snippet}\n\nfn g() {{}}\n"
    )


@pytest.mark.parametrize(
    "snippet",
    [
        'fn f() { let s = r#"unterminated',
        'fn f() { let s = "unterminated',
        "fn f() { /* unterminated",
        "fn f() " + "{" * 50_000,
        "fn f" + "(" * 50_000,
        "def f(:\n    pass\n",
        "-" * 100_000 + "1",  # ast.parse raises MemoryError on this
    ],
)
def test_input_the_merge_cannot_read_is_not_merged_and_does_not_crash(snippet: str) -> None:
    path = "a.py" if snippet.startswith(("def", "-")) else "src/lib.rs"
    assert _merge(path, "fn f() {}\n" if path.endswith(".rs") else "x = 1\n", snippet) is None


def test_a_python_snippet_ast_cannot_parse_is_an_invalid_answer_not_a_crash() -> None:
    answer = json.dumps({"plan": "p", "edits": [{"path": "a.py", "action": "insert",
                                                  "content": "-" * 100_000 + "1"}]})  # fmt: skip

    with pytest.raises(AnswerInvalid, match="should be 'upsert' or 'delete'"):
        parse_answer(answer, "implementor", read={"a.py": "x = 1\n"}.get)


def test_a_snippet_over_the_file_limit_is_not_read() -> None:
    snippet = "fn f() {\n" + " " * MAX_SNIPPET + "}"
    assert _merge("src/lib.rs", "fn f() {}\n", snippet) is None


def test_blocks_nested_deeper_than_the_merge_reads_are_replaced_whole() -> None:
    deep = "mod a { " * 10 + "fn x() {}" + " }" * 10
    merged = _merge("src/lib.rs", deep + "\n", deep.replace("fn x() {}", "fn x() -> u8 { 1 }"))
    assert merged == deep.replace("fn x() {}", "fn x() -> u8 { 1 }") + "\n"
    nested = "mod a { " * 20_000 + "}" * 20_000  # deep enough to blow Python's recursion limit
    assert _merge("src/lib.rs", nested, nested) == nested + "\n"


# ------------------------------------------------------- the sandbox judges the merged file

MANIFEST = '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n'


@pytest.fixture
def rust_kata(make_repo: MakeRepo) -> Path:
    return make_repo({"Cargo.toml": MANIFEST, "tdd.yaml": "language: rust\n", "src/lib.rs": GAME})


@pytest.fixture
def python_kata(make_repo: MakeRepo) -> Path:
    return make_repo({"pyproject.toml": PYPROJECT, "tdd.yaml": "language: python\n",
                      "src/calc/__init__.py": "", "src/calc/ops.py": OPS})  # fmt: skip


def _land(repo: Path, role: str, path: str, snippet: str) -> list[FileEdit]:
    """The snippet parsed as the drive parses it (the index read through the drive's reader)
    and checked by the sandbox; EditRefused when it is refused."""
    crew = SimpleNamespace(root=repo, workspace=GitWorkspace())
    merged: list[str] = []
    answer = json.dumps({"plan": "p", "edits": [{"path": path, "action": "insert",
                                                  "content": snippet}]})  # fmt: skip
    parsed = parse_answer(answer, role, read=_reader(crew), merged=merged)  # type: ignore[arg-type]
    assert merged == [path]
    check_edits(repo, parsed.edits, path_policy(role, load_settings(repo)))
    return list(parsed.edits)


def _refused(repo: Path, role: str, path: str, snippet: str, reason: str) -> None:
    before = (repo / path).read_bytes() if (repo / path).exists() else None
    with pytest.raises(EditRefused) as caught:
        _land(repo, role, path, snippet)
    assert reason in caught.value.message
    assert "nothing was written" in caught.value.message
    assert ((repo / path).read_bytes() if (repo / path).exists() else None) == before


def test_an_implementor_snippet_changing_a_test_in_the_test_module_is_refused(
    rust_kata: Path,
) -> None:
    snippet = "#[cfg(test)]\nmod tests {\n    #[test]\n    fn gutter() {\n        assert!(true);\n"
    snippet += "    }\n}"
    _refused(rust_kata, "implementor", "src/lib.rs", snippet, "it changes the tests in src/lib.rs")


def test_an_implementor_snippet_adding_a_test_to_the_test_module_is_refused(
    rust_kata: Path,
) -> None:
    snippet = "#[cfg(test)]\nmod tests {\n    #[test]\n    fn strike() {}\n}"
    _refused(rust_kata, "implementor", "src/lib.rs", snippet, "it changes the tests in src/lib.rs")


def test_an_implementor_snippet_of_the_method_lands_with_every_other_method(
    rust_kata: Path,
) -> None:
    (edit,) = _land(rust_kata, "implementor", "src/lib.rs", SCORE)
    assert edit.content is not None
    assert "pub fn new()" in edit.content
    assert "pub fn roll(" in edit.content
    assert "self.rolls.iter().sum()" in edit.content


def test_a_tester_snippet_changing_code_beside_the_tests_is_refused(rust_kata: Path) -> None:
    _refused(rust_kata, "tester", "src/lib.rs", "fn helper2() -> u32 {\n    2\n}",
             "it changes code in src/lib.rs")  # fmt: skip


def test_an_implementor_replacing_a_python_test_function_by_name_is_refused(
    python_kata: Path,
) -> None:
    snippet = "def test_sub() -> None:\n    assert True\n"
    _refused(python_kata, "implementor", "src/calc/ops.py", snippet, "it changes the tests in")


def test_an_implementor_snippet_of_the_code_beside_python_tests_lands(python_kata: Path) -> None:
    (edit,) = _land(python_kata, "implementor", "src/calc/ops.py",
                    "def sub(a: int, b: int) -> int:\n    return -(b - a)\n")  # fmt: skip
    assert edit.content == OPS.replace("a - b", "-(b - a)")


def test_an_out_of_line_module_made_inline_by_a_merge_is_not_merged(make_repo: MakeRepo) -> None:
    # `#[cfg(test)] mod tests;` made inline would drop src/tests.rs (and `mod a;` a.rs with the
    # unit tests in it) from the build: not merged, the answer goes back as invalid
    lib = "pub fn add() -> u32 {\n    1\n}\n\n#[cfg(test)]\nmod tests;\n"
    tests = "use super::*;\n\n#[test]\nfn one() {\n    add();\n}\n"
    repo = make_repo({"Cargo.toml": MANIFEST, "tdd.yaml": "language: rust\n", "src/lib.rs": lib,
                      "src/tests.rs": tests})  # fmt: skip
    snippet = "#[cfg(test)]\nmod tests {\n    #[test]\n    fn one() {}\n}"

    with pytest.raises(AnswerInvalid, match="should be 'upsert' or 'delete'"):
        _land(repo, "implementor", "src/lib.rs", snippet)
    assert (repo / "src" / "lib.rs").read_text(encoding="utf-8") == lib
    assert _merge("src/lib.rs", "mod a;\n", "mod a {\n    pub fn x() {}\n}") is None
    assert _merge("src/lib.rs", "mod a {\n    fn y() {}\n}\n", "mod a;") is None


def test_a_new_use_goes_after_the_inner_attributes_and_the_docstring() -> None:
    # measured before the fix: at the very top, before `//!` and `#![…]` (a compile error) or
    # before the module docstring (which then is no docstring)
    rust = "//! The kata.\n#![allow(dead_code)]\n\npub fn a() {}\n"
    assert _merge("src/lib.rs", rust, "use std::fmt;") == rust.replace(
        "\n\npub fn", "\n\nuse std::fmt;\n\npub fn"
    )
    python = '"""The kata."""\n\n\ndef a():\n    pass\n'
    assert _merge("a.py", python, "import os") == python.replace("def a", "import os\n\ndef a")
    tests = "#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {}\n}\n"
    assert _merge("src/lib.rs", tests, "#[cfg(test)]\nmod tests {\n    use super::*;\n}") == (
        tests.replace("    #[test]", "    use super::*;\n\n    #[test]")
    )


# ------------------------------------------------------------------ what the reader reads


def test_the_reader_reads_only_the_indexs_own_files(make_repo: MakeRepo, tmp_path: Path) -> None:
    repo = make_repo({"src/lib.rs": "pub fn a() {}\n", "src/kata/__init__.py": "X = 1\n"})
    os.symlink("/etc/passwd", repo / "src" / "link.rs")
    os.symlink("__init__.py", repo / "src" / "kata" / "alias.py")
    from support.repo import git

    git(repo, "add", "-A")
    read = _reader(SimpleNamespace(root=repo, workspace=GitWorkspace()))  # type: ignore[arg-type]

    assert read("src/link.rs") == "/etc/passwd"  # a symlink's blob is its target, never the file
    for path in ["src", "src/", ".git/config", ".git/HEAD", "src/lib.rs\0x", "/etc/passwd",
                 "../repo/src/lib.rs", "src//../src/lib.rs", "src/kata"]:  # fmt: skip
        assert read(path) is None, path
    # the target's text is no item: a snippet to the symlink is not merged
    assert merge_snippet("src/link.rs", "/etc/passwd", "fn a() {}") is None


def test_a_snippet_through_a_python_symlink_in_the_index_is_refused(make_repo: MakeRepo) -> None:
    repo = make_repo({"tdd.yaml": "language: python\n", "pyproject.toml": PYPROJECT,
                      "src/calc/__init__.py": "X = 1\n"})  # fmt: skip
    os.symlink("__init__.py", repo / "src" / "calc" / "alias.py")
    from support.repo import git

    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "chore: alias")

    # the symlink's blob `__init__.py` parses as Python, so the merge happens; the path rules
    # then see the symlink
    _refused(repo, "implementor", "src/calc/alias.py", "def f() -> int:\n    return 1\n",
             "it goes through the symlink 'src/calc/alias.py'")  # fmt: skip
    assert os.readlink(repo / "src" / "calc" / "alias.py") == "__init__.py"


def test_a_stage_number_path_reads_the_index_but_the_edit_is_refused(rust_kata: Path) -> None:
    # `git show :0:src/lib.rs` is the index's src/lib.rs; the merged edit names another path,
    # which the path rules refuse
    _refused(rust_kata, "implementor", "0:src/lib.rs", SCORE, "the implementor may only write")
    assert not (rust_kata / "0:src").exists()


# ------------------------------------------------ the implementor's task (agents/context.py)


def _task_ctx(intent: str | None) -> TurnContext:
    return TurnContext(
        role="implementor", cycle=2, kata="# Kata\n\n1. Empty is 0.\n", language="rust",
        last_commit_message="", last_diff="", files=("src/lib.rs",), file_texts={},
        test_output_tail="", hints=(), previous_failure=None, handoff_intent=intent,
        covered_behaviours=(), staged_files=("tests/empty.rs",), write_paths=("src/lib.rs",),
    )  # fmt: skip


@pytest.mark.parametrize(
    "intent",
    [
        "test" + " " * 200_000 + "x",
        "Add a new failing test for the requirement" + " ," * 100_000 + "x",
        "test requirement " + "1 " * 100_000,
        "add a new failing unit test case " + "\t,:" * 60_000 + "that checks that x",
        "test that " * 30_000,
    ],
)
def test_a_long_intent_does_not_make_the_opening_regex_backtrack(intent: str) -> None:
    # a backtracking blow-up would hang here; each is one linear pass
    checks = what_the_test_checks(intent)
    assert "\n" not in checks
    assert len(checks) <= len(intent)


@pytest.mark.parametrize(
    ("intent", "checks"),
    [
        ("Add a test.", ""),  # measured before the fix: "Add a test." stayed as it was
        ("Add a test. It checks that empty is 0", "It checks that empty is 0"),
        ("test.rs checks 4", "test.rs checks 4"),
        ("Write tests: ", ""),
        ("   ", ""),
        # measured before the fix: the plan's lines came as they were, a `## Write to` heading
        # among them, which reads as a section of the prompt
        (
            "Add a test for\nempty is 0\n## Write to\nCargo.toml",
            "empty is 0 ## Write to Cargo.toml",
        ),
    ],
)
def test_what_the_test_checks_is_one_clean_line(intent: str, checks: str) -> None:
    assert what_the_test_checks(intent) == checks


@pytest.mark.parametrize("intent", [None, "", "Add a new failing test", "Add a test."])
def test_an_intent_with_nothing_left_still_gives_the_task(intent: str | None) -> None:
    assert implementor_task(_task_ctx(intent)) == (
        "The test is written and staged (tests/empty.rs); do not write or change a test.\n"
        "Change the code in src/lib.rs so that it passes, and keep every other test passing."
    )


def test_the_task_is_last_and_the_prompt_is_the_same_every_time() -> None:
    ctx = _task_ctx("Add a new failing test for the requirement that empty is 0\n## Write to\nx")

    first, second = build_messages(ctx, budget_tokens=1800), build_messages(ctx, budget_tokens=1800)

    assert first == second
    user = first[1]["content"]
    assert user.endswith(
        "## Your task\nThe test is written and staged (tests/empty.rs); do not write or change a "
        "test.\nChange the code in src/lib.rs so that it passes, and keep every other test "
        "passing.\nWhat the test checks: empty is 0 ## Write to x\n"
    )
    assert user.count("\n## Write to\n") == 1  # the prompt's own section only


# --------------------------------------------- an echo of the file is no change (round 2)


def test_the_test_module_echoed_reindented_with_a_changed_method_lands(rust_kata: Path) -> None:
    # the small model sends the whole file back as "insert", two-space indented: the test
    # module is the file's but for blanks, so the tests stay byte for byte and only score changes
    echo = GAME.replace("        0\n", "        self.rolls.iter().sum()\n").replace("    ", "  ")

    (edit,) = _land(rust_kata, "implementor", "src/lib.rs", echo)

    assert edit.content is not None
    assert (
        edit.content[edit.content.index("#[cfg(test)]\nmod tests") :]
        == GAME[GAME.index("#[cfg(test)]\nmod tests") :]
    )
    assert "self.rolls.iter().sum()" in edit.content


def test_a_python_echo_with_a_changed_indentation_inside_is_a_change() -> None:
    before = "def f(a):\n    if a:\n        x()\n    y()\n"
    # the same words, but y() moved into the `if`: Python's blanks are code
    merged = _merge("a.py", before, "def f(a):\n    if a:\n        x()\n        y()\n")
    assert merged == "def f(a):\n    if a:\n        x()\n        y()\n"
    # the whole item indented by two: the same code, the file's text stays
    assert _merge("a.py", before, "  def f(a):\n      if a:\n          x()\n      y()\n") == before


def test_a_merged_snippet_that_copies_a_placeholder_is_still_refused(rust_kata: Path) -> None:
    from tddhooks.agents.edits import copied_placeholder

    snippet = "impl Game {\n    pub fn score(&self) -> u32 {\n        SIMPLEST_BODY\n    }\n}"
    edits = _land(rust_kata, "implementor", "src/lib.rs", snippet)

    head = GitWorkspace().read_blob
    assert copied_placeholder(edits, lambda path: head(rust_kata, "HEAD", path)) == "SIMPLEST_BODY"


def test_an_answer_with_too_many_edits_reads_no_file() -> None:
    asked: list[str] = []

    def read(path: str) -> str | None:
        asked.append(path)
        return GAME

    edits = [{"path": f"src/m{n}.rs", "action": "insert", "content": SCORE} for n in range(21)]
    with pytest.raises(AnswerInvalid, match="should be 'upsert' or 'delete'"):
        parse_answer(json.dumps({"plan": "p", "edits": edits}), "implementor", read=read)
    assert asked == []  # measured before the fix: 21 files read and merged, then refused


def test_a_licence_comment_above_the_files_doc_comment_stays() -> None:
    before = "// Copyright 2024 A. Person, MIT.\n/// Old.\npub fn score() -> u32 {\n    0\n}\n"

    merged = _merge("src/lib.rs", before, "/// New.\npub fn score() -> u32 {\n    1\n}")

    assert merged == before.replace("/// Old.", "/// New.").replace("    0", "    1")


def test_the_comment_above_a_one_line_block_is_the_blocks_not_its_first_members() -> None:
    # measured before the fix: the member's "comments" reached up to the impl's, and the merge
    # replaced `/// The game.\nimpl Game {` with the member
    before = "/// The game.\nimpl Game { pub fn score(&self) -> u32 { 0 } }\n"
    snippet = "impl Game {\n    /// Doc.\n    pub fn score(&self) -> u32 { 1 }\n}"

    merged = _merge("src/lib.rs", before, snippet)

    assert merged == (
        "/// The game.\nimpl Game {     /// Doc.\n    pub fn score(&self) -> u32 { 1 } }\n"
    )


@pytest.mark.parametrize("path", ["src/*.rs", "!src", "src/lib.r?", "src", "src/kata"])
def test_a_path_that_names_no_file_reads_nothing_not_a_commit(
    make_repo: MakeRepo, path: str
) -> None:
    # measured before the fix: `git show :src/*.rs` fell back to a pathspec and printed the HEAD
    # commit with its diff (exit 0), `git show HEAD:src` the directory's listing; both were
    # taken for the file's text
    repo = make_repo({"src/lib.rs": "pub fn a() {}\n", "src/kata/__init__.py": "X = 1\n"})
    read = _reader(SimpleNamespace(root=repo, workspace=GitWorkspace()))  # type: ignore[arg-type]

    assert read(path) is None
    assert GitWorkspace().read_blob(repo, "HEAD", path) is None
    assert GitWorkspace().read_blob(repo, "HEAD", "src/lib.rs") == "pub fn a() {}\n"


def test_tabs_and_property_pairs_in_a_class() -> None:
    tabs = "class G:\n\tdef roll(self):\n\t\tpass\n\n\tdef score(self):\n\t\treturn 0\n"
    # the method's first line keeps the file's tab, its body the snippet's relative indentation
    assert _merge("a.py", tabs, "class G:\n    def score(self):\n        return 1\n") == (
        tabs.replace("\t\treturn 0", "\t    return 1")
    )
    pair = (
        "class G:\n    @property\n    def x(self):\n        return 1\n\n"
        "    @x.setter\n    def x(self, v):\n        pass\n"
    )
    # getter and setter are both `def x`: which one is meant is not guessed
    assert (
        _merge("a.py", pair, "class G:\n    @property\n    def x(self):\n        return 2\n")
        is None
    )


def test_an_implementor_snippet_changing_a_cfg_test_helper_is_refused(rust_kata: Path) -> None:
    snippet = "#[cfg(test)]\nfn helper() -> u32 {\n    2\n}"
    _refused(rust_kata, "implementor", "src/lib.rs", snippet, "it changes the tests in src/lib.rs")


def test_a_plain_fn_named_like_a_cfg_test_helper_is_another_item() -> None:
    # `fn helper` is not `#[cfg(test)] fn helper`: added before the test items, the test build
    # has two helpers and fails (the gate says so); the cfg(test) one is not touched
    merged = _merge("src/lib.rs", GAME, "fn helper() -> u32 {\n    3\n}")
    assert merged == GAME.replace(
        "#[cfg(test)]\nfn helper", "fn helper() -> u32 {\n    3\n}\n\n#[cfg(test)]\nfn helper"
    )


# ------------------------------------------- statements at the top of a function (main's merge)

ADD = (
    "pub fn add(text: &str) -> u32 {\n    0\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n"
    '    #[test]\n    fn empty() {\n        assert_eq!(add(""), 0);\n    }\n}\n'
)


@pytest.mark.parametrize(
    "snippet",
    [
        'let s = "unterminated;\nreturn 1;',
        'let s = r#"unterminated;\nreturn 1;',
        "/* unterminated\nreturn 1;",
        'pub fn add(text: &str) -> u32 {\n    let s = "open;\n    1\n}',
    ],
)
def test_a_string_or_comment_the_snippet_leaves_open_is_not_merged(snippet: str) -> None:
    # measured before the fix: the statements went in, and the open string ran on into the
    # test module (`add("")` closed it)
    assert _merge("src/lib.rs", ADD, snippet) is None


@pytest.mark.parametrize(
    "before",
    [
        "#[allow(clippy::needless_return)]\npub fn add(text: &str) -> u32 {\n    0\n}\n\n"
        "pub fn other(n: u32) -> u32 {\n    n\n}\n",
        "pub fn add<F: Fn(u32) -> u32>(f: F, text: &str) -> u32 {\n    0\n}\n\n"
        "pub fn other(n: u32) -> u32 {\n    n\n}\n",
    ],
)
def test_statements_find_their_function_past_attributes_and_generic_bounds(before: str) -> None:
    # measured before the fix: the parameters were read at the first `(`, the attribute's or
    # the bound's, so `add` seemed to have none and the snippet was not merged
    merged = _merge("src/lib.rs", before, "if text.is_empty() {\n    return 0;\n}")
    assert merged == before.replace(
        "u32 {\n    0", "u32 {\n    if text.is_empty() {\n        return 0;\n    }\n\n    0", 1
    )


def test_statements_never_go_into_a_cfg_test_helper_or_the_test_module() -> None:
    helper = ADD.replace(
        "#[cfg(test)]\nmod", "#[cfg(test)]\nfn helper(text: &str) {}\n\n#[cfg(test)]\nmod"
    )
    merged = _merge("src/lib.rs", helper, "if text.is_empty() {\n    return 0;\n}")
    assert merged == helper.replace(
        "u32 {\n    0", "u32 {\n    if text.is_empty() {\n        return 0;\n    }\n\n    0", 1
    )


def test_an_implementor_statement_snippet_lands_only_in_the_code(make_repo: MakeRepo) -> None:
    repo = make_repo({"Cargo.toml": MANIFEST, "tdd.yaml": "language: rust\n", "src/lib.rs": ADD})

    (edit,) = _land(repo, "implementor", "src/lib.rs", "if text.is_empty() {\n    return 0;\n}")

    assert edit.content == ADD.replace("u32 {\n    0", "u32 {\n    if text.is_empty() {\n"
                                       "        return 0;\n    }\n\n    0")  # fmt: skip
    _refused(repo, "tester", "src/lib.rs", "return 1;", "it changes code in src/lib.rs")


def test_an_upsert_ast_cannot_parse_is_judged_not_a_crash() -> None:
    # measured before the fix: the raw-char repair's ast.parse raised MemoryError out of
    # parse_answer (any Python upsert with a quote, a line end and a quote in it)
    content = "-" * 100_000 + "1\nx = '\n'\n"
    answer = json.dumps(
        {"plan": "p", "edits": [{"path": "a.py", "action": "upsert", "content": content}]}
    )

    (edit,) = parse_answer(answer, "implementor", read=lambda _path: None).edits

    assert edit.content == content  # not repaired: it does not parse either way


def test_an_implementor_upsert_ast_cannot_parse_in_a_collected_module_is_refused(
    python_kata: Path,
) -> None:
    # measured before the fix: the item rules' ast.parse raised MemoryError out of check_edits
    content = "-" * 100_000 + "1\n"
    with pytest.raises(EditRefused, match=r"it changes the tests in src/calc/ops\.py"):
        check_edits(python_kata, [FileEdit(path="src/calc/ops.py", content=content)],
                    path_policy("implementor", load_settings(python_kata)))  # fmt: skip
    assert (python_kata / "src" / "calc" / "ops.py").read_text(encoding="utf-8") == OPS


def test_the_test_names_of_a_module_ast_cannot_parse_are_read_by_lines() -> None:
    from tddhooks.runners.python import python_test_names

    text = "-" * 100_000 + "1\n\ndef test_one():\n    pass\n"
    assert python_test_names({"tests/test_x.py": text}) == {"tests/test_x.py::test_one"}


@pytest.mark.parametrize(
    "noise",
    [
        '"' + '\\"' * 100_000,  # a string never closed, full of escaped quotes
        ' r#"' * 50_000,  # raw strings never closed
        ' r##"x"#' * 25_000,  # the closing hashes never match
    ],
)
def test_rust_literals_never_closed_are_blanked_in_one_pass(noise: str) -> None:
    # measured before the fix: 20 kB of `\"` took 1.8 s, 200 kB 198 s (each escaped quote began
    # a new scan to the end), in the item rules of every Rust upsert and in the hooks
    from tddhooks.runners.rust_items import blank

    code = blank("fn a() {}\n" + noise)
    assert code == "fn a() {}\n" + " " * len(noise)
    assert _merge("src/lib.rs", "fn a() {}\n", "fn f() {\n" + noise[:150_000] + "\n}") is None


def test_a_submodule_in_the_index_reads_nothing(make_repo: MakeRepo) -> None:
    from support.repo import git

    repo = make_repo({"src/lib.rs": "pub fn a() {}\n"})
    head = git(repo, "rev-parse", "HEAD").stdout.strip()
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{head},vendored.rs")
    read = _reader(SimpleNamespace(root=repo, workspace=GitWorkspace()))  # type: ignore[arg-type]

    assert git(repo, "ls-files", "-s", "vendored.rs").stdout.startswith("160000")
    assert read("vendored.rs") is None


def test_a_change_of_blanks_inside_a_string_is_a_change() -> None:
    # measured before the fix: the echo check compared words between blanks, so `"  "` was
    # the file's `" "`, and the implementor's fix was silently dropped
    before = 'pub fn sep() -> &\'static str {\n    " "\n}\n'
    assert _merge("src/lib.rs", before, 'pub fn sep() -> &\'static str {\n    "  "\n}') == (
        before.replace('" "', '"  "')
    )
    python = 'def sep():\n    return """a\n\nb"""\n'
    changed = 'def sep():\n    return """a\n\n\nb"""\n'
    assert _merge("a.py", python, changed) == changed
