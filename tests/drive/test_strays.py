"""A string of a failed comparison that only the code holds is named in the retry's hint
(drive/strays.py). Measured (r41): the 1.5B implementor kept its own invented error sentence in
five attempts of five, the gate showing only `left:`/`right:`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support import loop_scenarios as scenarios
from support.fake_drive import MarkerGate
from support.loop_scenarios import STOP, Side, drive_once, fake_models, plan_answer

from tddhooks.drive.strays import stray_values
from tddhooks.policy.settings import PolicySettings
from tddhooks.policy.verdicts import Verdict

INVENTED = "Password must be at least 8 characters long and contain a digit."
RUST_FAILURE = (
    "[test] cargo test --all --no-fail-fast: failed (exit 101)\n"
    "tests/lower.rs::lower: panicked at tests/lower.rs:5:5:\n"
    "assertion `left == right` failed\n"
    f'  left: ["{INVENTED}"]\n'
    ' right: ["must contain a lowercase letter"]\n'
)
LIB = f'pub fn validate(_p: &str) -> Vec<String> {{\n    vec!["{INVENTED}".to_string()]\n}}\n'
TEST = 'assert_eq!(validate("ABCDEF1!"), vec!["must contain a lowercase letter"]);'


def test_a_string_only_the_code_holds_is_named_with_the_one_the_test_expects() -> None:
    hint = stray_values(RUST_FAILURE, {"src/lib.rs": LIB}, {"tests/lower.rs": TEST}, "# PV\n")
    assert hint == (
        f'Hint: "{INVENTED}" comes from src/lib.rs, and no test and no line of the kata asks for '
        'it: the test expects "must contain a lowercase letter" there: give that value '
        "instead.\n"
    )


def test_without_a_string_a_test_asks_for_the_hint_names_only_the_stray() -> None:
    # the other side's string is in no test file: it is not offered as the one to write
    hint = stray_values(RUST_FAILURE, {"src/lib.rs": LIB}, {"tests/lower.rs": "len() == 1"}, "")
    assert hint == (
        f'Hint: "{INVENTED}" comes from src/lib.rs, and no test and no line of the kata asks for '
        "it: give the value the test expects instead.\n"
    )


def test_a_list_pairs_strings_by_position_and_either_side_may_be_the_code() -> None:
    failure = (
        '  left: ["must be at least 8 characters", "must contain a digit"]\n'
        ' right: ["must be at least 8 characters", "Needs a number"]\n'
    )
    source = 'vec!["must be at least 8 characters", "Needs a number"]'
    tests = {"tests/t.rs": 'vec!["must be at least 8 characters", "must contain a digit"]'}
    hint = stray_values(failure, {"src/lib.rs": source}, tests, "")
    assert hint.count("Hint: ") == 1
    assert '"Needs a number" comes from src/lib.rs' in hint
    assert 'the test expects "must contain a digit" there' in hint


def test_lists_of_other_lengths_name_no_counterpart_and_left_alone_is_read() -> None:
    failure = '  left: ["Too short", "Needs a number"]\n right: ["must contain a digit"]\n'
    source = 'vec!["Too short", "Needs a number"]'
    tests = {"tests/t.rs": 'vec!["must contain a digit"]'}
    hint = stray_values(failure, {"src/lib.rs": source}, tests, "")
    assert hint.count("give the value the test expects instead") == 2
    # a `left:` line whose `right:` line was cut off is still read
    alone = stray_values('  left: ["Too short"]\n', {"src/lib.rs": source}, tests, "")
    assert '"Too short" comes from src/lib.rs' in alone


def test_pytests_line_is_split_at_its_comparison_not_at_an_equals_inside_a_string() -> None:
    failure = "E       AssertionError: assert ['a == b is wrong'] == ['must contain a digit']\n"
    source = "ERRORS = ['a == b is wrong']\n"
    tests = {"tests/test_x.py": "assert validate('x') == ['must contain a digit']"}
    hint = stray_values(failure, {"src/kata/rules.py": source}, tests, "")
    assert hint == (
        'Hint: "a == b is wrong" comes from src/kata/rules.py, and no test and no line of the '
        'kata asks for it: the test expects "must contain a digit" there: give that value '
        "instead.\n"
    )


@pytest.mark.parametrize(
    ("tests", "kata", "sources"),
    [
        ({"tests/a.rs": f'vec!["{INVENTED}"]'}, "", {"src/lib.rs": LIB}),  # a test asks for it
        ({}, f'1. "x" gives "{INVENTED}"', {"src/lib.rs": LIB}),  # the kata does
        ({}, "", {"src/other.rs": "fn f() {}"}),  # not in the code
    ],
)
def test_a_string_a_test_or_the_kata_asks_for_is_no_stray(
    tests: dict[str, str], kata: str, sources: dict[str, str]
) -> None:
    assert stray_values(RUST_FAILURE, sources, tests, kata) == ""


def test_only_the_compared_values_are_read_and_short_ones_pass() -> None:
    # a string elsewhere in the output (a panic message, a path) is not a compared value
    failure = f'thread \'x\' panicked: "{INVENTED}"\n  left: "abc"\n right: "Fizz"\n'
    sources = {"src/lib.rs": f'"{INVENTED}" "abc"'}
    assert stray_values(failure, sources, {}, "") == ""


def test_pytests_assertion_line_is_read_and_at_most_two_are_named() -> None:
    failure = "E       AssertionError: assert ['first one', 'second one', 'third one'] == ['x']\n"
    source = "ERRORS = ['first one', 'second one', 'third one']\n"
    hint = stray_values(failure, {"src/kata/rules.py": source}, {}, "")
    assert hint.count("Hint: ") == 2
    assert '"first one" comes from src/kata/rules.py' in hint


class _ComparingGate(MarkerGate):
    """MarkerGate whose red verdict shows pytest's comparison of the source's first string."""

    def staged(self, root: Path, settings: PolicySettings) -> Verdict:
        verdict = super().staged(root, settings)
        if verdict.green:
            return verdict
        source = (root / "src/kata/__init__.py").read_text(encoding="utf-8")
        got = re.search(r'"([^"]*)"', source)
        line = f"E       AssertionError: assert {got.group(1)!r} == 2" if got else "E  assert"
        report = verdict.report.model_copy(update={"error_lines": [line]})
        return verdict.model_copy(update={"report": report})


def test_the_implementors_retry_is_told_which_value_only_its_code_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(scenarios.FILES, "kata.md", "# Adder\n\n## Requirements\n\n1. add.\n")
    side = Side("git", tmp_path)
    test = "from kata import add\n\n\ndef test_two():  # needs: return 2\n    assert add(2) == 2\n"
    invented = 'def add(*numbers: int) -> object:\n    return "Invented total"\n'
    right = "def add(*numbers: int) -> int:\n    return 2\n"
    models = fake_models()
    models["tester"].enqueue(plan_answer("two", "tests/test_two.py", test), STOP)
    commit = {"type": "feat", "scope": "add", "summary": "add gives two"}
    models["implementor"].enqueue(
        plan_answer("invent", "src/kata/__init__.py", invented, commit=commit),
        plan_answer("two", "src/kata/__init__.py", right, commit=commit),
    )
    models["refactorer"].enqueue(plan_answer("nothing to tidy"))
    monkeypatch.setattr(Side, "ports", lambda self: {"gate": _ComparingGate(),
                                                     "workspace": side_workspace()})  # fmt: skip

    drive_once(side, models, steps=5, profile="small-model")

    retry = models["implementor"].asked[1].user
    assert 'Hint: "Invented total" comes from src/kata/__init__.py' in retry
    assert side.subjects()[0] == "feat(add): add gives two"


def side_workspace() -> object:
    from support.fake_drive import HooklessWorkspace

    return HooklessWorkspace()


@pytest.mark.parametrize(
    "failure",
    [
        # a short string the code got right still holds its place in the list
        '  left: ["ab", "Needs a number"]\n right: ["must contain a digit", "ab"]\n',
        "E       AssertionError: assert ['ab', 'Needs a number'] == "
        "['must contain a digit', 'ab']\n",
        # the lists' lengths differ, though not their strings of four characters or more
        "E       assert ['Needs a number'] == ['must contain a digit', 'ab']\n",
    ],
)
def test_short_strings_keep_their_places_and_no_wrong_counterpart_is_named(failure: str) -> None:
    source = 'vec!["ab", "Needs a number"]'
    tests = {"tests/t.rs": 'vec!["must contain a digit", "ab"]; // Needs a numbe'}
    hint = stray_values(failure, {"src/lib.rs": source}, tests, "")
    assert hint == (
        'Hint: "Needs a number" comes from src/lib.rs, and no test and no line of the kata asks '
        "for it: give the value the test expects instead.\n"
    )


def test_a_short_string_in_its_place_is_the_one_the_test_expects() -> None:
    failure = '  left: ["Needs a number", "ab"]\n right: ["must contain a digit", "ab"]\n'
    source = 'vec!["Needs a number", "ab"]'
    tests = {"tests/t.rs": 'vec!["must contain a digit", "ab"]'}
    hint = stray_values(failure, {"src/lib.rs": source}, tests, "")
    assert 'the test expects "must contain a digit" there' in hint


@pytest.mark.parametrize(
    ("failure", "tests"),
    [
        # pytest cut both sides short: the places after a cut are not the value's places
        (
            "E       AssertionError: assert ['Needs a nu...', 'fourth'] == "
            "['must contain a digit', 'Needs a number']\n",
            {"tests/test_x.py": "['must contain a digit', 'fourth']"},
        ),
        (
            "E       AssertionError: assert ['xxxxxxxxxxx...cd', 'Needs a number'] == "
            "['aaaaaaaaaaa...tain a digit', 'fourth']\n",
            {"tests/test_x.py": "['must contain a digit', 'fourth']"},
        ),
        # a map in another order: the key's place holds another key
        (
            "E       AssertionError: assert {'msg': 'Needs a number', 'code': 'E001'} == "
            "{'code': 'E001', 'msg': 'must contain a digit'}\n",
            {"tests/test_x.py": "{'code': 'E001', 'msg': 'must contain a digit'}"},
        ),
        # only a whole string literal of a test is one it asks for
        (
            '  left: ["Needs a number"]\n right: ["digit"]\n',
            {"tests/t.rs": 'vec!["must contain a digit"]'},
        ),
    ],
)
def test_no_counterpart_where_its_place_is_unknown(failure: str, tests: dict[str, str]) -> None:
    source = "['Needs a number', 'fourth', 'xxxxxxxxxxxabcd']"
    hint = stray_values(failure, {"src/rules.py": source}, tests, "")
    assert hint.startswith('Hint: "Needs a number" comes from src/rules.py')
    assert "give the value the test expects instead" in hint


def _pv_hint(got: str, expected: str, tests: dict[str, str]) -> str:
    from tddhooks.resources import read_template

    failure = f'  left: ["{got}"]\n right: ["{expected}"]\n'
    source = f'pub fn validate(_p: &str) -> Vec<String> {{\n    vec!["{got}".to_string()]\n}}\n'
    kata = read_template("katas/password-validation.md")
    return stray_values(failure, {"src/lib.rs": source}, tests, kata)


LENGTH_TEST = {
    "tests/short.rs": 'assert_eq!(validate("Abc1!"), vec!["must be at least 8 characters"]);'
}
DIGIT_TEST = {"tests/digit.rs": 'assert_eq!(validate("Abcdefg!"), vec!["must contain a digit"]);'}


def test_two_of_the_katas_messages_joined_are_named_as_two_checks() -> None:
    # r43 cycle 3: one `if` for both rules, its message the two joined
    joined = "must be at least 8 characters and contain a digit"
    hint = _pv_hint(joined, "must contain a digit", {**LENGTH_TEST, **DIGIT_TEST})
    assert hint.endswith(
        'it joins the kata\'s messages "must be at least 8 characters" and "must contain a '
        'digit": each comes from a check of its own.\n'
    )
    assert "write exactly" not in hint  # writing the digit's message there breaks the length's


def test_the_katas_message_reworded_is_named_and_so_is_the_wrong_place() -> None:
    # r43 cycle 5: the special-character rule fired for "Abc1!", worded its own way
    hint = _pv_hint("must contain at least one special character", "must be at least 8 characters",
                    LENGTH_TEST)  # fmt: skip
    assert hint.endswith(
        'the kata\'s message is "must contain a special character": write exactly that. Where '
        'it appears the test expects "must be at least 8 characters": the check that gives it '
        "must not fire for that input.\n"
    )


def test_the_expected_message_with_words_around_it_is_to_be_written_exactly() -> None:
    # r42 cycle 2: "Password must be at least 8 characters long"
    hint = _pv_hint("Password must be at least 8 characters long", "must be at least 8 characters",
                    LENGTH_TEST)  # fmt: skip
    assert hint.endswith(
        'the test expects "must be at least 8 characters" there: write exactly "must be at least '
        '8 characters" instead.\n'
    )


def test_a_stray_like_nothing_in_the_kata_names_what_the_test_expects() -> None:
    hint = _pv_hint("Password needs a number", "must contain a digit", DIGIT_TEST)
    assert hint.endswith(
        'the test expects "must contain a digit" there: give that value instead.\n'
    )


R45 = [f"Password must contain at least one {what}" for what in ("uppercase letter", "digit")]
EMPTY_TEST = 'assert_eq!(validate("Abcdef1!"), Vec::<String>::new());'


@pytest.mark.parametrize(
    "failure",
    [
        f"  left: {[*R45]}\n right: []\n".replace("'", '"'),
        f" left: []\n right: {[*R45]}\n".replace("'", '"'),
        f"E       AssertionError: assert {[*R45]} == []\n",
        f"E       assert [] == {[*R45]}\n",
    ],
)
def test_where_the_test_expects_an_empty_list_the_invented_messages_are_to_go(
    failure: str,
) -> None:
    """Measured (r45, Password Validation cycle 1): the first test wanted no errors, and the
    1.5B implementor wrote every rule with a message of its own on all five attempts."""
    source = "\n".join(f'errors.push("{message}");' for message in R45)
    hint = stray_values(failure, {"src/lib.rs": source}, {"tests/valid.rs": EMPTY_TEST}, "# PV\n")
    assert hint == (
        f'Hint: the test expects an empty list, and the code gives "{R45[0]}" and 1 more from '
        "src/lib.rs, which no test and no line of the kata asks for: give an empty list for that "
        "input instead. A message comes with the test that asks for it, in a later cycle; while "
        "no test asks for one, the whole body can be the empty list (Rust `Vec::new()`, Python "
        "`return []`).\n"
    )


def test_the_katas_own_message_where_an_empty_list_is_expected_is_no_stray() -> None:
    kata = '2. A short one gives "must be at least 8 characters".\n'
    failure = ' left: ["must be at least 8 characters"]\n right: []\n'
    source = 'errors.push("must be at least 8 characters");'
    assert stray_values(failure, {"src/lib.rs": source}, {"tests/v.rs": EMPTY_TEST}, kata) == ""


def test_a_list_of_an_empty_string_is_no_empty_list() -> None:
    failure = f' left: ["{INVENTED}"]\n right: [""]\n'
    hint = stray_values(failure, {"src/lib.rs": LIB}, {"tests/v.rs": 'vec![""]'}, "")
    assert hint.startswith(f'Hint: "{INVENTED}" comes from src/lib.rs')


@pytest.mark.parametrize(
    ("failure", "source"),
    [
        # pytest's repr of a string holding both kinds of quotes
        ("E       AssertionError: assert ['Can\\'t be \"empty\"'] == ['x']\n",
         'ERRORS = ["Can\'t be \\"empty\\""]\n'),
        ("E       AssertionError: assert ['Can\\'t be \"empty\"'] == ['x']\n",
         "ERRORS = ['Can\\'t be \"empty\"']\n"),
        # libtest's Debug of a Rust string
        (' left: ["Can\'t be \\"empty\\""]\n right: ["x"]\n',
         'vec!["Can\'t be \\"empty\\"".to_string()]\n'),
    ],
)  # fmt: skip
def test_a_string_with_escaped_quotes_is_read_as_the_code_writes_it(
    failure: str, source: str
) -> None:
    """Red team: pytest writes `'Can\\'t be "empty"'`, and the stray went unnamed."""
    hint = stray_values(failure, {"src/kata/rules.py": source}, {}, "")
    assert hint.startswith('Hint: "Can\'t be "empty"" comes from src/kata/rules.py')


NAMED = "{n} is a multiple of neither 3, 5, nor 7"
FORMATTED_LIB = (
    'pub fn say(n: u32) -> String {\n    format!("{} is a multiple of neither 3, 5, nor 7", n)\n}\n'
)


@pytest.mark.parametrize(
    ("source", "template"),
    [
        (FORMATTED_LIB, "{} is a multiple of neither 3, 5, nor 7"),
        (f'format!("{NAMED}")', NAMED),  # Rust's inline argument
        (f'return f"{NAMED}"', NAMED),  # a Python f-string
    ],
)  # fmt: skip
def test_a_stray_a_format_string_gives_is_named_with_its_template(
    source: str, template: str
) -> None:
    """Measured (r46, FizzBuzz): `format!("{} is a multiple of …", n)` gave "5 is a multiple of
    …"; no code file held that text, so no hint named it, and all five attempts kept it."""
    failure = '  left: "5 is a multiple of neither 3, 5, nor 7"\n  right: "Buzz"\n'
    tests = {"tests/buzz.rs": 'assert_eq!(say(5), "Buzz");'}
    hint = stray_values(failure, {"src/lib.rs": source}, tests, "# FizzBuzz\n")
    assert hint == (
        f'Hint: "5 is a multiple of neither 3, 5, nor 7" comes from src/lib.rs ("{template}"), '
        'and no test and no line of the kata asks for it: the test expects "Buzz" there: give '
        "that value instead.\n"
    )


@pytest.mark.parametrize(
    "source",
    [
        'format!("{}", n)',  # no fixed text: it fits anything
        'format!("{}{}", a, b)',
        'format!("{{}} is a multiple of neither 3, 5, nor 7")',  # `{{}}` is no placeholder
        'format!("{} is a multiple of 3", n)',  # another sentence
    ],
)
def test_a_format_string_that_does_not_give_the_stray_names_nothing(source: str) -> None:
    failure = '  left: "5 is a multiple of neither 3, 5, nor 7"\n  right: "Buzz"\n'
    assert stray_values(failure, {"src/lib.rs": source}, {}, "") == ""
