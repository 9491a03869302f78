"""Red commits made without any hook (plumbing only), for the red-team trust tests (real git)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from support.refkit import FAILING_TEST, git, red_feature, tip, write

GREEN_OF_RED = FAILING_TEST.replace("== 5", "== -1")  # the red test's file, made to pass
HOOK_TO_GREEN = "def pytest_pyfunc_call(pyfuncitem):\n    return True\n"


def loose_commit(repo: Path, files: dict[str, str], message: str, parent: str = "HEAD") -> str:
    """A commit of parent's tree plus files, made by `git commit-tree` (no ref moves, no hook);
    the index and work tree are left as they were."""
    index = repo / ".git" / "redteam.index"
    env = {"GIT_INDEX_FILE": str(index)}
    assert git(repo, "read-tree", parent, env=env).returncode == 0
    for relative, text in files.items():
        blob = hash_blob(repo, text)
        info = f"100644,{blob},{relative}"
        assert git(repo, "update-index", "--add", "--cacheinfo", info, env=env).returncode == 0
    tree = git(repo, "write-tree", env=env).stdout.strip()
    index.unlink()
    done = git(repo, "commit-tree", tree, "-p", tip(repo, parent), "-m", message)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def red_commit(repo: Path) -> str:
    """A well-formed feat: commit on HEAD whose tree is red, on no branch."""
    files, message = red_feature()
    return loose_commit(repo, files, message)


def hash_blob(repo: Path, text: str) -> str:
    done = subprocess.run(
        ["git", "hash-object", "-w", "--stdin"], cwd=repo, input=text, text=True,
        capture_output=True, check=True,
    )  # fmt: skip
    return done.stdout.strip()


def has_red_test(repo: Path, ref: str = "refs/heads/main") -> bool:
    """Whether ref's tree holds the red test (a red commit landed there)."""
    listing = git(repo, "ls-tree", "-r", "--name-only", ref).stdout.split()
    return "tests/test_sub.py" in listing


__all__ = ["write"]
