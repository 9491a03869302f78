"""Red team, a tester's `done` refused while a requirement has no test (drive/turns.py,
TesterTurn.refuse_done), on katas a person really writes: odd markdown shapes, none at all,
a listed item no test can show (a "Keep the code tidy", a stretch goal), a test named after
another requirement. FakeModel drives on real git and in memory (tests/drive/
test_loop_scenarios.py): milliseconds, no cargo."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support import loop_scenarios as scenarios
from support.fake_model import FakeModel
from support.loop_scenarios import (
    FEAT_ADD,
    SOURCE_ADD,
    STOP,
    TEST_ADD,
    Side,
    drive_once,
    fake_models,
    plan_answer,
)

DONE = plan_answer("all covered", done=True, reason="nothing left to test")
UNTESTABLE = "# Adder\n\n## Requirements\n\n1. add() exists.\n2. Keep the code tidy.\n"


@pytest.fixture(params=["memory"])  # real git: test_loop_scenarios.py, the contract test
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def _side(kind: str, tmp_path: Path, kata: str, monkeypatch: pytest.MonkeyPatch) -> Side:
    monkeypatch.setitem(scenarios.FILES, "kata.md", kata)
    return Side(kind, tmp_path)


def _first_cycle_then(*tester: Any) -> dict[str, FakeModel]:
    """Cycle 1 lands add() (test_add_exists); then the tester answers `tester`."""
    models = fake_models()
    models["tester"].enqueue(plan_answer("add exists", "tests/test_add.py", TEST_ADD), *tester)
    models["implementor"].enqueue(
        plan_answer("define add", "src/kata/__init__.py", SOURCE_ADD, commit=FEAT_ADD)
    )
    models["refactorer"].enqueue(*[plan_answer("nothing to tidy")] * 5)
    return models


def _refusals(model: FakeModel) -> int:
    return sum("done refused" in asked.user for asked in model.asked)


@pytest.mark.parametrize(
    "kata",
    [
        "# Adder\n\nAdd numbers given as text.\n",  # no list at all
        "# Adder\n\n## Requirements\n\nAdd numbers; add(1) is 1.\n",  # a paragraph, no items
        "# Adder\n\n## Requirements\n\n| # | what |\n|---|---|\n| 1 | add(1) is 1 |\n",  # a table
        "# Adder\n\n**Requirements**\n\n1. add(1) is 1.\n",  # bold text is no heading
        "# Adder\n\n## Requirements\n\n```\n1. add(1) is 1.\n```\n",  # inside a code fence
    ],
    ids=["no-list", "paragraph", "table", "bold", "fenced"],
)
def test_a_kata_without_listed_requirements_takes_done_at_once(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kata: str
) -> None:
    side = _side(kind, tmp_path, kata, monkeypatch)
    models = fake_models()
    models["tester"].enqueue(DONE)

    summary, _crew = drive_once(side, models, steps=5, profile="small-model")

    assert summary.stop_reason == "done"
    assert len(models["tester"].asked) == 1


@pytest.mark.parametrize(
    "kata",
    [
        UNTESTABLE,
        # a setext heading, checkboxes and a continuation line
        "# Adder\n\nRequirements\n------------\n\n- [x] add() exists.\n- [ ] Keep the code\n"
        "  tidy.\n",
        # a stretch goal is listed as a requirement too
        "# Adder\n\n## Requirements\n\n1. add() exists.\n\n## Stretch goals\n\n"
        "- Keep the code tidy.\n",
    ],
    ids=["numbered", "setext-checkboxes", "stretch-goals"],
)
def test_a_listed_item_no_test_can_show_does_not_refuse_done_for_ever(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kata: str
) -> None:
    # the tester answers done honestly: "Keep the code tidy" has no failing test to write. It is
    # refused for one whole turn, then taken: the drive ends done, not as failed cycles after
    # every refusal the supervisor allows
    side = _side(kind, tmp_path, kata, monkeypatch)
    models = _first_cycle_then(*[DONE] * 12)

    summary, crew = drive_once(side, models, steps=20, profile="small-model")

    assert summary.stop_reason == "done"
    assert crew.done_refused == {1: crew.max_attempts}
    assert crew.max_attempts == 3
    assert len(models["tester"].asked) == 1 + 3 + 1  # cycle 1, a refused turn, the done taken
    assert "done refused: requirement 2 of 2 has no test yet: Keep the code tidy." in (
        models["tester"].asked[2].user
    )
    assert side.subjects()[0] == "feat(add): add exists"


def test_a_passing_test_for_a_listed_item_marks_it_working_and_done_is_taken(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the way out the refusal names: a test for it, which passes at once
    side = _side(kind, tmp_path, UNTESTABLE, monkeypatch)
    tidy = "from kata import add\n\n\ndef test_keep_code_tidy():  # needs: def add\n    add()\n"
    models = _first_cycle_then(plan_answer("tidy", "tests/test_keep_code_tidy.py", tidy), DONE)

    summary, crew = drive_once(side, models, steps=20, profile="small-model")

    assert summary.stop_reason == "done"
    assert _refusals(models["tester"]) == 0
    assert crew.working == {1}


def test_a_passing_test_named_after_another_requirement_leaves_the_refusal_bounded(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the tester's test for requirement 2 is named after requirement 1 ("add exists"): it
    # passes at once and marks requirement 1 working, not 2; done is still refused, one turn
    side = _side(kind, tmp_path, UNTESTABLE, monkeypatch)
    misnamed = (
        "from kata import add\n\n\ndef test_add_exists_still():  # needs: def add\n    add()\n"
    )
    models = _first_cycle_then(
        plan_answer("tidy", "tests/test_add_again.py", misnamed), *[DONE] * 12
    )

    summary, crew = drive_once(side, models, steps=20, profile="small-model")

    assert summary.stop_reason == "done"
    assert 1 not in crew.working  # requirement 2 (index 1) was never shown working
    assert crew.done_refused == {1: crew.max_attempts}


def test_the_refusal_still_stops_an_early_done(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # what the refusal is for (a 0.5B tester answered done in cycle 1): a done with every
    # requirement open is refused, and a test then lands
    side = _side(kind, tmp_path, scenarios.KATA, monkeypatch)
    models = fake_models()
    models["tester"].enqueue(DONE, plan_answer("add exists", "tests/test_add.py", TEST_ADD), STOP)
    models["implementor"].enqueue(
        plan_answer("define add", "src/kata/__init__.py", SOURCE_ADD, commit=FEAT_ADD)
    )
    models["refactorer"].enqueue(plan_answer("nothing to tidy"))

    drive_once(side, models, steps=5, profile="small-model")

    assert "done refused: requirement 1 of 2 has no test yet: add() exists." in (
        models["tester"].asked[1].user
    )
    assert side.subjects()[0] == "feat(add): add exists"


@pytest.mark.parametrize("heading", ["Non-goals", "Out of scope"])
def test_a_non_goal_is_no_requirement_and_done_is_taken_at_once(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, heading: str
) -> None:
    kata = f"# Adder\n\n## Requirements\n\n1. add() exists.\n\n## {heading}\n\n- Parse files.\n"
    side = _side(kind, tmp_path, kata, monkeypatch)
    models = _first_cycle_then(DONE)

    summary, crew = drive_once(side, models, steps=20, profile="small-model")

    assert summary.stop_reason == "done"
    assert crew.done_refused == {}
    assert len(models["tester"].asked) == 2
