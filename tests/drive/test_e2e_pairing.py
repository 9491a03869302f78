"""End to end with a person in the loop: a staged test implemented by `tddhooks step`, roles the
person plays, a tree the drive must not touch, the kata reported done, the token budget, a drive
from nothing with --kata, and `tddhooks demo`."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support.e2e_kit import (
    AGENT,
    KEY,
    Script,
    answer,
    assert_audit_clean,
    assert_clean,
    authors,
    crate_of,
    drive_args,
    git,
    run_cli,
    rust_test,
    shipped_answers,
    subjects,
    write_files,
)
from support.fake_openai import FakeOpenAI


def events(output: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in output.splitlines() if line.startswith("{")]


@pytest.mark.cargo
@pytest.mark.e2e
def test_step_implements_a_persons_staged_failing_test(
    kata_repo: Path, fake_openai: FakeOpenAI
) -> None:
    crate = crate_of(kata_repo)
    write_files(
        kata_repo, {"tests/mine.rs": rust_test(crate, "empty_is_zero", 'assert_eq!(add(""), 0);')}
    )
    git(kata_repo, "add", "tests/mine.rs")
    person_blob = git(kata_repo, "rev-parse", ":tests/mine.rs").stdout.strip()
    fake_openai.responder = script = Script().add(
        "implementor", shipped_answers(crate)["implementor"][0]
    )

    result = run_cli("step", "-C", str(kata_repo), "--json", *drive_args(fake_openai))

    assert result.exit_code == 0, result.output
    assert len(subjects(kata_repo)) == 1
    assert subjects(kata_repo)[0].startswith("feat(add): ")
    assert authors(kata_repo) == [AGENT]
    assert git(kata_repo, "rev-parse", "HEAD:tests/mine.rs").stdout.strip() == person_blob
    assert [role for role, _ in script.asked] == ["implementor"]  # exactly one agent turn
    kinds = [event["event"] for event in events(result.output)]
    assert kinds[0] == "drive-started"
    assert kinds[-1] == "drive-finished"
    assert "committed" in kinds
    assert events(result.output)[-1]["stop_reason"] == "turn"
    assert_clean(kata_repo)
    assert_audit_clean(kata_repo)


@pytest.mark.cargo
def test_the_persons_role_stops_the_drive_with_what_to_do(
    kata_repo: Path, fake_openai: FakeOpenAI
) -> None:
    result = run_cli(
        "drive", "-C", str(kata_repo), "--roles", "implementor,refactorer", *drive_args(fake_openai)
    )

    assert result.exit_code == 0, result.output
    assert "your turn (tester)" in result.output
    assert "git add" in result.output
    assert fake_openai.chat_requests == []


@pytest.mark.cargo
def test_a_dirty_tree_stops_before_any_model_call_and_is_left_alone(
    kata_repo: Path, fake_openai: FakeOpenAI
) -> None:
    write_files(kata_repo, {"src/lib.rs": "// my work in progress\n", "scratch.txt": "ideas\n"})

    result = run_cli("drive", "-C", str(kata_repo), *drive_args(fake_openai))

    assert result.exit_code == 1
    assert "git stash push --keep-index --include-untracked" in result.output
    assert "git add" in result.output
    assert fake_openai.chat_requests == []
    assert (kata_repo / "src/lib.rs").read_text(encoding="utf-8") == "// my work in progress\n"
    assert (kata_repo / "scratch.txt").read_text(encoding="utf-8") == "ideas\n"


@pytest.mark.cargo
def test_staged_source_changes_stop_the_drive_naming_the_files(
    kata_repo: Path, fake_openai: FakeOpenAI
) -> None:
    write_files(kata_repo, {"src/lib.rs": "pub fn add(_text: &str) -> i32 {\n    0\n}\n"})
    git(kata_repo, "add", "src/lib.rs")

    result = run_cli("drive", "-C", str(kata_repo), *drive_args(fake_openai))

    assert result.exit_code == 1
    assert "src/lib.rs" in result.output
    assert "git restore --staged" in result.output
    assert fake_openai.chat_requests == []
    assert git(kata_repo, "diff", "--cached", "--name-only").stdout == "src/lib.rs\n"


@pytest.mark.cargo
def test_the_tester_reporting_the_kata_done_stops_this_drive_and_the_next(
    kata_repo: Path, fake_openai: FakeOpenAI
) -> None:
    # a kata that lists no requirements takes the tester's word (with requirements open, a
    # done is refused: tests/support/loop_scenarios.py)
    (kata_repo / "kata.md").write_text("# Free form\n\nAdd numbers as you see fit.\n")
    subprocess.run(["git", "commit", "-q", "--no-verify", "-am", "docs: a free-form kata"],
                   cwd=kata_repo, check=True)  # fmt: skip
    done = answer("all covered", done=True, reason="every requirement has a passing test")
    fake_openai.responder = Script().add("tester", done)

    first = run_cli("drive", "-C", str(kata_repo), "--json", *drive_args(fake_openai))
    second = run_cli("drive", "-C", str(kata_repo), "--json", *drive_args(fake_openai))

    assert first.exit_code == 0
    assert second.exit_code == 0
    assert events(first.output)[-1]["stop_reason"] == "done"
    assert events(second.output)[-1]["stop_reason"] == "done"
    assert len(fake_openai.chat_requests) == 1
    assert subjects(kata_repo) == ["docs: a free-form kata"]


@pytest.mark.cargo
@pytest.mark.e2e
def test_the_token_budget_stops_the_drive_between_turns(
    kata_repo: Path, fake_openai: FakeOpenAI
) -> None:
    fake_openai.responder = Script().add(
        "tester", shipped_answers(crate_of(kata_repo))["tester"][0]
    )

    result = run_cli(
        "drive",
        "-C",
        str(kata_repo),
        "--json",
        "--max-tokens-total",
        "10",
        *drive_args(fake_openai),
    )

    assert result.exit_code == 0, result.output
    finished = events(result.output)[-1]
    assert finished["stop_reason"] == "budget"
    assert len(fake_openai.chat_requests) == 1
    # the turn that crossed the budget finished cleanly: its test is handed over
    assert git(kata_repo, "diff", "--cached", "--name-only").stdout == "tests/empty_string.rs\n"


def test_a_missing_key_fails_before_anything_is_created(tmp_path: Path) -> None:
    target = tmp_path / "new-kata"

    result = run_cli(
        "drive",
        "--kata",
        "string-calculator",
        "--work-dir",
        str(target),
        "--provider",
        "openai",
        "--model",
        "gpt-4.1-mini",
    )

    assert result.exit_code == 2
    assert "OPENAI_API_KEY" in result.output
    assert not target.exists()


@pytest.mark.cargo
@pytest.mark.e2e
def test_drive_with_a_kata_file_starts_from_nothing(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    kata = tmp_path / "kata.md"
    kata.write_text(
        "# Adder\n\nAdd up numbers written in a string.\n\n## Requirements\n\n"
        "1. An empty string sums to 0 — «vide» is zero.\n",
        encoding="utf-8",
    )
    target = tmp_path / "new-dir"
    crate = "new_dir"
    fake_openai.responder = Script(shipped_answers(crate))

    result = run_cli(
        "drive",
        "--kata",
        str(kata),
        "--work-dir",
        str(target),
        "--steps",
        "1",
        *drive_args(fake_openai),
    )

    assert result.exit_code == 0, result.output
    assert crate_of(target) == crate
    assert subjects(target) == ["feat(add): an empty string sums to 0"]
    message = git(target, "log", "-1", "--format=%B", "HEAD").stdout
    assert "- Kata goal: An empty string sums to 0 — «vide» is zero." in message
    assert (target / "kata.md").read_text(encoding="utf-8") == kata.read_text(encoding="utf-8")
    assert_clean(target)
    assert_audit_clean(target)
    assert KEY not in git(target, "log", "--format=%B").stdout


@pytest.mark.cargo
@pytest.mark.e2e
def test_demo_replays_the_recorded_session_to_a_green_history(tmp_path: Path) -> None:
    target = tmp_path / "demo"

    result = run_cli("demo", str(target), "--quiet")

    assert result.exit_code == 0, result.output
    assert "replaying a recorded session" in result.output
    assert "--model" in result.output  # how to point it at a live model
    assert "drive summary" in result.output
    assert "tddhooks init" not in [line.strip() for line in result.output.splitlines()]  # --quiet
    assert "created" not in result.output  # init's table: the summary only
    assert "cycle 1 · tester" not in result.output
    assert subjects(target) == [
        "feat(add): an empty string sums to 0",
        "feat(add): a single number is its own sum",
        "feat(add): two comma-separated numbers are added",
        "refactor(add): name the parsing of one number",
    ]
    assert_clean(target)
    assert_audit_clean(target)

    again = run_cli("demo", str(target), "--steps", "1")  # a previous demo is rewound and replayed

    assert again.exit_code == 0, again.output
    assert "cycle 1 · tester" in again.output  # the live view
    assert subjects(target) == ["feat(add): an empty string sums to 0"]


def test_demo_refuses_a_directory_that_is_not_a_previous_demo(tmp_path: Path) -> None:
    write_files(tmp_path / "mine", {"notes.md": "mine\n"})

    result = run_cli("demo", str(tmp_path / "mine"))

    assert result.exit_code == 2
    assert "not a previous demo" in result.output
    assert (tmp_path / "mine" / "notes.md").read_text(encoding="utf-8") == "mine\n"


@pytest.mark.cargo
@pytest.mark.parametrize("name", ["my demo", "katas[draft]"])
def test_demo_names_its_directory_as_a_shell_takes_it(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # red team: "git -C /tmp/my demo log" split at the space, and rich took "[draft]" for markup
    # and dropped it, so the commands the demo suggests named another directory
    monkeypatch.setattr("tddhooks.commands.drive.run", lambda **_options: 0)
    target = tmp_path / name

    result = run_cli("demo", str(target))

    assert result.exit_code == 0, result.output
    quoted = f"'{target}'"
    assert f"in {quoted}:" in result.output
    assert f"`git -C {quoted} log --stat`" in result.output
    assert f"`tddhooks drive -C {quoted} --steps 3" in result.output


@pytest.mark.cargo
def test_demo_names_tddhooks_as_it_can_be_typed_without_the_venv_activated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a newcomer ran `.venv/bin/tddhooks demo` as the README says; `tddhooks audit -C …` was then
    # "command not found"
    monkeypatch.setattr("tddhooks.commands.drive.run", lambda **_options: 0)
    cargo = shutil.which("cargo")
    assert cargo is not None
    # git and cargo, and no tddhooks on PATH
    monkeypatch.setenv("PATH", f"{Path(cargo).parent}:/usr/bin:/bin")
    target = tmp_path / "demo"

    result = run_cli("demo", str(target))

    assert result.exit_code == 0, result.output
    script = Path(sys.executable).parent / "tddhooks"
    assert f"`{script} audit -C {target}`" in result.output
    assert f"`{script} init my-kata --kata bowling`" in result.output


@pytest.mark.cargo
@pytest.mark.e2e
def test_step_by_step_a_cycle_goes_round_and_an_empty_refactor_is_not_asked_again(
    kata_repo: Path, fake_openai: FakeOpenAI
) -> None:
    shipped = shipped_answers(crate_of(kata_repo))
    script = Script().add("tester", *shipped["tester"][:2])
    script.add("implementor", shipped["implementor"][0]).add("refactorer", shipped["refactorer"][0])
    fake_openai.responder = script

    for _ in range(4):
        result = run_cli("step", "-C", str(kata_repo), *drive_args(fake_openai))
        assert result.exit_code == 0, result.output

    assert [role for role, _ in script.asked] == ["tester", "implementor", "refactorer", "tester"]
    assert subjects(kata_repo) == ["feat(add): an empty string sums to 0"]
    assert git(kata_repo, "diff", "--cached", "--name-only").stdout == "tests/single_number.rs\n"


@pytest.mark.cargo
@pytest.mark.e2e
def test_the_shipped_session_drives_a_kata_of_any_crate_name(tmp_path: Path) -> None:
    """`--model replay:string-calculator` fills the session's `{crate}` with this kata's crate,
    as the demo does (found by a newcomer: every tester answer failed on `use {crate}::add;`)."""
    target = tmp_path / "my-calculator"
    made = run_cli("init", str(target), "--kata", "string-calculator", "--language", "rust")
    assert made.exit_code == 0, made.output

    result = run_cli("drive", "-C", str(target), "--steps", "1",
                     "--model", "replay:string-calculator")  # fmt: skip

    assert result.exit_code == 0, result.output
    assert subjects(target)[0] == "feat(add): an empty string sums to 0"
    assert "use my_calculator::add;" in git(target, "show", "HEAD:tests/empty_string.rs").stdout
    assert_audit_clean(target)


@pytest.mark.pygate
def test_a_session_in_the_kata_replays_with_the_drive_run_from_elsewhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`tddhooks drive -C kata --model replay:s.jsonl` reads the kata's `s.jsonl` when the
    current directory has none, as doctor does (llm/replay.py load_session `base`)."""
    target = tmp_path / "kata"
    made = run_cli("init", str(target), "--kata", "fizzbuzz", "--language", "python")
    assert made.exit_code == 0, made.output
    # one tester answer the tester cannot use: the drive reads it, then runs out of answers
    record = {"role": "tester", "answer": "not json"}
    (target / "s.jsonl").write_text(json.dumps(record) + "\n", encoding="utf-8")
    git(target, "add", "s.jsonl")
    git(target, "commit", "-q", "--no-verify", "-m", "chore: a recorded session")
    monkeypatch.chdir(tmp_path)

    result = run_cli("drive", "-C", str(target), "--steps", "1", "--model", "replay:s.jsonl")

    assert "no recorded session" not in result.output
    assert "no more answers for role tester" in result.output
