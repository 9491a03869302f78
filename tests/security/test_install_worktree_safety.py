"""Red team for `tddhooks install` (issue 7, class 6b): the default install never removes, stashes
or rewrites anything in the work tree, even for a moment; foreign hooks are never overwritten or
deleted; hostile configs lose nothing; uninstall gives everything back byte for byte.

The gate in these repositories runs a real pytest whose probe test records, while the gate runs,
the bytes and mtime of a work-tree file that holds an unstaged edit.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from support.pykata import FILES
from support.repo import git, write_files

from tddhooks import output
from tddhooks.cli import cli
from tddhooks.commands.install import hooks_status

MakeRepo = Callable[..., Path]
HOOK_TYPES = ("pre-commit", "commit-msg", "prepare-commit-msg")
SHIM_TYPES = (*HOOK_TYPES, "reference-transaction", "pre-push")
NOTES = "# Notes\n\ncommitted line\n"
EDIT = NOTES + "an unstaged edit — ünïcödé\n"
THEIR_HOOK_CONFIG = """\
repos:
- repo: local
  hooks:
  - id: their-check
    name: their check
    entry: "true"
    language: system
    pass_filenames: false
    always_run: true
"""
FOREIGN = "#!/bin/sh\n# my own hook\nexit 0\n"


@pytest.fixture(autouse=True)
def fresh_consoles() -> None:
    output.use_streams()  # the consoles follow CliRunner's streams, whatever ran before


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def probe_test(notes: Path, log: Path) -> str:
    return (
        "from pathlib import Path\n\nfrom calc import add\n\n"
        # fmt: skip keeps the gate's format check green however long the temp path is
        f'WORK = Path("{notes}")  # fmt: skip\nLOG = Path("{log}")  # fmt: skip\n\n\n'
        "def test_probe_records_the_work_tree() -> None:\n"
        "    stat = WORK.stat()\n"
        '    content = WORK.read_text(encoding="utf-8")\n'
        '    with LOG.open("a", encoding="utf-8") as stream:\n'
        '        stream.write(str(stat.st_mtime_ns) + " " + repr(content) + "\\n")\n'
        "    assert add(1, 1) == 2\n"
    )


def probe_repo(make_repo: MakeRepo, tmp_path: Path, extra: dict[str, str] | None = None) -> Path:
    """A Python kata whose gate records notes.md; notes.md then gets an unstaged edit."""
    log = tmp_path / "probe.log"
    repo_path = tmp_path / "repo"
    files = {**FILES, "notes.md": NOTES, **(extra or {})}
    files["tests/test_probe.py"] = probe_test(repo_path / "notes.md", log)
    repo = make_repo(files)
    assert repo == repo_path
    (repo / "notes.md").write_text(EDIT, encoding="utf-8")
    os.utime(repo / "notes.md", ns=(1_600_000_000_000_000_000, 1_600_000_000_000_000_000))
    return repo


def commit_readme(repo: Path, text: str = "Hallo\n") -> subprocess.CompletedProcess[str]:
    write_files(repo, {"README.md": text})
    git(repo, "add", "README.md")
    return git(repo, "commit", "-m", "docs: a readme", check=False)


def assert_edit_untouched(repo: Path, log: Path, *, mtime_kept: bool = True) -> None:
    notes = repo / "notes.md"
    assert notes.read_text(encoding="utf-8") == EDIT
    if mtime_kept:
        assert notes.stat().st_mtime_ns == 1_600_000_000_000_000_000
    seen = log.read_text(encoding="utf-8").splitlines()
    assert seen, "the gate never ran"
    # while the gate ran, the work tree held the edit, with its mtime: nothing was stashed
    assert seen == [f"1600000000000000000 {EDIT!r}"] * len(seen)
    assert git(repo, "status", "--porcelain").stdout == " M notes.md\n"


def framework(repo: Path, tool: str, *args: str) -> subprocess.CompletedProcess[str]:
    cmd = (
        [sys.executable, "-m", "pre_commit"]
        if tool == "pre-commit"
        else [str(Path(sys.executable).parent / "prek")]
    )
    result = subprocess.run([*cmd, *args], cwd=repo, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def snapshot(folder: Path) -> dict[str, tuple[bytes | str, int, int]]:
    found: dict[str, tuple[bytes | str, int, int]] = {}
    for path in sorted(folder.iterdir()):
        info = path.lstat()
        body: bytes | str = os.readlink(path) if path.is_symlink() else path.read_bytes()
        found[path.name] = (body, info.st_mode, info.st_mtime_ns)
    return found


@pytest.mark.pygate
def test_default_install_commit_leaves_an_unstaged_edit_byte_identical(
    make_repo: MakeRepo, tmp_path: Path
) -> None:
    repo = probe_repo(make_repo, tmp_path)
    assert invoke("install", "-C", str(repo)).exit_code == 0
    result = commit_readme(repo)
    assert result.returncode == 0, result.stdout + result.stderr
    assert_edit_untouched(repo, tmp_path / "probe.log")


@pytest.mark.pygate
@pytest.mark.parametrize("tool", ["pre-commit", "prek"])
def test_with_a_framework_our_gate_runs_before_its_stash_and_adds_none(
    make_repo: MakeRepo, tmp_path: Path, tool: str
) -> None:
    repo = probe_repo(make_repo, tmp_path, {".pre-commit-config.yaml": THEIR_HOOK_CONFIG})
    framework(repo, tool, "install", "-t", "pre-commit")
    assert invoke("install", "-C", str(repo)).exit_code == 0
    result = commit_readme(repo)
    out = result.stdout + result.stderr
    assert result.returncode == 0, out
    assert "their check" in out  # their framework hook still ran
    # the framework stashed for its own pre-commit hook only, never at the message stages
    stashes = out.count("Stashing unstaged files") + out.count("Unstaged changes detected")
    assert stashes == 1
    # their framework rewrote the file for its own hook (mtime); ours saw it untouched
    assert_edit_untouched(repo, tmp_path / "probe.log", mtime_kept=False)


@pytest.mark.pygate
def test_with_a_framework_that_has_no_hooks_at_commit_time_nothing_is_stashed(
    make_repo: MakeRepo, tmp_path: Path
) -> None:
    config = THEIR_HOOK_CONFIG + "    stages: [pre-push]\n"
    repo = probe_repo(make_repo, tmp_path, {".pre-commit-config.yaml": config})
    framework(repo, "pre-commit", "install", "-t", "pre-push")
    assert invoke("install", "-C", str(repo)).exit_code == 0
    result = commit_readme(repo)
    assert result.returncode == 0, result.stdout + result.stderr
    assert_edit_untouched(repo, tmp_path / "probe.log")


@pytest.mark.pygate
def test_a_framework_installed_after_us_runs_our_gate_before_its_stash(
    make_repo: MakeRepo, tmp_path: Path
) -> None:
    repo = probe_repo(make_repo, tmp_path, {".pre-commit-config.yaml": THEIR_HOOK_CONFIG})
    assert invoke("install", "-C", str(repo)).exit_code == 0
    framework(repo, "pre-commit", "install", "-t", "pre-commit")  # keeps ours as .legacy
    result = commit_readme(repo)
    assert result.returncode == 0, result.stdout + result.stderr
    assert_edit_untouched(repo, tmp_path / "probe.log", mtime_kept=False)


@pytest.mark.pygate
def test_the_pre_commit_route_says_plainly_that_the_framework_stashes(
    make_repo: MakeRepo, tmp_path: Path
) -> None:
    repo = probe_repo(make_repo, tmp_path)
    result = invoke("install", "--pre-commit", "-C", str(repo))
    assert result.exit_code == 0, result.output
    flat = " ".join(result.output.split())
    assert "moves your unstaged edits out of the work tree while its hooks run" in flat
    assert "leaves them only in a patch" in flat
    assert (repo / "notes.md").read_text(encoding="utf-8") == EDIT


@pytest.mark.cargo
@pytest.mark.parametrize("hook_type", HOOK_TYPES)
def test_a_foreign_hook_is_chained_never_overwritten_and_comes_back(
    make_repo: MakeRepo, hook_type: str
) -> None:
    repo = make_repo({"README.md": "x\n"})
    hooks = repo / ".git" / "hooks"
    (hooks / hook_type).write_text(FOREIGN, encoding="utf-8")
    (hooks / hook_type).chmod(0o700)
    before = snapshot(hooks)
    assert invoke("install", "-C", str(repo)).exit_code == 0
    assert (hooks / f"{hook_type}.tddhooks-chained").read_text(encoding="utf-8") == FOREIGN
    assert invoke("install", "-C", str(repo)).exit_code == 0  # twice: still one chained copy
    assert invoke("uninstall", "-C", str(repo)).exit_code == 0
    assert snapshot(hooks) == before


@pytest.mark.cargo
def test_a_symlinked_hook_stays_a_symlink(make_repo: MakeRepo, tmp_path: Path) -> None:
    repo = make_repo({"README.md": "x\n"})
    target = tmp_path / "shared-hook"
    target.write_text(FOREIGN, encoding="utf-8")
    target.chmod(0o755)
    hooks = repo / ".git" / "hooks"
    (hooks / "pre-commit").symlink_to(target)
    before = snapshot(hooks)
    assert invoke("install", "-C", str(repo)).exit_code == 0
    assert target.read_text(encoding="utf-8") == FOREIGN  # never written through the link
    assert invoke("uninstall", "-C", str(repo)).exit_code == 0
    assert snapshot(hooks) == before
    assert target.read_text(encoding="utf-8") == FOREIGN


def test_a_hook_that_only_mentions_our_marker_is_not_ours(make_repo: MakeRepo) -> None:
    repo = make_repo({"README.md": "x\n"})
    hook = repo / ".git" / "hooks" / "commit-msg"
    lookalike = "#!/bin/sh\n# mein Hook — tddhooks-shim v2 erwähnt\nexit 0\n"
    hook.write_text(lookalike, encoding="utf-8")
    assert invoke("uninstall", "-C", str(repo)).exit_code == 0
    assert hook.read_text(encoding="utf-8") == lookalike


def test_hooks_in_the_work_tree_are_never_moved(make_repo: MakeRepo) -> None:
    repo = make_repo({"githooks/pre-commit": FOREIGN})
    git(repo, "config", "core.hooksPath", "githooks")
    result = invoke("install", "-C", str(repo))
    assert result.exit_code == 2
    assert "lies in your work tree" in " ".join(result.output.split())
    assert sorted(p.name for p in (repo / "githooks").iterdir()) == ["pre-commit"]
    assert git(repo, "status", "--porcelain").stdout == ""


@pytest.mark.cargo
def test_a_symlinked_config_is_never_edited_through(make_repo: MakeRepo, tmp_path: Path) -> None:
    outside = tmp_path / "team-config.yaml"
    outside.write_text(THEIR_HOOK_CONFIG, encoding="utf-8")
    repo = make_repo({"README.md": "x\n"})
    (repo / ".pre-commit-config.yaml").symlink_to(outside)
    assert invoke("install", "-C", str(repo)).exit_code == 0  # default: config not touched
    result = invoke("install", "--pre-commit", "-C", str(repo))
    assert result.exit_code == 2
    assert "symbolic link" in result.output
    assert (repo / ".pre-commit-config.yaml").is_symlink()
    assert outside.read_text(encoding="utf-8") == THEIR_HOOK_CONFIG


@pytest.mark.cargo
@pytest.mark.parametrize(
    "body",
    [
        b"repos: [\n",  # broken YAML
        b"\xff\xfe not utf-8\n",
        b"- a list\n",
        b"a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\nrepos: 7\n",
    ],
)
def test_a_hostile_config_is_refused_and_kept(make_repo: MakeRepo, body: bytes) -> None:
    repo = make_repo({"README.md": "x\n"})
    (repo / ".pre-commit-config.yaml").write_bytes(body)
    result = invoke("install", "--pre-commit", "-C", str(repo))
    assert result.exit_code == 2
    assert ".pre-commit-config.yaml" in result.output
    assert (repo / ".pre-commit-config.yaml").read_bytes() == body
    assert hooks_status(repo) == dict.fromkeys(SHIM_TYPES, "missing")
    assert invoke("install", "-C", str(repo)).exit_code == 0  # the default never reads it
    assert (repo / ".pre-commit-config.yaml").read_bytes() == body


@pytest.mark.cargo
def test_default_install_and_uninstall_round_trip_with_framework_and_legacy(
    make_repo: MakeRepo,
) -> None:
    repo = make_repo({".pre-commit-config.yaml": THEIR_HOOK_CONFIG})
    hooks = repo / ".git" / "hooks"
    (hooks / "pre-commit").write_text(FOREIGN, encoding="utf-8")
    (hooks / "pre-commit").chmod(0o755)
    framework(repo, "pre-commit", "install", "-t", "pre-commit", "-t", "commit-msg")
    before, config = snapshot(hooks), (repo / ".pre-commit-config.yaml").read_bytes()
    assert invoke("install", "-C", str(repo)).exit_code == 0
    assert invoke("uninstall", "-C", str(repo)).exit_code == 0
    assert snapshot(hooks) == before
    assert (repo / ".pre-commit-config.yaml").read_bytes() == config


def test_a_state_file_path_that_is_a_file_is_an_environment_error(make_repo: MakeRepo) -> None:
    repo = make_repo({"README.md": "x\n"})
    (repo / ".git" / "tddhooks").write_text("not a directory", encoding="utf-8")
    result = invoke("install", "--pre-commit", "-C", str(repo))
    assert result.exit_code == 3
    assert "install.json" in result.output
    assert (repo / ".git" / "tddhooks").read_text(encoding="utf-8") == "not a directory"


@pytest.mark.cargo
def test_an_install_interrupted_after_the_rename_recovers(make_repo: MakeRepo) -> None:
    repo = make_repo({"README.md": "x\n"})
    hooks = repo / ".git" / "hooks"
    (hooks / "pre-commit").write_text(FOREIGN, encoding="utf-8")
    (hooks / "pre-commit").chmod(0o755)
    before = snapshot(hooks)
    # the state a kill between the rename and the shim write leaves behind
    os.rename(hooks / "pre-commit", hooks / "pre-commit.tddhooks-chained")
    assert invoke("install", "-C", str(repo)).exit_code == 0
    assert hooks_status(repo) == dict.fromkeys(SHIM_TYPES, "direct")
    assert invoke("uninstall", "-C", str(repo)).exit_code == 0
    assert snapshot(hooks) == before


@pytest.mark.cargo
def test_a_repository_without_a_hooks_folder_gets_one(make_repo: MakeRepo) -> None:
    repo = make_repo({"README.md": "x\n"})
    for path in (repo / ".git" / "hooks").iterdir():
        path.unlink()
    (repo / ".git" / "hooks").rmdir()
    assert invoke("install", "-C", str(repo)).exit_code == 0
    assert hooks_status(repo) == dict.fromkeys(SHIM_TYPES, "direct")


@pytest.mark.pygate
def test_a_linked_worktree_commits_through_the_chain_without_stashing(
    make_repo: MakeRepo, tmp_path: Path
) -> None:
    repo = probe_repo(make_repo, tmp_path, {".pre-commit-config.yaml": THEIR_HOOK_CONFIG})
    framework(repo, "pre-commit", "install", "-t", "pre-commit")
    assert invoke("install", "-C", str(repo)).exit_code == 0
    other = tmp_path / "other"
    git(repo, "worktree", "add", "-q", str(other), "-b", "other")
    result = commit_readme(other, "from the other worktree\n")
    out = result.stdout + result.stderr
    assert result.returncode == 0, out
    assert "their check" in out
    # the main work tree's unstaged edit was never in the other worktree's way, nor touched
    assert (repo / "notes.md").read_text(encoding="utf-8") == EDIT
    assert (repo / "notes.md").stat().st_mtime_ns == 1_600_000_000_000_000_000
