"""A test that gets its messages and another rule's is told to give each message a check of its
own (drive/extras.py). Measured (r50, Password Validation): the 1.5B implementor joined the digit
rule to the length rule's `if` with `||` in every attempt of two turns, and the strays hint said
nothing, the strings being the kata's."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from support import loop_scenarios as scenarios
from support.e2e_kit import git, write_files
from support.fake_drive import HooklessWorkspace
from support.loop_scenarios import STOP, Side, drive_once, fake_models, plan_answer

from tddhooks.drive.extras import extra_values
from tddhooks.drive.ports import RealGate
from tddhooks.policy.settings import load_settings
from tddhooks.resources import read_template

MakeRepo = Callable[..., Path]
SHORT, DIGIT = "must be at least 8 characters", "must contain a digit"
R50_FAILURE = f"""[test] cargo test --all --no-fail-fast: failed (exit 101)
failing tests: tests/short.rs::short, tests/digit.rs::digit
tests/short.rs::short: panicked at tests/short.rs:6:5: assertion `left == right` failed
  left: ["{SHORT}", "{DIGIT}"]
  right: ["{SHORT}"]
tests/digit.rs::digit: panicked at tests/digit.rs:5:5: assertion `left == right` failed
  left: 2
  right: 1
"""
SHORT_TEST = f'let password = "Abc1!";\nassert_eq!(validate(password), vec!["{SHORT}"]);'
DIGIT_TEST = 'assert_eq!(validate("Abcdefg!").len(), 1);'
TESTS = {"tests/short.rs": SHORT_TEST, "tests/digit.rs": DIGIT_TEST}


def test_the_test_that_gets_another_rules_message_is_named_with_a_list_to_add_to() -> None:
    assert extra_values(R50_FAILURE, TESTS, "rust") == (
        f'Hint: tests/short.rs expects only "{SHORT}" there, and the code also gives "{DIGIT}": '
        "give each message a check of its own that adds it to the list only when that check "
        "holds for the input, in the body of the function:\n```rust\n"
        "let mut errors = Vec::new();\n"
        f'if … {{\n    errors.push("{SHORT}".to_string());\n}}\n'
        f'if … {{\n    errors.push("{DIGIT}".to_string());\n}}\n'
        "errors\n```\n"
    )


@pytest.mark.parametrize(
    ("failure", "tests"),
    [
        # the test wants more than the code gives (a new requirement): it holds the other string
        (f'tests/abc.rs::abc: panicked at x\n  left: ["{SHORT}"]\n'
         f'  right: ["{SHORT}", "{DIGIT}"]\n',
         {"tests/abc.rs": f'assert_eq!(validate("abc"), vec!["{SHORT}", "{DIGIT}"]);'}),
        # one message in another's place: no side holds the other's strings
        (f'tests/short.rs::short: panicked at x\n  left: ["{DIGIT}"]\n  right: ["{SHORT}"]\n',
         TESTS),
        # an empty list expected: strays.py's advice, not this one
        (f'tests/ok.rs::ok: panicked at x\n  left: ["{DIGIT}"]\n  right: []\n',
         {"tests/ok.rs": "assert!(validate(x).is_empty());"}),
        # a comparison outside a failing test's block, or of a file that is no test
        (f'  left: ["{SHORT}", "{DIGIT}"]\n  right: ["{SHORT}"]\n', TESTS),
        (f'src/lib.rs::x: panicked at x\n  left: ["{SHORT}", "{DIGIT}"]\n  right: ["{SHORT}"]\n',
         TESTS),
        # pytest cut the lists short and named no extra item
        ("tests/test_a.py::test_a: failed at tests/test_a.py:5: AssertionError: assert "
         "['must be at ...tain a digit'] == ['must be at ...8 characters']\n",
         {"tests/test_a.py": ""}),
    ],
)  # fmt: skip
def test_no_hint_where_the_code_gives_nothing_the_test_leaves_out(
    failure: str, tests: dict[str, str]
) -> None:
    assert extra_values(failure, tests, "rust") == ""


PV_PYPROJECT = read_template("scaffolds/python/pyproject.toml").replace("{project}", "pv")
JOINED_PY = (
    "def validate(password: str) -> list[str]:\n"
    "    if len(password) < 8 or not any(c.isdigit() for c in password):\n"
    f'        return ["{SHORT}", "{DIGIT}"]\n    return []\n'
)
SHORT_PY = (
    'from pv import validate\n\n\ndef test_short():\n    password = "Abc1!"\n'
    f'    assert validate(password) == ["{SHORT}"]\n'
)


def _python_repo(make_repo: MakeRepo, source: str) -> Path:
    repo = make_repo({"tdd.yaml": "language: python\n", "pyproject.toml": PV_PYPROJECT,
                      "src/pv/__init__.py": "", "tests/test_short.py": SHORT_PY})  # fmt: skip
    write_files(repo, {"src/pv/__init__.py": source})
    git(repo, "add", "-A")
    return repo


@pytest.mark.pygate
def test_real_pytest_output_names_the_extra_message(make_repo: MakeRepo) -> None:
    repo = _python_repo(make_repo, JOINED_PY)
    verdict = RealGate().staged(repo, load_settings(repo))
    assert not verdict.green

    hint = extra_values(verdict.failure_excerpt(), {"tests/test_short.py": SHORT_PY}, "python")

    assert hint.startswith(
        f'Hint: tests/test_short.py does not expect "{DIGIT}" there, and the code gives it with '
        "the values the test does expect: give each message a check of its own"
    )
    assert (
        f'```python\nerrors = []\nif …:\n    errors.append("{DIGIT}")\nreturn errors\n```' in hint
    )


@pytest.mark.pygate
def test_real_pytest_output_of_a_message_in_another_place_names_nothing(
    make_repo: MakeRepo,
) -> None:
    swapped = JOINED_PY.replace(f'"{SHORT}", "{DIGIT}"', f'"{DIGIT}", "x"')
    repo = _python_repo(make_repo, swapped)
    verdict = RealGate().staged(repo, load_settings(repo))
    assert not verdict.green
    assert (
        extra_values(verdict.failure_excerpt(), {"tests/test_short.py": SHORT_PY}, "python") == ""
    )


@pytest.mark.cargo
def test_real_libtest_output_names_the_extra_message(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CARGO_TARGET_DIR", raising=False)
    manifest = '[package]\nname = "pv"\nversion = "0.1.0"\nedition = "2021"\n'
    test = f"use pv::validate;\n\n#[test]\nfn short() {{\n    {SHORT_TEST}\n}}\n"
    repo = make_repo({"tdd.yaml": "language: rust\n", "Cargo.toml": manifest,
                      "src/lib.rs": "\n", "tests/short.rs": test})  # fmt: skip
    joined = (
        "pub fn validate(password: &str) -> Vec<String> {\n"
        "    if password.len() < 8 || !password.chars().any(|c| c.is_ascii_digit()) {\n"
        f'        vec!["{SHORT}".to_string(), "{DIGIT}".to_string()]\n'
        "    } else {\n        vec![]\n    }\n}\n"
    )
    write_files(repo, {"src/lib.rs": joined})
    git(repo, "add", "src/lib.rs")

    verdict = RealGate().staged(repo, load_settings(repo))

    assert not verdict.green
    hint = extra_values(verdict.failure_excerpt(), {"tests/short.rs": test}, "rust")
    assert hint.startswith(
        f'Hint: tests/short.rs expects only "{SHORT}" there, and the code also gives "{DIGIT}"'
    )


@pytest.mark.pygate
def test_the_implementors_retry_gets_the_hint_the_input_and_what_the_kata_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A whole drive with the real pytest gate: the tester's test compares only a length, the
    implementor's first answer joins the rules, its second keeps them apart and lands."""
    monkeypatch.setitem(scenarios.FILES, "kata.md", read_template("katas/password-validation.md"))
    monkeypatch.setitem(scenarios.FILES, "pyproject.toml", PV_PYPROJECT.replace('"pv"', '"kata"'))
    short = SHORT_PY.replace("from pv", "from kata")
    monkeypatch.setitem(scenarios.FILES, "tests/test_short.py", short)
    monkeypatch.setitem(scenarios.FILES, "src/kata/__init__.py", (
        "def validate(password: str) -> list[str]:\n"
        f'    return ["{SHORT}"] if len(password) < 8 else []\n'
    ))  # fmt: skip
    side = Side("git", tmp_path)
    digit = "from kata import validate\n\n\ndef test_digit():\n"
    digit += '    assert len(validate("Abcdefg!")) == 1\n'
    apart = (
        "def validate(password: str) -> list[str]:\n    errors = []\n    if len(password) < 8:\n"
        f'        errors.append("{SHORT}")\n    if not any(c.isdigit() for c in password):\n'
        f'        errors.append("{DIGIT}")\n    return errors\n'
    )
    models = fake_models()
    models["tester"].enqueue(plan_answer("digit", "tests/test_digit.py", digit), STOP)
    commit = {"scope": "validate", "summary": "a password without a digit is refused"}
    models["implementor"].enqueue(
        plan_answer("join", "src/kata/__init__.py", JOINED_PY, commit=commit),
        plan_answer("apart", "src/kata/__init__.py", apart, commit=commit),
    )
    models["refactorer"].enqueue(plan_answer("nothing to tidy"))
    monkeypatch.setattr(Side, "ports", lambda self: {"gate": RealGate(),
                                                     "workspace": HooklessWorkspace()})  # fmt: skip

    drive_once(side, models, steps=1, profile="small-model")

    first, retry = (asked.user for asked in models["implementor"].asked[:2])
    said = 'The kata says `validate("Abcdefg!")` gives `["must contain a digit"]` (requirement 3).'
    assert said in first
    assert said in retry
    assert 'tests/test_short.py, which the last attempt broke, calls `validate("Abc1!")`' in retry
    assert f'Hint: tests/test_short.py does not expect "{DIGIT}" there' in retry
    assert side.subjects()[0] == "feat(validate): a password without a digit is refused"


