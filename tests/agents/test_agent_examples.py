"""A new test that contradicts one of the kata's own examples is refused before anything is
written (agents/examples.py): the kata's examples as read, the measured mistakes, and the red
team's look-alikes that must pass untouched."""

from __future__ import annotations

import pytest

from tddhooks.agents.examples import contradicted_example, kata_examples
from tddhooks.policy.compose import kata_requirements
from tddhooks.resources import read_template


def _requirements(kata: str) -> list[str]:
    return kata_requirements(read_template(f"katas/{kata}.md"), whole=True)


def _rust(body: str, function: str = "validate", crate: str = "password_validation") -> str:
    return f"use {crate}::{function};\n\n#[test]\nfn checks() {{\n    {body}\n}}\n"


def _check_rust(kata: str, body: str, function: str, crate: str) -> str | None:
    test = _rust(body, function, crate)
    return contradicted_example({"tests/new.rs": test}, _requirements(kata), "rust", crate)


def _pv(body: str) -> str | None:
    return _check_rust("password-validation", body, "validate", "password_validation")


def _fizz(body: str) -> str | None:
    return _check_rust("fizzbuzz", body, "say", "fizzbuzz")


def test_the_shipped_katas_examples_are_read_with_their_values() -> None:
    found = {(e.requirement, e.given, e.values, e.whole)
             for e in kata_examples(_requirements("password-validation"))}  # fmt: skip
    short = ("str", "must be at least 8 characters")
    assert (1, ("str", "Abcdef1!"), (), True) in found  # "gives no errors"
    assert (2, ("str", "Abc1!"), (short,), True) in found  # "gives exactly that one error"
    every = [e for e in kata_examples(_requirements("password-validation")) if e.requirement == 8]
    assert [len(e.values or ()) for e in every] == [4]  # the last one before the full stop too
    fizz = {(e.given, e.values) for e in kata_examples(_requirements("fizzbuzz"))}
    # `1 gives "1", 2 gives "2", 97 gives "97"`: three examples, not one of "1" and 2
    assert {(("int", n), (("str", n),)) for n in ("1", "2", "97")} <= fizz
    assert (("int", "0"), None) in fizz  # "0 panics"
    calc = {(e.given, e.values) for e in kata_examples(_requirements("string-calculator"))}
    assert (("str", "2,1001"), (("int", "2"),)) in calc
    assert (("str", "1000,1"), (("int", "1001"),)) in calc
    assert (("str", "4,-1,-6"), None) in calc  # "fails with a message"


@pytest.mark.parametrize(
    ("body", "said"),
    [  # measured with the 1.5B tester, each cost the implementor a turn or more
        ('assert_eq!(validate("Abc1!").len(), 3);', "to have 3 items"),
        ('assert_eq!(validate("ABCDEF1!").len(), 0);', "to have 0 items"),
        ('assert!(validate("ABCDEF1!").is_empty());', "to be empty"),
        ('assert_eq!(validate("Abc1!"), vec!["too short"]);', 'to give `["too short"]`'),
        ('assert_eq!(validate("Abc1!"), Vec::<String>::new());', "to give `[]`"),
        ('assert!(!validate("Abcdef1!").is_empty());', "not to be empty"),
        ('assert_eq!(validate("Abc1!").len(), 3, "Abc1! gives 3");', "3 items"),  # a message
        ('assert_eq!(validate("abc"), vec!["must contain a digit"]);', "to give"),
    ],
)
def test_a_test_that_contradicts_a_password_example_is_refused(body: str, said: str) -> None:
    failure = _pv(body)
    assert failure is not None
    assert failure.startswith("edits refused, nothing was written: the test in tests/new.rs")
    assert said in failure
    assert "of the kata says" in failure


def test_the_refusal_names_the_requirement_and_the_value_to_expect() -> None:
    failure = _pv('assert_eq!(validate("Abc1!").len(), 3);')
    assert failure is not None
    assert 'requirement 2 of the kata says "Abc1!" gives exactly that one error' in failure
    assert 'expect `vec!["must be at least 8 characters"]` there' in failure


@pytest.mark.parametrize(
    "body",
    [
        'assert_eq!(validate("Abc1!"), vec!["must be at least 8 characters"]);',
        'assert_eq!(vec!["must be at least 8 characters"], validate("Abc1!"));',  # swapped
        'assert_eq!(validate("Abc1!").len(), 1);',
        'assert!(validate("Abcdef1!").is_empty());',
        'assert_eq!(validate("Abcdef1!"), Vec::<String>::new());',
        'assert_eq!(validate("Abcdef1!").len(), 0);',
        'assert!(!validate("abc").is_empty());',
        'assert_eq!(validate("Abc1!x"), vec!["anything"]);',  # no example for that input
        'let errors = validate("Abc1!");\n    assert_eq!(errors.len(), 3);',  # not read: no claim
    ],
)
def test_a_test_that_agrees_or_cannot_be_read_passes(body: str) -> None:
    assert _pv(body) is None


