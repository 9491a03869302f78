"""`tddhooks bench` end to end: child drives against the scripted fake server (the demo's answers,
per run), on the real kata with real hooks and cargo; the scores are known in advance."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from support.e2e_kit import Script, answer, shipped_answers, upsert
from support.fake_openai import Answer, FakeOpenAI, fake_openai  # noqa: F401

pytestmark = [pytest.mark.cargo, pytest.mark.e2e]

SECRET = "sk-bench-e2e-NEVER-LOGGED-93"
_CRATE = re.compile(r"Crate: `(\w+)`")


# the second cycle's code with its parsing named: the refactor the demo makes in its third cycle,
# one cycle earlier, so two steps score a refactor commit apart from the cycles landed
REFACTORED = (
    "//! The `{crate}` kata, grown one test at a time: tests go in `tests/`, code here.\n\n"
    "/// The sum of the numbers in `text`; an empty string sums to 0.\n"
    "pub fn add(text: &str) -> i32 {\n    if text.is_empty() {\n        return 0;\n    }\n"
    "    number(text)\n}\n\n"
    "/// One number of the input.\nfn number(part: &str) -> i32 {\n    part.parse().unwrap()\n}\n"
)

NAMED: dict[str, Any] = {
    "type": "refactor",
    "scope": "add",
    "summary": "name the parsing of one number",
    "rationale": ["add reads as: empty, or one number"],
}


def two_cycles(crate: str) -> dict[str, list[Any]]:
    """The demo's answers, with a refactor landing in the second cycle."""
    answers = shipped_answers(crate)
    answers["refactorer"][1] = answer(
        "Name the parsing of one number; behaviour and tests stay the same.",
        [upsert("src/lib.rs", REFACTORED.replace("{crate}", crate))],
        commit=NAMED,
        done=False,
        reason=None,
    )
    return answers


class PerRun:
    """One scripted session per run (told apart by the crate name in the prompt)."""

    def __init__(self) -> None:
        self.scripts: dict[str, Script] = {}
        self.prompts: list[str] = []

    def __call__(self, body: dict[str, Any]) -> Answer:
        user = body["messages"][1]["content"]
        self.prompts.append(user)
        match = _CRATE.search(user)
        assert match, user[:200]
        crate = match.group(1)
        script = self.scripts.setdefault(crate, Script(two_cycles(crate)))
        return script(body)


def test_a_scripted_bench_scores_what_the_script_does(
    fake_openai: FakeOpenAI,  # noqa: F811
    tmp_path: Path,
) -> None:
    from tddhooks.cli import cli

    fake_openai.responder = script = PerRun()
    work, out = tmp_path / "runs", tmp_path / "bench.json"
    args = [
        "bench", "--kata", "string-calculator", "--runs", "2", "--jobs", "2", "--steps", "2",
        "--work-root", str(work), "--json", str(out), "--markdown", str(tmp_path / "bench.md"),
        "--model", "custom:fake-model", "--base-url", fake_openai.base_url, "--api-key", SECRET,
    ]  # fmt: skip

    result = CliRunner().invoke(cli, args, catch_exceptions=False)

    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text("utf-8"))
    assert data["complete"] is True
    expected = {
        "model": "custom:fake-model", "kata": "string-calculator", "language": "rust",
        "cycles": 2, "cycles_landed": 2, "commits": 3, "red_commits": 0, "audit_clean": True,
        "acceptance_passed": 2, "acceptance_total": 9, "stop_reason": "steps", "error": "",
    }  # fmt: skip
    for number, run in enumerate(data["runs"], start=1):
        assert {key: run[key] for key in expected} == expected, run
        assert run["run"] == number
        assert run["tokens"]["implementor"] == {"tokens": 36, "calls": 2}
    assert sorted(script.scripts) == ["run_1", "run_2"]
    summary = data["summaries"][0]
    assert (summary["runs"], summary["acceptance_passed"], summary["acceptance_total"]) == (
        2,
        4,
        18,
    )
    # the profile is the one the runs' tdd.yaml names
    assert re.search(
        r"\| custom:fake-model \| [^|]+ \| string-calculator \| 2 \| 2\.0 of 2\.0 \| 6 \| 0 "
        r"\| 2/2 \|",
        (tmp_path / "bench.md").read_text("utf-8"),
    )
    # the hidden suite came in after the drive: no commit has it, no prompt saw it
    run_dir = work / "custom_fake-model" / "string-calculator" / "run-1"
    committed = subprocess.run(
        ["git", "log", "--name-only", "--format="], cwd=run_dir, capture_output=True, text=True
    ).stdout
    assert "acceptance" not in committed
    assert (run_dir / "tests" / "acceptance_string_calculator.rs").is_file()
    assert not any("separator_of_any_length_in_brackets" in prompt for prompt in script.prompts)
    # each run's session holds every request its drive made, whole, with the answer it got
    session = run_dir.parent / "run-1.session.jsonl"
    lines = [json.loads(line) for line in session.read_text("utf-8").splitlines()]
    asked = [prompt for prompt in script.prompts if "Crate: `run_1`" in prompt]
    assert [line["messages"][1]["content"] for line in lines] == asked
    assert sum(line["role"] == "implementor" for line in lines) == 2
    # every drive sampled with the bench's fixed seed, its first attempts at temperature 0
    bodies = [request.body or {} for request in fake_openai.chat_requests]
    assert {body.get("seed") for body in bodies} == {0}
    assert min(body["temperature"] for body in bodies) == 0
    # the key went to the server and nowhere on disk
    assert all(r.headers["authorization"] == f"Bearer {SECRET}" for r in fake_openai.chat_requests)
    for path in tmp_path.rglob("*"):
        if path.is_file() and "target" not in path.parts:
            assert SECRET.encode() not in path.read_bytes(), path

    # a replayed bench (from the cache, the endpoint gone) reproduces every figure but time
    fake_openai.stop()
    again = tmp_path / "again.json"
    replay = [
        "bench", "--kata", "string-calculator", "--steps", "2",
        "--work-root", str(tmp_path / "replay"), "--json", str(again),
        "--model", "custom:fake-model", "--base-url", fake_openai.base_url, "--api-key", SECRET,
    ]  # fmt: skip
    result = CliRunner().invoke(cli, replay, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    timeless = ("wall_time_s", "model_time_s")
    (replayed,) = json.loads(again.read_text("utf-8"))["runs"]
    first = data["runs"][0]
    assert {k: v for k, v in replayed.items() if k not in timeless} == {
        k: v for k, v in first.items() if k not in timeless
    }
