"""The command layer of `install --agent`, `uninstall --agent` and `status --json`."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path

from tddhooks import git, output
from tddhooks.agenthooks import install as agent_install


def install_agents(root: Path, agents: Sequence[str], *, install: bool) -> None:
    """Merge (or take out) our hooks in each named agent's project configuration."""
    changed_any = False
    for agent in dict.fromkeys(agents):
        path, changed = agent_install.apply(root, agent, install=install)
        changed_any = changed_any or changed
        shown = path.relative_to(root)
        if not changed:
            what = "up to date" if install else "has no tddhooks entries"
            output.ok(f"{agent}: {shown} {what}")
        else:
            output.ok(f"{agent}: {'wrote' if install else 'removed our entries from'} {shown}")
    if install and "codex" in agents:
        output.warn("Codex runs a project's hooks only after you review and trust them in Codex")
    if install and changed_any:
        output.say("commit the configuration to share it; uncommitted, it holds up no one")


def uninstall_agents(work_dir: Path, agents: Sequence[str]) -> int:
    """`tddhooks uninstall --agent NAME...`: only our entries go; the git hooks stay."""
    install_agents(git.require_root(work_dir), agents, install=False)
    return 0


def print_status_json(work_dir: Path) -> int:
    """`tddhooks status --json`: the status object (docs/agents.md) on stdout."""
    from tddhooks.agenthooks.status_json import build_status

    status = build_status(git.require_root(work_dir), run_gate=True)
    sys.stdout.write(json.dumps(status, indent=1, ensure_ascii=False) + "\n")
    return 0
