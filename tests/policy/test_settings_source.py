"""Which tdd.yaml judges a commit (policy/settings.py settings_at, policy/source.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from support.repo import git, write_files

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
    # keyed by the blob and the language files of the tree (none here)
    stored = cache / "settings" / f"{blob}-none.json"
    assert json.loads(stored.read_text(encoding="utf-8"))["settings"]["timeout_s"] == 9
    stored.write_text("{not json", encoding="utf-8")

    assert settings_at(repo, head, cache).timeout_s == 9


def test_the_parents_language_files_pick_the_language_and_key_the_cache(
    make_repo: MakeRepo,
) -> None:
    repo = make_repo({"tdd.yaml": "ci:\n  timeout_s: 9\n", "pyproject.toml": "[project]\n"})
    head = git(repo, "rev-parse", "HEAD").stdout.strip()
    blob = git(repo, "rev-parse", "HEAD:tdd.yaml").stdout.strip()
    cache = repo / ".git" / "tddhooks"
    (repo / "Cargo.toml").write_text("[package]\n", encoding="utf-8")  # work tree: never counts

    assert settings_at(repo, head, cache).language == "python"
    # pytest's configuration widens the test paths: its blob keys the cache too
    pyproject = git(repo, "rev-parse", "HEAD:pyproject.toml").stdout.strip()
    assert (cache / "settings" / f"{blob}-python-{pyproject[:12]}.json").is_file()


def test_a_settings_cache_written_by_another_python_is_not_reused(
    make_repo: MakeRepo, tmp_path: Path
) -> None:
    """The default Python commands name tddhooks' own interpreter: a repository first judged by
    one installation (a venv, later deleted or replaced by pipx or pre-commit's environment) must
    not send the gate to that installation's Python."""
    repo = make_repo({"tdd.yaml": "language: python\n", "pyproject.toml": "[project]\n"})
    head = git(repo, "rev-parse", "HEAD").stdout.strip()
    cache = repo / ".git" / "tddhooks"
    # the same environment under another path: its python reports that path as sys.executable
    other_env = tmp_path / "other-env"
    other_env.symlink_to(Path(sys.prefix), target_is_directory=True)
    other_python = other_env / "bin" / "python"
    script = (
        "import sys; from pathlib import Path; from tddhooks.policy.settings import settings_at; "
        "print(settings_at(Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])).test[0])"
    )
    written = subprocess.run(
        [str(other_python), "-c", script, str(repo), head, str(cache)],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    assert written == str(other_python)

    assert settings_at(repo, head, cache).test[0] == sys.executable


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


def test_a_settings_cache_naming_no_interpreter_is_shared_by_every_python(
    make_repo: MakeRepo, tmp_path: Path
) -> None:
    """A Rust kata's settings name no Python: the `tddhooks` script (python3) and
    `python -m tddhooks` read the same cache file instead of rewriting it in turn (each rewrite
    costs a hook the pydantic import)."""
    repo = make_repo({"tdd.yaml": "ci:\n  timeout_s: 9\n", "Cargo.toml": "[package]\n"})
    head = git(repo, "rev-parse", "HEAD").stdout.strip()
    blob = git(repo, "rev-parse", "HEAD:tdd.yaml").stdout.strip()
    cache = repo / ".git" / "tddhooks"
    other_env = tmp_path / "other-env"
    other_env.symlink_to(Path(sys.prefix), target_is_directory=True)
    other_python = other_env / "bin" / "python"
    script = (
        "import sys; from pathlib import Path; from tddhooks.policy.settings import settings_at; "
        "print(settings_at(Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])).language)"
    )
    written = subprocess.run(
        [str(other_python), "-c", script, str(repo), head, str(cache)],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    stored = cache / "settings" / f"{blob}-rust.json"
    before = stored.read_bytes()
    assert written == "rust"
    assert json.loads(before)["python"] == str(other_python)

    assert settings_at(repo, head, cache).timeout_s == 9

    assert stored.read_bytes() == before  # reused, not rewritten under this interpreter
