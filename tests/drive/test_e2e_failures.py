"""End to end, when things go wrong: a hanging implementation, a refactor that breaks behaviour,
a server failing mid-drive, Ctrl-C mid-turn. The repository must stay consistent and resumable."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
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
    drive_args,
    git,
    lib,
    role_of,
    shipped_answers,
    subjects,
    upsert,
)
from support.fake_openai import Delay, Fail, FakeOpenAI, Reply

from tddhooks.policy.handoff import read_handoff


def staged(repo: Path) -> str:
    return str(git(repo, "status", "--porcelain", "--untracked-files=all").stdout)


@pytest.mark.cargo
@pytest.mark.e2e
def test_a_hanging_implementation_is_cut_off_by_the_ci_timeout(
    kata_repo: Path, fake_openai: FakeOpenAI
) -> None:
    since = configure(kata_repo, "timeout_s: 300 ", "timeout_s: 15 ")
    shipped = shipped_answers(crate_of(kata_repo))
    # hangs without burning a core for the whole timeout (the cut-off is the same)
    hang = "loop {\n        std::thread::sleep(std::time::Duration::from_millis(10));\n    }"
    hanging = lib(f"_text: &str) -> i32 {{\n    {hang}\n}}")
    script = Script().add("tester", shipped["tester"][0])
    script.add(
        "implementor", answer("loop", [upsert("src/lib.rs", hanging)]), shipped["implementor"][0]
    )
    fake_openai.responder = script

    start = time.monotonic()
    assert drive(kata_repo, fake_openai, "--roles", "tester,implementor") == 0

    assert time.monotonic() - start < 120
    assert subjects(kata_repo, since) == [FIRST_FEAT]
    assert "timed out" in script.prompts("implementor")[1]
    stray = subprocess.run(["pgrep", "-f", "deps/empty_string-"], capture_output=True, text=True)
    assert stray.stdout == ""
    assert_clean(kata_repo)
    assert_audit_clean(kata_repo, since)


@pytest.mark.cargo
@pytest.mark.e2e
def test_a_refactor_that_breaks_behaviour_is_reverted_after_three_attempts(
    kata_repo: Path, fake_openai: FakeOpenAI
) -> None:
    shipped = shipped_answers(crate_of(kata_repo))
    breaking = [
        lib("_text: &str) -> i32 {\n    1\n}"),  # a test fails
        "pub fn sum(_text: &str) -> i32 {\n    0\n}\n",  # the test no longer compiles
        # clippy refuses, and has no fix for it (a `return zero;` it would now fix, round by round)
        lib("_text: &str) -> i32 {\n    let _pi = 3.14;\n    0\n}"),
    ]
    script = Script().add("tester", shipped["tester"][0])
    script.add("implementor", shipped["implementor"][0])
    script.add("refactorer", *(answer("tidy", [upsert("src/lib.rs", text)]) for text in breaking))
    fake_openai.responder = script

    assert drive(kata_repo, fake_openai) == 0

    assert subjects(kata_repo) == [FIRST_FEAT]
    assert script.left() == {}
    assert_clean(kata_repo)
    log = json.loads((kata_repo / ".tdd/logs/step-1-refactorer.json").read_text("utf-8"))
    assert log["outcome"] == "reverted"
    assert [a["outcome"] for a in log["attempts"]] == ["red", "red", "red"]
    assert_audit_clean(kata_repo)


@pytest.mark.cargo
@pytest.mark.e2e
def test_a_server_failing_mid_drive_leaves_the_handoff_and_the_next_drive_resumes(
    kata_repo: Path, fake_openai: FakeOpenAI
) -> None:
    shipped = shipped_answers(crate_of(kata_repo))
    down = Script().add("tester", shipped["tester"][0])
    down.add("implementor", *[Fail(500, "overloaded")] * 4)  # first call + 3 retries
    fake_openai.responder = down

    assert drive(kata_repo, fake_openai, "--roles", "tester,implementor") == 3

    assert staged(kata_repo) == "A  tests/empty_string.rs\n"
    assert read_handoff(kata_repo) is not None
    assert subjects(kata_repo) == []
    back = Script().add("implementor", Fail(500, "one more hiccup"), shipped["implementor"][0])
    fake_openai.responder = back

    assert drive(kata_repo, fake_openai, "--roles", "tester,implementor") == 0

    assert subjects(kata_repo) == [FIRST_FEAT]
    assert len(back.prompts("implementor")) == 2  # the 500 was retried by the client
    assert_clean(kata_repo)
    assert_audit_clean(kata_repo)


@pytest.mark.cargo
@pytest.mark.e2e
def test_ctrl_c_while_the_model_thinks_leaves_a_consistent_repository_and_drive_resumes(
    kata_repo: Path, fake_openai: FakeOpenAI
) -> None:
    shipped = shipped_answers(crate_of(kata_repo))
    slow = Script().add("tester", shipped["tester"][0])
    slow.add("implementor", Delay(120, Reply(json.dumps(shipped["implementor"][0]))))
    fake_openai.responder = slow
    command = [
        sys.executable,
        "-m",
        "tddhooks",
        "drive",
        "-C",
        str(kata_repo),
        "--steps",
        "1",
        "--roles",
        "tester,implementor",
        *drive_args(fake_openai),
    ]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 180
        while not any(role_of(r.body or {}) == "implementor" for r in fake_openai.chat_requests):
            assert child.poll() is None, "the drive ended before the implementor's request"
            assert time.monotonic() < deadline, "no implementor request"
            time.sleep(0.2)
        child.send_signal(signal.SIGINT)
        output, _ = child.communicate(timeout=60)
    finally:
        child.kill()
    assert child.returncode == 130, output
    assert "resume" in output
    assert staged(kata_repo) == "A  tests/empty_string.rs\n"  # the handed-over test stays staged
    assert read_handoff(kata_repo) is not None
    fake_openai.responder = Script().add("implementor", shipped["implementor"][0])

    assert drive(kata_repo, fake_openai, "--roles", "tester,implementor") == 0

    assert subjects(kata_repo) == [FIRST_FEAT]
    assert_clean(kata_repo)
    assert_audit_clean(kata_repo)


@pytest.mark.cargo
def test_ctrl_c_after_the_edits_are_written_puts_back_exactly_what_the_turn_wrote(
    kata_repo: Path, fake_openai: FakeOpenAI
) -> None:
    # the formatter interrupts the drive (SIGINT to its parent) right after the test was written
    configure(kata_repo, "fmt_cmd: null", 'fmt_cmd: ["sh", "-c", "kill -INT $PPID"]')
    head = git(kata_repo, "rev-parse", "HEAD").stdout
    fake_openai.responder = Script().add(
        "tester", shipped_answers(crate_of(kata_repo))["tester"][0]
    )

    assert drive(kata_repo, fake_openai) == 130

    assert not (kata_repo / "tests" / "empty_string.rs").exists()
    assert_clean(kata_repo)
    assert git(kata_repo, "rev-parse", "HEAD").stdout == head
    log = json.loads((kata_repo / ".tdd/logs/step-1-tester.json").read_text("utf-8"))
    assert log["outcome"] == "interrupted"


NO_TODO_HOOK = """  - repo: local
    hooks:
      - id: no-todo
        name: no TODO left in the source
        entry: TODO
        language: pygrep
        files: ^src/