def test_fizzbuzz_zero_must_be_a_refusal_not_a_value() -> None:
    failure = _fizz('assert_eq!(say(0), "zero");')  # measured
    assert failure is not None
    assert "requirement 7 of the kata says 0 panics" in failure
    assert "`#[should_panic]`" in failure
    refusal = ('use fizzbuzz::say;\n\n#[test]\n#[should_panic(expected = "zero")]\n'
               'fn zero() {\n    assert_eq!(say(0), "");\n}\n')  # fmt: skip
    assert contradicted_example({"tests/z.rs": refusal}, _requirements("fizzbuzz"), "rust",
                                "fizzbuzz") is None  # fmt: skip


@pytest.mark.parametrize(
    ("body", "refused"),
    [
        ('assert_eq!(say(15), "Fizz");', True),
        ('assert_eq!(say(15), "FizzBuzz");', False),
        ('assert_eq!(say(15u32), "FizzBuzz".to_string());', False),
        ('assert_eq!(say(3), String::from("Fizz"));', False),
        ('assert_eq!(say(97), "97");', False),
        ('assert_eq!(say(97), "Fizz");', True),
        ('assert_eq!(say(98), "Fizz");', False),  # no example: the gate decides
        ('assert_eq!(say(1 + 2), "Buzz");', False),  # no literal argument
        ("assert_eq!(say(3).len(), 4);", False),  # a string's length: no count in the kata
    ],
)
def test_fizzbuzz_examples(body: str, refused: bool) -> None:
    assert (_fizz(body) is not None) is refused


def _python(kata: str, test: str) -> str | None:
    return contradicted_example({"tests/test_new.py": test}, _requirements(kata), "python")


def test_python_tests_are_read_too() -> None:
    test = 'from fizzbuzz import say\n\n\ndef test_zero():\n    assert say(0) == "zero"\n'
    failure = _python("fizzbuzz", test)
    assert failure is not None
    assert "`with pytest.raises(...)`" in failure
    raising = ("import pytest\nfrom fizzbuzz import say\n\n\ndef test_zero():\n"
               "    with pytest.raises(ValueError):\n        assert say(0) == \"\"\n")  # fmt: skip
    assert _python("fizzbuzz", raising) is None
    calc = "from calc import add\n\n\ndef test_two():\n    assert add('3,4') == 8\n"
    failure = _python("string-calculator", calc)
    assert failure is not None
    assert "expect `7` there" in failure
    assert _python("string-calculator", calc.replace("8", "7")) is None


def test_a_result_wrapped_in_ok_compares_by_its_value() -> None:
    requirements = _requirements("string-calculator")
    good = _rust('assert_eq!(add("3,4"), Ok(7));', "add", "calc")
    bad = _rust('assert_eq!(add("3,4"), Ok(8));', "add", "calc")
    unwrapped = _rust('assert_eq!(add("3,4").unwrap(), 8);', "add", "calc")
    refusal = _rust('assert!(add("4,-1,-6").is_err());', "add", "calc")
    wrong_refusal = _rust('assert_eq!(add("4,-1,-6"), Ok(9));', "add", "calc")

    def check(text: str) -> str | None:
        return contradicted_example({"tests/a.rs": text}, requirements, "rust", "calc")

    assert check(good) is None
    assert check(bad) is not None
    assert check(unwrapped) is not None
    assert check(refusal) is None
    assert check(wrong_refusal) is not None


def test_a_claim_the_committed_file_already_made_is_not_the_new_tests() -> None:
    old = _rust('assert_eq!(validate("Abc1!").len(), 3);')  # a person's own older test
    new = old.replace("}\n", '    assert_eq!(validate("abc").len(), 4);\n}\n')
    requirements = _requirements("password-validation")
    assert contradicted_example({"tests/a.rs": new}, requirements, "rust", "password_validation",
                                before={"tests/a.rs": old}) is None  # fmt: skip
    assert contradicted_example({"tests/a.rs": new}, requirements, "rust",
                                "password_validation") is not None  # fmt: skip


@pytest.mark.parametrize(
    "kata",
    [
        "# Adder\n\n## Requirements\n\n1. An empty string sums to 0.\n",  # no example
        '# Adder\n\n## Requirements\n\n1. Adding "3,4" is 7.\n',  # not the "gives" form
        '# Adder\n\n## Requirements\n\n1. A sum: add("3,4") gives 7.\n',  # a call, not a value
        '# Adder\n\n## Notes\n\n- "3,4" gives 8.\n',  # outside the requirements
    ],
)
def test_a_kata_without_readable_examples_refuses_nothing(kata: str) -> None:
    test = _rust('assert_eq!(add("3,4"), 9);', "add", "calc")
    requirements = kata_requirements(kata, whole=True)
    assert contradicted_example({"tests/a.rs": test}, requirements, "rust", "calc") is None


def test_another_function_or_crate_is_not_the_katas() -> None:
    requirements = _requirements("password-validation")
    interface = ("validate",)  # what the kata's Interface section names
    other_fn = _rust('assert_eq!(strength("Abc1!").len(), 3);', "strength")
    other_crate = _rust('assert_eq!(validate("Abc1!").len(), 3);', "validate", "helpers")
    # a call of two arguments is not the example's
    two = _rust('assert_eq!(validate("Abc1!", 5).len(), 3);')
    for text in (other_fn, other_crate, two):
        found = contradicted_example({"tests/a.rs": text}, requirements, "rust",
                                     "password_validation", functions=interface)  # fmt: skip
        assert found is None
