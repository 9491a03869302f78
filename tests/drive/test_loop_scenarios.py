"""Whole drive cycles through the real loop, turns and supervisor, with the ports faked: the model
(queued answers), the gate (markers instead of a suite) and the commit (no hooks). The scenarios
run on the in-memory workspace (no git at all, a few milliseconds; tests/support/memory_drive.py),
which keeps the contract that tests/drive/test_workspace_contract.py checks on real git alike; the
first scenario runs on real git (HooklessWorkspace) too. No HTTP, no cargo, no pytest run."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support.loop_scenarios import (
    FEAT_ADD,
    SOURCE_ADD,
    STOP,
    TEST_ADD,
    Side,
    cycle_models,
    drive_once,
    fake_models,
    plan_answer,
)


@pytest.fixture(params=["memory"])  # real git: the first scenario, and the contract test
def side(request: pytest.FixtureRequest, tmp_path: Path) -> Side:
    return Side(request.param, tmp_path)


def test_one_cycle_hands_over_commits_and_refactors_nothing(side: Side) -> None:
    models = fake_models()
    models["tester"].enqueue(plan_answer("add exists", "tests/test_add.py", TEST_ADD))
    commit = {"type": "feat", "scope": "src/kata/__init__.py", "summary": "Add a failing test"}
    models["implementor"].enqueue(
        plan_answer("define add", "src/kata/__init__.py", SOURCE_ADD, commit=commit)
    )
    models["refactorer"].enqueue(plan_answer("nothing to tidy"))

    summary, _crew = drive_once(side, models)

    assert summary.stop_reason == "steps"
    assert summary.cycles == 1
    # the model's path scope and tester-ish summary were replaced by derived ones
    assert side.subjects()[0] == "feat(add): add exists"
    assert side.head_files() == ["src/kata/__init__.py", "tests/test_add.py"]
    assert side.clean()
    # the implementor was told what the staged test calls
    assert "The test calls `add()`." in models["implementor"].asked[0].user


def test_a_stuck_implementor_has_the_test_set_aside_and_the_tester_told(side: Side) -> None:
    root = side.root
    models = fake_models()
    done = plan_answer("all covered", done=True, reason="nothing left")
    models["tester"].enqueue(
        plan_answer("add exists", "tests/test_add.py", TEST_ADD), done, done, done
    )
    wrong = plan_answer("try", "src/kata/__init__.py", "def sub() -> int:\n    return 0\n")
    models["implementor"].enqueue(wrong, wrong, wrong)

    summary, crew = drive_once(side, models, steps=1, profile="small-model")

    actions = [decision.action for decision in crew.decisions]
    assert actions[:3] == ["retry", "retry", "give-up"]
    assert "set-aside-test" in actions
    assert "set aside" in models["tester"].asked[1].user
    # the tester takes the other requirement first, and is told why
    assert "Requirement 2 of 2: add(1) is 1." in models["tester"].asked[1].user
    assert "(Put off for now: requirement 1;" in models["tester"].asked[1].user
    # and not sent back towards the put-off test (r67: the tester planned requirement 1 again)
    assert "was set aside; write a smaller test.\n" in models["tester"].asked[1].user
    # a done with requirement 2 still open is refused, every time; the tester's turn fails
    refusal = "done refused: requirement 2 of 2 has no test yet: add(1) is 1."
    assert all(refusal in asked.user for asked in models["tester"].asked[2:])
    assert summary.stop_reason == "steps"
    assert not (side.root / ".git" / "tddhooks" / "done.json").exists()
    assert side.subjects() == ["chore: scaffold the kata"]
    assert (root / ".tdd" / "set-aside").is_dir()
    assert not (root / "tests" / "test_add.py").exists()


def test_a_set_aside_after_a_landed_cycle_keeps_the_cycle_open_and_climbs_the_ladder(
    side: Side,
) -> None:
    """After a feat and its refactor turn, a test set aside is no landed cycle: the failure streak
    is not reset, so the next stuck test gets a preparatory refactor and the third ends the cycle
    as failed (it used to close as "cycle committed" and set aside for ever)."""
    models = cycle_models()
    test_one = "from kata import add\n\n\ndef test_add_one():  # needs: one\n    add(1)\n"
    models["tester"].enqueue(
        plan_answer("add(1) is 1", "tests/test_add_one.py", test_one),
        plan_answer("add(1) is 1", "tests/test_add_one.py", test_one),
        STOP,
    )
    wrong = plan_answer("try", "src/kata/__init__.py", "def sub() -> int:\n    return 0\n")
    models["implementor"].enqueue(*[wrong] * 9)
    models["refactorer"].enqueue(plan_answer("nothing to prepare"))

    summary, crew = drive_once(side, models, steps=3)

    actions = [(decision.action, decision.reason) for decision in crew.decisions]
    ladder = [action for action, _ in actions if action in
              ("set-aside-test", "preparatory-refactor", "abandon-cycle")]  # fmt: skip
    assert ladder == ["set-aside-test", "preparatory-refactor", "abandon-cycle"]
    closed = [reason for action, reason in actions if action == "next-cycle"]
    assert closed == ["cycle committed", "cycle failed (1 of 3 allowed in a row)"]
    assert summary.cycles == 2
    assert side.subjects()[0] == "feat(add): add exists"
    assert len(models["refactorer"].asked) == 2  # the cycle's turn, then the preparatory one


def test_done_is_taken_once_every_requirement_has_a_test(side: Side) -> None:
    """The other side of the refusal: with a test for each of the kata's two requirements, the
    tester's done ends the drive."""
    models = cycle_models()
    test_one = "from kata import add\n\n\ndef test_add_1_1():  # needs: one\n    add(1)\n"
    source = SOURCE_ADD + "\n# one\n"
    models["tester"].enqueue(
        plan_answer("add(1) is 1", "tests/test_add_1_1.py", test_one),
        plan_answer("all covered", done=True, reason="both requirements have a test"),
    )
    models["implementor"].enqueue(
        plan_answer("one", "src/kata/__init__.py", source,
                commit={"type": "feat", "scope": "add", "summary": "add(1) is 1"})
    )  # fmt: skip
    models["refactorer"].enqueue(plan_answer("nothing to tidy"))

    summary, _crew = drive_once(side, models, steps=5)

    assert summary.stop_reason == "done"
    assert summary.cycles == 2
    assert "done refused" not in models["tester"].asked[-1].user


