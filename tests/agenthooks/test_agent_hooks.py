"""For each agent: feed its documented hook input JSON on stdin to exactly the command the
installed configuration registers, and check its documented answer (docs/agents.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support.agentkit import call, command_for, kata_with_agent, run, stage_red_test

from tddhooks.agenthooks.formats import HOOK_AGENTS

SHELL = {
    "claude-code": ("PreToolUse", "Bash"),
    "codex": ("PreToolUse", "Bash"),
    "openhands": ("pre_tool_use", "terminal"),
    "cursor": ("beforeShellExecution", None),
    "gemini": ("BeforeTool", "run_shell_command"),
}
EDIT = {
    "claude-code": ("PreToolUse", "Edit"),
    "codex": ("PreToolUse", "apply_patch"),
    "openhands": ("pre_tool_use", "file_editor"),
    "cursor": ("preToolUse", "Write"),
    "gemini": ("BeforeTool", "replace"),
}
CONTEXT = {
    "claude-code": "SessionStart",
    "codex": "UserPromptSubmit",
    "openhands": "session_start",
    "cursor": "sessionStart",
    "gemini": "BeforeAgent",
}
STOP = {
    "claude-code": "Stop",
    "codex": "Stop",
    "openhands": "stop",
    "cursor": "stop",
    "gemini": "AfterAgent",
}


def _base(agent: str, repo: Path, event: str) -> dict[str, Any]:
    if agent == "openhands":
        names = {"pre_tool_use": "PreToolUse", "session_start": "SessionStart", "stop": "Stop"}
        event_type = names.get(event, event)
        return {"event_type": event_type, "session_id": "oh-1", "working_dir": str(repo)}
    if agent == "cursor":
        return {
            "hook_event_name": event,
            "conversation_id": "c-1",
            "generation_id": "g-1",
            "workspace_roots": [str(repo)],
        }
    base = {
        "session_id": "s-1",
        "transcript_path": str(repo / "transcript.jsonl"),
        "cwd": str(repo),
        "hook_event_name": event,
    }
    if agent == "codex":
        base |= {"model": "gpt-5-codex", "permission_mode": "default"}
    if agent == "gemini":
        base["timestamp"] = "2026-11-23T09:00:00Z"
    return base


def shell_payload(agent: str, repo: Path, command: str) -> tuple[str, str | None, dict[str, Any]]:
    event, tool = SHELL[agent]
    payload = _base(agent, repo, event)
    if agent == "cursor":
        return event, tool, payload | {"command": command, "cwd": str(repo)}
    tool_input: dict[str, Any] = {"command": command}
    if agent == "claude-code":
        tool_input["description"] = "run it"
    extra = {"tool_use_id": "t-1"} if agent in {"claude-code", "codex"} else {}
    return event, tool, payload | {"tool_name": tool, "tool_input": tool_input} | extra


def edit_payload(agent: str, repo: Path, path: Path) -> tuple[str, str | None, dict[str, Any]]:
    event, tool = EDIT[agent]
    payload = _base(agent, repo, event)
    relative = path.relative_to(repo).as_posix()
    tool_input: dict[str, Any]
    if agent == "codex":
        patch = f"*** Begin Patch\n*** Update File: {relative}\n@@\n-    assert\n+    pass\n"
        patch += "*** End Patch"
        tool_input = {"command": patch}
    elif agent == "openhands":
        tool_input = {"command": "str_replace", "path": str(path), "old_str": "5", "new_str": "-1"}
    elif agent == "cursor":
        tool_input = {"file_path": str(path), "content": "def test_nothing(): pass\n"}
    else:
        tool_input = {"file_path": str(path), "old_string": "== 5", "new_string": "== -1"}
    return event, tool, payload | {"tool_name": tool, "tool_input": tool_input}


def stop_payload(agent: str, repo: Path, *, again: bool) -> tuple[str, dict[str, Any]]:
    event = STOP[agent]
    payload = _base(agent, repo, event)
    if agent == "cursor":
        return event, payload | {"status": "completed", "loop_count": 1 if again else 0}
    if agent == "openhands":
        return event, payload
    payload["stop_hook_active"] = again
    if agent == "codex":
        payload |= {"last_assistant_message": "done", "turn_id": "turn-1"}
    if agent == "gemini":
        payload |= {"prompt": "make it pass", "prompt_response": "done"}
    return event, payload


def refused(agent: str, answer: dict[str, Any], code: int) -> str:
    """The refusal text, after checking the agent's documented deny shape."""
    if agent in {"claude-code", "codex"}:
        output = answer["hookSpecificOutput"]
        assert (output["hookEventName"], output["permissionDecision"], code) == (
            "PreToolUse",
            "deny",
            0,
        )
        return str(output["permissionDecisionReason"])
    if agent == "cursor":
        assert (answer["permission"], code) == ("deny", 0)
        assert answer["user_message"] == answer["agent_message"]
        return str(answer["agent_message"])
    assert answer["decision"] == "deny"
    assert code == (2 if agent == "openhands" else 0)
    return str(answer["reason"])


