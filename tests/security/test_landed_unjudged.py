"""What skips every hook (a changed core.hooksPath, a write under .git/) is caught at once: the
agent hooks report it after the tool call and hold Stop, pre-push refuses to push it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from support.gatekit import python_kata
from support.refkit import (
    git,
    green_feature,
    hooked_commit,
    red_feature,
    sneak,
    stage,
    tip,
)

pytestmark = pytest.mark.pygate


def _with_claude_code(repo: Path) -> None:
    from tddhooks.agenthooks.command import install_agents

    install_agents(repo, ["claude-code"], install=True)


@pytest.fixture
def kata(tmp_path: Path, session_dir: Path) -> Path:
    return python_kata(tmp_path, session_dir, scaffold="calc", setup=_with_claude_code)


def agent_hook(repo: Path, event: str, env: dict[str, str] | None = None) -> tuple[Any, int]:
    """Run the command .claude/settings.json registers for event, as Claude Code does."""
    settings = json.loads((repo / ".claude/settings.json").read_text(encoding="utf-8"))
    [command] = [
        hook["command"]
        for group in settings["hooks"][event]
        for hook in group["hooks"]
        if group.get("matcher") in (None, "Bash|Write|Edit|MultiEdit|NotebookEdit")
    ]
    payload = {
        "hook_event_name": event,
        "tool_name": "Bash",
        "tool_input": {"command": "true"},
        "cwd": str(repo),
        "session_id": "s",
        "stop_hook_active": True,
    }
    done = subprocess.run(
        command, shell=True, cwd=repo, input=json.dumps(payload), capture_output=True,
        text=True, env=env,
    )  # fmt: skip
    assert done.stdout, done.stderr
    return json.loads(done.stdout), done.returncode


def test_a_commit_made_with_hooks_off_is_reported_after_the_tool_call_and_holds_stop(
    kata: Path,
) -> None:
    assert agent_hook(kata, "PostToolUse") == ({}, 0)
    parent = tip(kata)
    red = sneak(kata, *red_feature())
    answer, code = agent_hook(kata, "PostToolUse")
    assert code == 0
    assert answer["decision"] == "block"
    assert red[:12] in answer["reason"]
    assert f"git reset --soft {parent}" in answer["reason"]
    # Stop is held every time while it is there, even when the agent was sent back before
    for _ in range(3):
        answer, _code = agent_hook(kata, "Stop")
        assert answer["decision"] == "block"
        assert f"git reset --soft {parent}" in answer["reason"]
    assert git(kata, "reset", "-q", "--soft", parent).returncode == 0
    assert agent_hook(kata, "PostToolUse") == ({}, 0)
    assert agent_hook(kata, "Stop")[0].get("decision") != "block"


def test_a_branch_written_directly_under_git_is_reported(kata: Path) -> None:
    stage(kata, red_feature()[0])
    tree = git(kata, "write-tree").stdout.strip()
    made = git(kata, "commit-tree", tree, "-p", tip(kata), "-m", "feat: x").stdout.strip()
    (kata / ".git/refs/heads/side").write_text(made + "\n", encoding="utf-8")
    answer, _code = agent_hook(kata, "PostToolUse")
    assert "refs/heads/side" in answer["reason"]
    assert made[:12] in answer["reason"]


def test_commits_the_hooks_judged_are_not_reported(kata: Path) -> None:
    hooked_commit(kata, *green_feature())
    git(kata, "switch", "-q", "-c", "topic")
    hooked_commit(kata, *green_feature(2, "ones"))
    assert agent_hook(kata, "PostToolUse") == ({}, 0)


def test_the_hook_command_is_an_absolute_path_that_works_without_path(kata: Path) -> None:
    settings = (kata / ".claude/settings.json").read_text(encoding="utf-8")
    assert '"command": "/' in settings
    sneak(kata, *red_feature())
    answer, _code = agent_hook(kata, "PostToolUse", env={"PATH": "/usr/bin:/bin"})
    assert answer["decision"] == "block"


def test_pre_push_refuses_a_commit_no_hook_judged(kata: Path, tmp_path: Path) -> None:
    remote = tmp_path / "remote.git"
    assert git(tmp_path, "init", "-q", "--bare", str(remote)).returncode == 0
    git(kata, "remote", "add", "origin", str(remote))
    hooked_commit(kata, *green_feature())
    pushed = git(kata, "push", "-q", "origin", "main")
    assert pushed.returncode == 0, pushed.stderr
    red = sneak(kata, *red_feature(2))
    done = git(kata, "push", "origin", "main")
    assert done.returncode != 0
    assert "[green]" in done.stdout
    assert f"{red[:12]} (feat: negatives), pushed from refs/heads/main" in done.stdout
    assert git(remote, "rev-parse", "main").stdout.strip() != red
    # pushing another branch name does not help, nor does skipping the hook by config
    assert git(kata, "push", "origin", "main:other").returncode != 0
    # `git -c core.hooksPath=… push` skips it: the agent hooks report that (above)
