"""A refactor that adds a function the kata's tests call, which HEAD does not have, is sent back
(drive/added.py). Measured (r67, FizzBuzz, 1.5B): a preparatory refactor on an empty
`src/lib.rs` landed a whole `say`, wrong for 7 and 15, and the tester's next test then passed at
once."""

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

from tddhooks.drive.added import added_function
from tddhooks.resources import read_template

FIZZBUZZ = read_template("katas/fizzbuzz.md")
EMPTY_LIB = "//! The `run_1` kata, grown one test at a time: tests go in `tests/`, code here.\n"
# as r67's preparatory refactor landed it (shortened)
R67_LIB = (
    'pub fn say(n: u32) -> String {\n    if n.is_multiple_of(7) {\n        "Fizz".to_string()\n'
    "    } else {\n        n.to_string()\n    }\n}\n"
)


def test_r67s_refactor_that_writes_say_into_an_empty_library_is_refused() -> None:
    why = added_function(FIZZBUZZ, "rust", {"src/lib.rs": EMPTY_LIB}, {"src/lib.rs": R67_LIB})

    assert why is not None
    assert why.startswith("the refactor adds `say`, which HEAD does not have")
    assert "comes in a feat: commit with the test that calls it" in why


@pytest.mark.parametrize(
    ("language", "before", "after"),
    [
        # the function reshaped where it was
        ("rust", {"src/lib.rs": R67_LIB}, {"src/lib.rs": R67_LIB.replace("7", "5")}),
        # moved to a module of its own, HEAD's file emptied
        ("rust", {"src/lib.rs": R67_LIB, "src/say.rs": ""},
         {"src/lib.rs": "mod say;\npub use say::say;\n", "src/say.rs": R67_LIB}),
        # a helper the kata does not name
        ("rust", {"src/lib.rs": R67_LIB},
         {"src/lib.rs": R67_LIB + "\nfn divides(n: u32, d: u32) -> bool {\n    n % d == 0\n}\n"}),
        ("python", {"src/fb/__init__.py": "def say(n: int) -> str:\n    return str(n)\n"},
         {"src/fb/__init__.py": "def say(n: int) -> str:\n    return f'{n}'\n"}),
    ],
)  # fmt: skip
def test_a_refactor_that_adds_no_function_of_the_kata_passes(
    language: str, before: dict[str, str], after: dict[str, str]
) -> None:
    assert added_function(FIZZBUZZ, language, before, after) is None


def test_a_python_refactor_that_defines_say_is_refused_and_a_kata_without_interface_is_not() -> (
    None
):
    before = {"src/fb/__init__.py": '"""FizzBuzz."""\n'}
    after = {"src/fb/__init__.py": "def say(n: int) -> str:\n    return str(n)\n"}

    assert added_function(FIZZBUZZ, "python", before, after) is not None
    assert added_function("# FizzBuzz\n\nSay numbers.\n", "python", before, after) is None


KATA = (
    "# Adder\n\n## Interface\n\n- Python: `def add(*numbers: int) -> int` and "
    "`def sub(a: int, b: int) -> int` in the package.\n\n"
    "## Requirements\n\n1. add() exists.\n2. sub(3, 1) is 2.\n"
)
TEST_ADD = "from kata import add\n\n\ndef test_add_exists():  # needs: def add\n    add()\n"
WITH_SUB = SOURCE_ADD + "\n\ndef sub(a: int, b: int) -> int:\n    return a - b\n"


@pytest.fixture(params=["memory"])  # real git: test_loop_scenarios.py, the contract test
def side(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Side:
    monkeypatch.setitem(scenarios.FILES, "kata.md", KATA)
    return Side(str(request.param), tmp_path)


def test_the_refactorer_that_adds_the_next_function_is_sent_back(side: Side) -> None:
    models = fake_models()
    models["tester"].enqueue(plan_answer("add exists", "tests/test_add.py", TEST_ADD), STOP)
    models["implementor"].enqueue(
        plan_answer("define add", "src/kata/__init__.py", SOURCE_ADD, commit=FEAT_ADD)
    )
    models["refactorer"].enqueue(
        plan_answer("prepare sub", "src/kata/__init__.py", WITH_SUB), plan_answer("nothing to tidy")
    )

    drive_once(side, models, steps=5, profile="small-model")

    retry = models["refactorer"].asked[1].user
    assert "the refactor adds `sub`, which HEAD does not have" in retry
    assert side.subjects() == ["feat(add): add exists", "chore: scaffold the kata"]
    assert side.clean()
    source = (side.root / "src" / "kata" / "__init__.py").read_text(encoding="utf-8")
    assert "def sub" not in source
