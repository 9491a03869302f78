"""End to end: `tddhooks drive` with the real openai SDK against the fake server, on a real Rust
kata with the real hooks. Every test checks the history (audit re-runs cargo on each commit)
and the files, not the log text."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from support.e2e_kit import (
    AGENT,
    KEY,
    Script,
    all_files,
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
    step_log,
    subjects,
    upsert,
)
from support.fake_openai import FakeOpenAI, Reply

pytestmark = [pytest.mark.cargo, pytest.mark.e2e]

SHIPPED_SUBJECTS = [
    "feat(add): an empty string sums to 0",
    "feat(add): a single number is its own sum",
    "feat(add): two comma-separated numbers are added",
    "refactor(add): name the parsing of one number",
]


def trees(repo: Path) -> list[str]:
    return git(repo, "log", "--reverse", "--format=%T", "HEAD").stdout.split()


def test_three_cycles_land_green_and_replay_from_the_cache(
    kata_repo: Path, fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    again = tmp_path / "again"
    shutil.copytree(kata_repo, again, symlinks=True)  # the same start, for the replay
    fake_openai.responder = script = Script(shipped_answers(crate_of(kata_repo)))
    record = tmp_path / "recorded.jsonl"

    live = run_cli(
        "drive",
        "-C",
        str(kata_repo),
        "--steps",
        "3",
        "--record",
        str(record),
        *drive_args(fake_openai),
    )

    assert live.exit_code == 0, live.output
    assert subjects(kata_repo) == SHIPPED_SUBJECTS
    assert set(authors(kata_repo)) == {AGENT}
    assert script.left() == {}
    assert_clean(kata_repo)
    assert_audit_clean(kata_repo)
    # every agent turn left its step files, and .tdd/ is ignored without touching .gitignore
    logs = sorted(path.name for path in (kata_repo / ".tdd" / "logs").glob("step-*.json"))
    assert logs == sorted(
        f"step-{c}-{r}.json" for c in (1, 2, 3) for r in ("tester", "implementor", "refactorer")
    )
    first_feat = git(kata_repo, "rev-list", "--reverse", "HEAD").stdout.split()[1]
    assert step_log(kata_repo, "step-1-implementor.json")["commit"] == first_feat
    assert (
        (kata_repo / ".tdd" / "plan" / "step-3-refactorer.md")
        .read_text("utf-8")
        .startswith("# Step 3: refactorer")
    )
    assert git(kata_repo, "check-ignore", "-q", ".tdd/logs/x.json").returncode == 0
    assert ".tdd" not in git(kata_repo, "show", "HEAD:.gitignore").stdout.replace(".tdd/", "")
    # the key went to the server, and nowhere else
    assert all(r.headers["authorization"] == f"Bearer {KEY}" for r in fake_openai.chat_requests)
    recorded = [json.loads(line) for line in record.read_text("utf-8").splitlines()]
    assert [entry["role"] for entry in recorded] == ["tester", "implementor", "refactorer"] * 3
    cache_dir = Path(os.environ["TDDHOOKS_CACHE_DIR"])
    for path, data in all_files(kata_repo / ".tdd", kata_repo / ".git", cache_dir, record):
        assert KEY.encode() not in data, path
    assert KEY not in git(kata_repo, "log", "--format=%B").stdout

    fake_openai.stop()  # the replay must not need the server: every answer is in the cache
    replayed = run_cli("drive", "-C", str(again), "--steps", "3", *drive_args(fake_openai))

    assert replayed.exit_code == 0, replayed.output
    assert subjects(again) == SHIPPED_SUBJECTS
    assert trees(again) == trees(kata_repo)
    assert step_log(again, "step-2-tester.json")["attempts"][0]["cached"] is True


def _one_cycle(repo: Path, server: FakeOpenAI, script: Script) -> None:
    server.responder = script
    result = run_cli(
        "drive",
        "-C",
        str(repo),
        "--max-cycles",  # the alias of --steps
        "1",
        "--roles",
        "tester,implementor",
        *drive_args(server),
    )
    assert result.exit_code == 0, result.output
    assert subjects(repo) == SHIPPED_SUBJECTS[:1]
    assert script.left() == {}
    assert_clean(repo)
    assert_audit_clean(repo)


def test_an_overshoot_is_discarded_and_the_tester_told_what_is_covered(
    kata_repo: Path, fake_openai: FakeOpenAI
) -> None:
    shipped = shipped_answers(crate_of(kata_repo))
    passing = "#[test]\nfn one_plus_one_is_two() {\n    assert_eq!(1 + 1, 2);\n}\n"
    script = Script()
    script.add(
        "tester",
        answer("pin arithmetic", [upsert("tests/arithmetic.rs", passing)]),
        shipped["tester"][0],
    )
    script.add("implementor", shipped["implementor"][0])

    _one_cycle(kata_repo, fake_openai, script)

    assert not (kata_repo / "tests" / "arithmetic.rs").exists()
    assert "tests/arithmetic.rs" not in git(kata_repo, "ls-files").stdout
    retry = script.prompts("tester")[1]
    assert "one_plus_one_is_two" in retry
    assert "already passes" in retry
    assert "Stay minimal" in script.prompts("implementor")[0]
    attempts = step_log(kata_repo, "step-1-tester.json")["attempts"]
    assert [a["outcome"] for a in attempts] == ["overshoot", "handed-over"]


def test_invalid_json_is_a_failed_attempt_fed_back_to_the_model(
    kata_repo: Path, fake_openai: FakeOpenAI
) -> None:
    shipped = shipped_answers(crate_of(kata_repo))
    script = Script()
    cut_off = Reply('{"plan": "test the empty string", "edits": [{"path": "tests/', "length")
    plain = 'Sure! Here is a test for the empty string: add("") == 0.'
    script.add("tester", cut_off, plain, shipped["tester"][0])
    script.add("implementor", shipped["implementor"][0])

    _one_cycle(kata_repo, fake_openai, script)

    assert "cut off at max_tokens" in script.prompts("tester")[1]  # not a parse error
    retry = script.prompts("tester")[2]
    assert "Previous attempt failed because" in retry
    assert "invalid answer" in retry
    attempts = step_log(kata_repo, "step-1-tester.json")["attempts"]
    assert [a["outcome"] for a in attempts] == ["invalid-answer"] * 2 + ["handed-over"]


def test_a_path_escaping_the_repository_is_refused_before_anything_is_written(
    kata_repo: Path, fake_openai: FakeOpenAI
) -> None:
    crate = crate_of(kata_repo)
    shipped = shipped_answers(crate)
    escaping = upsert("../escaped.rs", rust_test(crate, "escapes", 'assert_eq!(add(""), 0);'))
    script = Script()
    script.add("tester", answer("a test outside", [escaping]), shipped["tester"][0])
    script.add("implementor", shipped["implementor"][0])

    _one_cycle(kata_repo, fake_openai, script)

    assert not (kata_repo.parent / "escaped.rs").exists()
    assert "refused" in script.prompts("tester")[1]


def test_an_implementor_editing_the_test_is_refused_and_the_test_committed_as_handed_over(
    kata_repo: Path, fake_openai: FakeOpenAI
) -> None:
    crate = crate_of(kata_repo)
    shipped = shipped_answers(crate)
    weakened = upsert(
        "tests/empty_string.rs", rust_test(crate, "empty_string_sums_to_zero", "assert!(true);")
    )
    cheat = answer("make the test easier", [weakened, *shipped["implementor"][0]["edits"]])
    script = Script().add("tester", shipped["tester"][0])
    script.add("implementor", cheat, shipped["implementor"][0])

    _one_cycle(kata_repo, fake_openai, script)

    handed_over = shipped["tester"][0]["edits"][0]["content"]
    assert git(kata_repo, "show", "HEAD:tests/empty_string.rs").stdout == handed_over
    retry = script.prompts("implementor")[1]
    assert "refused" in retry
    assert "tests/empty_string.rs" in retry


def test_timeout_and_max_tokens_flags_reach_the_request(
    kata_repo: Path, fake_openai: FakeOpenAI
) -> None:
    fake_openai.responder = Script(shipped_answers(crate_of(kata_repo)))

    result = run_cli(
        "step", "-C", str(kata_repo),
        *drive_args(fake_openai, "--max-tokens", "321", "--timeout", "45",
                    "--response-format", "text"),
    )  # fmt: skip

    assert result.exit_code == 0, result.output
    bodies = [r.body for r in fake_openai.chat_requests]
    assert bodies
    assert all(body is not None and body["max_tokens"] == 321 for body in bodies)
    # --response-format text: no structured-output request at all, whatever the preset says
    assert all(body is not None and "response_format" not in body for body in bodies)
