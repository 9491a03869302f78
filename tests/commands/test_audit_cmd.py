"""`tddhooks audit` re-checks real histories (Python kata: ruff and pytest, no cargo)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from conftest import git, write_files

from commands.pykata import FAILING_TEST, FILES, TEST, feat_message
from tddhooks import output
from tddhooks.cli import cli

MakeRepo = Callable[..., Path]


@pytest.fixture(autouse=True)
def wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "250")
    output.use_streams()


def audit(repo: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["audit", "-C", str(repo), *args], catch_exceptions=False)


def commit(repo: Path, files: dict[str, str], message: str) -> str:
    """Commit past any hooks (as `--no-verify` would) and return the new sha."""
    write_files(repo, files)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", message)
    return git(repo, "rev-parse", "HEAD").stdout.strip()


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


def test_a_clean_history_passes(make_repo: MakeRepo) -> None:
    repo = clean_history(make_repo)
    result = audit(repo)
    assert result.exit_code == 0, result.output
    assert "5 commit(s) checked" in result.output


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


def test_a_range_checks_only_its_commits(make_repo: MakeRepo) -> None:
    repo = make_repo(FILES)
    commit(repo, {"README.md": "x\n"}, "no prefix, before the range")
    commit(repo, {"README.md": "y\n"}, "docs: inside the range")
    result = audit(repo, "HEAD~1..HEAD", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["commits"] == 1


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
