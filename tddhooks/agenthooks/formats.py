"""Each agent's hook dialect: where its project configuration lives, which events we register,
how its hook input names the tool call, and the output shapes that deny, add context or send
the agent back (sources and versions: docs/agents.md). Pure: no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

PRE_TOOL, POST_TOOL, CONTEXT, STOP = "pre-tool", "post-tool", "context", "stop"
EVENTS = (PRE_TOOL, POST_TOOL, CONTEXT, STOP)
_PATCH_FILE = re.compile(r"^\*\*\* (?:Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$", re.M)
SHELL_TOOLS = {"Bash", "Shell", "run_shell_command", "terminal", "execute_bash", "shell"}
EDIT_TOOLS = {
    "Write", "Edit", "MultiEdit", "NotebookEdit", "StrReplace", "Delete",  # Claude Code, Cursor
    "write_file", "replace",  # Gemini CLI
    "file_editor", "str_replace_editor",  # OpenHands
    "apply_patch",  # Codex
}  # fmt: skip
_PATH_KEYS = ("file_path", "path", "notebook_path", "target_file", "filePath")
_READ_ONLY_EDITOR_COMMANDS = {"view"}


@dataclass(frozen=True)
class Registration:
    """One hook the agent's configuration registers: agent event name, matcher, our event."""

    event: str
    matcher: str | None
    ours: str


@dataclass(frozen=True)
class AgentFormat:
    name: str
    config: str  # project-relative configuration file
    registrations: tuple[Registration, ...]
    stop_flag: str | None  # the input field saying "a stop hook already sent me back"


CLAUDE_EDITS = "Write|Edit|MultiEdit|NotebookEdit"
AGENTS: dict[str, AgentFormat] = {
    "claude-code": AgentFormat(
        "claude-code",
        ".claude/settings.json",
        (
            Registration("PreToolUse", f"Bash|{CLAUDE_EDITS}", PRE_TOOL),
            Registration("PostToolUse", f"Bash|{CLAUDE_EDITS}", POST_TOOL),
            Registration("SessionStart", None, CONTEXT),
            Registration("UserPromptSubmit", None, CONTEXT),
            Registration("Stop", None, STOP),
        ),
        "stop_hook_active",
    ),
    "codex": AgentFormat(
        "codex",
        ".codex/config.toml",
        (
            Registration("PreToolUse", "^(Bash|apply_patch)$", PRE_TOOL),
            Registration("PostToolUse", "^(Bash|apply_patch)$", POST_TOOL),
            Registration("SessionStart", None, CONTEXT),
            Registration("UserPromptSubmit", None, CONTEXT),
            Registration("Stop", None, STOP),
        ),
        "stop_hook_active",
    ),
    "openhands": AgentFormat(
        "openhands",
        ".openhands/hooks.json",
        (
            Registration("pre_tool_use", "*", PRE_TOOL),
            Registration("post_tool_use", "*", POST_TOOL),
            Registration("session_start", "*", CONTEXT),
            Registration("user_prompt_submit", "*", CONTEXT),
            Registration("stop", "*", STOP),
        ),
        None,
    ),
    "cursor": AgentFormat(
        "cursor",
        ".cursor/hooks.json",
        (
            Registration("beforeShellExecution", None, PRE_TOOL),
            Registration("preToolUse", "Write|Edit|StrReplace|MultiEdit|Delete", PRE_TOOL),
            Registration("afterShellExecution", None, POST_TOOL),
            Registration("afterFileEdit", None, POST_TOOL),
            Registration("sessionStart", None, CONTEXT),
            Registration("stop", None, STOP),
        ),
        "loop_count",
    ),
    "gemini": AgentFormat(
        "gemini",
        ".gemini/settings.json",
        (
            Registration("BeforeTool", "run_shell_command|write_file|replace", PRE_TOOL),
            Registration("AfterTool", "run_shell_command|write_file|replace", POST_TOOL),
            Registration("SessionStart", None, CONTEXT),
            Registration("BeforeAgent", None, CONTEXT),
            Registration("AfterAgent", None, STOP),
        ),
        "stop_hook_active",
    ),
    "aider": AgentFormat("aider", ".aider.conf.yml", (), None),
}
HOOK_AGENTS = tuple(name for name, spec in AGENTS.items() if spec.registrations)


def hook_command(agent: str, ours: str, program: str = "tddhooks") -> str:
    """The command line an agent's configuration runs for one of our events; program is the
    absolute path of the installed console script (agenthooks/install.py `entry_point`), so an
    agent whose PATH lacks it still runs the hook."""
    import shlex

    return f"{shlex.quote(program)} hook agent {agent} {ours}"


