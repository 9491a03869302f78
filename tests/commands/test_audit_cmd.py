"""`tddhooks audit` re-checks real histories (Python kata: ruff and pytest, no cargo)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from support.pykata import FAILING_TEST, FILES, LINT_ONLY, TEST, commit, feat_message, messy_history
from support.repo import git

from tddhooks import output
from tddhooks.cli import cli

MakeRepo = Callable[..., Path]


@pytest.fixture(autouse=True)
def wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "250")
    output.use_streams()


def audit(repo: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["audit", "-C", str(repo), *args], catch_exceptions=False)


def clean_history(make_repo: MakeRepo) -> Path:
    repo = make_repo(FILES)
    zero_test = TEST.replace("two_numbers", "zeros").replace("2, 3) == 5", "0, 0) == 0")
    files = {"tests/test_zero.py": zero_test, "src/calc/__init__.py": "# sum\n" + "".join(
        line + "\n" for line in FILES["src/calc/__init__.py"].splitlines()
    )}  # fmt: skip
    commit(repo, files, feat_message("sum zeros", 1, sorted(files)))
    git(repo, "checkout", "-q", "-b", "side")
    commit(repo, {"NOTES.md": "Grüße\n"}, "docs: notes")
    git(repo, "checkout", "-q", "main")
    commit(repo, {"README.md": "Addition\n"}, "docs: readme")
    # a merge with a message of its own: merges are exempt from the message rules
    git(repo, "merge", "-q", "--no-ff", "--no-verify", "-m", "integrate the side work", "side")
    return repo


@pytest.mark.pygate
def test_a_clean_history_passes(make_repo: MakeRepo) -> None:
    repo = clean_history(make_repo)
    result = audit(repo)
    assert result.exit_code == 0, result.output
    assert "5 commit(s) checked" in result.output


@pytest.mark.pygate
def test_no_verify_commits_with_a_bad_message_or_a_red_tree_fail(make_repo: MakeRepo) -> None:
    repo = make_repo(FILES)
    bad_message = commit(repo, {"README.md": "x\n"}, "added a readme")
    red = commit(repo, {"tests/test_sub.py": FAILING_TEST}, "docs: more tests")
    (repo / "tests/test_sub.py").unlink()
    commit(repo, {}, "docs: fine again")
    result = audit(repo)
    assert result.exit_code == 1
    text = " ".join(result.output.replace("│", " ").split())
    assert f"{bad_message[:10]} added a readme prefixed" in text
    assert f"{red[:10]} docs: more tests green" in text
    assert "test_subtracts_négatifs" in text
    # docs: may not change tests (adding one, then deleting it): type-rules on both
    assert f"{red[:10]} docs: more tests type-rules docs: commits may not change" in text
    assert "in 3 of 4 commit(s)" in text


@pytest.mark.pygate
def test_json_report_lists_each_violation(make_repo: MakeRepo) -> None:
    repo = make_repo(FILES)
    red = commit(repo, {"tests/test_sub.py": FAILING_TEST}, "made it red")
    result = audit(repo, "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["ok"] is False
    assert report["commits"] == 2
    found = {(item["commit"], item["rule"]) for item in report["violations"]}
    assert found == {(red, "prefixed"), (red, "green")}


@pytest.mark.pygate
def test_a_range_checks_only_its_commits(make_repo: MakeRepo) -> None:
    repo = make_repo(FILES)
    commit(repo, {"README.md": "x\n"}, "no prefix, before the range")
    commit(repo, {"README.md": "y\n"}, "docs: inside the range")
    result = audit(repo, "HEAD~1..HEAD", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["commits"] == 1


@pytest.mark.pygate
def test_cached_green_verdicts_are_not_trusted(make_repo: MakeRepo) -> None:
    from tddhooks.policy.gate import tree_verdict, verdicts_dir
    from tddhooks.policy.settings import load_settings
    from tddhooks.policy.verdicts import VerdictStore

    repo = make_repo(FILES)
    commit(repo, {"tests/test_sub.py": FAILING_TEST}, "docs: sneaky")
    settings = load_settings(repo)
    tree = git(repo, "rev-parse", "HEAD^{tree}").stdout.strip()
    verdict = tree_verdict(repo, tree, settings)
    assert not verdict.green
    forged = verdict.model_copy(update={"green": True, "cached": False})
    VerdictStore(verdicts_dir(repo / ".git" / "tddhooks")).put(forged)
    assert tree_verdict(repo, tree, settings).green  # the cache now lies
    result = audit(repo, "--json")
    assert result.exit_code == 1
    rules = [item["rule"] for item in json.loads(result.stdout)["violations"]]
    assert rules == ["type-rules", "green"]  # docs: may not add a test, and it is red


def test_an_unknown_range_is_a_usage_error(make_repo: MakeRepo) -> None:
    repo = make_repo(FILES)
    result = audit(repo, "origin/nope..HEAD")
    assert result.exit_code == 2
    assert "origin/nope..HEAD" in result.output


def test_a_repository_without_commits_has_nothing_to_audit(make_repo: MakeRepo) -> None:
    repo = make_repo()
    result = audit(repo)
    assert result.exit_code == 0
    assert "0 commit(s) checked" in result.output


@pytest.mark.pygate
def test_a_feature_whose_test_sits_beside_the_code_is_not_flagged(make_repo: MakeRepo) -> None:
    pyproject = FILES["pyproject.toml"].replace(
        'pythonpath = ["src"]', 'pythonpath = ["src"]\npython_files = ["test_*.py", "ops.py"]'
    )
    repo = make_repo({**FILES, "pyproject.toml": pyproject})
    ops = (
        "def sub(a: int, b: int) -> int:\n    return a - b\n\n\n"
        "def test_sub() -> None:\n    assert sub(5, 3) == 2\n"
    )
    commit(repo, {"src/calc/ops.py": ops}, feat_message("subtract", 1, ["src/calc/ops.py"]))
    result = audit(repo, "HEAD~1..HEAD")
    assert result.exit_code == 0, result.output
    # the same change without the test beside it is a feature without a test
    commit(repo, {"src/calc/ops.py": ops.replace("a - b", "a - b + 0")}, feat_message(
        "subtract again", 2, ["src/calc/ops.py"]))  # fmt: skip
    flagged = audit(repo, "HEAD~1..HEAD")
    assert flagged.exit_code == 1
    assert "must add or change a test" in flagged.output


# --- the summary view, kinds of red, the baseline and tree reuse -----------------------------


@pytest.mark.pygate
def test_the_default_is_a_summary_with_counts_and_the_first_offenders(
    make_repo: MakeRepo,
) -> None:
    repo, shas = messy_history(make_repo)
    result = audit(repo)
    assert result.exit_code == 1
    text = " ".join(result.output.replace("│", " ").split())
    assert "violations by rule" in text
    assert "first offending commits" in text
    assert "green (lint/format only) 1 1" in text
    # the red commit, the revert of its revert and the 12 notes on that tree
    assert f"green (tests fail) 14 14 {shas['red'][:10]}" in text
    assert f"prefixed 13 13 {shas['red'][:10]}" in text  # git's own Revert messages are exempt
    assert "run `tddhooks audit --verbose` for all" in text
    # history cannot be rejected, only rewritten or left behind: both ways, with the commits
    last_note = git(repo, "rev-parse", "HEAD").stdout.strip()[:10]
    assert "fix: these commits are history. Not pushed yet: rewrite them with" in text
    assert f"`git rebase -i {shas['lint'][:10]}^`" in text  # the oldest offending commit
    assert f"`tddhooks audit --since {last_note}`" in text
    shown = text.split("violations by rule", 1)[1]  # after the progress lines
    assert "note 1 " in shown
    assert "note 11" not in shown, "the summary listed every offending commit"
    # the summary shows no output excerpts; --verbose does
    assert "[lint]" not in text
    verbose = " ".join(audit(repo, "--verbose").output.replace("│", " ").split())
    assert "[lint]" in verbose
    assert "note 11" in verbose


@pytest.mark.pygate
def test_lint_only_red_is_told_apart_in_the_json(make_repo: MakeRepo) -> None:
    repo, shas = messy_history(make_repo)
    result = audit(repo, "--json")
    # seen once in a full CI run (not reproduced alone): no JSON at all; say why if it recurs
    assert result.stdout.strip(), f"exit {result.exit_code}; stderr: {result.stderr}"
    report = json.loads(result.stdout)
    kinds = {(item["commit"], item["kind"]) for item in report["violations"]
             if item["rule"] == "green"}  # fmt: skip
    assert (shas["lint"], "lint/format only") in kinds
    assert (shas["red"], "tests fail") in kinds
    lint = next(
        item
        for item in report["violations"]
        if item["commit"] == shas["lint"] and item["rule"] == "green"
    )
    assert lint["message"].startswith("the tests pass (")
    summary = {row["rule"]: row for row in report["summary"]}
    assert summary["green (lint/format only)"]["violations"] == 1
    assert summary["green (lint/format only)"]["first_commit"] == shas["lint"]


@pytest.mark.pygate
def test_a_tree_seen_before_is_judged_once(make_repo: MakeRepo) -> None:
    repo, _shas = messy_history(make_repo)
    report = json.loads(audit(repo, "--json").stdout)
    # the second revert restores the red tree; the notes each make a new tree
    assert report["trees_reused"] >= 1
    assert report["trees_judged"] + report["trees_reused"] == report["commits"]


@pytest.mark.pygate
def test_since_is_a_baseline_for_an_old_repository(make_repo: MakeRepo) -> None:
    repo = make_repo(FILES)
    commit(repo, {"README.md": "old\n"}, "the old way: no prefix")
    commit(repo, {"src/calc/__init__.py": LINT_ONLY}, "more of the old way")
    commit(repo, {"src/calc/__init__.py": FILES["src/calc/__init__.py"]}, "docs: clean up")
    assert audit(repo).exit_code == 1
    baseline = git(repo, "rev-parse", "HEAD").stdout.strip()
    good = commit(repo, {"README.md": "Addition\n"}, "docs: readme")
    result = audit(repo, "--since", baseline, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["commits"] == 1
    assert report["baseline"] == baseline
    plain_text = audit(repo, "--since", baseline).output
    assert "after the baseline" in plain_text
    bad = commit(repo, {"README.md": "more\n"}, "no prefix after the baseline")
    report = json.loads(audit(repo, "--since", baseline, "--json").stdout)
    assert {item["commit"] for item in report["violations"]} == {bad}
    assert good not in {item["commit"] for item in report["violations"]}


@pytest.mark.parametrize(
    "args",
    [["--since", "no-such-rev"], ["--since", "HEAD", "HEAD~1..HEAD"], ["--since", "--all"]],
)
def test_a_bad_baseline_is_a_usage_error(make_repo: MakeRepo, args: list[str]) -> None:
    repo = make_repo(FILES)
    commit(repo, {"README.md": "x\n"}, "docs: readme")
    result = audit(repo, *args)
    assert result.exit_code == 2, result.output
