"""The guard's class rules (issue 34's spellings): what changes which config or hooks git reads,
any write under .git/, any git executable by its path, and a tool call made from outside the
repository it reaches. The guard is a first line: the reference-transaction hook and the
post-tool check are the mechanism (tests/security/test_ref_transaction.py)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tddhooks.agenthooks.guard import check_command, reached_dirs
from tddhooks.agenthooks.handlers import pre_tool, protected_paths
from tddhooks.agenthooks.repo_view import repo_view

CLASSES = [
    # (a) which config or hooks git reads
    ("git -c include.path=evil.cfg commit -m x", "git-config-source"),
    ("git -c includeIf.gitdir:/.path=evil.cfg commit -m x", "git-config-source"),
    ("git --config-env=include.path=EVIL commit -m x", "git-config-source"),
    ("git --config-env=core.hooksPath=EMPTY commit -m x", "hooks-path"),
    ("git config include.path ../evil.cfg", "git-config-source"),
    ("git config --global --add include.path /tmp/evil.cfg", "git-config-source"),
    ("git config -f .git/config alias.ci 'commit --no-verify'", "no-verify"),
    ("git config --edit", "git-config-source"),
    ("XDG_CONFIG_HOME=/tmp/x git commit -m y", "git-config-source"),
    ("HOME=/tmp/h git commit -m y", "git-config-source"),
    ("export HOME=/tmp/h; git commit -m y", "git-config-source"),
    ("env GIT_CONFIG_KEY_0=core.hooksPath git commit -m y", "git-config-source"),
    ("GIT_EXEC_PATH=/tmp/x git commit -m y", "git-config-source"),
    # (b) any path under .git/, by any command
    ("echo abc > .git/refs/heads/main", "protected-path"),
    ("cp /tmp/sha .git/refs/heads/main", "protected-path"),
    ("printf x | tee .git/HEAD", "protected-path"),
    ("sed -i s/a/b/ .git/packed-refs", "protected-path"),
    ("mv /tmp/objects .git/objects", "protected-path"),
    # (c) git by an executable's path
    ("/usr/lib/git-core/git-commit --no-verify -m x", "git-executable"),
    ('"$(git --exec-path)/git-commit" -n -m x', "git-executable"),
    ("git --exec-path=/tmp/x commit -m y", "git-executable"),
    ("git-merge side", "git-executable"),
    # the issue's spellings of the commit hooks' own rules, read as git reads them
    ("git cherry-pick -Xpatience abc123", "commit-without-hooks"),
    ("git revert -Xignore-space-change abc123", "commit-without-hooks"),
    ("git rebase -i HEAD~2 --exec 'git commit --amend --no-verify --no-edit'", "no-verify"),
    ("git rebase --exec='git -c core.hooksPath=/dev/null commit --amend' HEAD~1", "hooks-path"),
]
INNOCENT = [
    "git config alias.st status",
    "git config --get include.path",
    "git -c user.name=x commit -m 'feat: y'",
    "git --exec-path",
    "git lfs track '*.bin'",
    "cat .git/HEAD",
    "HOME=/tmp/h cargo test",
    "git log --oneline > /tmp/log.txt",
    "git cherry-pick -xn abc123",
    "git rebase --exec 'pytest -q' HEAD~3",
]


@pytest.fixture
def guard_in(make_repo: Callable[..., Path]) -> Callable[[str], str | None]:
    repo = make_repo({"src/lib.rs": "pub fn f() {}\n"})
    view = repo_view(str(repo))
    assert view is not None
    protected = protected_paths(view)

    def judge(command: str) -> str | None:
        refusal = check_command(command, str(repo), protected)
        return refusal.rule if refusal else None

    return judge


@pytest.mark.parametrize(("command", "rule"), CLASSES)
def test_each_class_is_refused(
    guard_in: Callable[[str], str | None], command: str, rule: str
) -> None:
    assert guard_in(command) == rule


@pytest.mark.parametrize("command", INNOCENT)
def test_ordinary_commands_pass(guard_in: Callable[[str], str | None], command: str) -> None:
    assert guard_in(command) is None


def test_the_directories_a_command_reaches() -> None:
    found = reached_dirs("cd /k && git -C sub --git-dir=/g/.git status > /o/x", "/tmp")
    assert found[:1] == ["/tmp"] or "/tmp" in found
    assert {"/k", "/k/sub", "/g/.git", "/o/x"} <= set(found)
    assert "/r/.git" in reached_dirs("GIT_DIR=/r/.git git status", "/tmp")


@pytest.mark.parametrize(
    "command",
    [
        "git -C {repo} commit --no-verify -m x",
        "cd {repo} && git commit -n -m x",
        "echo 0 > {repo}/.git/refs/heads/main",
        "git --git-dir={repo}/.git --work-tree={repo} commit -n -m x",
    ],
)
def test_a_call_from_outside_any_repository_is_judged_by_the_one_it_reaches(
    make_repo: Callable[..., Path], tmp_path: Path, command: str
) -> None:
    repo = make_repo({"src/lib.rs": "pub fn f() {}\n"})
    outside = tmp_path / "outside"
    outside.mkdir()
    payload = {
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command.format(repo=repo)},
        "cwd": str(outside),
    }
    answer, _code = pre_tool("claude-code", payload, str(outside))
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_an_edit_from_outside_reaches_the_repository_of_the_file(
    make_repo: Callable[..., Path], tmp_path: Path
) -> None:
    repo = make_repo({"src/lib.rs": "pub fn f() {}\n"})
    payload = {
        "hook_event_name": "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": str(repo / ".git/refs/heads/main"), "content": "0"},
        "cwd": str(tmp_path),
    }
    answer, _code = pre_tool("claude-code", payload, str(tmp_path))
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_the_installed_command_guards_without_path(make_repo: Callable[..., Path]) -> None:
    """`env -i PATH=/usr/bin:/bin` does not turn the guard off: the command is absolute."""
    repo = make_repo({"src/lib.rs": "pub fn f() {}\n"})
    from tddhooks.agenthooks.command import install_agents

    install_agents(repo, ["claude-code"], install=True)
    settings = json.loads((repo / ".claude/settings.json").read_text(encoding="utf-8"))
    [command] = [h["command"] for g in settings["hooks"]["PreToolUse"] for h in g["hooks"]]
    payload = {"tool_name": "Bash", "tool_input": {"command": "git commit -n -m x"}}
    done = subprocess.run(
        ["env", "-i", "PATH=/usr/bin:/bin", "sh", "-c", command],
        input=json.dumps({**payload, "cwd": str(repo)}),
        capture_output=True,
        text=True,
        cwd=repo,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
