"""Helpers for the agent hook tests: a kata repository with the agents' configurations
installed, and a way to run exactly the command a configuration registers."""

from __future__ import annotations

import json
import subprocess
import tomllib
from pathlib import Path
from typing import Any

from support.pykata import FAILING_TEST, FILES
from tddhooks.agenthooks.formats import AGENTS


def run(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=repo, capture_output=True, text=True, check=False)


def kata_with_agent(tmp_path: Path, agent: str) -> Path:
    """tmp_path/kata: a committed Python kata with the git hooks and `agent`'s hooks installed
    and committed, built once per worker (in its base temp folder) and copied with its gate state
    (support/gatekit.py, kata_copy)."""
    from support.gatekit import kata_copy

    repo = kata_copy(tmp_path, tmp_path.parent, f"python-calc-{agent}",
                     lambda built: build_kata_with_agent(built, agent))  # fmt: skip
    assert repo == tmp_path / "kata"
    return repo


def build_kata_with_agent(repo: Path, agent: str) -> None:
    """Make the kata of kata_with_agent at repo (a new folder)."""
    repo.mkdir(parents=True)
    run(repo, "git", "init", "-q")
    for relative, text in FILES.items():
        path = repo / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    installed = run(repo, "tddhooks", "install", "--direct", "--agent", agent)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    run(repo, "git", "add", "-A")
    committed = run(repo, "git", "commit", "-q", "--no-verify", "-m", "chore: scaffold")
    assert committed.returncode == 0, committed.stderr


def stage_red_test(repo: Path) -> Path:
    """Stage a failing test and nothing else (the hand-over to the implementor)."""
    test = repo / "tests/test_negatives.py"
    test.write_text(FAILING_TEST, encoding="utf-8")
    run(repo, "git", "add", str(test))
    return test


def registered(repo: Path, agent: str) -> list[tuple[str, str | None, str]]:
    """(agent event, matcher, command) for every command hook the configuration lists."""
    path = repo / AGENTS[agent].config
    text = path.read_text(encoding="utf-8")
    data: dict[str, Any] = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
    events = data.get("hooks", data)
    found = []
    for event, groups in events.items():
        for group in groups:
            if agent == "cursor":
                found.append((event, group.get("matcher"), group["command"]))
                continue
            for hook in group["hooks"]:
                found.append((event, group.get("matcher"), hook["command"]))
    return found


def command_for(repo: Path, agent: str, event: str, tool: str | None = None) -> str:
    """The one command the configuration runs for `event` (and `tool`, if matchers apply)."""
    import re

    commands = [
        command
        for name, matcher, command in registered(repo, agent)
        if name == event
        and (tool is None or matcher in (None, "*") or re.search(matcher, tool) is not None)
    ]
    assert len(commands) == 1, commands
    return commands[0]


def call(repo: Path, command: str, payload: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """Run a registered command the way the agents do (through a shell, JSON on stdin)."""
    result = subprocess.run(
        command, shell=True, cwd=repo, input=json.dumps(payload), capture_output=True, text=True
    )
    return json.loads(result.stdout), result.returncode
