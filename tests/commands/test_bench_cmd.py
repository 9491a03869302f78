"""`tddhooks bench`: planning, sharding, scoring and reporting (fast), the shipped acceptance
suites against reference solutions, and whole bench runs against the scripted fake server."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from support.references import own_reference

from tddhooks.bench import acceptance, report
from tddhooks.bench.katas import AcceptanceFile, resolve_bench_kata, shipped_bench_katas
from tddhooks.bench.run import RunResult
from tddhooks.commands.bench import BenchLLM, in_shard, parse_shard, plan
from tddhooks.errors import UsageError

PYPROJECT = '[tool.pytest.ini_options]\npythonpath = ["src"]\n'
REFERENCE = Path(__file__).resolve().parent.parent / "support" / "bench_reference"
# katas whose reference is in the shared files (the others: tests/commands/test_bench_katas.py)
SHARED = [kata for kata in shipped_bench_katas() if own_reference(kata) is None]


def _result(**changes: Any) -> RunResult:
    values: dict[str, Any] = {
        "model": "custom:m", "kata": "bowling", "language": "rust", "run": 1, "cycles": 4,
        "cycles_landed": 3, "commits": 5, "red_commits": 0, "audit_clean": True,
        "acceptance_passed": 5, "acceptance_total": 8,
        "tokens": {"tester": {"tokens": 120, "calls": 2}},
        "model_time_s": 1.5, "wall_time_s": 30.0, "stop_reason": "steps",
    }  # fmt: skip
    values.update(changes)
    return RunResult(**values)


def test_red_commits_are_the_distinct_commits_the_audit_report_names_red() -> None:
    from dataclasses import asdict

    from tddhooks.bench.run import red_commits
    from tddhooks.commands.audit import Finding

    findings = [
        Finding("a" * 40, "feat: one", "green", "red", "fix it", "tests fail"),
        Finding("a" * 40, "feat: one", "sections", "missing", "add them"),
        Finding("b" * 40, "feat: two", "green", "red", "fix it", "lint/format only"),
        Finding("c" * 40, "wip", "prefixed", "no type", "add one"),
    ]
    assert red_commits({"violations": [asdict(f) for f in findings]}) == 2
    assert red_commits({"ok": True, "violations": []}) == 0


@pytest.mark.parametrize(("text", "shard"), [(None, (1, 1)), ("2/4", (2, 4)), (" 1 / 1 ", (1, 1))])
def test_shards_are_i_of_n(text: str | None, shard: tuple[int, int]) -> None:
    assert parse_shard(text) == shard


@pytest.mark.parametrize("text", ["0/3", "4/3", "a/b", "3", "1/0"])
def test_a_bad_shard_is_a_usage_error(text: str) -> None:
    with pytest.raises(UsageError, match="--shard"):
        parse_shard(text)


def test_the_shards_of_a_bench_cover_every_run_once() -> None:
    items = list(range(10))
    taken = [index for shard in (1, 2, 3) for index in in_shard(items, (shard, 3))]
    assert sorted(taken) == items
    assert in_shard(items, (2, 3)) == [1, 4, 7]


def test_a_key_reaches_the_child_by_environment_never_argv(monkeypatch: pytest.MonkeyPatch) -> None:
    secret = "sk-bench-NEVER-IN-ARGV-41"
    llm = BenchLLM(provider="custom", base_url="http://127.0.0.1:9/v1", api_key=secret)
    assert secret not in " ".join(llm.args())
    assert llm.key_value() == secret
    monkeypatch.setenv("MY_BENCH_KEY", secret)
    named = BenchLLM(api_key="MY_BENCH_KEY")
    assert named.args()[-2:] == ("--api-key", "MY_BENCH_KEY")
    assert named.key_value() is None


def test_a_drive_runs_where_the_bench_checked_its_relative_paths(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Red team: `--model replay:own.jsonl` passed the bench's check (its current directory)
    and every drive then failed, run from the runs folder."""
    from tddhooks.bench.run import Children, _run_child

    home = tmp_path / "where-the-bench-runs"
    home.mkdir()
    (home / "own.jsonl").write_text('{"role": "tester", "answer": "{}"}\n', encoding="utf-8")
    monkeypatch.chdir(home)
    (spec,) = plan(["bowling"], ["replay:own.jsonl"], 1, 1, "rust", tmp_path / "r", BenchLLM())
    monkeypatch.chdir(tmp_path)
    log = tmp_path / "child.log"
    probe = [sys.executable, "-c", "import pathlib; print(pathlib.Path('own.jsonl').is_file())"]

    assert _run_child(spec, Children(), probe, log)[0] == 0
    assert log.read_text(encoding="utf-8").strip() == "True"


