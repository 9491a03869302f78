"""Is the running `git commit` an `--amend`? Then the commit being written replaces HEAD, and the
hooks judge it against HEAD's parent, as `audit` will once it exists.

Git tells a hook nothing reliable about it (prepare-commit-msg gets "commit HEAD" for -c/-C too,
and "message" for `--amend -m`), so the hook reads the command line of the `git commit` that
started it: its own ancestors in /proc (Linux), through the pre-commit framework's processes,
with the person's git aliases expanded (`git ca` for `commit --amend`). Where /proc is absent,
an amend is not detected and the commit is judged against HEAD, as before (stricter, never
looser). `TDDHOOKS_AMEND=1` in the environment says it explicitly (for tools that amend).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

AMEND_ENV = "TDDHOOKS_AMEND"


def is_amend_args(args: Sequence[str], alias: Callable[[str], str | None]) -> bool:
    """Whether a git command line (argv without the program) is `commit --amend` (pure given
    `alias`, which returns an alias's expansion): global options skipped, `--amend` abbreviated
    as git allows (`--am`…), `--no-amend` and anything after `--` ignored."""
    args = list(args)
    while args and args[0].startswith("-"):
        option = args.pop(0)
        if option in ("-c", "-C", "--git-dir", "--work-tree", "--namespace") and args:
            args.pop(0)  # global options that take a separate value
    if not args:
        return False
    command, rest = args[0], args[1:]
    if command != "commit":
        expansion = alias(command)
        if expansion is None or expansion.startswith("!"):
            return False
        return is_amend_args([*expansion.split(), *rest], lambda _name: None)
    for arg in rest:
        if arg == "--":
            break
        if len(arg) >= 4 and "--amend".startswith(arg):
            return True
    return False


def git_commit_args() -> list[str] | None:
    """argv (program dropped) of the git process that runs this hook (policy/commitmode.py)."""
    from tddhooks.policy.commitmode import committing_argv

    return committing_argv()


def amend_in_progress(root: Path, environ: Mapping[str, str] | None = None) -> bool:
    """Whether the `git commit` running this hook amends HEAD."""
    environ = os.environ if environ is None else environ
    if environ.get(AMEND_ENV) == "1":
        return True
    args = git_commit_args()
    if args is None:
        return False

    def alias(name: str) -> str | None:
        from tddhooks import git

        found = git.run_git(["config", "--get", f"alias.{name}"], root, check=False)
        return found.stdout.strip() or None if found.ok else None

    return is_amend_args(args, alias)


def is_all_args(args: Sequence[str]) -> bool:
    """Whether a `git commit` command line stages every tracked change itself (`-a`, `--all`,
    `-am`…) (pure; aliases are not expanded: a miss only gives the ordinary hint)."""
    if "commit" not in args:
        return False
    rest = iter(args[args.index("commit") + 1 :])
    for arg in rest:
        if arg == "--":
            break
        if arg == "--all":
            return True
        if arg in _VALUE_OPTIONS:
            next(rest, None)  # `--message -a`: that is the message
        elif arg.startswith("-") and not arg.startswith("--"):
            for index, letter in enumerate(arg[1:], 1):
                if letter == "a":
                    return True
                if letter in _VALUE_LETTERS:
                    if index == len(arg) - 1 and letter in "mFcCt":
                        next(rest, None)  # `-m -a`: the value is the next argument
                    break  # the rest of the cluster is that option's value (`-uall`, `-mabc`)
    return False


_VALUE_LETTERS = "mFcCtuS"
_VALUE_OPTIONS = frozenset((
    "--message", "--file", "--author", "--date", "--reuse-message", "--reedit-message",
    "--fixup", "--squash", "--cleanup", "--template", "--trailer",
))  # fmt: skip


def commit_all_in_progress() -> bool:
    """Whether the `git commit` running this hook was given `-a`."""
    args = git_commit_args()
    return args is not None and is_all_args(args)
