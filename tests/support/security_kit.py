"""Running the real `tddhooks` console script as git would, for the security tests."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def tddhooks(repo: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """The installed console script, in a child process (exit codes and stderr as a user sees)."""
    script = Path(sys.executable).parent / "tddhooks"
    return subprocess.run(
        [str(script), *args], cwd=repo, capture_output=True, text=True, timeout=timeout
    )
