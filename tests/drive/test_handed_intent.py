"""The tester's plan reaches the implementor ("What the test checks") and the feature commit's
`Test:` line only when it is about the test it wrote (drive/intent.py): r67's tester planned
requirement 1 of FizzBuzz and wrote `say(9) == "Fizz"`, and the implementor built requirement 1."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import loop_scenarios as scenarios
from support.loop_scenarios import (
    FEAT_ADD,
    SOURCE_ADD,
    STOP,
    Side,
    drive_once,
    fake_models,
    plan_answer,
)

from tddhooks.agents.examples import agreed_requirements
from tddhooks.drive.intent import handed_intent
from tddhooks.policy.compose import kata_requirements

FIZZBUZZ = (Path(__file__).parents[2] / "templates" / "katas" / "fizzbuzz.md").read_text(
    encoding="utf-8"
)
# r67, cycle 1: the test of requirement 1 was set aside, the focus moved on to requirement 2
R67_PLAN = "Write a test for the case where a number is a multiple of neither 3 nor 5 nor 7."
R67_TEST = (
    'use run_1::say;\n\n#[test]\nfn multiple_3_said() {\n    assert_eq!(say(9), "Fizz");\n}\n'
)
PY_TEST = "from fizzbuzz import say\n\n\ndef test_multiple_3_said():\n    assert say(9) == 'Fizz'\n"


def _handed(plan: str, test: str, language: str = "rust") -> str:
    path = "tests/multiple_3_said.rs" if language == "rust" else "tests/test_three.py"
    package = "run_1" if language == "rust" else None
    return handed_intent(plan, FIZZBUZZ, {path: test}, language, package)


@pytest.mark.parametrize(("language", "test"), [("rust", R67_TEST), ("python", PY_TEST)])
def test_a_plan_about_another_requirement_than_the_test_pins_is_dropped(
    language: str, test: str
) -> None:
    assert _handed(R67_PLAN, test, language) == ""


@pytest.mark.parametrize(
    "plan",
    [
        "Write a test that a multiple of 3 is said Fizz",  # names requirement 2, as the test does
        "Add a failing test for 9",  # names no requirement
        "",
    ],
)
def test_a_plan_about_the_test_or_about_nothing_is_kept(plan: str) -> None:
    assert _handed(plan, R67_TEST) == plan


def test_a_plan_is_kept_when_the_test_pins_no_requirement() -> None:
    # 4 is no example of the kata: nothing says which requirement the test is about
    unpinned = R67_TEST.replace('say(9), "Fizz"', 'say(4), "4"')
    assert _handed(R67_PLAN, unpinned) == R67_PLAN
    # a test that contradicts the kata pins nothing either (the tester's refusal says so)
    assert _handed(R67_PLAN, R67_TEST.replace('"Fizz"', '"Buzz"')) == R67_PLAN


def test_the_requirements_a_test_pins_are_the_ones_whose_examples_it_compares() -> None:
    requirements = kata_requirements(FIZZBUZZ, whole=True)
    both = R67_TEST.replace(
        '    assert_eq!(say(9), "Fizz");\n',
        '    assert_eq!(say(9), "Fizz");\n    assert_eq!(say(15), "FizzBuzz");\n',
    )
    pinned = agreed_requirements({"t.rs": both}, requirements, "rust", "run_1", ["say"])
    assert pinned == {2, 4}
    # a length or an emptiness compares no value: it pins nothing
    length = R67_TEST.replace('say(9), "Fizz"', "say(9).len(), 4")
    assert agreed_requirements({"t.rs": length}, requirements, "rust", "run_1", ["say"]) == set()


KATA = (
    "# Adder\n\n## Interface\n\n- Python: `def add(*numbers: int) -> int` in the package.\n\n"
    "## Requirements\n\n1. One number is its own sum: 2 gives 2.\n"
    "2. Negative numbers are refused with an error naming them.\n"
)
TWO = "from kata import add\n\n\ndef test_two():  # needs: def add\n    assert add(2) == 2\n"


@pytest.fixture(params=["memory"])  # real git: test_loop_scenarios.py, the contract test
def side(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Side:
    monkeypatch.setitem(scenarios.FILES, "kata.md", KATA)
    return Side(str(request.param), tmp_path)


@pytest.mark.parametrize(
    ("plan", "told"),
    [
        ("Add a test that negative numbers are refused with an error", False),
        ("Add a test that one number is its own sum", True),
    ],
)
def test_the_implementor_is_told_the_plan_only_when_it_is_about_the_staged_test(
    side: Side, plan: str, told: bool
) -> None:
    models = fake_models()
    models["tester"].enqueue(plan_answer(plan, "tests/test_two.py", TWO), STOP)
    models["implementor"].enqueue(
        plan_answer("define add", "src/kata/__init__.py", SOURCE_ADD, commit=FEAT_ADD)
    )
    models["refactorer"].enqueue(plan_answer("nothing to tidy"))

    drive_once(side, models, steps=5, profile="small-model")

    task = models["implementor"].asked[0].user
    assert ("What the test checks:" in task) is told
    assert "negative" not in task.lower()
    assert side.subjects()[0] == "feat(add): add exists"
    message = (
        side.memory.commits[-1].message
        if side.memory is not None
        else scenarios.git_stdout(side.root, "log", "-1", "--format=%B")
    )
    assert ("Test: " in message) is told
    assert "egative" not in message


@pytest.mark.parametrize(
    "plan",
    [
        # r68, Password Validation cycle 1
        "One failing test for the 'Next requirement' is added to ensure that a password with no "
        "rules breaks and returns an empty list.",
        "Follow the supervisor hint: a smaller test",
    ],
)
def test_a_plan_that_names_the_testers_own_prompt_is_dropped(plan: str) -> None:
    assert _handed(plan, R67_TEST) == ""
