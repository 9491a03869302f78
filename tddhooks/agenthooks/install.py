"""`tddhooks install --agent NAME` / `uninstall --agent NAME`: merge our entries into an agent's
project configuration and take only them out again.

Everything else in the file is kept; installing twice changes nothing. Our entries are the ones
whose command runs `<path>/tddhooks hook agent ` (JSON and TOML) or the keys between our marker
comments (aider's YAML). A file we cannot parse is left alone with an error that names it.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

from tddhooks.agenthooks import formats as F
from tddhooks.agenthooks.aider import aider_block, conflicting_keys
from tddhooks.errors import UsageError

OUR_PREFIX = "tddhooks hook agent "  # what follows the program's path in our commands
TIMEOUT_S = 30
BEGIN = "# >>> tddhooks (managed by `tddhooks install --agent {agent}`; do not edit)"
END = "# <<< tddhooks"


class AgentConfigError(UsageError):
    """An agent's configuration file cannot be read or would not stay valid; nothing changed."""


def _ours(entry: Any) -> bool:
    return isinstance(entry, dict) and F.is_our_command(str(entry.get("command", "")))


def entry_point() -> str:
    """The absolute path of the installed `tddhooks` console script (beside this interpreter,
    else the one on PATH); bare `tddhooks` only when neither exists. Like the git shims'
    INSTALL_PYTHON: an agent that runs hooks with another PATH (`env -i PATH=/usr/bin:/bin`)
    still runs ours, never "command not found", which agents treat as non-blocking."""
    import os
    import shutil
    import sys

    beside = Path(sys.executable).parent / "tddhooks"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside.absolute())
    found = shutil.which("tddhooks")
    return str(Path(found).absolute()) if found else "tddhooks"


def _hook_entry(agent: str, reg: F.Registration) -> dict[str, Any]:
    command = F.hook_command(agent, reg.ours, entry_point())
    if agent == "cursor":
        entry: dict[str, Any] = {"command": command}
        if reg.matcher:
            entry["matcher"] = reg.matcher
        return entry
    hook: dict[str, Any] = {"type": "command", "command": command}
    if agent == "gemini":
        hook |= {"name": "tddhooks", "timeout": TIMEOUT_S * 1000}  # milliseconds
    else:
        hook["timeout"] = TIMEOUT_S
    group: dict[str, Any] = {"hooks": [hook]}
    if reg.matcher:
        group = {"matcher": reg.matcher, **group}
    return group


def _without_ours(events: dict[str, Any], agent: str) -> dict[str, Any]:
    """The event table with every entry of ours removed (and groups left empty dropped)."""
    kept: dict[str, Any] = {}
    for event, groups in events.items():
        if not isinstance(groups, list):
            kept[event] = groups
            continue
        remaining = []
        for group in groups:
            if agent == "cursor":
                if not _ours(group):
                    remaining.append(group)
                continue
            if isinstance(group, dict) and isinstance(group.get("hooks"), list):
                hooks = [hook for hook in group["hooks"] if not _ours(hook)]
                if hooks or not group["hooks"]:  # a group of only ours goes with them
                    remaining.append({**group, "hooks": hooks})
            else:
                remaining.append(group)
        if remaining:
            kept[event] = remaining
    return kept


def _events_of(data: dict[str, Any], agent: str) -> dict[str, Any]:
    if agent == "openhands" and "hooks" not in data:
        return data  # OpenHands' own layout: event keys at the top level
    events = data.get("hooks", {})
    if not isinstance(events, dict):
        raise AgentConfigError(f"`hooks` in the {agent} configuration is not an object")
    return events


