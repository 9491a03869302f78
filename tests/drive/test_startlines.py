"""The empty start: where the kata's only test asks for an empty list, the implementor's prompt
names the empty body up front (drive/startlines.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import loop_scenarios as scenarios
from support.fake_drive import HooklessWorkspace
from support.loop_scenarios import STOP, Side, drive_once, fake_models, plan_answer

from tddhooks.drive.gather import staged_expectations
from tddhooks.drive.ports import RealGate
from tddhooks.drive.startlines import EMPTY_START, asks_for_nothing
from tddhooks.policy.settings import PolicySettings
from tddhooks.resources import read_template

PV_KATA = read_template("katas/password-validation.md")
CARGO = '[package]\nname = "pv"\n'
PYPROJECT = read_template("scaffolds/python/pyproject.toml").replace("{project}", "kata")
RUST, PYTHON = PolicySettings(language="rust"), PolicySettings(language="python")


def _rust_test(*checks: str) -> str:
    body = "".join(f"    {check}\n" for check in checks)
    return f"use pv::validate;\n\n#[test]\nfn t() {{\n{body}}}\n"


@pytest.mark.parametrize(
    "check",
    [
        'assert_eq!(validate("Abcdef1!"), Vec::<String>::new());',  # r59's first test
        'assert_eq!(validate("Abcdef1!"), Vec::new());',
        'assert_eq!(validate("Abcdef1!"), vec![]);',
        'assert!(validate("Abcdef1!").is_empty());',
        'assert_eq!(Vec::<&str>::new(), validate("Zz9#Zz9#"));',
    ],
)
def test_the_only_test_asking_for_an_empty_list_gets_the_empty_body(check: str) -> None:
    texts = {"tests/t.rs": _rust_test(check), "Cargo.toml": CARGO, "src/lib.rs": ""}
    found = staged_expectations(RUST, texts, ["tests/t.rs"], PV_KATA)
    assert EMPTY_START["rust"] in found, found
    assert "`Vec::new()`" in EMPTY_START["rust"]


@pytest.mark.parametrize(
    "checks",
    [
        ('assert_eq!(validate("Abc1!"), vec!["must be at least 8 characters"]);',),
        # one call empty, one not: the body cannot be empty
        (
            'assert!(validate("Abcdef1!").is_empty());',
            'assert_eq!(validate("abc").len(), 4);',
        ),
        ('assert!(!validate("abc").is_empty());',),  # asserted NOT empty
        ('validate("Abcdef1!");',),  # a call that expects nothing in particular
        # more calls than the section shows (MAX_LINES): the last one asks for a message
        (
            *(f'assert!(validate("Abcdef1!{n}").is_empty());' for n in range(8)),
            'assert_eq!(validate("abc"), vec!["must be at least 8 characters"]);',
        ),
        # a call through its path the section does not list
        (
            'assert!(validate("Abcdef1!").is_empty());',
            'assert_eq!(pv::validate("abc"), vec!["must be at least 8 characters"]);',
        ),
    ],
)
def test_a_test_that_asks_for_something_gets_no_empty_body(checks: tuple[str, ...]) -> None:
    texts = {"tests/t.rs": _rust_test(*checks), "Cargo.toml": CARGO, "src/lib.rs": ""}
    assert EMPTY_START["rust"] not in staged_expectations(RUST, texts, ["tests/t.rs"], PV_KATA)


def test_another_test_anywhere_means_the_body_is_not_the_tests_alone() -> None:
    """A later cycle's empty-list test (the code already gives messages for other tests), a
    second test file, or a unit test beside the code: an empty body would break them."""
    empty = _rust_test('assert!(validate("Abcdef1!").is_empty());')
    other = _rust_test('assert_eq!(validate("Abc1!"), vec!["must be at least 8 characters"]);')
    beside = (
        "pub fn validate(password: &str) -> Vec<String> {\n    vec![password.to_string()]\n}\n\n"
        "#[cfg(test)]\nmod tests {\n    #[test]\n    fn echo() {\n"
        '        assert_eq!(super::validate("a"), vec!["a"]);\n    }\n}\n'
    )
    in_tests = {"tests/t.rs": empty, "tests/short.rs": other, "Cargo.toml": CARGO}
    in_source = {"tests/t.rs": empty, "src/lib.rs": beside, "Cargo.toml": CARGO}
    for texts in (in_tests, in_source):
        assert EMPTY_START["rust"] not in staged_expectations(RUST, texts, ["tests/t.rs"], PV_KATA)
    # staged together, the two tests are still not the empty start
    both = staged_expectations(RUST, in_tests, ["tests/t.rs", "tests/short.rs"], PV_KATA)
    assert EMPTY_START["rust"] not in both


def test_python_gets_its_own_empty_body() -> None:
    test = 'from pv import validate\n\n\ndef test_ok():\n    assert validate("Abcdef1!") == []\n'
    texts = {"tests/test_ok.py": test, "src/pv/__init__.py": '"""pv"""\n'}
    found = staged_expectations(PYTHON, texts, ["tests/test_ok.py"], PV_KATA)
    assert EMPTY_START["python"] in found, found
    assert "`return []`" in EMPTY_START["python"]


def test_a_python_call_through_the_module_is_a_call_too() -> None:
    """`pv.validate("abc")` is no line of the section, and it asks for a message."""
    test = (
        "import pv\nfrom pv import validate\n\n\ndef test_ok():\n"
        '    assert validate("Abcdef1!") == []\n    assert pv.validate("abc") == ["short"]\n'
    )
    texts = {"tests/test_ok.py": test, "src/pv/__init__.py": '"""pv"""\n'}
    found = staged_expectations(PYTHON, texts, ["tests/test_ok.py"], PV_KATA)
    assert EMPTY_START["python"] not in found, found


@pytest.mark.parametrize(
    ("line", "nothing"),
    [
        ("The test calls `f(1)` and expects `[]`.", True),
        ("The test calls `f(1)` and expects `list()`.", True),
        ("The test calls `f(1)` and expects `Vec::<Vec<String>>::new()`.", True),
        ("The test calls `f(1)` and expects it to be empty.", True),
        ("The test calls `f(1)` and expects it not to be empty.", False),
        ("The test calls `f(1)` and expects `[0]`.", False),
        ("The test calls `f(1)` and expects `vec![] + x`.", False),
        ("The test calls `f(1)`.", False),
    ],
)
def test_what_counts_as_asking_for_nothing(line: str, nothing: bool) -> None:
    assert asks_for_nothing([line, "The kata's Interface section fixes its signature: `f`"]) is (
        nothing
    )
    assert not asks_for_nothing(["The kata's Interface section fixes its signature: `f`"])


@pytest.mark.pygate
def test_the_first_implementor_prompt_names_the_empty_body(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A whole cycle with the real pytest gate: the kata's first test asks only that a good
    password give no errors; the implementor's first prompt already says the body can be
    `return []`, and that answer lands."""
    monkeypatch.setitem(scenarios.FILES, "kata.md", PV_KATA)
    monkeypatch.setitem(scenarios.FILES, "pyproject.toml", PYPROJECT)
    monkeypatch.setattr(
        Side, "ports", lambda self: {"gate": RealGate(), "workspace": HooklessWorkspace()}
    )
    side = Side("git", tmp_path)
    test = 'from kata import validate\n\n\ndef test_ok():\n    assert validate("Abcdef1!") == []\n'
    empty = "def validate(password: str) -> list[str]:\n    return []\n"
    models = fake_models()
    models["tester"].enqueue(plan_answer("a good password", "tests/test_ok.py", test), STOP)
    commit = {"scope": "validate", "summary": "a good password has no errors"}
    models["implementor"].enqueue(
        plan_answer("empty", "src/kata/__init__.py", empty, commit=commit)
    )
    models["refactorer"].enqueue(plan_answer("nothing to tidy"))

    drive_once(side, models, steps=1, profile="small-model")

    assert EMPTY_START["python"] in models["implementor"].asked[0].user
    assert side.subjects()[0] == "feat(validate): a good password has no errors"


def test_the_prompt_hints_are_in_the_prompt_only_under_their_checks() -> None:
    """Checks `empty-start` and `count-characters` (small-model hints, docs/checks.md): the drive
    hands gather the ids in effect; under `core` neither line is in the prompt."""
    from tddhooks.drive.checks import active_checks
    from tddhooks.drive.gather import COUNT_CHARACTERS

    empty = _rust_test('assert_eq!(validate("Abcdef1!"), Vec::<String>::new());')
    short = _rust_test('assert_eq!(validate("Abc1!"), vec!["must be at least 8 characters"]);')
    cases = {
        "tests/t.rs": (empty, EMPTY_START["rust"]),
        "tests/short.rs": (short, COUNT_CHARACTERS),
    }
    for path, (test, line) in cases.items():
        texts = {path: test, "Cargo.toml": CARGO, "src/lib.rs": ""}
        small = active_checks("small-model").ids()
        assert line in staged_expectations(RUST, texts, [path], PV_KATA, small)
        for checks in (active_checks("core").ids(), active_checks("small-model", [
            "empty-start", "count-characters"]).ids()):  # fmt: skip
            assert line not in staged_expectations(RUST, texts, [path], PV_KATA, checks)