def test_the_plan_is_model_by_kata_by_run_in_separate_dirs(tmp_path: Path) -> None:
    models = ["ollama:x", "ollama:y/z"]
    specs = plan(["bowling", "mars-rover"], models, 2, 3, "rust", tmp_path, BenchLLM())
    assert [(s.model, s.kata.name, s.run) for s in specs[:3]] == [
        ("ollama:x", "bowling", 1), ("ollama:x", "bowling", 2), ("ollama:x", "mars-rover", 1),
    ]  # fmt: skip
    assert len({spec.work_dir for spec in specs}) == 8
    assert specs[-1].work_dir == tmp_path.resolve() / "ollama_y_z" / "mars-rover" / "run-2"


def test_each_profile_drives_in_its_own_dirs_and_reports_in_its_own_row(tmp_path: Path) -> None:
    from tddhooks.bench.run import drive_command

    profiles = ["core", "small-model"]
    specs = plan(["bowling"], ["ollama:x"], 1, 3, "rust", tmp_path, BenchLLM(), profiles=profiles)
    assert [spec.profile for spec in specs] == profiles
    assert specs[1].work_dir == tmp_path.resolve() / "ollama_x.small-model" / "bowling" / "run-1"
    command, _env = drive_command(specs[1])
    assert command[command.index("--profile") + 1] == "small-model"
    runs = [RunResult(model="ollama:x", kata="bowling", language="rust", run=1, profile=profile,
                      refusals={"own-red": 1}) for profile in profiles]  # fmt: skip
    rows = report.summarise(runs)
    assert [(row.model, row.profile) for row in rows] == [
        (m, p) for m, p in zip(["ollama:x"] * 2, profiles, strict=True)
    ]
    assert [row.refusals for row in rows] == [{"own-red": 1}] * 2


def test_a_bench_without_any_kata_to_run_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # red team: with no templates/ reachable the shipped list raised FileNotFoundError
    monkeypatch.setattr("tddhooks.resources.templates", lambda: tmp_path / "none")
    assert shipped_bench_katas() == []
    llm = BenchLLM(provider="custom", base_url="http://127.0.0.1:9/v1", api_key="k")
    with pytest.raises(UsageError, match="no kata to bench"):
        plan([], ["custom:m"], 1, 1, "rust", tmp_path / "w", llm)


def test_a_bench_never_drives_into_existing_work(tmp_path: Path) -> None:
    busy = tmp_path / "ollama_x" / "bowling" / "run-1"
    busy.mkdir(parents=True)
    (busy / "mine.txt").write_text("my work", encoding="utf-8")
    with pytest.raises(UsageError, match="not empty"):
        plan(["bowling"], ["ollama:x"], 1, 3, "rust", tmp_path, BenchLLM())
    assert (busy / "mine.txt").read_text(encoding="utf-8") == "my work"


