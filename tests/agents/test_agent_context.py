"""Prompt context: role relevance, the token budget, determinism, nothing volatile."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tddhooks.agents.context import (
    TurnContext,
    build_messages,
    crate_name,
    estimate_tokens,
    public_api,
    scrub,
    trim_head,
    trim_tail,
)
from tddhooks.agents.roles import system_prompt

KATA = (
    "# Römische Zahlen\n\nConvert arabic numbers to roman numerals.\n\n"
    "## Requirements\n- 1 → I\n- 2 → II\n- 4 → IV\n- 9 → IX\n"
)
CARGO = '[package]\nname = "roman-numerals"\nversion = "0.1.0"\nedition = "2021"\n'
LIB = (
    "pub fn to_roman(n: u32) -> String {\n    let secret_body = 1;\n"
    '    "I".repeat(n as usize)\n}\n\nfn helper() {}\n'
)


def _test_file(name: str, value: int, expected: str) -> str:
    return (
        f"use roman_numerals::to_roman;\n\n#[test]\nfn {name}() {{\n"
        f'    assert_eq!(to_roman({value}), "{expected}");\n}}\n'
    )


FILES = {
    "Cargo.toml": CARGO,
    "src/lib.rs": LIB,
    "tests/one.rs": _test_file("one", 1, "I"),
    "tests/four.rs": _test_file("four", 4, "IV"),
}
RED_OUTPUT = (
    "   Compiling roman-numerals v0.1.0 (/tmp/pytest-7/kata)\n"
    "    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.52s\n"
    "     Running tests/four.rs (/tmp/target/debug/deps/four-0123456789abcdef)\n"
    "test four ... FAILED\n"
    "thread 'four' panicked at tests/four.rs:5:5:\n"
    '  left: "IIII"\n right: "IV"\n'
    "test result: FAILED. 0 passed; 1 failed; finished in 0.00s\n"
)


def _ctx(role: str = "implementor", **overrides: object) -> TurnContext:
    values: dict[str, object] = {
        "role": role,
        "cycle": 3,
        "kata": KATA,
        "language": "rust",
        "last_commit_message": "feat(roman): two is II\n\nContext:\n- Role: Implementor\n",
        "last_diff": (
            "diff --git a/src/lib.rs b/src/lib.rs\nindex 1234567..89abcde 100644\n"
            "--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -1 +1 @@\n-old\n+new\n"
        ),
        "files": tuple(sorted(FILES)),
        "file_texts": dict(FILES),
        "test_output_tail": RED_OUTPUT,
        "hints": ("Stay minimal: implement only what the staged test demands.",),
        "previous_failure": None,
        "handoff_intent": "four is IV: the first subtractive numeral",
        "covered_behaviours": ("tests/one.rs::one", "tests/two.rs::two"),
        "staged_files": ("tests/four.rs",),
    }
    values.update(overrides)
    return TurnContext(**values)  # type: ignore[arg-type]


def _user(ctx: TurnContext, budget: int = 1800) -> str:
    messages = build_messages(ctx, budget_tokens=budget)
    assert [message["role"] for message in messages] == ["system", "user"]
    assert messages[0]["content"] == system_prompt(ctx.role)
    return messages[1]["content"]


# ---------------------------------------------------------------- small pure helpers


@pytest.mark.parametrize(
    ("text", "tokens"),
    [("", 0), ("abcd", 1), ("abcde", 2), ("ü", 1), ("üüü", 2), ("数字", 2), ("x" * 400, 100)],
)
def test_estimate_tokens(text: str, tokens: int) -> None:
    assert estimate_tokens(text) == tokens


@pytest.mark.parametrize(
    ("manifest", "name"),
    [
        (CARGO, "roman_numerals"),
        ('[package]\nname = "bowling"\n', "bowling"),
        ("[workspace]\nmembers = []\n", None),
        ("not = [toml", None),
        ('[package]\nname = ""\n', None),
        # red team: tests import the library by its `[lib] name`; the repair of the tester's
        # imports (drive/testimports.py) rewrote a right `use kata::f;` to the package's name
        ('[package]\nname = "rover-kata"\n\n[lib]\nname = "kata"\n', "kata"),
        ('[package]\nname = "rover-kata"\n\n[lib]\npath = "src/lib.rs"\n', "rover_kata"),
    ],
)
def test_crate_name(manifest: str, name: str | None) -> None:
    assert crate_name(manifest) == name


@pytest.mark.parametrize(
    ("text", "language", "api"),
    [
        (LIB, "rust", "pub fn to_roman(n: u32) -> String {…}"),
        (
            "pub struct Frame {\n    pins: u8,\n}\nimpl Frame {\n    pub fn new() -> Self {\n"
            "        Frame { pins: 0 }\n    }\n    fn hidden(&self) {}\n}\n"
            "pub(crate) const MAX: u8 = 10;\npub use inner::Zähler;\n",
            "rust",
            "pub struct Frame {…}\nimpl Frame\n    pub fn new() -> Self {…}\n"
            "pub(crate) const MAX: u8 = 10;\npub use inner::Zähler;",
        ),
        ("fn private() {}\n", "rust", "(no public items yet)"),
        (
            "class Game:\n    def roll(self, pins: int) -> None:\n        pass\n"
            "    def _frame(self):\n        pass\ndef score(game: Game) -> int:\n    return 0\n"
            "async def fetch() -> None:\n    pass\n",
            "python",
            "class Game: ...\n    def roll(self, pins: int) -> None: ...\n"
            "def score(game: Game) -> int: ...\nasync def fetch() -> None: ...",
        ),
        ("anything at all\n", "haskell", "anything at all\n"),
    ],
)
def test_public_api(text: str, language: str, api: str) -> None:
    assert public_api(text, language) == api


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("finished in 0.52s", "finished in <time>"),
        ("1 passed in 12ms", "1 passed in <time>"),
        ("\x1b[31merror\x1b[0m: boom", "error: boom"),
        ("   Compiling kata v0.1.0 (/tmp/x)\nerror[E0425]: x", "error[E0425]: x"),
        ("Running tests/a.rs (/tmp/t/debug/deps/a-0123456789abcdef)", "Running tests/a.rs (…/a)"),
        ("rootdir: /home/Jörg/katas/roman", "rootdir: …/roman"),
        ("--- /dev/null\n+++ b/tests/a.rs", "--- /dev/null\n+++ b/tests/a.rs"),
        ("see https://example.com/a/b and a/b/c.rs", "see https://example.com/a/b and a/b/c.rs"),
        ("x = 10 / 2", "x = 10 / 2"),
        # the order of these two depends on which build finished first
        ("error[E0308]: x\nerror: could not compile `run-1` (lib test) due to 1 previous error\n"
         "error: could not compile `run-1` (lib) due to 1 previous error", "error[E0308]: x"),
        ("warning: build failed, waiting for other jobs to finish...\nerror: y", "error: y"),
    ],
)  # fmt: skip
def test_scrub_removes_volatile_data(text: str, expected: str) -> None:
    assert scrub(text) == expected


def test_scrub_makes_work_dir_paths_relative() -> None:
    text = 'File "/srv/kata-ü/src/roman.py", line 3'
    assert scrub(text, "/srv/kata-ü") == 'File "src/roman.py", line 3'


TEN_LINES = "\n".join(f"line {i} ✓" for i in range(10))


@pytest.mark.parametrize(
    ("trim", "tokens", "expected"),
    [
        (trim_head, 100, TEN_LINES),
        (trim_head, 12, "line 0 ✓\nline 1 ✓\n… (8 more lines)"),
        (trim_tail, 12, "(8 earlier lines) …\nline 8 ✓\nline 9 ✓"),
        (trim_head, 14, "line 0 ✓\nline 1 ✓\nline 2 ✓\n… (7 more lines)"),
        (trim_head, 3, "line 0 …"),
        (trim_tail, 3, "line 9 …"),
        (trim_head, 0, ""),
    ],
)
def test_trim(trim: object, tokens: int, expected: str) -> None:
    result = trim(TEN_LINES, tokens)  # type: ignore[operator]
    assert result == expected
    assert estimate_tokens(result) <= max(tokens, 0)


# ---------------------------------------------------------------- sections and relevance


def test_implementor_sees_the_staged_test_first_then_source() -> None:
    user = _user(_ctx("implementor"))
    assert (
        user.index("### tests/four.rs")
        < user.index("### src/lib.rs")
        < user.index("### tests/one.rs")
    )
    assert "secret_body" in user  # the implementor reads the full source
    # its task in its own words, last: the tester's plan is not its plan
    assert user.rstrip().endswith("What the test checks: four is IV: the first subtractive numeral")
    assert "## Handoff intent" not in user
    assert "## Covered tests" not in user
    assert "- Stay minimal" in user
    assert "Crate: `roman_numerals`" in user


def test_tester_sees_tests_and_only_the_public_api() -> None:
    user = _user(_ctx("tester", staged_files=(), handoff_intent=None, hints=()))
    assert "### src/lib.rs (public API)\n```rust\npub fn to_roman(n: u32) -> String {…}" in user
    assert "secret_body" not in user
    assert "fn helper" not in user
    assert "### tests/one.rs" in user
    assert "## Covered tests\none, two" in user
    assert "## Handoff intent" not in user
    assert "use roman_numerals::" in user


def test_refactorer_sees_source_before_tests() -> None:
    user = _user(_ctx("refactorer", handoff_intent="ignored for the refactorer"))
    assert user.index("### src/lib.rs") < user.index("### tests/")
    assert "secret_body" in user
    assert "## Handoff intent" not in user
    assert "## Covered tests" not in user


def test_sections_come_in_a_fixed_order_and_empty_ones_are_left_out() -> None:
    expects = ('The test calls `to_roman(4)` and expects `"IV"`.',)
    user = _user(
        _ctx("implementor", previous_failure="clippy: unused variable `x`", expectations=expects)
    )
    titles = [line[3:] for line in user.splitlines() if line.startswith("## ")]
    # no last commit or diff for the implementor: the staged test, its failure and the code are
    # its task (a small model copied the last commit's "add a test" into its plan)
    assert titles == [
        "Kata", "Cycle", "Files", "Relevant files",
        "Test output", "What the staged test expects", "Supervisor hints",
        "Previous attempt failed because", "Your task",
    ]  # fmt: skip
    refactorer = _user(_ctx("refactorer"))
    assert [line[3:] for line in refactorer.splitlines() if line.startswith("## ")][2:4] == [
        "Last commit message", "Last diff",
    ]  # fmt: skip
    bare = _user(_ctx("refactorer", last_commit_message="", last_diff="", hints=()))
    assert "## Last commit message" not in bare
    assert "## Supervisor hints" not in bare


def test_an_implementor_offered_its_files_sees_the_staged_test_and_the_code_only() -> None:
    offered = _user(_ctx("implementor", write_paths=("src/lib.rs",)))
    assert "### tests/four.rs" in offered  # the staged test
    assert "### src/lib.rs" in offered
    assert "### tests/one.rs" not in offered
    assert "### Cargo.toml" not in offered
    assert "- src/lib.rs\n" in offered
    assert "### tests/one.rs" in _user(_ctx("implementor"))  # without an offer, as before


def test_explicit_crate_name_wins_and_no_manifest_means_no_crate_line() -> None:
    assert "Crate: `zahlen`" in _user(_ctx(crate_name="zahlen"))
    texts = {path: text for path, text in FILES.items() if path != "Cargo.toml"}
    assert "Crate:" not in _user(_ctx(file_texts=texts))


def test_test_output_and_failures_are_scrubbed_and_diff_index_lines_dropped() -> None:
    user = _user(_ctx(previous_failure="boom at /tmp/pytest-7/kata/src/lib.rs:3"))
    assert "/tmp/" not in user
    assert "0.52s" not in user
    assert "Compiling" not in user
    assert "index 1234567" not in user
    assert "…/lib.rs:3" in user


# ---------------------------------------------------------------- budget and determinism


@pytest.mark.parametrize("role", ["tester", "implementor", "refactorer"])
def test_same_inputs_give_byte_identical_messages(role: str) -> None:
    first = build_messages(_ctx(role), budget_tokens=1800)
    second = build_messages(_ctx(role, file_texts=dict(FILES)), budget_tokens=1800)
    assert first == second


def test_volatile_tool_output_does_not_change_the_prompt() -> None:
    other_run = RED_OUTPUT.replace("0.52s", "3.07s").replace("/tmp/pytest-7", "/var/elsewhere")
    other_run = other_run.replace("0123456789abcdef", "fedcba9876543210")
    assert build_messages(_ctx(), budget_tokens=1800) == build_messages(
        _ctx(test_output_tail=other_run), budget_tokens=1800
    )


def _grown_kata(tests: int) -> TurnContext:
    """A kata after `tests` cycles: one test file per behaviour and a long history."""
    files = {"Cargo.toml": CARGO, "src/lib.rs": LIB * 3}
    for index in range(tests):
        files[f"tests/behaviour_{index:02}.rs"] = _test_file(f"behaviour_{index:02}", index, "X")
    history = "\n".join(f"+ line {i} of a long change — ü" for i in range(40 * tests))
    return _ctx(
        "tester",
        files=tuple(sorted(files)),
        file_texts=files,
        last_diff=history,
        last_commit_message="feat: x\n\n" + "Rationale:\n- because\n" * tests,
        test_output_tail="\n".join(f"test behaviour_{i:02} ... ok" for i in range(tests)),
        covered_behaviours=tuple(
            f"tests/behaviour_{i:02}.rs::behaviour_{i:02}" for i in range(tests)
        ),
        hints=tuple(f"hint {i}" for i in range(tests)),
        previous_failure="error: " + "boom " * 50 * tests,
        kata=KATA * tests,
    )


@pytest.mark.parametrize("role", ["tester", "implementor", "refactorer"])
@pytest.mark.parametrize("budget", [200, 600, 1800, 4000])
def test_user_message_stays_within_the_budget(role: str, budget: int) -> None:
    ctx = dataclasses.replace(_grown_kata(30), role=role, staged_files=("tests/behaviour_29.rs",))
    assert estimate_tokens(_user(ctx, budget)) <= budget


def test_prompt_is_bounded_as_history_grows() -> None:
    system = estimate_tokens(system_prompt("tester"))
    sizes = [estimate_tokens(_user(_grown_kata(tests))) for tests in (1, 5, 30, 60)]
    assert all(size <= 1800 for size in sizes)
    # a small kata's whole turn (system + user) is around 2k tokens
    assert system + max(sizes) <= 2200
    assert sizes[2] == sizes[3] or abs(sizes[2] - sizes[3]) < 150


def test_big_history_still_shows_kata_hints_and_failure() -> None:
    user = _user(dataclasses.replace(_grown_kata(30), role="implementor"))
    assert user.startswith("## Kata\n### Römische Zahlen\n")
    assert "Convert arabic numbers to roman numerals." in user
    assert "Requirements" not in user  # the staged test is the implementor's specification
    tester = _user(_grown_kata(30))
    assert "\n#### Requirements\n" in tester  # kata headings sit below our sections
    assert "- hint 0" in user
    assert "## Previous attempt failed because\nerror: boom" in user
    assert "more lines)" in user or "…" in user


def test_a_writable_file_is_never_shown_truncated() -> None:
    huge = "pub fn big() {}\n" + "// filler ✓\n" * 2000
    user = _user(_ctx("implementor", file_texts={**FILES, "src/lib.rs": huge}))
    assert "### src/lib.rs" not in user
    assert "not shown, over the context budget: src/lib.rs" in user


def test_a_read_only_file_that_does_not_fit_is_shown_truncated() -> None:
    huge_test = _test_file("four", 4, "IV") + "// filler\n" * 2000
    user = _user(_ctx("implementor", file_texts={**FILES, "tests/four.rs": huge_test}))
    assert "### tests/four.rs (truncated)" in user
    assert "use roman_numerals::to_roman;" in user


_PRINT_MESSAGES = """
import json, sys
sys.path[:0] = [sys.argv[1], sys.argv[2]]
from test_agent_context import _grown_kata
from tddhooks.agents.context import build_messages
print(json.dumps(build_messages(_grown_kata(12), budget_tokens=900)))
"""


def test_messages_are_identical_across_processes() -> None:
    here = Path(__file__).parent
    outputs = {
        subprocess.run(
            [sys.executable, "-c", _PRINT_MESSAGES, str(here), str(here.parent)],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2")
    }
    assert len(outputs) == 1
    assert json.loads(outputs.pop()) == build_messages(_grown_kata(12), budget_tokens=900)


def test_the_implementor_sees_the_first_error_lines_not_only_the_tail() -> None:
    compiler = "error[E0425]: cannot find function `to_roman` in crate `roman`\n" + "\n".join(
        f"note: line {index} of a long explanation" for index in range(200)
    )
    user = _user(_ctx("implementor", test_output_tail=compiler), budget=1200)
    assert "error[E0425]: cannot find function `to_roman` in crate `roman`" in user
    tester = _user(_ctx("tester", test_output_tail=compiler), budget=1200)
    assert "error[E0425]" not in tester  # others see the end of the output


# ---------------------------------------------------------------- the tester's next requirement


SUMS = (
    "# Sums\n\n## Requirements\n\n1. An empty string sums to 0.\n"
    '2. One number is its own sum: "7" gives 7.\n   Leading spaces are allowed.\n'
    '3. Two numbers separated by a comma are added: "3,4" gives 7.\n'
)


@pytest.mark.parametrize(
    ("covered", "expected"),
    [
        ((), "Requirement 1 of 3: An empty string sums to 0."),
        (  # a test named after requirement 1 covers it: the next is 2, quoted with its examples
            ("tests/empty.rs::empty_string_is_zero",),
            'Requirement 2 of 3: One number is its own sum: "7" gives 7. Leading spaces are '
            "allowed.",
        ),
        (  # an oddly named test takes the earliest open requirement
            ("tests/a.rs::first",),
            'Requirement 2 of 3: One number is its own sum: "7" gives 7.',
        ),
        (  # named tests cover theirs, whatever the order they came in
            ("tests/c.rs::comma_separated_are_added", "tests/a.rs::empty_string_is_zero"),
            'Requirement 2 of 3: One number is its own sum: "7" gives 7.',
        ),
        (("tests/c.rs::comma_separated_are_added", "tests/x.rs::x"), "Requirement 2 of 3"),
    ],
)
def test_the_tester_is_pointed_at_the_first_requirement_without_a_test(
    covered: tuple[str, ...], expected: str
) -> None:
    user = _user(_ctx("tester", kata=SUMS, covered_behaviours=covered))
    assert f"## Next requirement\n{expected}" in user


def test_with_every_requirement_covered_the_tester_checks_and_finishes() -> None:
    user = _user(_ctx("tester", covered_behaviours=("a", "b", "c", "d")))  # KATA lists four
    assert "Every one of the 4 requirements seems to have a test" in user
    assert "answer done" in user


@pytest.mark.parametrize("role", ["implementor", "refactorer"])
def test_only_the_tester_sees_a_next_requirement(role: str) -> None:
    assert "Next requirement" not in _user(_ctx(role, cycle=1))


def test_a_kata_without_numbered_requirements_gets_no_next_requirement() -> None:
    user = _user(_ctx("tester", cycle=1, kata="# Free kata\n\nDo something useful.\n"))
    assert "Next requirement" not in user


STRING_KATA = (
    "# K\n\n## Requirements\n\n1. An empty string sums to 0.\n"
    '2. One number is itself: "7" gives 7.\n3. Two numbers are added: "3,4" gives 7.\n'
)


def test_a_test_that_passed_at_once_marks_what_its_name_is_about_else_the_focus() -> None:
    from tddhooks.agents.context import focus_index, requirement_in_focus, tests_requirements

    covered = ["empty_string_sums_to_0"]
    assert requirement_in_focus(STRING_KATA, covered) == 'One number is itself: "7" gives 7.'
    focus = focus_index(STRING_KATA, covered)
    assert focus == 1
    # named after requirement 3: that one works; named after nothing: the focus (2) works
    assert tests_requirements(STRING_KATA, ["t.rs::two_numbers_are_added"], focus) == {2}
    assert tests_requirements(STRING_KATA, ["t.rs::it_works"], focus) == {1}
    # a copy of a covered test says nothing new
    assert tests_requirements(STRING_KATA, ["t.rs::empty_string_sums_to_0"], focus) == {0}
    assert requirement_in_focus(STRING_KATA, covered, (1,)) == (
        'Two numbers are added: "3,4" gives 7.'
    )
    assert requirement_in_focus(STRING_KATA, covered, (1, 2)) == ""


def test_a_tester_offered_a_new_file_sees_covered_names_not_the_old_tests_code() -> None:
    offered = _user(_ctx("tester", write_paths=("tests/five.rs",)))
    assert "- tests/five.rs (new file; name its test `five`)" in offered
    assert "### tests/one.rs" not in offered
    assert "## Covered tests\none, two" in offered
    assert "## Last commit message" not in offered
    assert "## Last diff" not in offered
    # without an offer (e.g. a kata of unit tests beside the code) the tests are shown as before
    assert "### tests/one.rs" in _user(_ctx("tester"))


def test_a_put_off_requirement_comes_after_the_others_and_then_back() -> None:
    from tddhooks.agents.context import BACK_TO_IT, focus_index, next_requirement

    covered = ["empty_string_sums_to_0"]
    assert focus_index(STRING_KATA, covered, put_off=(1,)) == 2
    shown = next_requirement(STRING_KATA, covered, (), (1,))
    assert shown.startswith("Requirement 3 of 3: 2. Two numbers are added") or shown.startswith(
        "Requirement 3 of 3:"
    )
    assert "(Put off for now: requirement 2; the implementor could not make its test pass.)" in (
        shown
    )
    assert BACK_TO_IT not in shown
    # every other one done: back to the put-off one, one example at a time
    assert focus_index(STRING_KATA, [*covered, "two_numbers_are_added"], put_off=(1,)) == 1
    back = next_requirement(STRING_KATA, [*covered, "two_numbers_are_added"], (), (1,))
    assert back.startswith("Requirement 2 of 3:")
    assert back.endswith(f"\n({BACK_TO_IT})")
    assert "Put off for now" not in back
    assert focus_index(STRING_KATA, covered, working=(2,), put_off=(1,)) == 1


def test_tests_that_match_no_requirement_cover_the_open_ones_before_the_put_off_ones() -> None:
    """Measured (r65, FizzBuzz at 66828da): `multiple_3_said`, `_5_`, `_7_` match no requirement
    (numbers under three digits are no keywords); with requirements 1 and 6 put off and 4 and 7
    working, they were counted from requirement 1, and the tester was pointed at requirement 5,
    which `multiple_7_said` tests: it rewrote that file in ten attempts of ten."""
    from tddhooks.agents.context import BACK_TO_IT, focus_index, next_requirement
    from tddhooks.resources import read_template

    kata = read_template("katas/fizzbuzz.md")
    covered = ["multiple_3_said", "multiple_5_said", "multiple_7_said"]
    assert focus_index(kata, covered, working=(3, 6), put_off=(0, 5)) == 0
    shown = next_requirement(kata, covered, (3, 6), (0, 5), "rust")
    assert shown.startswith("Requirement 1 of 7: A number that is a multiple of neither")
    assert BACK_TO_IT in shown
    # that one has a test now: the other put-off one
    assert focus_index(kata, [*covered, "one_is_said_as_itself"], (3, 6), (0, 5)) == 5
    # every one taken: none
    assert focus_index(kata, [*covered, "a", "b"], (3, 6), (0, 5)) is None


@pytest.mark.parametrize(
    ("intent", "checks"),
    [
        (
            "Add a new failing test for the requirement that a spare earns the next roll: 5, 5, 3"
            " score 16.",
            "a spare earns the next roll: 5, 5, 3 score 16.",
        ),
        ("Write a test to cover the requirement of scoring twenty ones.", "scoring twenty ones."),
        ("Add a new test for requirement 6, which checks the first line", "the first line"),
        ("Add a failing unit test: empty is 0", "empty is 0"),
        # no "add a test" opening: the intent as it is
        ("four is IV: the first subtractive numeral", "four is IV: the first subtractive numeral"),
        ("testing the parser", "testing the parser"),
        ("tests/x.rs checks 4", "tests/x.rs checks 4"),
        ('test that add("") is 0', 'add("") is 0'),
        ("Add a test", ""),
    ],
)
def test_the_implementors_task_says_what_the_test_checks_not_add_a_test(
    intent: str, checks: str
) -> None:
    from tddhooks.agents.context import what_the_test_checks

    assert what_the_test_checks(intent) == checks
    user = _user(_ctx("implementor", handoff_intent=intent, write_paths=("src/lib.rs",)))
    task = user[user.index("## Your task\n") :]
    assert "do not write or change a test" in task
    assert "Change the code in src/lib.rs so that it passes" in task
    assert ("What the test checks:" in task) == bool(checks)
    assert intent not in task or intent == checks


@pytest.mark.parametrize(
    ("language", "shape"),
    [
        ("rust", "`#[test] #[should_panic] fn NAME() { say(0); }`"),
        ("python", "`with pytest.raises(ValueError):` around the call with 0"),
    ],
)
def test_a_refused_example_shows_the_tester_how_the_language_tests_a_refusal(
    language: str, shape: str
) -> None:
    """r62 (FizzBuzz, db26772): `assert_panics!(say(0))` in ten tester attempts of ten."""
    from tddhooks.resources import read_template

    kata = read_template("katas/fizzbuzz.md")
    done = (0, 1, 2, 3, 4, 5)  # every requirement before "zero is refused" put off
    ctx = _ctx("tester", cycle=1, kata=kata, language=language, put_off=done, covered_behaviours=())
    user = _user(ctx, 4000)
    assert "Requirement 7 of 7: Zero is refused" in user
    assert shape in user
    first = _user(dataclasses.replace(ctx, put_off=()), 4000)
    assert "Requirement 1 of 7" in first
    assert "A refusal is tested" not in first  # a value to compare: no such line
    # check `refusal-shape` (small-model, docs/checks.md): only when the drive has it in effect
    assert shape in _user(dataclasses.replace(ctx, checks=frozenset({"refusal-shape"})), 4000)
    off = _user(dataclasses.replace(ctx, checks=frozenset()), 4000)
    assert "Requirement 7 of 7: Zero is refused" in off
    assert "A refusal is tested" not in off


def test_a_requirement_built_on_a_put_off_one_waits_for_it() -> None:
    """Measured (r71, FizzBuzz at 8054b40): with requirement 5 ("Whizz") put off the tester was
    pointed at requirement 6 ("FizzWhizz", ...), which builds on it; the implementor failed it
    five times and requirement 7 (zero is refused) was never tried."""
    from tddhooks.agents.context import BACK_TO_IT, focus_index, next_requirement
    from tddhooks.resources import read_template

    kata = read_template("katas/fizzbuzz.md")
    done = ["number_multiple_neither_3_nor", "multiple_3_said", "multiple_5_said"]
    done.append("multiple_both_3_and_5")
    assert focus_index(kata, done) == 4
    assert focus_index(kata, done, put_off=(4,)) == 6  # not 5: it uses "Whizz"
    shown = next_requirement(kata, done, (), (4,), "rust")
    assert shown.startswith("Requirement 7 of 7: Zero is refused")
    assert "(Put off for now: requirement 5;" in shown
    assert "(Waits for a put-off one: requirement 6; its examples use a put-off one's words.)" in (
        shown
    )
    # zero done: back to the put-off one first, then the one that waited for it
    back = next_requirement(kata, [*done, "zero_panics"], (), (4,), "rust")
    assert back.startswith("Requirement 5 of 7:")
    assert back.endswith(f"\n({BACK_TO_IT})")
    assert "Waits for a put-off one: requirement 6" in back
    after = [*done, "zero_panics", "multiple_7_said"]
    assert focus_index(kata, after, put_off=(4,)) == 5
    assert BACK_TO_IT not in next_requirement(kata, after, (), (4,), "rust")
    # nothing put off: nothing waits
    assert "Waits for" not in next_requirement(kata, done, (), (), "rust")
