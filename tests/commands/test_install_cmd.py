"""`tddhooks install` / `uninstall` on real repositories, with the real pre-commit and prek."""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from support.frameworks import THEIR_CONFIG, framework_install
from support.repo import git, write_files

from tddhooks import output
from tddhooks.cli import cli
from tddhooks.commands.hook_files import GUARD_TYPES, SHIM_TYPES
from tddhooks.commands.install import SHIM_MARKER, hooks_status
from tddhooks.commands.precommit_config import HOOK_IDS, HOOK_TYPES, hook_entries, load

MakeRepo = Callable[..., Path]

# the gate is off so these tests need no toolchain; the message rules still apply
NO_GATE = "language: rust\npolicy:\n  disabled_rules: [green]\n"
FOREIGN_HOOK = "#!/bin/sh\n# my own hook\nexit 0\n"


@pytest.fixture(autouse=True)
def fresh_consoles() -> None:
    output.use_streams()  # the consoles follow CliRunner's streams, whatever ran before


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def config_ids(repo: Path) -> list[str]:
    path = repo / ".pre-commit-config.yaml"
    return sorted(i for _, i in hook_entries(load(path.read_text("utf-8"), path)))


def hooks_snapshot(repo: Path) -> dict[str, tuple[bytes, int, int]]:
    """Every file in .git/hooks: bytes, mode, mtime."""
    folder = repo / ".git" / "hooks"
    return {
        p.name: (p.read_bytes(), p.stat().st_mode, p.stat().st_mtime_ns)
        for p in sorted(folder.iterdir())
    }


@pytest.mark.cargo
def test_default_install_writes_marked_shims_and_no_config(make_repo: MakeRepo) -> None:
    repo = make_repo({"README.md": "x\n"})
    result = invoke("install", "-C", str(repo))
    assert result.exit_code == 0, result.output
    for hook_type in SHIM_TYPES:
        shim = repo / ".git" / "hooks" / hook_type
        text = shim.read_text("utf-8")
        assert SHIM_MARKER in text
        assert f"tddhooks hook {hook_type}" in text
        assert "@PYTHON@" not in text
        assert os.access(shim, os.X_OK)
    assert hooks_status(repo) == dict.fromkeys(SHIM_TYPES, "direct")
    assert not (repo / ".pre-commit-config.yaml").exists()
    before = hooks_snapshot(repo)
    assert invoke("install", "-C", str(repo)).exit_code == 0
    assert invoke("install", "--direct", "-C", str(repo)).exit_code == 0  # the same thing
    assert hooks_snapshot(repo) == before  # idempotent: not even rewritten


@pytest.mark.cargo
def test_default_install_leaves_their_config_untouched(make_repo: MakeRepo) -> None:
    repo = make_repo({".pre-commit-config.yaml": THEIR_CONFIG, "tdd.yaml": NO_GATE})
    result = invoke("install", "-C", str(repo))
    assert result.exit_code == 0, result.output
    assert (repo / ".pre-commit-config.yaml").read_text("utf-8") == THEIR_CONFIG
    assert "not installed in this clone" in result.output
    assert hooks_status(repo) == dict.fromkeys(SHIM_TYPES, "direct")


@pytest.mark.cargo
def test_shims_judge_real_commits(make_repo: MakeRepo) -> None:
    repo = make_repo({"tdd.yaml": NO_GATE})
    assert invoke("install", "-C", str(repo)).exit_code == 0
    write_files(repo, {"notes.txt": "ü\n"})
    git(repo, "add", "notes.txt")
    rejected = git(repo, "commit", "-m", "no prefix here", check=False)
    assert rejected.returncode != 0
    assert "[prefixed]" in rejected.stdout + rejected.stderr
    assert git(repo, "commit", "-m", "docs: notes", check=False).returncode == 0