@pytest.mark.parametrize(
    ("model", "said"),
    [
        ("deepseek:deepseek-chat", "no API key for provider 'deepseek'"),
        ("nosuch:m", "nosuch"),
        ("replay:no-such-session", "no recorded session 'no-such-session'"),
        # a shipped session writes the code of the kata it was recorded on
        ("replay:string-calculator", "answers the String Calculator kata, and this kata is "
         "FizzBuzz"),
    ],
)  # fmt: skip
def test_a_model_no_drive_can_use_fails_before_any_run(
    model: str, said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by a newcomer: the bench ran every drive, each failed, and it exited 0."""
    for name in ("DEEPSEEK_API_KEY", "TDDHOOKS_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    from tddhooks.cli import cli

    args = ["bench", "--kata", "fizzbuzz", "--model", model, "--work-root", str(tmp_path / "w")]
    result = CliRunner().invoke(cli, args)

    assert result.exit_code in (2, 3), result.output
    assert said in result.output
    assert not (tmp_path / "w").exists()  # nothing was driven
    assert plan(["string-calculator"], ["replay:string-calculator"], 1, 1, "rust",
                tmp_path / "r", BenchLLM())  # fmt: skip


def test_a_run_that_errored_fails_the_bench_with_what_the_drive_said(tmp_path: Path) -> None:
    from tddhooks.bench.run import drive_error, stopped_with
    from tddhooks.commands.bench import _report

    stderr = (
        "cycle 1\nerror: the endpoint refused the key\n  fix: export DEEPSEEK_API_KEY=<your key>\n"
    )
    assert drive_error(stderr, 2) == (
        "error: the endpoint refused the key fix: export DEEPSEEK_API_KEY=<your key>"
    )
    assert drive_error("just a line\n", 1) == "just a line"
    assert drive_error("", 9) == "drive exited with 9"
    # a drive that ended on an error and reported it: the fix comes with the detail
    assert stopped_with(stderr, "the endpoint refused the key") == (
        "error: the endpoint refused the key fix: export DEEPSEEK_API_KEY=<your key>"
    )
    assert stopped_with("cycle 1\n", "the endpoint refused the key") == (
        "the endpoint refused the key"
    )
    assert _report([_result()], None, None, complete=True) == 0
    failed = _result(run=2, stop_reason="error", error="error: boom")
    assert _report([_result(), failed], None, None, complete=True) == 1


def test_every_shipped_kata_has_a_hidden_suite_for_both_languages() -> None:
    assert shipped_bench_katas() == [
        "bowling", "fizzbuzz", "game-of-life", "mars-rover", "password-validation",
        "prime-factors", "roman-numerals", "string-calculator", "word-wrap",
    ]  # fmt: skip
    for name in shipped_bench_katas():
        kata = resolve_bench_kata(name)
        for language in ("rust", "python"):
            suite = kata.suite(language)
            assert sum(acceptance.count_tests(f, language) for f in suite) >= 8, (name, language)


def test_a_users_kata_dir_needs_kata_md_and_acceptance(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"kata\.md and an acceptance/ folder"):
        resolve_bench_kata(str(tmp_path))
    (tmp_path / "kata.md").write_text("# Mine\n", encoding="utf-8")
    (tmp_path / "acceptance").mkdir()
    with pytest.raises(UsageError, match="no test files"):
        resolve_bench_kata(str(tmp_path))
    (tmp_path / "acceptance" / "test_mine.py").write_text("def test_a():\n    pass\n", "utf-8")
    kata = resolve_bench_kata(str(tmp_path))
    assert kata.kata_file == (tmp_path / "kata.md").resolve()
    assert [f.name for f in kata.suite("python")] == ["test_mine.py"]
    with pytest.raises(UsageError, match="no acceptance tests for rust"):
        kata.suite("rust")


@pytest.mark.parametrize(
    ("kata_md", "acceptance_dir", "missing"),
    [
        (False, False, "kata.md and acceptance/ are missing"),
        (True, False, "acceptance/ is missing"),
        (False, True, "kata.md is missing"),
    ],
)
def test_a_users_kata_dir_names_what_it_lacks(
    tmp_path: Path, kata_md: bool, acceptance_dir: bool, missing: str
) -> None:
    if kata_md:
        (tmp_path / "kata.md").write_text("# Mine\n", encoding="utf-8")
    if acceptance_dir:
        (tmp_path / "acceptance").mkdir()
    with pytest.raises(UsageError) as caught:
        resolve_bench_kata(str(tmp_path))
    assert caught.value.message.endswith(f"({missing})")


def _leap_kata(folder: Path, kata: str = "# Leap\n\n## Requirements\n\n- 2000 is leap\n") -> Path:
    (folder / "acceptance").mkdir(parents=True)
    (folder / "kata.md").write_text(kata, encoding="utf-8")
    return folder


def test_a_suite_for_another_language_is_named_with_the_language_that_fits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by a newcomer: `--language python` on a Rust-only kata said only "no acceptance tests
    for python", not what acceptance/ holds nor which --language would run it."""
    kata = _leap_kata(tmp_path / "leap")
    (kata / "acceptance" / "acceptance_leap.rs").write_text("#[test]\nfn a() {}\n", "utf-8")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UsageError) as caught:
        resolve_bench_kata("leap").suite("python")
    assert "it has rust ones: acceptance_leap.rs" in caught.value.message
    # the directory as it was given, not the absolute path it resolves to
    assert caught.value.message.startswith("--kata leap has no acceptance tests for python")
    assert "--language rust" in (caught.value.fix or "")