def test_an_answer_copying_the_examples_placeholder_is_refused_unwritten(side: Side) -> None:
    copied = plan_answer("define add", "src/kata/__init__.py",
                     "def add() -> int:\n    SIMPLEST_BODY\n", commit=FEAT_ADD)  # fmt: skip
    right = plan_answer("define add", "src/kata/__init__.py", SOURCE_ADD, commit=FEAT_ADD)
    models = cycle_models(copied, right)

    summary, _crew = drive_once(side, models, profile="small-model")

    assert "SIMPLEST_BODY is a placeholder of the example answer" in (
        models["implementor"].asked[1].user
    )
    assert summary.stop_reason == "steps"
    assert side.subjects()[0] == "feat(add): add exists"


def test_each_role_is_offered_its_paths_in_the_schema_and_the_prompt(side: Side) -> None:
    models = cycle_models()

    drive_once(side, models, profile="small-model")

    def path_values(role: str) -> Any:
        schema = models[role].asked[0].schema
        assert schema is not None
        edits = schema["properties"]["edits"]
        return edits["items"]["properties"]["path"].get("enum"), edits.get("maxItems")

    # the tester: one new file named after the next requirement; the implementor: the source
    # files there are; the refactorer may start a module, so its path stays free
    assert path_values("tester") == (["tests/test_add_exists.py"], 1)
    assert path_values("implementor") == (["src/kata/__init__.py"], 1)
    assert path_values("refactorer") == (None, None)
    tester_prompt = models["tester"].asked[0].user
    assert "## Write to\n" in tester_prompt
    assert "- tests/test_add_exists.py (new file; name its test `test_add_exists`)" in tester_prompt
    assert "- src/kata/__init__.py\n" in models["implementor"].asked[0].user
    assert "## Write to" not in models["refactorer"].asked[0].user


def test_a_test_that_passes_at_once_points_the_tester_at_the_next_requirement(side: Side) -> None:
    models = fake_models()
    # the scaffold already says "The kata": this test passes at once (an overshoot), and its
    # name matches no requirement, so the one the tester was pointed at is what already works
    passing = "def test_something():  # needs: The kata\n    pass\n"
    models["tester"].enqueue(
        plan_answer("add exists", "tests/test_add_exists.py", passing),
        STOP,
    )

    drive_once(side, models, steps=1, profile="small-model")

    first, second = models["tester"].asked[:2]
    assert "Requirement 1 of 2: add() exists." in first.user
    assert "Requirement 2 of 2: add(1) is 1." in second.user
    assert "Already working, no test needed: requirement 1;" in second.user

    def offered(asked: Any) -> Any:
        assert asked.schema is not None
        return asked.schema["properties"]["edits"]["items"]["properties"]["path"]["enum"]

    assert offered(first) == ["tests/test_add_exists.py"]
    assert offered(second) == ["tests/test_add_1_1.py"]


def _refused_test(side: Side, path: str, content: str) -> str:
    """The tester's second prompt, after its first answer (`content` at `path`) was refused
    before anything was written: the work tree is as it was."""
    models = fake_models()
    models["tester"].enqueue(plan_answer("add exists", path, content), STOP)

    drive_once(side, models, steps=1, profile="small-model")  # the refusals are small-model aids

    assert side.clean()
    return str(models["tester"].asked[1].user)


def test_a_tester_offered_a_new_file_may_not_rewrite_an_existing_one(side: Side) -> None:
    second = _refused_test(side, "tests/.gitkeep", TEST_ADD)

    assert "'tests/.gitkeep' is an existing test file not under \"Write to\"" in second
    assert "put the new test in 'tests/test_add_exists.py'" in second
    assert (side.root / "tests" / ".gitkeep").read_text() == ""


