"""compose_message, prefill_template, kata_goal, infer_role: exact texts and round trips."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.repo import git, write_files

from tddhooks.config import DEFAULT_TYPES
from tddhooks.git import Change
from tddhooks.kata.markdown import (
    block_text,
    kata_goal,
    kata_requirements,
    kata_without_requirements,
)
from tddhooks.policy.compose import (
    compose_message,
    example_header,
    infer_role,
    prefill_template,
    refresh_message,
    suggest_type,
)
from tddhooks.policy.goals import cycle_goal, cycle_requirement, keywords
from tddhooks.policy.message import parse_message
from tddhooks.policy.rules import CommitFacts, check_message
from tddhooks.policy.settings import PolicySettings
from tddhooks.resources import read_template

SETTINGS = PolicySettings(
    types=DEFAULT_TYPES,
    require_sections=("feat", "fix", "refactor", "test"),
    require_test_with=("feat", "fix"),
    test_paths=("tests/**", "test_*.py"),
    skip_markers=(r"#\[ignore",),
)
FEATURE = CommitFacts(
    changes=(Change("A", "tests/roman.rs"), Change("M", "src/lib.rs")),
    test_names_before=frozenset(),
    test_names_after=frozenset({"tests/roman.rs::four"}),
    added_lines={"tests/roman.rs": ["#[test]", "fn four() {}"]},
)
ARGS: dict[str, Any] = {
    "type": "feat",
    "scope": "roman",
    "summary": "convert 4 to IV",
    "role": "Implementor",
    "step": 3,
    "goal": "Convert numbers to Roman numerals.",
    "rationale": ["four needs the subtractive pair IV"],
    "diff_summary": ["src/lib.rs: subtractive pairs", "tests/roman.rs: four is IV"],
    "verification": ["cargo test: 4 passed, 0 failed; clippy clean; fmt clean"],
}


def compose(**changes: Any) -> str:
    return compose_message(**{**ARGS, **changes})


def test_compose_exact_format() -> None:
    assert compose() == (
        "feat(roman): convert 4 to IV\n"
        "\n"
        "Context:\n"
        "- Role: Implementor\n"
        "- Step: 3\n"
        "- Kata goal: Convert numbers to Roman numerals.\n"
        "\n"
        "Rationale:\n"
        "- four needs the subtractive pair IV\n"
        "\n"
        "Diff summary:\n"
        "- src/lib.rs: subtractive pairs\n"
        "- tests/roman.rs: four is IV\n"
        "\n"
        "Verification:\n"
        "- cargo test: 4 passed, 0 failed; clippy clean; fmt clean\n"
    )


@pytest.mark.parametrize(
    ("changes", "subject"),
    [
        ({"scope": None}, "feat: convert 4 to IV"),
        ({"scope": ""}, "feat: convert 4 to IV"),
        ({"scope": "  "}, "feat: convert 4 to IV"),
        ({"summary": "convert\n4   to\tIV\n"}, "feat(roman): convert 4 to IV"),
        ({"summary": "añade cálculo ✓", "scope": "ローマ"}, "feat(ローマ): añade cálculo ✓"),
        ({"type": "refactor", "scope": None, "role": "refactorer"}, "refactor: convert 4 to IV"),
    ],
)
def test_compose_subject(changes: dict[str, Any], subject: str) -> None:
    assert compose(**changes).split("\n", 1)[0] == subject


def test_long_summary_trimmed_to_72_at_a_word() -> None:
    summary = "convert every number from one to three thousand nine hundred ninety nine correctly"
    subject = compose(summary=summary).split("\n", 1)[0]
    assert len(subject) <= 72
    assert subject.endswith("…")
    assert subject.startswith("feat(roman): convert every number")
    assert subject[:-1] == subject[:-1].rstrip()
    assert "ninety nine correctly" not in subject


def test_bullets_are_cleaned() -> None:
    text = compose(rationale=["- already a bullet", "two\nlines", "", "  "])
    assert "Rationale:\n- already a bullet\n- two lines\n\n" in text


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        ({"rationale": []}, "Rationale"),
        ({"rationale": ["", " \n "]}, "Rationale"),
        ({"diff_summary": []}, "Diff summary"),
        ({"verification": []}, "Verification"),
        ({"goal": " "}, "kata goal"),
        ({"role": "Pilot"}, "role must be one of"),
        ({"step": 0}, "positive integer"),
        ({"step": True}, "positive integer"),
        ({"type": "Feat"}, "lowercase word"),
        ({"type": ""}, "lowercase word"),
        ({"scope": "a(b)"}, "parentheses"),
        ({"scope": "x" * 70}, "too long"),
        ({"summary": " \n"}, "summary is empty"),
    ],
)
def test_compose_caller_errors(changes: dict[str, Any], error: str) -> None:
    with pytest.raises(ValueError, match=error):
        compose(**changes)


@pytest.mark.parametrize(
    "changes",
    [
        {},
        {"scope": None, "summary": "añade cálculo ✓", "goal": "Convertir números a romanos ✓."},
        {"summary": "x" * 200},
        {"role": "tester", "type": "fix", "step": 12},
    ],
)
def test_compose_round_trip(changes: dict[str, Any]) -> None:
    args = {**ARGS, **changes}
    message = parse_message(compose_message(**args))
    assert message.header is not None
    assert message.header.type == args["type"]
    assert message.header.scope == (args["scope"] or None)
    assert message.fields == {
        "Role": args["role"].capitalize(),
        "Step": str(args["step"]),
        "Kata goal": args["goal"],
    }
    assert message.sections["Rationale"] == args["rationale"]
    assert message.sections["Diff summary"] == args["diff_summary"]
    assert message.sections["Verification"] == args["verification"]
    assert check_message(message, FEATURE, SETTINGS) == []


PREFILL: dict[str, Any] = {
    "role": "Implementor",
    "step": 3,
    "goal": "Convert numbers to Roman numerals.",
    "verification": ["cargo test: 4 passed, 0 failed"],
    "diff_summary": ["src/lib.rs: modified", "tests/roman.rs: added"],
    "handoff_intent": "four is written IV",
    "suggested_type": "feat",
}


def prefill(**changes: Any) -> str:
    return prefill_template(**{**PREFILL, **changes})


def test_prefill_exact_text() -> None:
    assert prefill() == (
        "\n\n"
        "# Write the subject on the first line: type(scope): summary, 72 chars max.\n"
        "# suggested: feat(<scope>): four is written IV\n"
        "# feat/fix: add or change a test; refactor: no test changes, same test names;\n"
        "# test: test files only. Keep the sections below (edit their bullets freely).\n"
        "# Lines starting with '#' are dropped; a message without a subject is rejected.\n"
        "\n"
        "Context:\n"
        "- Role: Implementor\n"
        "- Step: 3\n"
        "- Kata goal: Convert numbers to Roman numerals.\n"
        "\n"
        "Rationale:\n"
        "- four is written IV\n"
        "- the simplest code that makes the new test pass\n"
        "\n"
        "Diff summary:\n"
        "- src/lib.rs: modified\n"
        "- tests/roman.rs: added\n"
        "\n"
        "Verification:\n"
        "- cargo test: 4 passed, 0 failed\n"
    )


def with_subject(template: str, subject: str) -> str:
    return subject + template  # the editor opens on the empty first line


@pytest.mark.parametrize(
    "changes",
    [
        {},
        {"handoff_intent": None},
        {"handoff_intent": "  ", "role": "tester", "suggested_type": "test"},
        {"verification": [], "diff_summary": []},
        {"verification": ["- cargo test: ok"], "diff_summary": ["- src/lib.rs: x", "  "]},
        {"goal": "Convertir números a romanos ✓.", "handoff_intent": "el cuatro es IV\ncon resta"},
    ],
)
def test_prefill_passes_once_a_subject_is_written(changes: dict[str, Any]) -> None:
    template = prefill(**changes)
    assert template.startswith("\n")
    empty = check_message(parse_message(template), FEATURE, SETTINGS)
    assert [(v.rule, v.message) for v in empty] == [("prefixed", "the subject line is empty")]
    message = parse_message(with_subject(template, "feat(roman): convert 4 to IV"))
    assert check_message(message, FEATURE, SETTINGS) == []
    assert "#" not in message.text


def test_prefill_without_handoff_uses_role_rationale_and_placeholders() -> None:
    template = prefill(handoff_intent=None, verification=[], diff_summary=[], role="refactorer",
                       suggested_type="refactor")  # fmt: skip
    sections = parse_message("refactor: x" + template).sections
    assert sections["Context"][0] == "Role: Refactorer"
    assert sections["Rationale"] == [
        "improve the structure; behaviour and test names stay the same"
    ]
    assert sections["Diff summary"] == ["(nothing staged)"]
    assert sections["Verification"] == [
        "(no verdict recorded; `tddhooks status` shows the staged tree)"
    ]
    assert "# suggested: refactor(<scope>): <the structural improvement>" in template


def test_prefill_with_unknown_goal_asks_for_it_only_where_a_kata_exists() -> None:
    template = prefill(goal="")
    assert "Kata goal" not in template  # never an empty bullet its own hook rejects
    message = parse_message("feat: x" + template)
    violations = check_message(message, FEATURE, SETTINGS)
    assert [v.message for v in violations] == [
        "the Context section has no 'Kata goal:' bullet (one sentence from the kata)"
    ]
    assert check_message(message, FEATURE._replace(has_kata=False), SETTINGS) == []


def test_prefill_other_comment_char() -> None:
    template = prefill(comment_char=";")
    assert "\n; suggested: feat(<scope>): four is written IV\n" in template
    assert "#" not in template
    message = parse_message("feat: x" + template, comment_char=";")
    assert check_message(message, FEATURE, SETTINGS) == []


def test_prefilled_message_is_what_git_stores(make_repo: Any, tmp_path: Path) -> None:
    repo = make_repo({"a.txt": "a\n"})
    write_files(repo, {"a.txt": "b\n"})
    git(repo, "add", "a.txt")
    text = with_subject(prefill(), "feat(roman): convert 4 to IV")
    (tmp_path / "msg").write_text(text, encoding="utf-8")
    git(repo, "commit", "-q", "--no-verify", "--cleanup=strip", "-F", str(tmp_path / "msg"))
    stored = git(repo, "log", "-1", "--format=%B").stdout.rstrip("\n") + "\n"
    assert stored == parse_message(text).text
    assert stored.startswith("feat(roman): convert 4 to IV\n\nContext:\n- Role: Implementor\n")


# --- kata_goal ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kata", "goal"),
    [
        (
            "# Roman Numerals\n\nThe Romans were a *clever* bunch. They conquered Europe.\n\n"
            "## Requirements\n\n- Write a **function** to convert numbers, e.g. 4 is IV.\n"
            "- Then the other way.\n",
            "Write a function to convert numbers, e.g. 4 is IV.",
        ),
        (
            "# Bowling\n\nScore a game of __ten-pin__ bowling. A game has ten frames.\n",
            "Score a game of ten-pin bowling.",
        ),
        (
            "# FizzBuzz\n\n## Your task\n\nSome prose first:\n1. Print the numbers from 1 to 100\n"
            "   in order.\n2. Multiples of three print Fizz.\n",
            "Print the numbers from 1 to 100 in order.",
        ),
        (
            "Goal\n====\n\n* Convertir números a [romanos](https://es.wikipedia.org) ✓.\n",
            "Convertir números a romanos ✓.",
        ),
        (
            "<!-- generated -->\n# Kata\n\n```rust\n// Write code here.\nfn main() {}\n```\n\n"
            "Implement `add(a, b)` for *small* numbers! More later.\n",
            "Implement add(a, b) for small numbers!",
        ),
        (
            "# Kata\r\n\r\nRound the number_of_items in snake_case. Next.\r\n",
            "Round the number_of_items in snake_case.",
        ),
        ("# Only A Title\n", "Only A Title"),
        ("# Mars **Rover**\n\n| a | b |\n|---|---|\n", "Mars Rover"),
        ("", ""),
        ("\n\n   \n", ""),
        (
            "> A quote paragraph is a description too. Yes.\n",
            "A quote paragraph is a description too.",
        ),
        (
            "# Task list\n\n- [ ] ~~old~~ new item\n",
            "new item",
        ),
        (  # a URL with parentheses keeps the link's text whole
            "# K\n\nConvert to [Roman](https://en.wikipedia.org/wiki/Numeral_(x)) digits.\n",
            "Convert to Roman digits.",
        ),
        (  # a bracket before the link is the reader's, and the link's text is still its own
            "# K\n\nRead [1] and [the rules](rules.md) first.\n",
            "Read [1] and the rules first.",
        ),
        (  # an image inside a link (a badge) keeps its text, not its link's brackets
            "# K\n\n[![Build](ci.svg)](https://ci.example/k) Convert numbers.\n",
            "Build Convert numbers.",
        ),
        (  # a title with a long run of spaces and closing marks is read whole
            "## Roman" + " " * 300 + "numerals ##\n",
            "Roman numerals",
        ),
        (  # an opening mark with no closing one stays; the next pair is stripped
            "# K\n\n" + "**a " * 5 + "**b** e.g. c. Done.\n",
            "**a " * 5 + "b e.g. c.",
        ),
    ],
)
def test_kata_goal(kata: str, goal: str) -> None:
    assert kata_goal(kata) == goal


def test_prefill_tester_rationale_is_a_passing_test() -> None:
    """A tester's commit is `test:`, which the gate only lets in green: no "failing test" there."""
    text = prefill(role="Tester", suggested_type="test", handoff_intent=None)
    assert "- pin down behaviour the code already has with a passing test\n" in text
    assert "failing" not in text