def test_an_acceptance_folder_without_test_files_names_what_it_holds(tmp_path: Path) -> None:
    """Found by a newcomer: a suite stored as the shipped ones are (`*.py.tmpl`) or in a subfolder
    was read as "no test files", without saying that these files were passed over."""
    kata = _leap_kata(tmp_path / "leap")
    (kata / "acceptance" / "test_leap.py.tmpl").write_text("def test_a(): ...\n", "utf-8")
    (kata / "acceptance" / "rust").mkdir()
    with pytest.raises(UsageError) as caught:
        resolve_bench_kata(str(kata))
    assert "it holds rust/, test_leap.py.tmpl: not read" in caught.value.message
    assert "test_*.py" in (caught.value.fix or "")


@pytest.mark.parametrize("second", ["b/leap", "a/leap"])
def test_two_katas_of_one_name_are_refused_before_any_run(tmp_path: Path, second: str) -> None:
    """Found by a newcomer: `--kata a/leap --kata b/leap` drove both into `…/leap/run-1` at
    once and reported one run as the whole, complete bench."""
    for name in ("a", "b"):
        kata = _leap_kata(tmp_path / name / "leap")
        (kata / "acceptance" / "acceptance_leap.rs").write_text("#[test]\nfn a() {}\n", "utf-8")
    katas = [str(tmp_path / "a" / "leap"), str(tmp_path / second)]
    with pytest.raises(UsageError, match="both named 'leap'"):
        plan(katas, ["ollama:x"], 1, 1, "rust", tmp_path / "w", BenchLLM())
    assert not (tmp_path / "w").exists()


def test_a_kata_without_requirements_is_benched_with_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listed = _leap_kata(tmp_path / "listed")
    bare = _leap_kata(tmp_path / "bare", "# Leap year\n\nTell leap years apart.\n")
    for kata in (listed, bare):
        (kata / "acceptance" / "acceptance_leap.rs").write_text("#[test]\nfn a() {}\n", "utf-8")
    specs = plan([str(listed), str(bare)], ["ollama:x"], 1, 1, "rust", tmp_path / "w", BenchLLM())
    assert [spec.kata.name for spec in specs] == ["listed", "bare"]
    said = " ".join(capsys.readouterr().err.split())
    assert f"--kata {bare}: kata.md lists no requirements" in said
    assert "listed:" not in said


def test_counting_and_parsing_acceptance_results() -> None:
    rust = AcceptanceFile("a.rs", "#[test]\nfn a() {}\n\n    #[test]\nfn b() {}\n")
    assert acceptance.count_tests(rust, "rust") == 2
    cargo = (
        "test result: FAILED. 3 passed; 6 failed; 0 ignored\ntest result: ok. 2 passed; 0 failed"
    )
    assert acceptance.parse_passed(cargo, "rust") == 5
    assert acceptance.parse_passed("2 failed, 7 passed in 0.1s", "python") == 7
    assert acceptance.parse_passed("error: could not compile", "rust") == 0
    assert acceptance.parse_ran(cargo, "rust") == 11
    assert acceptance.parse_ran("1 failed, 2 passed, 1 skipped, 3 warnings in 0.1s", "python") == 4
    assert acceptance.parse_ran("1 error in 0.1s", "python") == 0  # collection failed


