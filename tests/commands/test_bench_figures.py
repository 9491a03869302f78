"""What `tddhooks bench` reports per model, profile and kata beyond the drive's summary: the
check profile, the answers refused (by check id, from the step logs), the calls; and the
sampling every run's drive is given (temperature 0, a fixed seed)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, get_args

import pytest
from click.testing import CliRunner

from tddhooks.bench import report
from tddhooks.bench.run import LANDED, RunResult, drive_command, refusals, run_profile
from tddhooks.cli import cli
from tddhooks.commands.bench import BenchLLM, plan
from tddhooks.commands.drive import LLMFlags
from tddhooks.config import TddConfig
from tddhooks.drive.kinds import AttemptOutcome
from tddhooks.errors import UsageError

LLM = BenchLLM(provider="custom", base_url="http://127.0.0.1:9/v1")


def _result(**changes: Any) -> RunResult:
    values: dict[str, Any] = {"model": "custom:m", "kata": "bowling", "language": "rust",
                              "run": 1, "cycles": 2, "cycles_landed": 1}  # fmt: skip
    values.update(changes)
    return RunResult(**values)


def _step_log(root: Path, name: str, attempts: list[dict[str, Any]] | str) -> None:
    logs = root / ".tdd" / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    text = attempts if isinstance(attempts, str) else json.dumps({"attempts": attempts})
    (logs / name).write_text(text, encoding="utf-8")


def test_the_landed_outcomes_are_outcomes_the_drive_knows() -> None:
    assert set(LANDED) <= set(get_args(AttemptOutcome))


def test_refusals_are_counted_by_check_id_else_by_outcome(tmp_path: Path) -> None:
    _step_log(tmp_path, "step-1-tester.json", [
        {"number": 1, "outcome": "refused", "failure": "[check: one-new-test] two new tests"},
        {"number": 2, "outcome": "wrong-red", "failure": "[check: one-new-test] again"},
        {"number": 3, "outcome": "handed-over"},
    ])  # fmt: skip
    _step_log(tmp_path, "step-1-implementor.json", [
        {"number": 1, "outcome": "red", "failure": "tests fail: [check: x] is quoted, not named"},
        {"number": 2, "outcome": "invalid-answer", "failure": None},
        {"number": 3, "outcome": "committed"},
    ])  # fmt: skip
    _step_log(tmp_path, "step-2-tester.json", "{not json")  # a torn log is skipped
    _step_log(tmp_path, "step-2-refactorer.json", '["a list, not a log"]')
    _step_log(tmp_path, "decisions.jsonl", "{}")  # not a step log
    assert refusals(tmp_path) == {"invalid-answer": 1, "one-new-test": 2, "red": 1}
    assert refusals(tmp_path / "nowhere") == {}


def test_the_profile_is_the_benchs_else_the_runs_config(tmp_path: Path) -> None:
    (spec,) = plan(["bowling"], ["custom:m"], 1, 1, "rust", tmp_path / "a", LLM)
    assert spec.profile is None
    assert run_profile(spec) == ""  # no tdd.yaml yet: not known
    spec.work_dir.mkdir(parents=True)
    (spec.work_dir / "tdd.yaml").write_text("drive:\n  profile: small-model\n", encoding="utf-8")
    assert run_profile(spec) == "small-model"
    (spec.work_dir / "tdd.yaml").write_text("drive: [\n", encoding="utf-8")
    assert run_profile(spec) == ""
    (given,) = plan(["bowling"], ["custom:m"], 1, 1, "rust", tmp_path / "b", LLM,
                    profiles=["core"])  # fmt: skip
    assert run_profile(given) == "core"


def test_each_model_is_benched_under_each_profile_in_its_own_folder(tmp_path: Path) -> None:
    specs = plan(["bowling"], ["custom:m"], 1, 1, "rust", tmp_path, LLM,
                 profiles=["core", "small-model", "core"])  # fmt: skip
    assert [spec.profile for spec in specs] == ["core", "small-model"]
    assert [spec.work_dir.relative_to(tmp_path).parts[0] for spec in specs] == [
        "custom_m.core", "custom_m.small-model"
    ]  # fmt: skip
    cmd, _ = drive_command(specs[1])
    assert cmd[cmd.index("--profile") + 1] == "small-model"
    (plain,) = plan(["bowling"], ["custom:m"], 1, 1, "rust", tmp_path / "p", LLM)
    assert "--profile" not in drive_command(plain)[0]
    assert plain.work_dir.parts[-3] == "custom_m"


def test_the_report_has_a_row_per_model_profile_and_kata() -> None:
    results = [
        _result(profile="core", refusals={"red": 2, "one-new-test": 1}, calls=9),
        _result(profile="core", run=2, refusals={"red": 1}, calls=4),
        _result(profile="small-model", refusals={}, calls=6),
    ]
    core, small = report.summarise(results)
    assert (core.profile, core.runs, core.calls) == ("core", 2, 13)
    assert core.refusals == {"one-new-test": 1, "red": 3}
    row = dict(zip(report.COLUMNS, core.row(), strict=True))
    assert (row["profile"], row["refusals"], row["calls"]) == ("core", "red ×3, one-new-test ×1",
                                                              "13")  # fmt: skip
    assert dict(zip(report.COLUMNS, small.row(), strict=True))["refusals"] == "0"
    table = report.markdown([core, small])
    assert "| custom:m | small-model | bowling | 1 |" in table
    # one run number under two profiles is two runs, not one given twice
    assert report.merged(results) == results
    with pytest.raises(UsageError, match=r"custom:m \[core\] bowling \(rust\) run 1"):
        report.merged([results[0], results[0]])


def test_a_bench_json_file_without_the_new_figures_still_merges(tmp_path: Path) -> None:
    old = _result().model_dump()
    for name in ("profile", "refusals", "calls"):
        del old[name]
    (tmp_path / "old.json").write_text(json.dumps({"runs": [old]}), encoding="utf-8")
    (run,) = report.read_json(tmp_path / "old.json").runs
    assert (run.profile, run.refusals, run.calls) == ("", {}, 0)


def test_every_drive_of_a_bench_samples_at_zero_with_a_fixed_seed() -> None:
    args = BenchLLM().args()
    assert args[args.index("--temperature") + 1] == "0"
    assert args[args.index("--seed") + 1] == "0"
    chosen = BenchLLM(temperature=0.7, seed=42).args()
    assert (chosen[chosen.index("--temperature") + 1], chosen[chosen.index("--seed") + 1]) == (
        "0.7", "42"
    )  # fmt: skip
    help_text = CliRunner().invoke(cli, ["bench", "--help"], terminal_width=200).output
    assert "--seed" in help_text
    assert "--profile" in help_text


def test_the_drive_gives_every_role_the_seed_and_temperature() -> None:
    flags = LLMFlags("custom:m", None, None, "http://127.0.0.1:9/v1", (), temperature=0.0, seed=5)
    models = flags.resolve(TddConfig(), ["tester", "implementor"])
    assert {(s.temperature, s.seed) for s in models.values()} == {(0.0, 5)}
    untouched = LLMFlags("custom:m", None, None, "http://127.0.0.1:9/v1", ())
    resolved = untouched.resolve(TddConfig(), ["tester"])["tester"]
    assert (resolved.temperature, resolved.seed) == (0.4, None)  # tdd.yaml's, and no seed
    result = CliRunner().invoke(cli, ["drive", "--seed", "x"])
    assert result.exit_code == 2
    assert "--seed" in result.output