PV_KATA = read_template("katas/password-validation.md")
SWAPPED = f'tests/short.rs::short: panicked at x\n  left: ["{DIGIT}"]\n  right: ["{SHORT}"]\n'


def test_another_rules_message_in_the_place_of_the_tests_is_named_with_the_list() -> None:
    """By hand on r50's staged test: `if password.len() < 8 || !has_digit { vec!["must contain
    a digit"] }` gave "Abc1!" the digit rule's message."""
    hint = extra_values(SWAPPED, TESTS, "rust", PV_KATA)
    assert hint.startswith(
        f'Hint: tests/short.rs expects "{SHORT}" there, and the code gives "{DIGIT}" in its '
        f'place: the check that gives "{DIGIT}" must not hold for that input: give each message '
        "a check of its own"
    )
    assert f'errors.push("{SHORT}".to_string());' in hint
    assert f'errors.push("{DIGIT}".to_string());' in hint


ONLY_SHORT = {"tests/short.rs": SHORT_TEST}


@pytest.mark.parametrize(
    ("failure", "tests", "kata"),
    [
        # no other test and no kata holds the message: an invented one (strays.py's)
        (SWAPPED, ONLY_SHORT, ""),
        # two strings, no lists: FizzBuzz's "Fizz" where "FizzBuzz" is expected is no check list
        ('tests/f.rs::f: panicked at x\n  left: "Fizz"\n  right: "FizzBuzz"\n',
         {"tests/f.rs": 'assert_eq!(say(15), "FizzBuzz");'}, 'say(3) gives "Fizz"'),
        # the test itself holds both: it may expect them elsewhere
        (f'tests/both.rs::both: panicked at x\n  left: ["{DIGIT}"]\n  right: ["{SHORT}"]\n',
         {"tests/both.rs": f'assert_eq!(validate("x"), vec!["{SHORT}", "{DIGIT}"]);'}, PV_KATA),
    ],
)  # fmt: skip
def test_a_message_in_another_place_is_named_only_when_it_is_the_katas_list(
    failure: str, tests: dict[str, str], kata: str
) -> None:
    assert extra_values(failure, tests, "rust", kata) == ""
    # with the message in another test, the first is named
    if tests is ONLY_SHORT:
        assert extra_values(failure, {**tests, "tests/d.rs": f'vec!["{DIGIT}"]'}, "rust", kata)