def test_kata_goal_is_one_short_line() -> None:
    goal = kata_goal("# K\n\n" + "word " * 100 + "end.\n")
    assert len(goal) <= 160
    assert goal.endswith("word…")
    assert "\n" not in goal


# --- infer_role, suggest_type, example_header ------------------------------------------------


@pytest.mark.parametrize(
    ("paths", "role", "kind"),
    [
        (["tests/roman.rs"], "Tester", "test"),
        (["tests/roman.rs", "src/lib.rs"], "Implementor", "feat"),
        (["src/lib.rs"], "Refactorer", "refactor"),
        (["pkg/test_ñ.py", "Cargo.toml"], "Implementor", "feat"),
        (["README.md"], "Refactorer", "refactor"),
        ([], "Refactorer", "chore"),
    ],
)
def test_infer_role_and_type(paths: list[str], role: str, kind: str) -> None:
    changes = [Change("M", path) for path in paths]
    assert infer_role(changes, SETTINGS) == role
    assert suggest_type(changes, SETTINGS) == kind


def test_suggest_type_respects_configured_types() -> None:
    settings = SETTINGS._replace(types=("chore", "feat"))
    assert suggest_type([Change("M", "src/lib.rs")], settings) == "chore"


@pytest.mark.parametrize(
    ("subject", "expected"),
    [
        ("Add roman 4", "feat: Add roman 4"),
        ("", "feat(<scope>): <what the new test demands>"),
        ("Feat(Roman)!:  x ", "feat(Roman)!: x"),
        ("fëat: ç", "feat: ç"),
        ("docs:readme", "docs: readme"),
        ("wip: añade", "feat: añade"),
        ("feat:", "feat: <what the new test demands>"),
        ("Feature(x):   ", "feat(x): <what the new test demands>"),
        ("docs(readme):", "docs(readme): <what changed>"),
    ],
)
def test_example_header(subject: str, expected: str) -> None:
    assert example_header(subject, "feat", DEFAULT_TYPES) == expected
    assert parse_message(expected).header is not None


