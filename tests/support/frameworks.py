"""The pre-commit framework and prek in a test repository: a config of the person's own, and
their `install` run as a person runs it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

THEIR_CONFIG = """\
# Unsere Hooks — bitte nicht löschen
repos:
- repo: local
  hooks:
  - id: always-fine  # a hook of theirs
    name: always fine
    entry: "true"
    language: system
    pass_filenames: false
"""
PRE_COMMIT = [sys.executable, "-m", "pre_commit"]


def framework_install(repo: Path, *types: str, tool: str = "pre-commit") -> None:
    cmd = PRE_COMMIT if tool == "pre-commit" else [str(Path(sys.executable).parent / "prek")]
    args = [a for t in types for a in ("-t", t)]
    result = git_run(repo, [*cmd, "install", *args])
    assert result.returncode == 0, result.stdout + result.stderr


def git_run(repo: Path, cmd: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=repo, capture_output=True, text=True, check=False)