def test_a_string_the_test_wants_written_with_escaped_quotes_is_held_by_the_test() -> None:
    """The test wants `say "hi"` too, written `"say \\"hi\\""`: the code gives less, not more."""
    failure = 'tests/a.rs::a: panicked at x\n  left: ["a"]\n  right: ["a", "say \\"hi\\""]\n'
    tests = {"tests/a.rs": 'assert_eq!(validate("x"), vec!["a", "say \\"hi\\""]);'}
    assert extra_values(failure, tests, "rust") == ""


def test_the_hint_code_escapes_a_message_s_quotes() -> None:
    failure = 'tests/a.rs::a: panicked at x\n  left: ["a", "say \\"hi\\""]\n  right: ["a"]\n'
    hint = extra_values(failure, {"tests/a.rs": 'assert_eq!(validate("x"), vec!["a"]);'}, "rust")
    assert 'errors.push("say \\"hi\\"".to_string());' in hint


@pytest.mark.parametrize(
    "sides",
    [
        '  left: ("a", "b")\n  right: ("a")\n',  # tuples
        '  left: [("k", "v"), ("k2", "v")]\n  right: [("k", "v")]\n',  # pairs
        '  left: {"a", "b"}\n  right: {"a"}\n',  # sets
    ],
)
def test_red_team_values_that_are_no_list_of_messages_get_no_hint(sides: str) -> None:
    failure = f"tests/a.rs::a: panicked at x\n{sides}"
    assert extra_values(failure, {"tests/a.rs": "assert_eq!(f(), g());"}, "rust", PV_KATA) == ""


