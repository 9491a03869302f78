"""Is the running `git commit` an `--amend`? Then the commit being written replaces HEAD, and the
hooks judge it against HEAD's parent, as `audit` will once it exists.

Git tells a hook nothing reliable about it (prepare-commit-msg gets "commit HEAD" for -c/-C too,
and "message" for `--amend -m`), so the hook reads the command line of the `git commit` that
started it: its own ancestors in /proc (Linux), through the pre-commit framework's processes,
with the person's git aliases expanded (`git ca` for `commit --amend`). Where /proc is absent,
an amend is not detected and the commit is judged against HEAD, as before (stricter, never
looser). No environment variable can claim an amend: that would judge any commit against an
older base.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path


def given_options(args: Sequence[str]) -> set[str] | None:
    """The long names of the options given to `git commit` (`-a` is `all`), values skipped as
    git skips them (`-m --amend` is a message, not an option), with git's unique-prefix
    abbreviations, the last of `x` / `no-x` winning; None when they cannot be read for sure
    (an unknown option). Git's option table lives in policy/commitmode.py."""
    from tddhooks.policy.commitmode import (
        LONG_OPTIONS,
        SHORT_OPTIONAL_VALUE,
        SHORT_WITH_VALUE,
        long_option_name,
    )

    given: set[str] = set()
    rest = iter(args)
    for arg in rest:
        if arg == "--":
            break
        if arg.startswith("--"):
            word, has_value, _value = arg[2:].partition("=")
            name = long_option_name(word)
            if name is None:
                return None
            if LONG_OPTIONS[name] == "required" and not has_value:
                next(rest, None)
            positive = name.removeprefix("no-")
            given.discard(positive if name.startswith("no-") else f"no-{name}")
            given.add(name)
        elif arg.startswith("-") and arg != "-":
            for position, letter in enumerate(arg[1:], start=1):
                if letter == "a":
                    given.add("all")
                elif letter in SHORT_WITH_VALUE:
                    if position == len(arg) - 1:
                        next(rest, None)  # the value is the next argument
                    break
                elif letter in SHORT_OPTIONAL_VALUE:
                    break
    return given


def is_amend_args(args: Sequence[str], alias: Callable[[str], str | None]) -> bool:
    """Whether a git command line (argv without the program) is `commit --amend` (pure given
    `alias`, which returns an alias's expansion; shell aliases `!…` are not followed)."""
    from tddhooks.policy.commitmode import subcommand

    found = subcommand(args)
    if found is None:
        return False
    command, rest = found
    if command != "commit":
        expansion = alias(command)
        if expansion is None or expansion.startswith("!"):
            return False
        return is_amend_args([*expansion.split(), *rest], lambda _name: None)
    given = given_options(rest)
    return given is not None and "amend" in given


def git_commit_args() -> list[str] | None:
    """argv (program dropped) of the git process that runs this hook (policy/commitmode.py)."""
    from tddhooks.policy.commitmode import committing_argv

    return committing_argv()


def amend_in_progress(root: Path) -> bool:
    """Whether the `git commit` running this hook amends HEAD."""
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
    from tddhooks.policy.commitmode import subcommand

    found = subcommand(args)
    given = given_options(found[1]) if found and found[0] == "commit" else None
    return given is not None and "all" in given


def commit_all_in_progress() -> bool:
    """Whether the `git commit` running this hook was given `-a`."""
    args = git_commit_args()
    return args is not None and is_all_args(args)
