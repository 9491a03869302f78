"""`tddhooks status --json`: the documented object (docs/agents.md), schema version 1."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from support.agentkit import kata_with_agent, stage_red_test

KEYS = {
    "version",
    "phase",
    "cycle",
    "turn",
    "next_step",
    "last_commit",
    "staged",
    "handoff",
    "rules",
}


def status(repo: Path) -> dict[str, object]:
    result = subprocess.run(
        ["tddhooks", "status", "--json"], cwd=repo, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


@pytest.mark.pygate
def test_a_clean_kata_is_the_testers_turn(tmp_path: Path) -> None:
    repo = kata_with_agent(tmp_path, "claude-code")
    data = status(repo)
    assert set(data) == KEYS
    assert (data["version"], data["phase"], data["turn"], data["cycle"]) == (
        1,
        "green",
        "tester",
        1,
    )
    # nothing is staged, so there is no staged verdict (HEAD's is the phase's business)
    assert data["staged"] == {"paths": [], "verdict": None, "summary": []}
    assert data["last_commit"]["subject"] == "chore: scaffold"  # type: ignore[index]
    assert data["handoff"] is None
    assert "never committed" in str(data["rules"])


@pytest.mark.pygate
def test_a_staged_red_test_is_the_implementors_turn_with_the_verdict(tmp_path: Path) -> None:
    repo = kata_with_agent(tmp_path, "claude-code")
    stage_red_test(repo)
    data = status(repo)
    assert (data["phase"], data["turn"]) == ("red", "implementor")
    staged = data["staged"]
    assert isinstance(staged, dict)
    assert staged["paths"] == ["tests/test_negatives.py"]
    assert staged["verdict"] == "red"
    assert "make them pass" in str(data["next_step"])
