"""aider's one-line `-m` message: completed by prepare-commit-msg when aider's installed
configuration sets TDDHOOKS_COMPLETE_MESSAGE=1; an agent marked with TDDHOOKS_AGENT and no
completion is left alone (and rejected)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from support.agentkit import kata_with_agent, run

SOURCE = (
    "def add(a: int, b: int) -> int:\n    return a + b\n\n\n"
    "def double(a: int) -> int:\n    return 2 * a\n"
)
TEST = "from calc import double\n\n\ndef test_doubles() -> None:\n    assert double(4) == 8\n"


def commit(repo: Path, message: str, *, complete: bool,
           agent: bool = False) -> subprocess.CompletedProcess[str]:  # fmt: skip
    (repo / "src/calc/__init__.py").write_text(SOURCE, encoding="utf-8")
    (repo / "tests/test_double.py").write_text(TEST, encoding="utf-8")
    env = {**os.environ}
    if complete:
        env["TDDHOOKS_COMPLETE_MESSAGE"] = "1"
    if agent:
        env["TDDHOOKS_AGENT"] = "aider"
    # as aider commits: -m, then the edited paths
    args = ["git", "commit", "-m", message, "--", "src/calc/__init__.py", "tests/test_double.py"]
    run(repo, "git", "add", "tests/test_double.py")
    return subprocess.run(args, cwd=repo, env=env, capture_output=True, text=True)


@pytest.mark.pygate
def test_the_one_line_message_is_completed_and_accepted(tmp_path: Path) -> None:
    repo = kata_with_agent(tmp_path, "aider")
    result = commit(repo, "feat: double a number", complete=True)
    assert result.returncode == 0, result.stdout + result.stderr
    body = run(repo, "git", "log", "-1", "--format=%B").stdout
    assert body.startswith("feat: double a number\n\nContext:\n- Role: Implementor\n- Step: 1\n")
    assert "- Kata goal: Add two numbers, even négatifs." in body
    assert "Verification:\n- pytest: 2 passed" in body
    assert "#" not in body  # the prefill's help lines are not part of a -m message


@pytest.mark.pygate
def test_an_agent_without_the_variable_keeps_its_message(tmp_path: Path) -> None:
    repo = kata_with_agent(tmp_path, "aider")
    result = commit(repo, "feat: double a number", complete=False, agent=True)
    assert result.returncode == 1
    assert "Context" in result.stdout + result.stderr
    assert run(repo, "git", "log", "-1", "--format=%s").stdout == "chore: scaffold\n"


@pytest.mark.pygate
def test_a_message_that_already_has_the_sections_is_kept_as_written(tmp_path: Path) -> None:
    from support.pykata import feat_message

    repo = kata_with_agent(tmp_path, "aider")
    message = feat_message("double a number", 1, ["src/calc/__init__.py", "tests/test_double.py"])
    result = commit(repo, message, complete=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert run(repo, "git", "log", "-1", "--format=%B").stdout == message + "\n"
