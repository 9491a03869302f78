"""The `calc` Python kata with tddhooks' default install, and ways to land commits on it (real
git); the kata and the hooks-off commit are support.gatekit's."""

from __future__ import annotations

from pathlib import Path

from support.gatekit import git, head, python_kata, unhooked_commit, write
from support.pykata import FAILING_TEST, FILES, TEST, feat_message

__all__ = ["FAILING_TEST", "FILES", "TEST", "feat_message", "git", "write"]

REFUSED = "ref updates aborted by hook"
GREEN_TEST = TEST.replace("two_numbers", "zeros").replace("2, 3) == 5", "0, 0) == 0")


def installed_kata(root: Path) -> Path:
    """A Python kata (ruff + pytest) committed before `tddhooks install`, then installed, at
    root/kata (a copy of one built once per session beside root)."""
    return python_kata(root, root.parent / "refkit-templates", scaffold="calc")


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


def sneak(repo: Path, files: dict[str, str], message: str) -> str:
    """Commit with every hook off (a changed core.hooksPath): the commit no hook judged."""
    stage(repo, files)
    return unhooked_commit(repo, message)


def hooked_commit(repo: Path, files: dict[str, str], message: str) -> str:
    """Commit through the hooks; the commit must be accepted."""
    stage(repo, files)
    done = git(repo, "commit", "-q", "-m", message)
    assert done.returncode == 0, done.stdout + done.stderr
    return head(repo)
