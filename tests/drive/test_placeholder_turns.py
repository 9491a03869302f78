"""Red team, an answer copying the example's placeholder is refused unwritten (drive/turnkit.py):
a name the person's own code already has is no copy. FakeModel drives (tests/drive/
test_loop_scenarios.py): milliseconds, no cargo."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import loop_scenarios as scenarios
from support.loop_scenarios import FEAT_ADD, SOURCE_ADD, Side, cycle_models, drive_once, plan_answer

PERSONS = '"""The kata."""\n\nRESULT_TYPE = int  # the person\'s own name\n'


@pytest.mark.parametrize("kind", ["memory"])
def test_a_placeholder_name_the_persons_code_has_is_kept_and_the_edit_lands(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(scenarios.FILES, "src/kata/__init__.py", PERSONS)
    side = Side(kind, tmp_path)
    source = PERSONS + "\n\n" + SOURCE_ADD
    models = cycle_models(
        plan_answer("define add", "src/kata/__init__.py", source, commit=FEAT_ADD)
    )

    summary, _crew = drive_once(side, models, profile="small-model")

    assert len(models["implementor"].asked) == 1, models["implementor"].asked[-1].user[-300:]
    assert summary.stop_reason == "steps"
    assert side.subjects()[0] == "feat(add): add exists"


@pytest.mark.parametrize("kind", ["memory"])
def test_a_placeholder_the_file_did_not_have_is_still_refused(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(scenarios.FILES, "src/kata/__init__.py", PERSONS)
    side = Side(kind, tmp_path)
    copied = PERSONS + "\n\ndef add(*numbers: int) -> RESULT_TYPE:\n    SIMPLEST_BODY\n"
    right = PERSONS + "\n\n" + SOURCE_ADD
    models = cycle_models(
        plan_answer("define add", "src/kata/__init__.py", copied, commit=FEAT_ADD),
        plan_answer("define add", "src/kata/__init__.py", right, commit=FEAT_ADD),
    )

    summary, _crew = drive_once(side, models, profile="small-model")

    assert "SIMPLEST_BODY is a placeholder of the example answer" in (
        models["implementor"].asked[1].user
    )
    assert side.subjects()[0] == "feat(add): add exists"
    assert summary.stop_reason == "steps"
