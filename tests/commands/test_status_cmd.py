"""`tddhooks status` on real repositories in each phase it can reach cheaply (Python kata: ruff and
pytest, no cargo). The green-after-init case lives with the init tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from support.pykata import FAILING_TEST, FILES, TEST
from support.repo import git, write_files

from tddhooks import output
from tddhooks.cli import cli
from tddhooks.policy.phase import mark_done

MakeRepo = Callable[..., Path]


@pytest.fixture(autouse=True)
def wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    output.use_streams()


def status(repo: Path) -> tuple[Result, str]:
    result = CliRunner().invoke(cli, ["status", "-C", str(repo)], catch_exceptions=False)
    return result, " ".join(result.output.split())


@pytest.mark.pygate
def test_red_shows_the_implementor_and_the_failing_test(make_repo: MakeRepo) -> None:
    repo = make_repo(FILES)
    write_files(repo, {"tests/test_sub.py": FAILING_TEST})
    git(repo, "add", "tests/test_sub.py")
    result, text = status(repo)
    assert result.exit_code == 0, result.output
    assert "phase red" in text
    assert "implementor:" in text
    assert "failing tests:" in text
    assert "test_subtracts_négatifs" in text
    assert "staged tree: red" in text
    assert "chore: initial files" in text  # the last commit
    assert "cycle 1" in text


@pytest.mark.pygate
def test_overshoot_when_the_staged_test_already_passes(make_repo: MakeRepo) -> None:
    repo = make_repo(FILES)
    write_files(repo, {"tests/test_again.py": TEST.replace("two", "three")})
    git(repo, "add", "tests/test_again.py")
    result, text = status(repo)
    assert result.exit_code == 0, result.output
    assert "phase overshoot" in text
    assert "staged tree: green" in text


def test_dirty_names_the_unstaged_files(make_repo: MakeRepo) -> None:
    repo = make_repo(FILES)
    write_files(repo, {"brouillon ü.txt": "x\n"})
    result, text = status(repo)
    assert result.exit_code == 0
    assert "phase dirty" in text
    assert "brouillon ü.txt" in text


def test_mixed_says_how_to_split(make_repo: MakeRepo) -> None:
    repo = make_repo(FILES)
    write_files(repo, {"src/calc/__init__.py": "X = 1\n", "tests/test_x.py": TEST})
    git(repo, "add", "-A")
    result, text = status(repo)
    assert result.exit_code == 0
    assert "phase mixed" in text
    assert "git restore --staged src/calc/__init__.py" in text


@pytest.mark.pygate
def test_green_feature_after_a_feat_commit(make_repo: MakeRepo) -> None:
    repo = make_repo(FILES)
    git(repo, "commit", "-q", "--allow-empty", "--no-verify", "-m", "feat: something")
    result, text = status(repo)
    assert result.exit_code == 0
    assert "phase green-feature" in text
    assert "refactorer:" in text
    assert "cycle 1" in text


@pytest.mark.pygate
def test_done_when_the_tester_reported_completion(make_repo: MakeRepo) -> None:
    repo = make_repo(FILES)
    mark_done(repo, "every requirement has a test")
    result, text = status(repo)
    assert result.exit_code == 0
    assert "phase done" in text
    assert "every requirement has a test" in text


def test_outside_a_repository_exits_3(tmp_path: Path) -> None:
    result, text = status(tmp_path)
    assert result.exit_code == 3
    assert "not inside a git repository" in text
