"""The kata description file's text, read from the work tree or from the index being committed."""

from __future__ import annotations

from pathlib import Path

from tddhooks import git


def kata_file_text(root: Path, kata_file: str) -> str:
    """The work tree's kata description (`kata_file`, relative to `root`); "" when it is missing
    or no UTF-8 text (the prompts and messages then say so themselves)."""
    try:
        return (root / kata_file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def committed_kata_text(root: Path, kata_file: str, index_file: str | None) -> str:
    """The kata description being committed: the index's copy (`index_file`, git's own when
    None), else the work tree's; undecodable bytes replaced."""
    staged = git.run_git(
        ["cat-file", "blob", f":{kata_file}"],
        root,
        check=False,
        env_extra=git.index_env(index_file),
    )
    if staged.ok:
        return staged.stdout
    kata = root / kata_file
    return kata.read_text(encoding="utf-8", errors="replace") if kata.is_file() else ""