@pytest.mark.cargo
@pytest.mark.parametrize("tool", ["pre-commit", "prek"])
def test_chains_to_the_framework_and_uninstall_puts_it_back(make_repo: MakeRepo, tool: str) -> None:
    repo = make_repo({".pre-commit-config.yaml": THEIR_CONFIG, "tdd.yaml": NO_GATE})
    framework_install(repo, "pre-commit", tool=tool)
    original = hooks_snapshot(repo)
    result = invoke("install", "-C", str(repo))
    assert result.exit_code == 0, result.output
    assert f"{tool}'s own hooks run after it" in result.output.replace("\n", " ")
    chained = repo / ".git" / "hooks" / "pre-commit.tddhooks-chained"
    assert chained.read_bytes() == original["pre-commit"][0]
    assert hooks_status(repo) == dict.fromkeys(SHIM_TYPES, "direct")
    write_files(repo, {"a.txt": "a\n"})
    git(repo, "add", "a.txt")
    rejected = git(repo, "commit", "-m", "no prefix", check=False)
    assert rejected.returncode == 1
    assert "[prefixed]" in rejected.stdout + rejected.stderr
    accepted = git(repo, "commit", "-m", "docs: a", check=False)
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    assert "always fine" in accepted.stdout + accepted.stderr  # their hook ran after ours
    assert invoke("uninstall", "-C", str(repo)).exit_code == 0
    assert hooks_snapshot(repo) == original  # bytes, mode and mtime


@pytest.mark.cargo
def test_chains_to_a_foreign_hook_without_touching_it(make_repo: MakeRepo, tmp_path: Path) -> None:
    repo = make_repo({"tdd.yaml": NO_GATE})
    log = tmp_path / "ran.log"
    hook = repo / ".git" / "hooks" / "commit-msg"
    hook.write_text(f'#!/bin/sh\necho "their hook: $1" >> "{log}"\n', "utf-8")
    hook.chmod(0o750)
    original = hooks_snapshot(repo)
    assert invoke("install", "-C", str(repo)).exit_code == 0
    assert hooks_status(repo)["commit-msg"] == "direct"
    write_files(repo, {"b.txt": "b\n"})
    git(repo, "add", "b.txt")
    assert git(repo, "commit", "-m", "docs: b", check=False).returncode == 0
    assert log.read_text("utf-8") == "their hook: .git/COMMIT_EDITMSG\n"
    assert invoke("uninstall", "-C", str(repo)).exit_code == 0
    assert hooks_snapshot(repo) == original


def test_refuses_when_the_chain_name_is_taken_and_changes_nothing(make_repo: MakeRepo) -> None:
    repo = make_repo({"README.md": "x\n"})
    hooks = repo / ".git" / "hooks"
    (hooks / "pre-commit").write_text(FOREIGN_HOOK, "utf-8")
    (hooks / "pre-commit.tddhooks-chained").write_text("#!/bin/sh\nexit 3\n", "utf-8")
    original = hooks_snapshot(repo)
    result = invoke("install", "-C", str(repo))
    assert result.exit_code == 2
    assert "pre-commit.tddhooks-chained exists already" in result.output.replace("\n", "")
    assert hooks_snapshot(repo) == original  # nothing half-installed


def test_install_outside_a_repository_is_an_environment_error(tmp_path: Path) -> None:
    result = invoke("install", "-C", str(tmp_path))
    assert result.exit_code == 3
    assert "not inside a git repository" in result.output


def test_direct_and_pre_commit_exclude_each_other(make_repo: MakeRepo) -> None:
    repo = make_repo({"README.md": "x\n"})
    result = invoke("install", "--direct", "--pre-commit", "-C", str(repo))
    assert result.exit_code == 2
    assert hooks_status(repo) == dict.fromkeys(SHIM_TYPES, "missing")


@pytest.mark.cargo
def test_respects_core_hooks_path(make_repo: MakeRepo) -> None:
    repo = make_repo({"README.md": "x\n"})
    git(repo, "config", "core.hooksPath", "team-hooks")
    assert invoke("install", "-C", str(repo)).exit_code == 0
    for hook_type in HOOK_TYPES:
        assert SHIM_MARKER in (repo / "team-hooks" / hook_type).read_text("utf-8")
        assert not (repo / ".git" / "hooks" / hook_type).exists()
    assert invoke("uninstall", "-C", str(repo)).exit_code == 0
    assert not any((repo / "team-hooks").iterdir())


