"""Which tdd.yaml judges a commit (policy/settings.py settings_at, policy/source.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import git, write_files

from tddhooks.errors import ConfigError
from tddhooks.policy.amend import is_amend_args
from tddhooks.policy.settings import load_settings, settings_at

MakeRepo = Callable[..., Path]
LOOSE = "policy:\n  disabled_rules: [green]\nci:\n  timeout_s: 7\n"


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--amend"], True),
        (["-q", "--amen", "-m", "x"], True),
        (["--am"], True),
        (["--a"], False),
        (["--all"], False),
        (["-m", "x", "--", "--amend"], False),
        (["-m", "--amend"], False),
        ([], False),
    ],
)
def test_is_amend_reads_gits_own_prefix_rule(args: list[str], expected: bool) -> None:
    assert is_amend_args(["commit", *args], lambda _name: None) is expected


def test_the_work_tree_file_never_counts(make_repo: MakeRepo) -> None:
    repo = make_repo({"tdd.yaml": "ci:\n  timeout_s: 9\n"})
    (repo / "tdd.yaml").write_text(LOOSE, encoding="utf-8")
    git(repo, "add", "tdd.yaml")  # staged too: still not the parent's
    head = git(repo, "rev-parse", "HEAD").stdout.strip()

    settings = settings_at(repo, head, repo / ".git" / "tddhooks")

    assert settings.timeout_s == 9
    assert settings.enabled("green")
    assert load_settings(repo).timeout_s == 9


def test_parsed_settings_are_cached_by_blob_and_a_bad_cache_is_reparsed(
    make_repo: MakeRepo,
) -> None:
    repo = make_repo({"tdd.yaml": "ci:\n  timeout_s: 9\n"})
    head = git(repo, "rev-parse", "HEAD").stdout.strip()
    blob = git(repo, "rev-parse", "HEAD:tdd.yaml").stdout.strip()
    cache = repo / ".git" / "tddhooks"

    settings_at(repo, head, cache)
    stored = cache / "settings" / f"{blob}.json"
    assert json.loads(stored.read_text(encoding="utf-8"))["settings"]["timeout_s"] == 9
    stored.write_text("{not json", encoding="utf-8")

    assert settings_at(repo, head, cache).timeout_s == 9


def test_a_root_commit_is_judged_by_its_own_staged_policy(make_repo: MakeRepo) -> None:
    repo = make_repo()
    write_files(repo, {"tdd.yaml": LOOSE})
    git(repo, "add", "tdd.yaml")

    settings = settings_at(repo, None)

    assert not settings.enabled("green")
    assert settings.timeout_s == 7


def test_the_first_policy_file_picks_only_language_and_kata(make_repo: MakeRepo) -> None:
    repo = make_repo({"README.md": "hi\n"})
    write_files(repo, {"tdd.yaml": "language: python\nkata_description: KATA.md\n" + LOOSE})
    git(repo, "add", "tdd.yaml")
    head = git(repo, "rev-parse", "HEAD").stdout.strip()

    settings = settings_at(repo, head)

    assert (settings.language, settings.kata_description) == ("python", "KATA.md")
    assert settings.enabled("green")
    assert settings.timeout_s == 300


def test_audit_reads_a_commits_own_tree_for_the_first_policy(make_repo: MakeRepo) -> None:
    repo = make_repo({"README.md": "hi\n"})
    parent = git(repo, "rev-parse", "HEAD").stdout.strip()
    write_files(repo, {"tdd.yaml": "language: python\n"})
    git(repo, "add", "tdd.yaml")
    git(repo, "commit", "-q", "--no-verify", "-m", "chore: policy")
    own = git(repo, "rev-parse", "HEAD").stdout.strip()
    git(repo, "rm", "-q", "--cached", "tdd.yaml")  # the index no longer has it: own= is used

    assert settings_at(repo, parent, own=own).language == "python"


def test_a_policy_file_that_is_a_folder_is_a_config_error(make_repo: MakeRepo) -> None:
    repo = make_repo({"tdd.yaml/inner": "x\n"})
    head = git(repo, "rev-parse", "HEAD").stdout.strip()
    with pytest.raises(ConfigError, match="not a regular file"):
        settings_at(repo, head)
