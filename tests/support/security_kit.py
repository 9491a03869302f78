"""Shared by the security tests: an initialised Rust kata (init runs once per session and is
copied per test), and running the real `tddhooks` console script as git would."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

_TEMPLATES: dict[str, Path] = {}


def kata(tmp_path: Path, session_dir: Path, *, direct: bool = True) -> Path:
    """A fresh copy of the string-calculator kata with tddhooks' hooks installed."""
    from tddhooks.commands import init_cmd

    name = "direct" if direct else "framework"
    template = _TEMPLATES.get(name)
    if template is None:
        template = session_dir / f"security-kata-{name}"
        init_cmd.run(template, language="rust", kata="string-calculator", direct=direct)
        _TEMPLATES[name] = template
    repo = tmp_path / "kata"
    shutil.copytree(template, repo, symlinks=True)
    return repo


def tddhooks(repo: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """The installed console script, in a child process (exit codes and stderr as a user sees)."""
    script = Path(sys.executable).parent / "tddhooks"
    return subprocess.run(
        [str(script), *args], cwd=repo, capture_output=True, text=True, timeout=timeout
    )