def test_prefill_cleans_bullets_like_compose() -> None:
    template = prefill(diff_summary=["- src/lib.rs: x", " ", "tests/a.rs:\nadded"])
    assert "Diff summary:\n- src/lib.rs: x\n- tests/a.rs: added\n\n" in template


KATA = """# String Calculator

## Requirements

1. An empty string returns 0.
2. One number returns that number. More text here.
3. Two numbers, comma delimited, return their sum.
"""


@pytest.mark.parametrize(
    ("added", "tree", "goal"),
    [
        # the cycle's new test says which requirement it is about
        (["tests/a.rs::empty_string_is_zero"], [], "An empty string returns 0."),
        (["tests/a.rs::one_number_is_itself"], [], "One number returns that number."),
        (
            ["tests/t.py::test_sums_two_comma_delimited"],
            [],
            "Two numbers, comma delimited, return their sum.",
        ),
        # not in order: the third requirement first, whatever the cycle number
        (
            ["src/lib.rs::tests::two_numbers_comma_delimited"],
            ["x::empty_string_is_zero"],
            "Two numbers, comma delimited, return their sum.",
        ),
        # no new test (or none that matches): the first requirement no test covers yet
        ([], ["x::empty_string_is_zero"], "One number returns that number."),
        (
            ["x::mystery"],
            ["x::empty_string_is_zero", "x::one_number"],
            "Two numbers, comma delimited, return their sum.",
        ),
        # everything covered: the last one
        (
            [],
            ["x::empty_string", "x::one_number", "x::comma_delimited"],
            "Two numbers, comma delimited, return their sum.",
        ),
    ],
)
def test_the_goal_quotes_the_requirement_of_the_cycle(
    added: list[str], tree: list[str], goal: str
) -> None:
    assert cycle_goal(KATA, added, [*tree, *added]) == goal