def test_pre_commit_route_refuses_core_hooks_path(make_repo: MakeRepo) -> None:
    repo = make_repo({"README.md": "x\n"})
    git(repo, "config", "core.hooksPath", "githooks")
    result = invoke("install", "--pre-commit", "-C", str(repo))
    assert result.exit_code == 2
    assert "core.hooksPath" in result.output
    assert not (repo / ".pre-commit-config.yaml").exists()


@pytest.mark.cargo
def test_pre_commit_route_lists_our_hooks_and_says_what_the_framework_does(
    make_repo: MakeRepo,
) -> None:
    repo = make_repo({".pre-commit-config.yaml": THEIR_CONFIG, "tdd.yaml": NO_GATE})
    result = invoke("install", "--pre-commit", "-C", str(repo))
    assert result.exit_code == 0, result.output
    flat = " ".join(result.output.split())
    assert "moves your unstaged edits out of the work tree" in flat
    text = (repo / ".pre-commit-config.yaml").read_text("utf-8")
    assert "  - id: always-fine  # a hook of theirs" in text
    assert config_ids(repo) == sorted(["always-fine", *HOOK_IDS.values()])
    data = load(text, repo / ".pre-commit-config.yaml")
    assert data["default_install_hook_types"] == list(HOOK_TYPES)
    assert "commit-msg" not in data["default_stages"]  # their stage-less hook: once per commit
    assert hooks_status(repo) == {
        **dict.fromkeys(HOOK_TYPES, "pre-commit"),
        **dict.fromkeys(GUARD_TYPES, "direct"),
    }
    state = json.loads((repo / ".git" / "tddhooks" / "install.json").read_text("utf-8"))
    assert state == {"framework": "pre-commit", "installed_types": sorted(HOOK_TYPES)}
    git(repo, "add", ".pre-commit-config.yaml")
    write_files(repo, {"c.txt": "c\n"})
    git(repo, "add", "c.txt")
    rejected = git(repo, "commit", "-m", "added c", check=False)
    assert rejected.returncode != 0
    assert "tddhooks commit message rules" in rejected.stdout + rejected.stderr
    accepted = git(repo, "commit", "-m", "docs: add c", check=False)
    out = accepted.stdout + accepted.stderr
    assert accepted.returncode == 0, out
    assert out.count("always fine") == 1  # not again at commit-msg or prepare-commit-msg


@pytest.mark.cargo
def test_pre_commit_route_round_trip_restores_config_and_legacy_hook(
    make_repo: MakeRepo,
) -> None:
    repo = make_repo({".pre-commit-config.yaml": THEIR_CONFIG})
    hooks = repo / ".git" / "hooks"
    (hooks / "prepare-commit-msg").write_text(FOREIGN_HOOK, "utf-8")
    (hooks / "prepare-commit-msg").chmod(0o755)
    framework_install(repo, "pre-commit")
    original = hooks_snapshot(repo)
    assert invoke("install", "--pre-commit", "-C", str(repo)).exit_code == 0
    assert (hooks / "prepare-commit-msg.legacy").read_text("utf-8") == FOREIGN_HOOK
    assert invoke("uninstall", "-C", str(repo)).exit_code == 0
    assert (repo / ".pre-commit-config.yaml").read_text("utf-8") == THEIR_CONFIG
    after = hooks_snapshot(repo)
    assert after.keys() == original.keys()
    assert after["prepare-commit-msg"][:2] == original["prepare-commit-msg"][:2]
    assert after["pre-commit"] == original["pre-commit"]  # the script that was there stays
    assert not (repo / ".git" / "tddhooks" / "install.json").exists()


@pytest.mark.cargo
def test_pre_commit_route_created_config_is_deleted_on_uninstall(make_repo: MakeRepo) -> None:
    repo = make_repo({"README.md": "x\n"})
    assert invoke("install", "--pre-commit", "-C", str(repo)).exit_code == 0
    assert (repo / ".pre-commit-config.yaml").exists()
    assert invoke("uninstall", "-C", str(repo)).exit_code == 0
    assert not (repo / ".pre-commit-config.yaml").exists()
    assert hooks_status(repo) == dict.fromkeys(SHIM_TYPES, "missing")


