"""A Python kata with tddhooks' default install, and ways to land commits on it (real git)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from support.pykata import FAILING_TEST, FILES, TEST, feat_message

__all__ = ["FAILING_TEST", "FILES", "TEST", "feat_message"]

REFUSED = "ref updates aborted by hook"
GREEN_TEST = TEST.replace("two_numbers", "zeros").replace("2, 3) == 5", "0, 0) == 0")


def git(
    repo: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Real git in repo, never raising (the tests look at the exit code and output)."""
    import os

    full = {**os.environ, **(env or {})}
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, env=full)


def write(repo: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        path = repo / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def installed_kata(root: Path) -> Path:
    """A Python kata (ruff + pytest) committed before `tddhooks install`, then installed."""
    from tddhooks.commands.install import install_hooks

    repo = root / "kata"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    write(repo, FILES)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "chore: initial files")
    install_hooks(repo)
    return repo


def tip(repo: Path, ref: str = "HEAD") -> str:
    return git(repo, "rev-parse", ref).stdout.strip()


def green_feature(step: int = 1, name: str = "zeros") -> tuple[dict[str, str], str]:
    """Files and message of a green feat: commit that the hooks accept."""
    path = f"tests/test_{name}.py"
    files = {path: GREEN_TEST.replace("zeros", name)}
    return files, feat_message(f"sum {name}", step, [path])


def red_feature(step: int = 1) -> tuple[dict[str, str], str]:
    """Files and a well-formed message of a feat: commit whose tree is red."""
    files = {"tests/test_sub.py": FAILING_TEST}
    return files, feat_message("negatives", step, ["tests/test_sub.py"])


def stage(repo: Path, files: dict[str, str]) -> None:
    write(repo, files)
    git(repo, "add", "-A")


NO_HOOKS = ("-c", "core.hooksPath=/dev/null")


def sneak(repo: Path, files: dict[str, str], message: str) -> str:
    """Commit with every hook off (a changed core.hooksPath): the commit no hook judged."""
    stage(repo, files)
    done = git(repo, *NO_HOOKS, "commit", "-q", "-m", message)
    assert done.returncode == 0, done.stderr
    return tip(repo)


def hooked_commit(repo: Path, files: dict[str, str], message: str) -> str:
    """Commit through the hooks; the commit must be accepted."""
    stage(repo, files)
    done = git(repo, "commit", "-q", "-m", message)
    assert done.returncode == 0, done.stdout + done.stderr
    return tip(repo)