def test_a_rust_implementor_is_told_how_to_count_characters_where_the_kata_says_so() -> None:
    """r53: `password.len() < 8` landed, though the kata counts characters, not bytes."""
    from tddhooks.drive.gather import COUNT_CHARACTERS, staged_expectations
    from tddhooks.policy.settings import PolicySettings

    checks = '    assert_eq!(validate("Abc1!"), vec!["must be at least 8 characters"]);\n'
    test = f"use pv::validate;\n\n#[test]\nfn short() {{\n{checks}}}\n"
    texts = {"tests/short.rs": test, "Cargo.toml": '[package]\nname = "pv"\n'}
    rust, python = PolicySettings(language="rust"), PolicySettings(language="python")
    assert COUNT_CHARACTERS in staged_expectations(rust, texts, ["tests/short.rs"], PV_KATA)
    no_note = PV_KATA.replace("Characters are counted, not bytes", "Lengths are what they are")
    assert COUNT_CHARACTERS not in staged_expectations(rust, texts, ["tests/short.rs"], no_note)
    # Python's len() counts characters already
    assert COUNT_CHARACTERS not in staged_expectations(python, texts, ["tests/short.rs"], PV_KATA)


LENGTH_LIB = (
    "pub fn validate(password: &str) -> Vec<String> {\n"
    "    let mut errors = Vec::new();\n"
    "    if password.chars().count() < 8 {\n"
    '        errors.push("must be at least 8 characters".to_string());\n'
    "    }\n    errors\n}\n"
)


@pytest.mark.parametrize(
    ("check", "library", "said"),
    [
        ('assert!(validate("Abcdef1!").is_empty());', "", False),  # nothing about a length yet
        ('assert_eq!(validate("Abcdefg!"), vec!["must contain a digit"]);', "", False),
        # the library counts already: the note keeps the count right in every later turn
        ('assert_eq!(validate("Abcdefg!"), vec!["must contain a digit"]);', LENGTH_LIB, True),
        ('assert_eq!(validate("Äbc1!xy").len(), 1);', "", True),  # a non-ASCII input
        # the test compares less; the kata's value for its input speaks of characters
        ('assert_eq!(validate("Abc1!").len(), 1);', "", True),
        # a comment is not the test: a dash or the word in one is no length
        (
            '// a good password — no errors\n    assert!(validate("Abcdef1!").is_empty());',
            "",
            False,
        ),
        ('assert!(validate("Abcdef1!").is_empty()); // no characters missing', "", False),
        ('assert!(validate("Abcdef1!").is_empty());', "// later: password.len()\n", False),
        ('assert!(validate("Abcdef1!").is_empty());', 'const S: &str = "s.len()";\n', False),
    ],
)
def test_the_characters_note_comes_where_a_length_is_in_view(
    check: str, library: str, said: bool
) -> None:
    """r59 (b013b48): the first test asked only for an empty list, the prompt spoke of lengths,
    and the 1.5B implementor wrote a whole validator. The note waits for a length."""
    from tddhooks.drive.gather import COUNT_CHARACTERS, staged_expectations
    from tddhooks.policy.settings import PolicySettings

    test = f"use pv::validate;\n\n#[test]\nfn t() {{\n    {check}\n}}\n"
    texts = {"tests/t.rs": test, "Cargo.toml": '[package]\nname = "pv"\n', "src/lib.rs": library}
    found = staged_expectations(PolicySettings(language="rust"), texts, ["tests/t.rs"], PV_KATA)
    assert (COUNT_CHARACTERS in found) is said, found