def sent_back(agent: str, answer: dict[str, Any], code: int) -> str:
    if agent in {"claude-code", "codex"}:
        assert (answer["decision"], code) == ("block", 0)
        return str(answer["reason"])
    if agent == "cursor":
        assert code == 0
        return str(answer["followup_message"])
    assert answer["decision"] == "deny"
    assert code == (2 if agent == "openhands" else 0)
    return str(answer["reason"])


@pytest.fixture(params=HOOK_AGENTS)
def agent(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.mark.pygate
def test_a_bypass_is_refused_and_an_innocent_command_passes(tmp_path: Path, agent: str) -> None:
    repo = kata_with_agent(tmp_path, agent)
    event, tool, payload = shell_payload(agent, repo, "git commit -anm wip")
    answer, code = call(repo, command_for(repo, agent, event, tool), payload)
    assert "no-verify" in refused(agent, answer, code)
    event, tool, payload = shell_payload(agent, repo, "git commit -m 'feat: add' && git log -1")
    assert call(repo, command_for(repo, agent, event, tool), payload) == ({}, 0)


@pytest.mark.pygate
def test_the_handed_over_test_cannot_be_edited(tmp_path: Path, agent: str) -> None:
    repo = kata_with_agent(tmp_path, agent)
    test = stage_red_test(repo)
    event, tool, payload = edit_payload(agent, repo, test)
    answer, code = call(repo, command_for(repo, agent, event, tool), payload)
    assert "make it pass; the test is the tester's" in refused(agent, answer, code)
    event, tool, payload = shell_payload(agent, repo, f"sed -i 's/5/-1/' {test.name}")
    payload = payload | ({"cwd": str(test.parent)} if "cwd" in payload else {})
    if agent == "openhands":
        payload["working_dir"] = str(test.parent)
    answer, code = call(repo, command_for(repo, agent, event, tool), payload)
    assert "make it pass; the test is the tester's" in refused(agent, answer, code)
    source = repo / "src/calc/__init__.py"
    event, tool, payload = edit_payload(agent, repo, source)
    assert call(repo, command_for(repo, agent, event, tool), payload) == ({}, 0)


@pytest.mark.pygate
def test_the_agent_is_told_where_it_stands(tmp_path: Path, agent: str) -> None:
    repo = kata_with_agent(tmp_path, agent)
    stage_red_test(repo)
    event = CONTEXT[agent]
    payload = _base(agent, repo, event) | (
        {"source": "startup"} if event.lower().startswith("session") else {"prompt": "go on"}
    )
    answer, code = call(repo, command_for(repo, agent, event), payload)
    assert code == 0
    if agent == "cursor":
        text = answer["additional_context"]
    elif agent == "openhands":
        text = answer["additionalContext"]
    else:
        assert answer["hookSpecificOutput"]["hookEventName"] == event
        text = answer["hookSpecificOutput"]["additionalContext"]
    assert "phase red" in text
    assert "implementor's turn" in text
    assert "tests/test_negatives.py" in text
    assert "Rules:" in text


@pytest.mark.pygate
def test_stop_sends_the_agent_back_once_and_lets_a_clean_tree_stop(
    tmp_path: Path, agent: str
) -> None:
    repo = kata_with_agent(tmp_path, agent)
    event, payload = stop_payload(agent, repo, again=False)
    command = command_for(repo, agent, event)
    assert call(repo, command, payload) == ({}, 0)  # clean tree
    (repo / "src/calc/__init__.py").write_text("def add(a, b):\n    return a - b\n")
    answer, code = call(repo, command, payload)
    assert "src/calc/__init__.py" in sent_back(agent, answer, code)
    _again_event, again = stop_payload(agent, repo, again=True)
    if agent == "openhands":  # it has no "already sent back" flag: we count per session
        call(repo, command, payload)
    assert call(repo, command, again) == ({}, 0)


@pytest.mark.pygate
def test_a_handed_over_red_test_lets_the_agent_stop(tmp_path: Path, agent: str) -> None:
    repo = kata_with_agent(tmp_path, agent)
    stage_red_test(repo)
    event, payload = stop_payload(agent, repo, again=False)
    assert call(repo, command_for(repo, agent, event), payload) == ({}, 0)
    assert run(repo, "git", "status", "--porcelain").stdout.startswith("A ")


@pytest.mark.pygate
def test_a_source_file_holding_the_handed_over_unit_test_stays_editable(tmp_path: Path) -> None:
    """The tester's test sits in src/lib.rs beside the code: the person's coding agent may edit
    the file (the hooks' handoff rule pins the test items); a test file stays protected."""
    import subprocess
    import time

    from tddhooks.agenthooks.handlers import protected_paths
    from tddhooks.agenthooks.repo_view import repo_view
    from tddhooks.policy.handoff import Handoff, write_handoff

    repo = kata_with_agent(tmp_path, "claude-code")
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True,
                          text=True, check=True).stdout.strip()  # fmt: skip
    blobs = {"tests/test_sub.py": "a" * 40, "src/calc/__init__.py": "items:" + "b" * 64}
    write_handoff(repo, Handoff(head=head, intent="sub", test_names=["t"], red_output="",
                                test_blobs=blobs, by="tester", created_at=time.time()))  # fmt: skip
    view = repo_view(str(repo))
    assert view is not None
    handed = protected_paths(view).handed_over
    assert str(repo / "tests/test_sub.py") in handed
    assert str(repo / "src/calc/__init__.py") not in handed