def test_a_refactor_after_a_feature_quotes_the_features_goal() -> None:
    quoted = "One number returns that number."
    assert cycle_goal(KATA, [], ["x::empty_string_is_zero"], feature_goal=quoted) == quoted
    # a new test that matches wins over the feature's goal
    assert cycle_goal(KATA, ["x::comma_delimited"], [], feature_goal=quoted).startswith("Two")


def test_a_feature_whose_test_matches_no_requirement_quotes_the_next_one_not_the_last() -> None:
    """Found by a newcomer on FizzBuzz: `three_is_fizz` matches no requirement (its words are in
    several), and the second `feat:` quoted requirement 1 again, the goal of the one before."""
    kata = read_template("katas/fizzbuzz.md")
    first, second, third = kata_requirements(kata)[:3]
    assert cycle_goal(kata, ["t::one_is_one"], ["t::one_is_one"]) == first
    tree = ["t::one_is_one", "t::three_is_fizz"]
    assert cycle_goal(kata, ["t::three_is_fizz"], tree, feature_goal=first) == second
    tree = [*tree, "t::five_is_buzz"]
    assert cycle_goal(kata, ["t::five_is_buzz"], tree, feature_goal=second) == third
    assert cycle_goal(kata, [], tree, feature_goal=third) == third  # its refactor