@pytest.mark.cargo
def test_default_install_migrates_away_from_the_config_route(make_repo: MakeRepo) -> None:
    repo = make_repo({".pre-commit-config.yaml": THEIR_CONFIG, "tdd.yaml": NO_GATE})
    assert invoke("install", "--pre-commit", "-C", str(repo)).exit_code == 0
    result = invoke("install", "-C", str(repo))
    assert result.exit_code == 0, result.output
    assert (repo / ".pre-commit-config.yaml").read_text("utf-8") == THEIR_CONFIG
    assert hooks_status(repo) == dict.fromkeys(SHIM_TYPES, "direct")
    hooks = repo / ".git" / "hooks"
    # the framework scripts the config route had installed are gone; theirs stays chained
    assert not (hooks / "commit-msg.tddhooks-chained").exists()
    assert not (hooks / "prepare-commit-msg.tddhooks-chained").exists()


@pytest.mark.cargo
def test_a_later_framework_install_keeps_our_shim_as_legacy(make_repo: MakeRepo) -> None:
    repo = make_repo({".pre-commit-config.yaml": THEIR_CONFIG, "tdd.yaml": NO_GATE})
    assert invoke("install", "-C", str(repo)).exit_code == 0
    framework_install(repo, "pre-commit")
    hooks = repo / ".git" / "hooks"
    assert SHIM_MARKER in (hooks / "pre-commit.legacy").read_text("utf-8")
    assert hooks_status(repo)["pre-commit"] == "direct"
    write_files(repo, {"d.txt": "d\n"})
    git(repo, "add", "d.txt")
    assert git(repo, "commit", "-m", "docs: d", check=False).returncode == 0
    assert invoke("uninstall", "-C", str(repo)).exit_code == 0
    assert not (hooks / "pre-commit.legacy").exists()
    assert hooks_status(repo)["pre-commit"] == "pre-commit"


def test_uninstall_with_nothing_installed_changes_nothing(make_repo: MakeRepo) -> None:
    repo = make_repo({".pre-commit-config.yaml": THEIR_CONFIG})
    result = invoke("uninstall", "-C", str(repo))
    assert result.exit_code == 0
    assert "nothing to uninstall" in result.output
    assert (repo / ".pre-commit-config.yaml").read_text("utf-8") == THEIR_CONFIG


def test_pre_commit_route_keeps_crlf_line_endings(make_repo: MakeRepo) -> None:
    crlf = THEIR_CONFIG.replace("\n", "\r\n")
    repo = make_repo()
    (repo / ".pre-commit-config.yaml").write_bytes(crlf.encode("utf-8"))
    assert invoke("install", "--pre-commit", "-C", str(repo)).exit_code == 0
    installed = (repo / ".pre-commit-config.yaml").read_bytes().decode("utf-8")
    assert "tddhooks-commit-msg" in installed
    assert "\n" not in installed.replace("\r\n", "")
    assert invoke("uninstall", "-C", str(repo)).exit_code == 0
    assert (repo / ".pre-commit-config.yaml").read_bytes().decode("utf-8") == crlf


def test_prek_is_available_for_these_tests() -> None:
    assert shutil.which("prek") or (Path(sys.executable).parent / "prek").exists()


@pytest.mark.cargo
def test_migrating_an_unrecorded_config_install_keeps_only_the_declared_framework_types(
    make_repo: MakeRepo,
) -> None:
    repo = make_repo({".pre-commit-config.yaml": THEIR_CONFIG, "tdd.yaml": NO_GATE})
    assert invoke("install", "--pre-commit", "-C", str(repo)).exit_code == 0
    (repo / ".git" / "tddhooks" / "install.json").unlink()  # as an older tddhooks left it
    assert invoke("install", "-C", str(repo)).exit_code == 0
    hooks = repo / ".git" / "hooks"
    assert (hooks / "pre-commit.tddhooks-chained").exists()  # their config declares pre-commit
    assert not (hooks / "commit-msg.tddhooks-chained").exists()
    assert not (hooks / "prepare-commit-msg.tddhooks-chained").exists()
    assert (repo / ".pre-commit-config.yaml").read_text("utf-8") == THEIR_CONFIG
