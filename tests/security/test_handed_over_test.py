"""While a red test is handed over, no agent edit of it gets through the installed hook: edit
tools and shell writes alike are refused with "make it pass; the test is the tester's", and the
test stays exactly as handed over."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from support.agentkit import build_kata_with_agent, run, stage_red_test
from support.gatekit import kata_copy

HANDED_OVER = "make it pass; the test is the tester's"
SHELL_ATTACKS = [
    "sed -i 's/== 5/== -1/' tests/test_negatives.py",
    "cat src/calc/__init__.py > tests/test_negatives.py",
    "echo 'def test_x(): pass' >> tests/test_negatives.py",
    "git checkout HEAD -- tests/test_negatives.py",
    "cp tests/test_calc.py tests/test_negatives.py",
    "mv tests/test_negatives.py /tmp/",
    "rm tests/test_*.py",
    "cd tests && truncate -s 0 test_negatives.py",
    "python3 -c \"open('tests/test_negatives.py','w').write('')\"",
    "bash -c 'printf x | tee tests/test_negatives.py'",
]


def _with_claude_code(repo: Path) -> None:
    build_kata_with_agent(repo, "claude-code")


@pytest.fixture
def repo(tmp_path: Path, session_dir: Path) -> Path:
    """A committed Python kata with the git hooks and Claude Code's hooks installed."""
    return kata_copy(tmp_path, session_dir, "python-calc-claude-code", _with_claude_code)


def hook(repo: Path, tool: str, tool_input: dict[str, object]) -> dict[str, object]:
    payload = {
        "session_id": "s",
        "cwd": str(repo),
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": tool_input,
    }
    result = subprocess.run(
        "tddhooks hook agent claude-code pre-tool",
        shell=True,
        cwd=repo,
        input=json.dumps(payload),
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0
    answer = json.loads(result.stdout)
    assert isinstance(answer, dict)
    return answer


def reason(answer: dict[str, object]) -> str:
    output = answer["hookSpecificOutput"]
    assert isinstance(output, dict)
    assert output["permissionDecision"] == "deny"
    return str(output["permissionDecisionReason"])


@pytest.mark.parametrize("command", SHELL_ATTACKS)
def test_a_shell_write_to_the_handed_over_test_is_refused(repo: Path, command: str) -> None:
    test = stage_red_test(repo)
    before = test.read_text(encoding="utf-8")
    assert HANDED_OVER in reason(hook(repo, "Bash", {"command": command}))
    assert "(handed-over-test)" in reason(hook(repo, "Bash", {"command": command}))
    assert test.read_text(encoding="utf-8") == before


@pytest.mark.parametrize("tool", ["Write", "Edit", "MultiEdit"])
def test_an_edit_tool_on_the_handed_over_test_is_refused(repo: Path, tool: str) -> None:
    test = stage_red_test(repo)
    answer = hook(repo, tool, {"file_path": str(test), "content": "", "edits": []})
    assert HANDED_OVER in reason(answer)


def test_the_handoff_note_protects_its_tests_even_beside_staged_code(repo: Path) -> None:
    test = stage_red_test(repo)
    head = run(repo, "git", "rev-parse", "HEAD").stdout.strip()
    note = {"head": head, "intent": "negatives", "test_blobs": {"tests/test_negatives.py": "0"}}
    (repo / ".git/tddhooks").mkdir(exist_ok=True)
    (repo / ".git/tddhooks/handoff.json").write_text(json.dumps(note), encoding="utf-8")
    (repo / "src/calc/__init__.py").write_text("def add(a, b):\n    return a + b\n")
    run(repo, "git", "add", "src/calc/__init__.py")
    assert HANDED_OVER in reason(hook(repo, "Edit", {"file_path": str(test)}))


def test_editing_source_and_reading_the_test_pass(repo: Path) -> None:
    test = stage_red_test(repo)
    assert hook(repo, "Edit", {"file_path": str(repo / "src/calc/__init__.py")}) == {}
    assert hook(repo, "Bash", {"command": f"cat {test} && cp {test} /tmp/copy.py"}) == {}
    assert hook(repo, "Bash", {"command": "git restore --staged tests/test_negatives.py"}) == {}
