"""Real git in a temp repository, and files written into one (test helpers)."""

from __future__ import annotations

import subprocess
from collections.abc import Mapping
from pathlib import Path


def git(repo: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run real git in repo (test helper)."""
    return subprocess.run(["git", *args], cwd=repo, check=check, capture_output=True, text=True)


def write_files(root: Path, files: Mapping[str, str]) -> None:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
