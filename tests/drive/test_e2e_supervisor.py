"""End to end, the supervisor stepping in: an implementor stuck on a test gets it set aside (the
tester asked for a smaller step), then a preparatory refactor; without a refactorer agent, only
smaller steps. History and files are checked, as everywhere."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.e2e_kit import (
    FIRST_FEAT,
    Script,
    answer,
    assert_audit_clean,
    assert_clean,
    configure,
    crate_of,
    drive,
    git,
    lib,
    rust_test,
    shipped_answers,
    subjects,
    upsert,
)
from support.fake_openai import FakeOpenAI


@pytest.mark.cargo
@pytest.mark.e2e
def test_a_stuck_implementor_gets_the_test_set_aside_then_a_preparatory_refactor(
    kata_repo: Path, fake_openai: FakeOpenAI
) -> None:
    since = configure(kata_repo, "max_attempts_per_agent: 5 ", "max_attempts_per_agent: 2 ")
    crate = crate_of(kata_repo)
    shipped = shipped_answers(crate)
    too_big = rust_test(crate, "two_numbers_are_added", 'assert_eq!(add("3,4"), 7);')
    nothing = answer("I cannot see how")
    script = Script()
    script.add(
        "tester",
        answer("two numbers", [upsert("tests/two_numbers.rs", too_big)]),
        shipped["tester"][0],
    )
    script.add("implementor", nothing, nothing, nothing, nothing, shipped["implementor"][0])
    header = f"//! The `{crate}` kata, grown one test at a time: tests go in `tests/`, code here.\n"
    prepared = header + "//! Everything the kata asks for comes through one function, `add`.\n"
    script.add(
        "refactorer",
        answer(
            "say where the entry point will be",
            [upsert("src/lib.rs", prepared)],
            commit={"type": "refactor", "summary": "document the crate's entry point"},
        ),
        answer("nothing worth changing"),
    )
    fake_openai.responder = script

    assert drive(kata_repo, fake_openai) == 0

    assert subjects(kata_repo, since) == [
        "refactor: document the crate's entry point",
        FIRST_FEAT,
    ]
    set_aside = kata_repo / ".tdd" / "set-aside" / "1"
    assert (set_aside / "tests" / "two_numbers.rs").read_text(encoding="utf-8") == too_big
    assert "tests/two_numbers.rs" not in git(kata_repo, "ls-files").stdout
    assert "was too big a step and was set aside" in script.prompts("tester")[1]
    assert "Preparatory refactor" in script.prompts("refactorer")[0]
    decisions = (kata_repo / ".tdd/logs/decisions.jsonl").read_text(encoding="utf-8")
    actions = [json.loads(line)["action"] for line in decisions.splitlines()]
    assert actions.count("set-aside-test") == 1
    assert actions.count("preparatory-refactor") == 1
    assert "preparatory refactor" in script.prompts("implementor")[4]
    handed_over = shipped["tester"][0]["edits"][0]["content"]
    assert git(kata_repo, "show", "HEAD:tests/empty_string.rs").stdout == handed_over
    assert script.left() == {}
    assert_clean(kata_repo)
    assert_audit_clean(kata_repo, since)


@pytest.mark.cargo
@pytest.mark.e2e
def test_without_a_refactorer_agent_a_stuck_implementor_only_gets_smaller_steps(
    kata_repo: Path, fake_openai: FakeOpenAI
) -> None:
    since = configure(kata_repo, "max_attempts_per_agent: 5 ", "max_attempts_per_agent: 2 ")
    crate = crate_of(kata_repo)
    shipped = shipped_answers(crate)
    two = rust_test(crate, "two_numbers_are_added", 'assert_eq!(add("3,4"), 7);')
    three = rust_test(crate, "three_numbers_are_added", 'assert_eq!(add("1,2,3"), 6);')
    nothing = answer("I cannot see how")
    script = Script()
    script.add(
        "tester",
        answer("two", [upsert("tests/two_numbers.rs", two)]),
        answer("three", [upsert("tests/three_numbers.rs", three)]),
        shipped["tester"][0],
    )
    script.add("implementor", *[nothing] * 4, shipped["implementor"][0])
    fake_openai.responder = script

    assert drive(kata_repo, fake_openai, "--roles", "tester,implementor") == 0

    assert subjects(kata_repo, since) == [FIRST_FEAT]
    set_aside = kata_repo / ".tdd" / "set-aside" / "1" / "tests"
    assert sorted(path.name for path in set_aside.iterdir()) == [
        "three_numbers.rs",
        "two_numbers.rs",
    ]
    assert script.left() == {}
    assert "refactorer" not in {role for role, _ in script.asked}
    assert "three_numbers_are_added was too big a step" in script.prompts("tester")[2]
    assert_clean(kata_repo)
    assert_audit_clean(kata_repo, since)


@pytest.mark.cargo
@pytest.mark.e2e
def test_a_preparatory_refactor_that_adds_the_katas_function_is_sent_back(
    kata_repo: Path, fake_openai: FakeOpenAI
) -> None:
    # a refactor keeps behaviour; `add` on an empty src/lib.rs is new behaviour (drive/added.py;
    # r67: such a refactor landed a whole FizzBuzz `say`, and the next test passed at once)
    since = configure(kata_repo, "max_attempts_per_agent: 5 ", "max_attempts_per_agent: 2 ")
    crate = crate_of(kata_repo)
    shipped = shipped_answers(crate)
    too_big = rust_test(crate, "two_numbers_are_added", 'assert_eq!(add("3,4"), 7);')
    nothing = answer("I cannot see how")
    script = Script()
    script.add(
        "tester",
        answer("two numbers", [upsert("tests/two_numbers.rs", too_big)]),
        shipped["tester"][0],
    )
    script.add("implementor", *[nothing] * 4, shipped["implementor"][0])
    implemented = lib("_text: &str) -> i32 {\n    0\n}")  # makes the empty-string test pass
    script.add(
        "refactorer",
        answer(
            "add the entry point",
            [upsert("src/lib.rs", implemented)],
            commit={"type": "refactor", "summary": "add the entry point"},
        ),
        answer("nothing worth changing"),
        answer("nothing worth changing"),
    )
    fake_openai.responder = script

    assert drive(kata_repo, fake_openai) == 0

    assert subjects(kata_repo, since) == [FIRST_FEAT]
    assert "the refactor adds `add`, which HEAD does not have" in script.prompts("refactorer")[1]
    steps = "".join(
        path.read_text(encoding="utf-8")
        for path in (kata_repo / ".tdd" / "logs").glob("step-*-refactorer*.json")
    )
    assert '"function-added"' in steps
    assert script.left() == {}
    assert_clean(kata_repo)
    assert_audit_clean(kata_repo, since)


@pytest.mark.cargo
@pytest.mark.e2e
def test_a_third_stuck_test_in_a_row_abandons_the_cycle(
    kata_repo: Path, fake_openai: FakeOpenAI
) -> None:
    since = configure(kata_repo, "max_attempts_per_agent: 5 ", "max_attempts_per_agent: 1 ")
    crate = crate_of(kata_repo)
    tests = {
        f"tests/{name}.rs": rust_test(crate, name, f'assert_eq!(add("{text}"), {total});')
        for name, text, total in (("two", "3,4", 7), ("three", "1,2,3", 6))
    }
    script = Script()
    script.add("tester", *(answer(path, [upsert(path, text)]) for path, text in tests.items()))
    script.add("implementor", *[answer("I cannot see how")] * 3)
    script.add("refactorer", answer("nothing to prepare"))
    fake_openai.responder = script

    # stuck on `two`: set aside; stuck on `three`: preparatory refactor, then stuck again: abandon
    assert drive(kata_repo, fake_openai) == 0  # the one cycle of --steps 1 ended, as failed

    assert subjects(kata_repo, since) == []
    set_aside = kata_repo / ".tdd" / "set-aside" / "1"
    for path, text in tests.items():
        assert (set_aside / path).read_text(encoding="utf-8") == text
    decisions = (kata_repo / ".tdd/logs/decisions.jsonl").read_text(encoding="utf-8")
    actions = [json.loads(line)["action"] for line in decisions.splitlines()]
    assert "abandon-cycle" in actions
    assert script.left() == {}
    assert_clean(kata_repo)
