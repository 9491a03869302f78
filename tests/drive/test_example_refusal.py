"""The tester's new test that contradicts the kata's own example is refused before anything is
written, and the retry is told what the kata says (drive/turns.py TesterTurn.contradicts,
agents/examples.py). FakeModel drives on real git and in memory (tests/drive/
test_loop_scenarios.py): milliseconds, no cargo."""

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

KATA = (
    "# Adder\n\n## Interface\n\n- Python: `def add(*numbers: int) -> int` in the package.\n\n"
    "## Requirements\n\n1. One number is its own sum: 2 gives 2.\n2. Two numbers are added.\n"
)
WRONG = "from kata import add\n\n\ndef test_two():  # needs: def add\n    assert add(2) == 3\n"
RIGHT = WRONG.replace("== 3", "== 2")


@pytest.fixture(params=["memory"])  # real git: test_loop_scenarios.py, the contract test
def side(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Side:
    monkeypatch.setitem(scenarios.FILES, "kata.md", KATA)
    return Side(str(request.param), tmp_path)


def test_a_contradicting_test_is_refused_and_the_retry_is_told_the_katas_value(
    side: Side,
) -> None:
    models = fake_models()
    models["tester"].enqueue(
        plan_answer("two is three", "tests/test_wrong.py", WRONG),
        plan_answer("two is two", "tests/test_two.py", RIGHT),
        STOP,
    )
    models["implementor"].enqueue(
        plan_answer("define add", "src/kata/__init__.py", SOURCE_ADD, commit=FEAT_ADD)
    )
    models["refactorer"].enqueue(plan_answer("nothing to tidy"))

    drive_once(side, models, steps=5, profile="small-model")

    retry = models["tester"].asked[1].user
    assert "edits refused, nothing was written: the test in tests/test_wrong.py expects " in retry
    assert "requirement 1 of the kata says 2 gives 2; expect `2` there" in retry
    assert side.subjects()[0] == "feat(add): add exists"
    assert side.head_files() == ["src/kata/__init__.py", "tests/test_two.py"]
    assert side.clean()  # the refused file was never written
    assert not (side.root / "tests" / "test_wrong.py").exists()


def test_a_test_that_agrees_is_handed_over_at_once(side: Side) -> None:
    models = fake_models()
    models["tester"].enqueue(plan_answer("two is two", "tests/test_two.py", RIGHT), STOP)
    models["implementor"].enqueue(
        plan_answer("define add", "src/kata/__init__.py", SOURCE_ADD, commit=FEAT_ADD)
    )
    models["refactorer"].enqueue(plan_answer("nothing to tidy"))

    drive_once(side, models, steps=5, profile="small-model")

    assert "edits refused" not in models["tester"].asked[-1].user
    assert side.subjects()[0] == "feat(add): add exists"