def merged_json(data: dict[str, Any], agent: str, *, install: bool) -> dict[str, Any]:
    """The JSON configuration with our entries (re)placed, or removed when install is False."""
    spec = F.AGENTS[agent]
    events = _without_ours(_events_of(data, agent), agent)
    if install:
        for reg in spec.registrations:
            events.setdefault(reg.event, []).append(_hook_entry(agent, reg))
    if agent == "openhands" and "hooks" not in data:
        return events
    result = {**data, "hooks": events}
    if agent == "cursor":
        result = {"version": data.get("version", 1), **result}
    if not events and not install:
        del result["hooks"]
    return result


def _read_json(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8") or "{}")
    except ValueError as error:
        raise AgentConfigError(
            f"{path} is not valid JSON ({error}); nothing was changed",
            fix=f"fix or move {path}, then run the command again",
        ) from error
    if not isinstance(data, dict):
        raise AgentConfigError(f"{path} does not hold a JSON object; nothing was changed")
    return data


def toml_block(agent: str) -> str:
    """Codex's inline `[[hooks.<Event>]]` tables for our hooks, between marker comments."""
    lines = [BEGIN.format(agent=agent)]
    for reg in F.AGENTS[agent].registrations:
        lines.append(f"[[hooks.{reg.event}]]")
        if reg.matcher:
            lines.append(f"matcher = {json.dumps(reg.matcher)}")
        lines += [
            "",
            f"[[hooks.{reg.event}.hooks]]",
            'type = "command"',
            f"command = {json.dumps(F.hook_command(agent, reg.ours, entry_point()))}",
            f"timeout = {TIMEOUT_S}",
            "",
        ]
    return "\n".join([*lines, END]) + "\n"


def without_block(text: str) -> str:
    """The text with our marked block (and the blank line before it) taken out."""
    lines = text.splitlines(keepends=True)
    begin = next((i for i, ln in enumerate(lines) if ln.startswith("# >>> tddhooks")), None)
    if begin is None:
        return text
    end = next((i for i in range(begin, len(lines)) if lines[i].rstrip() == END), None)
    if end is None:
        raise AgentConfigError("our marker block has no end line (`# <<< tddhooks`)")
    while begin > 0 and not lines[begin - 1].strip():
        begin -= 1
    return "".join(lines[:begin] + lines[end + 1 :])


def _with_block(text: str, block: str) -> str:
    base = without_block(text).rstrip("\n")
    return (base + "\n\n" if base else "") + block


def _check_toml(path: Path, text: str) -> None:
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise AgentConfigError(
            f"{path} would not be valid TOML with our hooks ({error}); nothing was changed",
            fix="if it defines `hooks` inline, move those hooks into [[hooks.<Event>]] tables",
        ) from error


def new_text(path: Path, agent: str, *, install: bool) -> str | None:
    """The configuration text after the change (None: the file should not exist)."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if agent in {"codex", "aider"}:
        if agent == "codex" and text.strip():
            _check_toml(path, text)
        clashes = conflicting_keys(without_block(text)) if agent == "aider" and install else []
        if clashes:
            raise AgentConfigError(
                f"{path} already sets {', '.join(clashes)}, which tddhooks must set; "
                "nothing was changed",
                fix=f"remove {', '.join(clashes)} from {path} and run the command again",
            )
        block = toml_block(agent) if agent == "codex" else aider_block()
        result = _with_block(text, block) if install else without_block(text)
        if agent == "codex":
            _check_toml(path, result)
        return result if result.strip() or path.exists() else None
    data = merged_json(_read_json(path), agent, install=install)
    if not data and not path.exists():
        return None
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def apply(root: Path, agent: str, *, install: bool) -> tuple[Path, bool]:
    """Install or uninstall our hooks for `agent` in the repository at `root`;
    returns (configuration path, whether the file changed)."""
    if agent not in F.AGENTS:
        raise UsageError(f"unknown agent {agent!r}", fix=f"use one of: {', '.join(F.AGENTS)}")
    path = root / F.AGENTS[agent].config
    text = new_text(path, agent, install=install)
    old = path.read_text(encoding="utf-8") if path.exists() else None
    if text is None or text == old:
        return path, False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path, True