def is_our_command(command: str) -> bool:
    """Whether an agent configuration's command line is one of ours (any program path)."""
    program, _, rest = command.strip().partition(" hook agent ")
    return bool(rest) and program.strip("'\"").rsplit("/", 1)[-1] == "tddhooks"


def post_tool_report(agent: str, message: str) -> tuple[dict[str, Any], int]:
    """The documented "tell the agent this about the call that just ran" answer."""
    if agent in {"claude-code", "codex"}:
        context = {"hookEventName": "PostToolUse", "additionalContext": message}
        return {"decision": "block", "reason": message, "hookSpecificOutput": context}, 0
    if agent == "gemini":
        context = {"hookEventName": "AfterTool", "additionalContext": message}
        return {"decision": "deny", "reason": message, "hookSpecificOutput": context}, 0
    if agent == "openhands":
        return {"additionalContext": message}, 0
    return {"agent_message": message, "user_message": message}, 0  # cursor: Stop sends it back


def tool_call(payload: dict[str, Any]) -> tuple[str, str | list[str]] | None:
    """("shell", command) or ("edit", paths) for a pre-tool hook input; None for other tools."""
    if isinstance(payload.get("command"), str) and "tool_name" not in payload:
        return "shell", payload["command"]  # Cursor's beforeShellExecution
    name = str(payload.get("tool_name") or "")
    tool_input = payload.get("tool_input")
    if isinstance(tool_input, str):  # some agents pass the arguments as a JSON string
        import json

        try:
            tool_input = json.loads(tool_input)
        except ValueError:
            tool_input = {}
    if not isinstance(tool_input, dict):
        tool_input = {}
    command = tool_input.get("command")
    if name == "apply_patch" and isinstance(command, str):
        return "edit", [a or b for a, b in _PATCH_FILE.findall(command)]
    if name in EDIT_TOOLS:
        if name in {"file_editor", "str_replace_editor"} and command in _READ_ONLY_EDITOR_COMMANDS:
            return None
        return "edit", [str(tool_input[key]) for key in _PATH_KEYS if tool_input.get(key)]
    if isinstance(command, list):
        import shlex

        command = shlex.join(str(word) for word in command)
    if name in SHELL_TOOLS and isinstance(command, str):
        return "shell", command
    return None


def payload_cwd(payload: dict[str, Any]) -> str | None:
    """The directory the agent works in, as its hook input says."""
    for key in ("cwd", "working_dir"):
        if isinstance(payload.get(key), str) and payload[key]:
            return str(payload[key])
    roots = payload.get("workspace_roots")
    if isinstance(roots, list) and roots and isinstance(roots[0], str):
        return roots[0]
    return None


def deny(agent: str, message: str, payload: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """The documented "refuse this tool call" answer: (stdout JSON, exit code)."""
    if agent in {"claude-code", "codex"}:
        decision = {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": message,
        }
        return {"hookSpecificOutput": decision}, 0
    if agent == "cursor":
        return {"permission": "deny", "user_message": message, "agent_message": message}, 0
    if agent == "openhands":
        return {"decision": "deny", "reason": message}, 2
    return {"decision": "deny", "reason": message}, 0  # gemini


def context(agent: str, text: str, payload: dict[str, Any]) -> dict[str, Any]:
    """The documented "add this to the agent's context" answer."""
    event = str(payload.get("hook_event_name") or payload.get("event_type") or "")
    if agent == "cursor":
        return {"additional_context": text}
    if agent == "openhands":
        return {"additionalContext": text}
    return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}


def send_back(agent: str, message: str) -> tuple[dict[str, Any], int]:
    """The documented "do not stop yet" answer of a stop hook."""
    if agent in {"claude-code", "codex"}:
        return {"decision": "block", "reason": message}, 0
    if agent == "cursor":
        return {"followup_message": message}, 0
    if agent == "openhands":
        return {"decision": "deny", "reason": message}, 2
    return {"decision": "deny", "reason": message}, 0  # gemini AfterAgent: retry with reason


def already_sent_back(agent: str, payload: dict[str, Any]) -> bool | None:
    """Whether the agent says a stop hook already sent it back (None: it does not say)."""
    flag = AGENTS[agent].stop_flag
    if flag is None or flag not in payload:
        return None
    value = payload[flag]
    if flag == "loop_count":
        return isinstance(value, int) and value >= 1
    return bool(value)
