"""Which cleanup git will apply to the message the commit-msg hook judges.

Git runs commit-msg before its own cleanup, so the hook must clean the message as git will:
`-m`/`-F` keep `#` lines (`whitespace`), an editor drops them (`strip`), `--cleanup=`/
`commit.cleanup` override, `scissors` only cuts with an editor, `--verbose` always cuts. Git tells
the hook whether an editor is used (it sets GIT_EDITOR=: when not); the rest comes from the
committing `git commit`'s own arguments (found by walking up /proc through the shim and any
pre-commit layer) and git's configuration. When something cannot be known, every cleanup git
might apply is returned and the message must pass under each of them.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

TYPE_CHECKING = False  # not typing's: importing typing costs the hook path ~4 ms; mypy reads it
if TYPE_CHECKING:
    from tddhooks.policy.message import Cleanup

MAX_ANCESTORS = 8
# `git commit`'s long options: None takes no value, "required" a value, "optional" `=value` only
_FLAG_NAMES = (
    "ahead-behind all allow-empty allow-empty-message amend branch dry-run edit include "
    "interactive long no-post-rewrite no-verify verify null only patch pathspec-file-nul "
    "porcelain quiet "
    "reset-author short signoff status verbose"
)
_VALUE_NAMES = (
    "author cleanup date file fixup message pathspec-from-file reedit-message reuse-message squash "
    "template trailer"
)
_COMMIT_LONG: dict[str, str | None] = {
    **dict.fromkeys(_FLAG_NAMES.split(), None),
    **dict.fromkeys(_VALUE_NAMES.split(), "required"),
    "gpg-sign": "optional",
    "untracked-files": "optional",
}
LONG_OPTIONS = {
    **_COMMIT_LONG,
    **{f"no-{name}": None for name in _COMMIT_LONG if not name.startswith("no-")},
}
_SHORT_FLAGS = set("aeinopqsvz")
SHORT_WITH_VALUE = set("mFCct")  # the value is the rest of the cluster or the next argument
SHORT_OPTIONAL_VALUE = set("uS")  # an optional value, attached only
_GLOBAL_VALUE = {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env"}
_GIT_NAMES = ("git", "git.exe")


def _git_ancestor(start: int | None) -> tuple[int, list[str]] | None:
    """(pid, arguments after `git`) of the nearest ancestor process that is git itself; None
    when there is none or /proc cannot be read."""
    pid = os.getppid() if start is None else start
    for _ in range(MAX_ANCESTORS):
        if pid <= 1:
            return None
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
        except OSError:
            return None
        words = [word.decode("utf-8", errors="replace") for word in argv if word]
        if words and os.path.basename(words[0]) in _GIT_NAMES:
            return pid, words[1:]
        try:
            pid = int(stat.rsplit(")", 1)[1].split()[1])
        except (IndexError, ValueError):
            return None
    return None


def committing_argv(start: int | None = None) -> list[str] | None:
    """The arguments after `git` of the nearest ancestor process that is git itself; None when
    there is none or /proc cannot be read."""
    found = _git_ancestor(start)
    return None if found is None else found[1]


def committing_pid(start: int | None = None) -> int | None:
    """The pid of the nearest ancestor process that is git itself (the `git commit` running the
    hooks); None when there is none or /proc cannot be read."""
    found = _git_ancestor(start)
    return None if found is None else found[0]


def global_config(args: Sequence[str]) -> dict[str, str]:
    """`git -c key=value` settings before the subcommand (keys lower-cased as git reports them;
    git does not pass them on to the hook's own git calls, which run with a clean environment)."""
    found: dict[str, str] = {}
    index = 0
    while index < len(args) - 1 and args[index].startswith("-"):
        if args[index] == "-c":
            key, _, value = args[index + 1].partition("=")
            found[key.lower()] = value
        index += 2 if args[index] in _GLOBAL_VALUE else 1
    return found


def subcommand(args: Sequence[str]) -> tuple[str, list[str]] | None:
    """(subcommand, its arguments) after git's global options; None when there is none."""
    index = 0
    while index < len(args):
        arg = args[index]
        if arg in _GLOBAL_VALUE:
            index += 2
        elif arg.startswith("-"):
            index += 1
        else:
            return arg, list(args[index + 1 :])
    return None


def long_option_name(word: str) -> str | None:
    """The full option name for `word` (git accepts any unique prefix); None when unknown."""
    if word in LONG_OPTIONS:
        return word
    matches = [name for name in LONG_OPTIONS if name.startswith(word)]
    return matches[0] if len(matches) == 1 else None


def commit_options(args: Sequence[str]) -> tuple[str | None, int] | None:
    """(the last --cleanup value, the --verbose count; -1 when not given) of `git commit`
    arguments; None when they cannot be read with certainty."""
    cleanup: str | None = None
    verbose = -1
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        if arg == "--":
            break
        if arg.startswith("--"):
            word, has_value, value = arg[2:].partition("=")
            name = long_option_name(word)
            if name is None:
                return None
            kind = LONG_OPTIONS[name]
            if kind == "required" and not has_value:
                if index >= len(args):
                    return None
                value, index = args[index], index + 1
            elif kind is None and has_value:
                return None
            if name == "cleanup":
                cleanup = value
            elif name == "verbose":
                verbose = max(verbose, 0) + 1
            elif name == "no-verbose":
                verbose = 0
        elif arg.startswith("-") and arg != "-":
            for position, letter in enumerate(arg[1:], start=1):
                if letter == "v":
                    verbose = max(verbose, 0) + 1
                elif letter in SHORT_WITH_VALUE:
                    if position == len(arg) - 1:
                        index += 1  # the value is the next argument
                    break
                elif letter in SHORT_OPTIONAL_VALUE:
                    break
                elif letter not in _SHORT_FLAGS:
                    return None
    return cleanup, verbose


def _resolve_alias(args: list[str], config: Mapping[str, str]) -> list[str]:
    """`git ci -m x` with alias.ci=commit becomes `commit -m x` (shell aliases stay as they are:
    the `git commit` they start is found first)."""
    found = subcommand(args)
    if found is None or found[0] == "commit":
        return args
    expansion = config.get(f"alias.{found[0].lower()}", "")
    if not expansion or expansion.startswith("!"):
        return args
    import shlex

    try:
        return [*shlex.split(expansion), *found[1]]
    except ValueError:
        return args


def _config_verbose(value: str | None) -> int:
    if value is None:
        return 0
    lowered = value.strip().lower()
    if lowered in ("true", "yes", "on", ""):
        return 1
    if lowered in ("false", "no", "off"):
        return 0
    try:
        return int(lowered)
    except ValueError:
        return 0


def git_cleanup_mode(cleanup_arg: str | None, editor: bool) -> str | None:
    """git's get_cleanup_mode(): the stripspace mode for an argument; None for an invalid one."""
    if cleanup_arg in (None, "default"):
        return "strip" if editor else "whitespace"
    if cleanup_arg == "scissors":
        return "scissors" if editor else "whitespace"
    return cleanup_arg if cleanup_arg in ("verbatim", "whitespace", "strip") else None


def _cleanup(mode: str, verbose: int) -> Cleanup:
    from tddhooks.policy.message import Cleanup

    if mode == "scissors":
        return Cleanup("whitespace", cut=True)
    return Cleanup(mode, cut=verbose > 0)


def _all_cleanups() -> tuple[Cleanup, ...]:
    """Every cleanup git might apply (message.py is imported only when a message is judged: the
    pre-commit hook asks this module for the committing git's pid alone)."""
    from tddhooks.policy.message import Cleanup

    return tuple(
        Cleanup(mode, cut) for mode in ("strip", "whitespace", "verbatim") for cut in (False, True)
    )


def __getattr__(name: str) -> tuple[Cleanup, ...]:
    if name == "ALL_CLEANUPS":  # the constant, built on first use
        return _all_cleanups()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def cleanups(
    environ: Mapping[str, str], config: Mapping[str, str], argv: list[str] | None
) -> tuple[Cleanup, ...]:
    """The cleanup git will apply: one when it is known, else every one it might be."""
    editor = environ.get("GIT_EDITOR") != ":"  # git sets it to ':' when it opens no editor
    if argv is not None:
        config = {**config, **global_config(argv)}
    found = subcommand(_resolve_alias(argv, config)) if argv is not None else None
    if found is None or found[0] != "commit":
        return _all_cleanups()
    options = commit_options(found[1])
    if options is None:
        return _all_cleanups()
    cleanup_arg, verbose = options
    if cleanup_arg is None:
        cleanup_arg = config.get("commit.cleanup")
    if verbose < 0:
        verbose = _config_verbose(config.get("commit.verbose"))
    mode = git_cleanup_mode(cleanup_arg, editor)
    if mode is None:  # git refuses the commit itself ("Invalid cleanup mode")
        return _all_cleanups()
    return (_cleanup(mode, verbose),)
