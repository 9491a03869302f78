"""Which commit a hook judges the new commit against: HEAD, or HEAD's parent for `--amend`.

git tells the pre-commit and commit-msg hooks neither that it is amending nor what the new
commit's parent will be. On Linux the `git commit` process that runs the hook is one of our
ancestors, and its command line says `--amend`; elsewhere (or through an alias that hides the
flag) the hooks fall back to HEAD, and `tddhooks audit` still judges the stored commit by its real
parent. See docs/policy.md, "Which policy judges a commit".
"""

from __future__ import annotations

import os
from pathlib import Path

from tddhooks import git

_ANCESTORS = 8  # git -> sh shim -> tddhooks, or git -> pre-commit framework -> tddhooks
_PROC = Path("/proc")


def _stat_fields(pid: int) -> list[str]:
    text = (_PROC / str(pid) / "stat").read_text(encoding="utf-8", errors="replace")
    return text[text.rindex(")") + 2 :].split()  # the name may hold spaces and parentheses


def _cmdline(pid: int) -> list[str]:
    raw = (_PROC / str(pid) / "cmdline").read_bytes()
    return [part.decode("utf-8", "replace") for part in raw.split(b"\0") if part]


def git_commit_args(pid: int | None = None) -> list[str] | None:
    """The arguments after `commit` of the nearest `git … commit …` ancestor, or None.

    policy/commitmode.py's committing_argv walks the same ancestors for the commit-msg hook; this
    copy keeps the pre-commit hook from importing policy/message.py (~15 ms)."""
    current = os.getppid() if pid is None else pid
    for _ in range(_ANCESTORS):
        if current <= 1:
            return None
        try:
            argv = _cmdline(current)
            parent = int(_stat_fields(current)[1])
        except (OSError, ValueError, IndexError):
            return None
        if argv and Path(argv[0]).name in ("git", "git-commit") and "commit" in argv:
            return argv[argv.index("commit") + 1 :]
        if argv and Path(argv[0]).name == "git-commit":
            return argv[1:]
        current = parent
    return None


def is_amend(args: list[str]) -> bool:
    """Whether `git commit` arguments ask for --amend (git accepts unique prefixes: --am)."""
    for arg in args:
        if arg == "--":
            break
        if len(arg) >= 4 and "--amend".startswith(arg):
            return True
    return False


def amending() -> bool:
    """Whether the hook runs inside `git commit --amend` (best effort, see the module doc)."""
    args = git_commit_args()
    return args is not None and is_amend(args)


def judged_base(root: Path) -> str | None:
    """The parent the new commit will have: HEAD, HEAD's first parent when amending, None for a
    root commit (then the staged tree judges itself)."""
    head = git.head(root)
    if head is None or not amending():
        return head
    result = git.run_git(["rev-parse", "-q", "--verify", f"{head}^1"], root, check=False)
    return result.stdout.strip() or None