"""


@pytest.mark.cargo
@pytest.mark.e2e
def test_a_commit_rejected_by_a_hook_is_a_failed_attempt_fed_back(
    kata_repo: Path, fake_openai: FakeOpenAI
) -> None:
    # their own pre-commit framework hook; installed after ours, it keeps ours as .legacy
    (kata_repo / ".pre-commit-config.yaml").write_text("repos:\n" + NO_TODO_HOOK, "utf-8")
    git(kata_repo, "add", ".pre-commit-config.yaml")
    git(kata_repo, "commit", "-q", "--no-verify", "-m", "chore: no TODO in the source")
    framework = [sys.executable, "-m", "pre_commit", "install"]
    assert subprocess.run(framework, cwd=kata_repo, capture_output=True).returncode == 0
    since = git(kata_repo, "rev-parse", "HEAD").stdout.strip()
    shipped = shipped_answers(crate_of(kata_repo))
    todo = lib("_text: &str) -> i32 {\n    // TODO: the real sum\n    0\n}")
    script = Script().add("tester", shipped["tester"][0])
    script.add(
        "implementor", answer("zero", [upsert("src/lib.rs", todo)]), shipped["implementor"][0]
    )
    fake_openai.responder = script

    assert drive(kata_repo, fake_openai, "--roles", "tester,implementor") == 0

    assert subjects(kata_repo, since) == [FIRST_FEAT]
    assert "TODO" not in git(kata_repo, "show", "HEAD:src/lib.rs").stdout
    retry = script.prompts("implementor")[1]
    assert "the commit hooks rejected the commit" in retry
    assert "no TODO left in the source" in retry
    log = json.loads((kata_repo / ".tdd/logs/step-1-implementor.json").read_text("utf-8"))
    assert [a["outcome"] for a in log["attempts"]] == ["rejected", "committed"]
    assert_clean(kata_repo)
    assert_audit_clean(kata_repo, since)


LEAP_KATA = """# Leap Year

Tell whether a year is a leap year.

## Requirements