def test_a_refactor_that_sends_the_file_back_unchanged_is_nothing_to_refactor(
    side: Side,
) -> None:
    # measured: the 1.5B refactorer sent src/lib.rs back as it was, and composing a commit
    # message with an empty diff summary crashed the drive
    models = cycle_models(refactor=plan_answer("tidy", "src/kata/__init__.py", SOURCE_ADD))

    summary, _crew = drive_once(side, models)

    assert summary.stop_reason == "steps"
    assert side.subjects()[0] == "feat(add): add exists"
    assert len(side.subjects()) == 2  # the scaffold and the feature: no refactor commit
    assert side.clean()


def test_an_implementor_sending_the_file_back_unchanged_is_told_and_asked_hotter(
    side: Side,
) -> None:
    same = plan_answer("add a test", "src/kata/__init__.py", '"""The kata."""\n', commit=FEAT_ADD)
    models = cycle_models(
        same, plan_answer("define add", "src/kata/__init__.py", SOURCE_ADD, commit=FEAT_ADD)
    )

    summary, _crew = drive_once(side, models)

    assert summary.stop_reason == "steps"
    assert side.subjects()[0] == "feat(add): add exists"
    first, second = models["implementor"].asked
    assert "your edits leave src/kata/__init__.py exactly as it is" in second.user
    # a retry asks with more variety: the same prompt at the same temperature got the same answer
    base = models["implementor"].settings.temperature
    assert (first.temperature, second.temperature) == (base, round(base + 0.2, 2))


def test_retry_temperatures_rise_to_one_and_never_fall_below_the_roles() -> None:
    from tddhooks.drive.asking import retry_temperature

    assert [retry_temperature(0.2, n) for n in range(1, 6)] == [0.2, 0.4, 0.6, 0.8, 1.0]
    assert retry_temperature(0.4, 9) == 1.0
    assert retry_temperature(1.3, 2) == 1.3


def test_a_tester_test_that_checks_many_requirements_at_once_is_sent_back(side: Side) -> None:
    # the 1.5B FizzBuzz tester's shape: one test asserting the examples of every requirement
    broad = "from kata import add\n\n\ndef test_add_exists():  # needs: def add\n" + "".join(
        f"    assert add({n}) == {n}\n" for n in range(5)
    )
    second = _refused_test(side, "tests/test_add_exists.py", broad)

    assert "the new test makes 5 assertions, checking several requirements at once" in second
    assert "keep at most 4 assertions, all about the Next requirement" in second
    assert not (side.root / "tests" / "test_add_exists.py").exists()


def _broad_test_handed_over(side: Side, profile: str, disabled: tuple[str, ...] = ()) -> bool:
    broad = "from kata import add\n\n\ndef test_add_exists():  # needs: def add\n" + "".join(
        f"    assert add({n}) == {n}\n" for n in range(5)
    )
    models = {"tester": fake_models()["tester"]}  # the person implements: the drive stops there
    models["tester"].enqueue(plan_answer("add exists", "tests/test_add_exists.py", broad), STOP)
    drive_once(side, models, steps=1, profile=profile, disabled=disabled)
    if len(models["tester"].asked) > 1:
        assert "[check: assertion-count] edits refused" in models["tester"].asked[1].user
    return len(models["tester"].asked) == 1


def test_many_assertions_in_one_test_are_refused_only_by_the_small_model_aid(side: Side) -> None:
    assert _broad_test_handed_over(side, "core")


def test_a_small_model_aid_a_person_disabled_refuses_nothing(side: Side) -> None:
    assert _broad_test_handed_over(side, "small-model", disabled=("assertion-count",))


def test_the_small_model_refusal_names_its_check(side: Side) -> None:
    assert not _broad_test_handed_over(side, "small-model")


def test_a_retry_is_told_what_the_tests_the_last_attempt_broke_expect(side: Side) -> None:
    """The gate's failure names the broken test, not the input it calls the code with: the
    implementor's next prompt says it (drive/gather.py broken_expectations)."""
    test_one = (
        "from kata import one\n\n\ndef test_one():  # needs: def one\n    assert one() == 1\n"
    )
    source_one = "def one() -> int:\n    return 1\n"
    models = cycle_models()
    models["tester"].enqueue(plan_answer("one is one", "tests/test_one.py", test_one))
    only_one = plan_answer("define one", "src/kata/__init__.py", source_one)
    feat = {"type": "feat", "scope": "one", "summary": "one"}
    both = plan_answer(
        "keep add", "src/kata/__init__.py", f"{SOURCE_ADD}\n\n{source_one}", commit=feat
    )
    models["implementor"].enqueue(only_one, both)
    models["refactorer"].enqueue(plan_answer("nothing to tidy"))

    summary, _crew = drive_once(side, models, steps=2)

    assert summary.cycles == 2
    first, retry = models["implementor"].asked[1:3]
    broken = "tests/test_add.py, which the last attempt broke, calls `add()`."
    assert broken not in first.user
    assert broken in retry.user
    assert "The test calls `one()` and expects `1`." in retry.user