def test_shared_words_count_less_than_the_ones_that_tell_requirements_apart() -> None:
    requirements = ["Add two numbers.", "Subtract two numbers."]
    assert cycle_requirement(requirements, ["t::subtracts_two_numbers"], []) == requirements[1]
    assert cycle_requirement(requirements, ["t::adds_two_numbers"], []) == requirements[0]
    # `two_numbers` alone is no more about one than the other: the earlier, by the tie rule
    assert cycle_requirement(requirements, ["t::two_numbers"], []) == requirements[0]
    assert keywords("addsTwoNumbers") == {"add", "two", "number"}


def test_a_number_in_a_test_name_tells_requirements_apart() -> None:
    """Newcomer, Leap Year by hand: `century_not_divisible_by_400_is_not_leap` was quoted as
    "Years not divisible by 4 are not" (numbers were no keywords, so it matched nothing)."""
    requirements = [
        "Years divisible by 4 are leap years: 1996 -> true.",
        "Years not divisible by 4 are not: 2001 -> false.",
        "Years divisible by 100 but not by 400 are not leap years: 1900 -> false.",
        "Years divisible by 400 are leap years: 2000 -> true.",
    ]
    tree = ["t::year_divisible_by_four_is_leap"]
    added = ["t::century_not_divisible_by_400_is_not_leap"]
    assert cycle_requirement(requirements, added, tree) == requirements[2]
    assert cycle_requirement(requirements, ["t::year_2000_is_leap"], []) == requirements[3]
    assert keywords("by_400_or_4") == {"400"}  # like words: three digits or more


def test_the_goal_without_a_requirements_list_is_the_kata_goal() -> None:
    assert cycle_goal("# Kata\n\nAdd numbers. Then more.\n", ["t::x"], []) == "Add numbers."


def test_refresh_message_rewrites_context_and_keeps_what_the_person_wrote() -> None:
    kept = (
        "feat(add): sum two\n\nBody line.\n\nContext:\n- Role: Tester\n- Step: 7\n"
        "- Kata goal: old\n- Pairing: yes\n\nRationale:\n- mine\n\nDiff summary:\n"
        "- src/lib.rs: my words\n- gone.rs: removed\n\nVerification:\n- old line\n"
        "# a comment line\n"
    )
    text = refresh_message(
        kept,
        role="Implementor",
        step=2,
        goal="One number returns that number.",
        verification=["cargo test: 3 passed"],
        diff_summary=["src/lib.rs: changed", "tests/t.rs: added"],
    )
    assert text == (
        "feat(add): sum two\n\nBody line.\n\nContext:\n- Role: Implementor\n- Step: 2\n"
        "- Kata goal: One number returns that number.\n- Pairing: yes\n\nRationale:\n- mine\n\n"
        "Diff summary:\n- src/lib.rs: my words\n- tests/t.rs: added\n\n"
        "Verification:\n- cargo test: 3 passed\n"
    )