@pytest.mark.pygate
def test_a_users_python_suite_counts_class_based_and_parametrized_tests(tmp_path: Path) -> None:
    """Found by a newcomer: only top-level `def test_` lines were counted, so a class-based
    and a parametrized test of three cases gave a total of 1."""
    (tmp_path / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    package = tmp_path / "src" / "mine"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("def double(n):\n    return n + n if n < 3 else 0\n",
                                         encoding="utf-8")  # fmt: skip
    suite = AcceptanceFile(
        "test_acceptance_mine.py",
        "import pytest\nfrom {package} import double\n\n\nclass TestDouble:\n"
        "    def test_one(self):\n        assert double(1) == 2\n\n\n"
        "@pytest.mark.parametrize('n', [2, 3, 4])\ndef test_many(n):\n"
        "    assert double(n) == 2 * n\n",
    )
    assert acceptance.count_tests(suite, "python") == 2  # what the file shows
    found = acceptance.score(tmp_path, (suite,), "python")
    assert (found.passed, found.total) == (2, 4), found.output_tail


def test_summaries_tables_and_json_round_trip(tmp_path: Path) -> None:
    results = [
        _result(),
        _result(run=2, acceptance_passed=3, audit_clean=False, red_commits=1, stop_reason="done"),
        _result(kata="mars-rover", acceptance_passed=9, acceptance_total=9),
    ]
    (first, second) = report.summarise(results)
    assert (first.runs, first.acceptance_passed, first.acceptance_total) == (2, 8, 16)
    assert (first.audit_clean, first.red_commits, first.tokens) == (1, 1, 240)
    assert first.stop_reasons == {"steps": 1, "done": 1}
    table = report.markdown([first, second])
    assert table.splitlines()[2].startswith(
        "| custom:m | — | bowling | 2 | 3.0 of 4.0 | 10 | 1 | 1/2 |"
    )
    assert "| 8/16 (50%) |" in table
    assert "9/9 (100%)" in table.splitlines()[3]
    path = tmp_path / "bench.json"
    report.write_json(path, results, complete=True)
    assert report.read_json(path).runs == results
    assert json.loads(path.read_text("utf-8"))["summaries"][1]["kata"] == "mars-rover"


def test_a_row_whose_drives_all_errored_says_so_and_scores_nothing() -> None:
    failed = _result(
        cycles=0, cycles_landed=0, commits=0, audit_clean=False, acceptance_passed=0,
        acceptance_total=0, stop_reason="error", error="error: endpoint unreachable",
    )  # fmt: skip
    (summary,) = report.summarise([failed, failed.model_copy(update={"run": 2})])
    row = summary.row()
    assert row[4] == "errored"
    assert row[8] == "—"
    assert row[-1] == "error ×2"
    (mixed,) = report.summarise([failed, _result(run=2)])
    assert mixed.row()[4] == "1.5 of 2.0"
    assert mixed.row()[8] == "5/8 (62%)"


@pytest.mark.parametrize("width", [80, 300])
def test_the_table_cuts_no_cell_at_any_width(width: int) -> None:
    import io

    from tddhooks import output

    buffer = io.StringIO()
    output.use_streams(buffer)
    try:
        output.console().width = width  # a log file is 80 columns
        report.print_table(report.summarise([_result(model="custom:qwen2.5-coder-1.5b")]))
    finally:
        output.use_streams()
    text = buffer.getvalue()
    assert "…" not in text
    assert all(column in text for column in report.COLUMNS[3:])
    assert "custom:qwen2.5-coder-1.5b" in text
    assert max(len(line) for line in text.splitlines()) <= width
    one_row = any(
        "cycles landed/run" in line and "stop reasons" in line for line in text.splitlines()
    )
    assert one_row is (width == 300)


def test_a_runs_progress_line_says_its_error_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from tddhooks import output
    from tddhooks.commands import bench as bench_cmd

    said: list[str] = []
    monkeypatch.setattr(output, "say", lambda text, **_: said.append(text))
    failed = _result(stop_reason="error", error="error: endpoint unreachable fix: start it")
    bench_cmd._progress(
        plan(["bowling"], ["ollama:x"], 1, 1, "rust", Path("w"), BenchLLM())[0], failed
    )
    assert said[0].endswith("stop: error: endpoint unreachable fix: start it")
    assert bench_cmd._stop(_result(stop_reason="budget", error="audit exited 3")) == (
        "budget (audit exited 3)"
    )


@pytest.mark.pygate
def test_a_drive_that_errored_before_its_first_commit_is_not_scored(tmp_path: Path) -> None:
    """Red team: a drive that never reached its endpoint left the scaffold, and the hidden suite
    scored that: the row read "errored" beside "0/18 (0%)", as if the model had passed nothing."""
    from tddhooks.bench.run import Children, run_one

    llm = BenchLLM(provider="custom", base_url="http://127.0.0.1:9/v1", api_key="k")
    (spec,) = plan(["fizzbuzz"], ["custom:m"], 1, 1, "python", tmp_path / "w", llm)

    result = run_one(spec, Children())

    assert result.stop_reason == "error"
    assert (spec.work_dir / ".git").is_dir()  # the drive did init the kata
    assert (result.acceptance_passed, result.acceptance_total) == (0, 0)
    (summary,) = report.summarise([result, result.model_copy(update={"run": 2})])
    assert summary.row()[4] == "errored"
    assert summary.row()[7] == "—"  # the scaffold alone is clean: no drive of them was audited
    assert summary.row()[8] == "—"


def test_a_row_of_drives_that_errored_after_landing_cycles_shows_them() -> None:
    # red team: the endpoint went away in cycle 4; the three cycles landed and were scored
    (summary,) = report.summarise([_result(stop_reason="error", error="error: gone")])
    assert summary.row()[4] == "3.0 of 4.0"
    assert summary.row()[8] == "5/8 (62%)"


def test_merging_shard_files_reports_all_their_runs(tmp_path: Path) -> None:
    report.write_json(tmp_path / "1.json", [_result()], complete=True)
    report.write_json(tmp_path / "2.json", [_result(run=2)], complete=True)
    (tmp_path / "bad.json").write_text("{}", encoding="utf-8")
    from tddhooks.cli import cli

    merged = tmp_path / "all.md"
    args = ["bench", "--merge", str(tmp_path / "1.json"), "--merge", str(tmp_path / "2.json"),
            "--markdown", str(merged)]  # fmt: skip
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "| custom:m | — | bowling | 2 |" in merged.read_text("utf-8")
    bad = CliRunner().invoke(cli, ["bench", "--merge", str(tmp_path / "bad.json")])
    assert bad.exit_code == 2
    assert 'not a bench JSON file: it has no "runs" list' in bad.output
    # found by a newcomer: the same file twice counted its runs twice
    twice = CliRunner().invoke(cli, ["bench", "--merge", str(tmp_path / "1.json"),
                                     "--merge", str(tmp_path / "1.json")])  # fmt: skip
    assert twice.exit_code == 2
    assert "custom:m bowling (rust) run 1 is in more than one file" in twice.output


def test_merging_a_shard_that_was_interrupted_is_not_complete(tmp_path: Path) -> None:
    # red team: a shard stopped by Ctrl-C said "complete": false, and the merge said true
    report.write_json(tmp_path / "1.json", [_result()], complete=True)
    report.write_json(tmp_path / "2.json", [_result(run=2)], complete=False)
    from tddhooks.cli import cli

    out = tmp_path / "all.json"
    args = ["bench", "--merge", str(tmp_path / "1.json"), "--merge", str(tmp_path / "2.json"),
            "--json", str(out)]  # fmt: skip
    assert CliRunner().invoke(cli, args).exit_code == 0
    assert json.loads(out.read_text("utf-8"))["complete"] is False
    CliRunner().invoke(cli, ["bench", "--merge", str(tmp_path / "1.json"), "--json", str(out)])
    assert json.loads(out.read_text("utf-8"))["complete"] is True


@pytest.mark.parametrize("kata", SHARED)
@pytest.mark.pygate
def test_the_python_suites_pass_on_a_reference_solution(kata: str, tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    package = tmp_path / "src" / "refkata"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(
        (REFERENCE / "refkata.py").read_text("utf-8"), encoding="utf-8"
    )
    found = acceptance.score(tmp_path, resolve_bench_kata(kata).suite("python"), "python")
    assert found.passed == found.total, found.output_tail
    assert found.total >= 8


@pytest.mark.pygate
def test_an_empty_package_scores_zero_not_an_error(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (tmp_path / "src" / "kata").mkdir(parents=True)
    (tmp_path / "src" / "kata" / "__init__.py").write_text("", encoding="utf-8")
    found = acceptance.score(tmp_path, resolve_bench_kata("bowling").suite("python"), "python")
    assert (found.passed, found.total) == (0, 8)


@pytest.mark.pygate
def test_the_hidden_suites_whole_output_is_kept_for_reading(tmp_path: Path) -> None:
    """Found by a newcomer: a run of their own kata scored 0/4 and nothing said why (the hidden
    suite's output was dropped); it is now kept beside the run, whole."""
    (tmp_path / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (tmp_path / "src" / "kata").mkdir(parents=True)
    (tmp_path / "src" / "kata" / "__init__.py").write_text("", encoding="utf-8")
    log = tmp_path / "run-1.acceptance.txt"
    suite = resolve_bench_kata("bowling").suite("python")
    found = acceptance.score(tmp_path, suite, "python", log)
    assert (found.passed, found.total) == (0, 8)
    kept = log.read_text(encoding="utf-8")
    assert kept.startswith(f"$ {sys.executable} -m pytest")
    assert "cannot import name 'score' from 'kata'" in kept


@pytest.mark.cargo
def test_the_rust_suites_pass_on_a_reference_solution(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "Cargo.toml").write_text(
        '[package]\nname = "refkata"\nversion = "0.1.0"\nedition = "2021"\n', encoding="utf-8"
    )
    (tmp_path / "src" / "lib.rs").write_text(
        (REFERENCE / "lib.rs").read_text("utf-8"), encoding="utf-8"
    )
    suites = [f for name in SHARED for f in resolve_bench_kata(name).suite("rust")]
    found = acceptance.score(tmp_path, tuple(suites), "rust")
    assert found.passed == found.total == 53, found.output_tail


def test_the_answer_limits_reach_every_child_drive() -> None:
    args = BenchLLM(timeout_s=900.0, max_tokens=1500, response_format="text").args()
    assert args[args.index("--timeout") + 1] == "900"
    assert args[args.index("--max-tokens") + 1] == "1500"
    assert args[args.index("--response-format") + 1] == "text"
    assert "--timeout" not in BenchLLM().args()
    assert "--response-format" not in BenchLLM().args()


@pytest.mark.cargo
def test_runs_of_one_crate_name_never_share_a_cargo_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every bench run's crate is `run_<N>`. In one CARGO_TARGET_DIR cargo took the first run's
    fresh build for the second's (its fingerprints do not name the package folder) and scored
    another kata's tests (measured with cargo 1.95 while scoring r61 by hand). A bench keeps
    the variable from its drives, audits and hidden suites: each run builds in its own."""
    from tddhooks.bench.run import _child_env

    shared = tmp_path / "shared-target"
    monkeypatch.setenv("CARGO_TARGET_DIR", str(shared))
    suite = (AcceptanceFile("acceptance_one.rs", "use {crate}::one;\n\n#[test]\nfn is_one() {\n"
                            "    assert_eq!(one(), 1);\n}\n"),)  # fmt: skip
    roots = []
    for kata, value in (("first", 1), ("second", 2)):  # both written before either builds,
        root = tmp_path / kata / "run-1"  # as runs that drive side by side are
        (root / "src").mkdir(parents=True)
        (root / "Cargo.toml").write_text(
            '[package]\nname = "run_1"\nversion = "0.1.0"\nedition = "2021"\n', encoding="utf-8"
        )
        lib = f"pub fn one() -> u32 {{\n    {value}\n}}\n"
        (root / "src" / "lib.rs").write_text(lib, encoding="utf-8")
        roots.append(root)
    scores = [acceptance.score(root, suite, "rust").passed for root in roots]
    assert scores == [1, 0]
    assert not shared.exists()
    llm = BenchLLM(provider="custom", base_url="http://127.0.0.1:9/v1")
    (spec,) = plan(["bowling"], ["custom:m"], 1, 1, "rust", tmp_path / "r", llm)
    assert "CARGO_TARGET_DIR" not in _child_env(spec)