1. A year divisible by 4 is a leap year: 1996 gives true.
2. A year divisible by 100 is not: 1900 gives false.
"""


@pytest.mark.cargo
@pytest.mark.e2e
def test_a_lint_in_the_testers_test_that_shows_once_the_code_builds_is_fixed_by_the_drive(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    """Newcomer: in a kata without an Interface section the tester's
    `assert_eq!(is_leap(1996), true)` does not build, so clippy says nothing of it until the
    implementor writes `is_leap`; the implementor may not touch the test and lost its turn. The
    drive applies clippy's safe fix to the handed-over test and pins the handoff to it."""
    from tddhooks.commands import init_cmd

    kata = tmp_path / "leap.md"
    kata.write_text(LEAP_KATA, encoding="utf-8")
    repo = tmp_path / "leap"
    init_cmd.run(repo, language="rust", kata=str(kata), direct=False)
    crate = crate_of(repo)
    test = (
        f"use {crate}::is_leap;\n\n#[test]\nfn leap_1996() {{\n"
        "    assert_eq!(is_leap(1996), true);\n}\n"
    )
    code = "pub fn is_leap(year: u32) -> bool {\n    year.is_multiple_of(4)\n}\n"
    script = Script().add("tester", answer("1996 is leap", [upsert("tests/leap_1996.rs", test)]))
    commit = {"type": "feat", "scope": "leap", "summary": "a year divisible by 4 is leap"}
    script.add("implementor", answer("divisible by 4", [upsert("src/lib.rs", code)], commit=commit))
    script.add("refactorer", answer("nothing to tidy"))
    fake_openai.responder = script

    assert drive(repo, fake_openai) == 0

    assert len(script.prompts("implementor")) == 1  # landed at its first attempt
    assert subjects(repo)[0].startswith("feat(")
    committed = git(repo, "show", "HEAD:tests/leap_1996.rs").stdout
    assert "assert!(is_leap(1996));" in committed
    assert_clean(repo)
    assert_audit_clean(repo)


def test_a_persons_staged_test_is_never_fixed_by_the_drive() -> None:
    """Without the agent tester's handoff note (a person staged the test), `settled` keeps the
    gate's verdict and touches nothing."""
    from types import SimpleNamespace
    from typing import cast

    from tddhooks.drive.crew import Crew
    from tddhooks.drive.turns import ImplementorTurn
    from tddhooks.policy.verdicts import Verdict
    from tddhooks.runners.base import TestReport

    verdict = Verdict(tree="t", key="k", green=False, steps=[], report=TestReport(),
                      test_names=[], duration_s=0.0, created_at=0.0)  # fmt: skip
    turn = object.__new__(ImplementorTurn)
    turn.handoff = None
    turn.crew = cast(Crew, SimpleNamespace())  # any use of the workspace or the gate would fail
    turn.root = Path("/nonexistent")
    assert turn.settled(verdict) is verdict


def test_an_interrupted_fix_of_the_testers_test_puts_the_handed_test_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Red team: a Ctrl-C while the gate judges the fixed test left the fixed test staged and the
    handoff pinned to the handed one; the commit-msg hook then refuses the implementor's feat
    commit (the test changed since the handoff) on the next drive."""
    from types import SimpleNamespace
    from typing import cast

    from tddhooks.drive import turns
    from tddhooks.drive.crew import Crew
    from tddhooks.drive.turns import ImplementorTurn
    from tddhooks.policy.handoff import Handoff
    from tddhooks.policy.verdicts import Verdict
    from tddhooks.runners.base import TestReport

    (tmp_path / "tests").mkdir()
    test = tmp_path / "tests" / "t.rs"
    test.write_text("handed\n", encoding="utf-8")
    staged: list[str] = []

    def fix(root: Path, settings: object, paths: list[str]) -> None:
        test.write_text("fixed\n", encoding="utf-8")

    def judge(root: Path, settings: object) -> Verdict:
        raise KeyboardInterrupt

    monkeypatch.setattr(turns, "lints_in_test", lambda verdict, paths: "a lint")
    verdict = Verdict(tree="t", key="k", green=False, steps=[], report=TestReport(passed=1),
                      test_names=[], duration_s=0.0, created_at=0.0)  # fmt: skip
    turn = object.__new__(ImplementorTurn)
    blobs = {"tests/t.rs": "0" * 40}
    turn.handoff = Handoff(head=None, intent="i", test_names=["t"], red_output="",
                           test_blobs=blobs, by="tester", created_at=0.0)  # fmt: skip
    turn.root = tmp_path
    workspace = SimpleNamespace(
        read_blob=lambda root, rev, path: "handed\n",
        format_files=fix,
        stage=lambda root, paths: staged.append(test.read_text(encoding="utf-8")),
    )
    turn.crew = cast(Crew, SimpleNamespace(workspace=workspace, gate=SimpleNamespace(
        staged=judge), settings=SimpleNamespace(), on=lambda check: True))  # fmt: skip

    with pytest.raises(KeyboardInterrupt):
        turn.settled(verdict)

    assert test.read_text(encoding="utf-8") == "handed\n"
    assert staged[-1] == "handed\n"  # the index holds the handed test again