@pytest.mark.parametrize(
    "heading",
    ["Non-goals", "Non goals", "Nongoals", "Non-requirements", "Out of scope tasks",
     "Non-functional requirements", "Nonfunctional requirements",
     "Goals: out of scope", "Steps to run the tests", "Setup steps", "Ground rules",
     "House rules", "Build steps", "Installation steps",
     # red team, headings of kata READMEs on GitHub: how to practise, not what to build
     "Rules of TDD", "The three rules of test-driven development", "Rules of Mob Programming",
     "Pairing rules", "Object Calisthenics rules", "Rules of thumb", "Learning goals",
     "Baby steps", "Next steps", "Rules of Testing"],
)  # fmt: skip
def test_a_heading_of_what_is_not_wanted_lists_no_requirement(heading: str) -> None:
    # red team: a drive pointed its tester at a non-goal, and refused its done until the
    # non-goal had a test (drive/turns.py)
    kata = f"# K\n\n## Requirements\n\n1. add() is 0.\n\n## {heading}\n\n- Parsing files.\n"
    assert kata_requirements(kata) == ["add() is 0."]
    assert kata_goal(f"# K\n\nAdd numbers.\n\n## {heading}\n\n- Parsing files.\n") == (
        "Add numbers."
    )


@pytest.mark.parametrize(
    "heading",
    ["Requirements", "Goals", "Stretch goals", "Tasks", "Your task", "Requirement 1",
     "Tasks (do not read ahead)", "Nonstop tasks", "Rules", "The rules of the game", "Steps",
     "Step 1", "Specification", "Acceptance criteria", "User stories",
     # red team: a task heading may name its work with "build" or "run"
     "Task: Build a bowling score calculator", "Your task: build it", "Goal: build the grid",
     "Run-length encoding requirements", "Mobile number requirements", "Machine learning task"],
)  # fmt: skip
def test_a_heading_of_what_is_wanted_still_lists_requirements(heading: str) -> None:
    kata = f"# K\n\nIntro.\n\n## {heading}\n\n1. add() is 0.\n2. add(1) is 1.\n"
    assert kata_requirements(kata) == ["add() is 0.", "add(1) is 1."]


def test_a_nested_list_belongs_to_its_item() -> None:
    """Examples under an item were dropped: the item ended at the first nested bullet."""
    kata = (
        "# K\n\n## Requirements\n\n1. Multiples of three give Fizz:\n"
        '   - 3 gives "Fizz"\n\t* 6 gives "Fizz"\n2. Five\n   gives Buzz\n   + 5 gives "Buzz"\n'
        "- Seven is 7\n"
    )
    assert kata_requirements(kata, whole=True) == [
        'Multiples of three give Fizz: 3 gives "Fizz"; 6 gives "Fizz"',
        'Five gives Buzz; 5 gives "Buzz"',
        "Seven is 7",
    ]


def test_the_implementor_reads_the_kata_without_its_requirements() -> None:
    """Measured: with the whole Password Validation kata in its prompt, the 1.5B implementor
    wrote every rule for the first test (a good password gives no errors) and failed all five
    attempts on one of them (`char::is_digit` takes a radix)."""
    kata = (
        "# Roman\n\nConvert numbers.\n\n## Interface\n\n- Rust: `pub fn roman(n: u32) -> String`\n"
        "\n## Requirements\n\n1. 1 is I.\n2. 4 is IV.\n\n```md\n## Interface in a fence\n```\n"
        "\n## Notes\n\n- Up to 3999.\n\n## Public API\n\nOne function.\n"
    )
    assert kata_without_requirements(kata) == (
        "# Roman\n\nConvert numbers.\n\n## Interface\n\n- Rust: `pub fn roman(n: u32) -> String`"
        "\n\n## Public API\n\nOne function.\n"
    )
    # a kata whose first heading is its requirements, and one with no requirements heading
    assert kata_without_requirements("## Goals\n\n- 1 is I.\n\n## Interface\n\nroman\n") == (
        "## Interface\n\nroman\n"
    )
    plain = "# Roman\n\nConvert numbers: 1 is I, 4 is IV.\n"
    assert kata_without_requirements(plain) == plain
    for name in ("bowling", "string-calculator", "mars-rover", "game-of-life", "fizzbuzz",
                 "password-validation"):  # fmt: skip
        shipped = kata_without_requirements(read_template(f"katas/{name}.md"))
        assert "## Interface" in shipped
        assert "pub fn " in shipped
        assert "## Requirements" not in shipped
        assert "Done when" not in shipped


