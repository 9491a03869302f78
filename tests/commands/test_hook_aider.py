"""`tddhooks hook agent aider gate` (aider's test and lint command) reaches the work-tree gate in
commands/, before click and the agent hooks' JSON protocol."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_outside_a_repository_the_aider_gate_says_so_and_exits_3(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tddhooks", "hook", "agent", "aider", "gate", "src/ü.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 3, done.stderr
    assert "not inside a git repository" in done.stderr
    assert done.stdout == ""  # no agent-hook JSON: aider reads the gate's words
