"""Exact replay from the cache: a drive whose answers were partly rejected, driven again from the
same starting commit with the endpoint gone, makes the same commits with the same trees."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from support.e2e_kit import (
    Script,
    answer,
    assert_audit_clean,
    crate_of,
    drive_args,
    git,
    run_cli,
    shipped_answers,
    step_log,
    subjects,
    upsert,
)
from support.fake_openai import FakeOpenAI

pytestmark = [pytest.mark.cargo, pytest.mark.e2e]


def trees(repo: Path) -> list[str]:
    return git(repo, "log", "--format=%T", "HEAD").stdout.split()


def test_rejected_answers_and_retries_replay_offline_exactly(
    kata_repo: Path, fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    again = tmp_path / "again"
    shutil.copytree(kata_repo, again, symlinks=True)  # the same starting commit
    shipped = shipped_answers(crate_of(kata_repo))
    script = Script()
    script.add("tester", "this is not JSON at all", shipped["tester"][0])
    sneaky = answer("edit the test instead", [upsert("tests/empty_string.rs", "// gone\n")])
    script.add("implementor", sneaky, shipped["implementor"][0])
    script.add("refactorer", shipped["refactorer"][0])
    fake_openai.responder = script

    live = run_cli("drive", "-C", str(kata_repo), "--steps", "1", *drive_args(fake_openai))

    assert live.exit_code == 0, live.output
    assert script.left() == {}
    assert len(fake_openai.chat_requests) == 5
    assert [a["outcome"] for a in step_log(kata_repo, "step-1-tester.json")["attempts"]] == [
        "invalid-answer",
        "handed-over",
    ]
    assert step_log(kata_repo, "step-1-implementor.json")["attempts"][0]["outcome"] == "refused"

    fake_openai.stop()
    replayed = run_cli("drive", "-C", str(again), "--steps", "1", *drive_args(fake_openai))

    assert replayed.exit_code == 0, replayed.output
    assert trees(again) == trees(kata_repo)
    assert subjects(again) == subjects(kata_repo)
    attempts = step_log(again, "step-1-tester.json")["attempts"]
    assert [(a["outcome"], a["cached"]) for a in attempts] == [
        ("invalid-answer", True),
        ("handed-over", True),
    ]
    assert_audit_clean(again)