SAY = "`pub fn say(n: u32) -> String`"


@pytest.mark.parametrize(
    ("kata", "shown"),
    [
        # red team: a setext heading ended no section, so the requirements were shown
        (
            f"FizzBuzz\n========\n\nSay numbers.\n\nInterface\n---------\n\n{SAY}\n\n"
            "Requirements\n------------\n\n1. 3 is Fizz.\n2. 5 is Buzz.\n",
            f"FizzBuzz\n========\n\nSay numbers.\n\nInterface\n---------\n\n{SAY}\n",
        ),
        (
            f"# FB\n\n## Interface\n\n{SAY}\n\nRequirements\n------------\n\n1. 3 is Fizz.\n",
            f"# FB\n\n## Interface\n\n{SAY}\n",
        ),
        (
            f"# FB\n\n{SAY}\n\n## API\nRequirements\n---\n\n1. 3 is Fizz.\n",
            f"# FB\n\n{SAY}\n\n## API\n",
        ),
        # the interface's own subsections are the interface: the signature was dropped
        (
            f"# FB\n\n## Interface\n\n### Rust\n\n{SAY}\n\n### Python\n\n`def say(n)`\n\n"
            "## Requirements\n\n1. 3 is Fizz.\n",
            f"# FB\n\n## Interface\n\n### Rust\n\n{SAY}\n\n### Python\n\n`def say(n)`\n",
        ),
        (
            f"# FB\n\n## Interface\n\n{SAY}\n\n### Requirements\n\n1. 3 is Fizz.\n",
            f"# FB\n\n## Interface\n\n{SAY}\n",
        ),
        # a title naming a goal or a task is still the title: all of it was dropped, interface too
        (
            f"# Goal: FizzBuzz\n\nSay numbers: {SAY}.\n\n## Requirements\n\n1. 3 is Fizz.\n",
            f"# Goal: FizzBuzz\n\nSay numbers: {SAY}.\n",
        ),
        (
            "# Task Manager\n\nTrack tasks.\n\n## Interface\n\n`pub fn add(t: &str)`\n\n"
            "## Requirements\n\n1. Add a task.\n",
            "# Task Manager\n\nTrack tasks.\n\n## Interface\n\n`pub fn add(t: &str)`\n",
        ),
        ("\n\n# FB\n\nIntro.\n\n## Requirements\n\n1. 3 is Fizz.\n", "# FB\n\nIntro.\n"),
        # but a first heading that lists the requirements is no title
        (f"# Requirements\n\n1. 3 is Fizz.\n\n## Interface\n\n{SAY}\n", f"## Interface\n\n{SAY}\n"),
        # a heading in an HTML comment opens no section: the requirement after it was shown
        (
            f"# FB\n\n## Interface\n\n{SAY}\n\n## Requirements\n\n1. 3 is Fizz.\n\n"
            "<!--\n## Interface\n-->\n- 5 is Buzz.\n",
            f"# FB\n\n## Interface\n\n{SAY}\n",
        ),
    ],
)
def test_the_implementors_kata_keeps_the_title_and_interface_as_people_write_them(
    kata: str, shown: str
) -> None:
    assert kata_without_requirements(kata) == shown


class _CountedLines(list[str]):
    """Lines that count how many of them are read."""

    read = 0

    def __iter__(self) -> Iterator[str]:
        for line in super().__iter__():
            self.read += 1
            yield line

    def __getitem__(self, index: Any) -> Any:
        self.read += 1
        return super().__getitem__(index)


def test_an_item_is_read_from_its_own_line_not_from_the_start_of_the_kata() -> None:
    # each item skipping every line before it made a kata of 40,000 items quadratic (`tddhooks
    # doctor` reads every requirement)
    lines = _CountedLines(f"{number}. Item {number}." for number in range(1, 1001))
    assert block_text(lines, 999) == "Item 1000."
    assert lines.read < 10
