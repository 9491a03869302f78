"""The agent hooks stay cheap: none of them imports click, pydantic, rich, openai, diskcache or
GitPython (the cost that would break the 0.15 s budget), whatever state the repository is in."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support.agentkit import kata_with_agent, stage_red_test

HEAVY = ("click", "pydantic", "rich", "openai", "diskcache", "git.repo", "yaml")
PROBE = """
import json, sys
from tddhooks.agenthooks.handlers import main
code = main(sys.argv[1:])
heavy = sorted({name.split(".")[0] for name in sys.modules if name.split(".")[0] in %r}
               | {name for name in sys.modules if name == "git.repo"})
sys.stderr.write("HEAVY=" + json.dumps(heavy) + "\\n")
"""


@pytest.mark.pygate
@pytest.mark.parametrize(
    ("event", "payload"),
    [
        ("pre-tool", {"tool_name": "Bash", "tool_input": {"command": "git commit -n -m x"}}),
        ("pre-tool", {"tool_name": "Edit", "tool_input": {"file_path": "tests/test_negatives.py"}}),
        ("context", {"hook_event_name": "UserPromptSubmit", "prompt": "go"}),
        ("stop", {"hook_event_name": "Stop", "stop_hook_active": False}),
    ],
)
def test_no_heavy_import_on_the_agent_hook_path(
    tmp_path: Path, event: str, payload: dict[str, object]
) -> None:
    repo = kata_with_agent(tmp_path, "claude-code")
    stage_red_test(repo)
    (repo / "src/calc/__init__.py").write_text("def add(a, b):\n    return b + a\n")
    probe = PROBE % (HEAVY,)
    # the first hook after tdd.yaml changed validates it once (pydantic, PyYAML) and caches it
    for _ in range(2):
        result = subprocess.run(
            [sys.executable, "-c", probe, "claude-code", event],
            cwd=repo,
            input=json.dumps({**payload, "cwd": str(repo), "session_id": "s"}),
            capture_output=True,
            text=True,
        )
    line = next(ln for ln in result.stderr.splitlines() if ln.startswith("HEAVY="))
    assert json.loads(line.removeprefix("HEAVY=")) == []
    assert "failed" not in result.stderr  # the handler ran to the end, it did not fall open
