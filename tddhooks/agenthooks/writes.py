"""Which shell commands write or delete protected files or the handed-over test (pure)."""

from __future__ import annotations

from collections.abc import Iterable

from tddhooks.agenthooks import paths as P
from tddhooks.agenthooks.refusal import COMMIT_THROUGH_HOOKS, HANDED_OVER, Refusal
from tddhooks.agenthooks.shell import SimpleCommand

_WRITERS = {
    "rm", "unlink", "rmdir", "shred", "truncate", "chmod", "chown", "chgrp", "chattr", "ln",
    "touch", "install", "mv", "cp", "tee", "rsync", "patch", "mkdir", "sponge",
}  # fmt: skip
_COPIERS = {"cp", "install", "rsync"}
_INTERPRETERS = {"python", "python3", "perl", "ruby", "node", "php", "awk", "gawk"}


def check_writes(
    simple: SimpleCommand, protected: P.Protected, line: list[SimpleCommand]
) -> Refusal | None:
    """Refuse a command that writes, moves or deletes a protected path (`line`: every command
    of the same command line, for `… | xargs rm`)."""
    name = simple.name
    if name in _WRITERS or (name == "sed" and _sed_in_place(simple.words)):
        args = [word for word in simple.words[1:] if not word.startswith("-")]
        if name in _COPIERS and not simple.via_xargs:  # their sources are only read
            args = _copy_destinations(list(simple.words[1:]))
        if simple.via_xargs:  # the paths come from the pipe: judge what the line lists
            args += [word for other in line for word in other.words[1:]]
        return write_refusal(args, simple.cwd, protected, "writes to")
    if name == "dd":
        targets = [word[3:] for word in simple.words if word.startswith("of=")]
        return write_refusal(targets, simple.cwd, protected, "writes to")
    if name == "find" and {"-delete", "-exec", "-execdir", "-fprint"} & set(simple.words):
        return write_refusal(list(simple.words[1:]), simple.cwd, protected, "deletes in")
    if name.rstrip("0123456789.") in _INTERPRETERS:
        return _check_code(simple, protected)
    return None


def _copy_destinations(args: list[str]) -> list[str]:
    """What `cp`/`install`/`rsync` write: the -t/--target-directory value, or the last path."""
    targets = [
        value
        for option, value in zip(args, [*args[1:], ""], strict=True)
        if option in {"-t", "--target-directory"}
    ]
    targets += [arg.split("=", 1)[1] for arg in args if arg.startswith("--target-directory=")]
    paths = [arg for arg in args if not arg.startswith("-")]
    return targets or paths[-1:]


def _sed_in_place(words: Iterable[str]) -> bool:
    return any(
        word.startswith("--in-place") or (word.startswith("-") and "i" in word.split("=")[0][1:])
        for word in words
        if not word.startswith("--") or word.startswith("--in-place")
    )


def _check_code(simple: SimpleCommand, protected: P.Protected) -> Refusal | None:
    everything = (*protected.files, *protected.handed_over)
    code = " ".join(simple.words[1:])
    found = P.mentions(code, everything, protected.root)
    if found is None:
        return None
    return _path_refusal(found, protected, "a script that names")


def write_refusal(words: list[str], cwd: str, protected: P.Protected, verb: str) -> Refusal | None:
    for word in words:
        handed = P.hit(word, cwd, protected.handed_over, protected.root)
        if handed is not None:
            return _path_refusal(handed, protected, verb)
        found = P.hit(word, cwd, protected.files, protected.root)
        if found is None and P.looks_like_hook_path(word):
            found = word
        if found is not None:
            return _path_refusal(found, protected, verb)
    return None


def _path_refusal(found: str, protected: P.Protected, verb: str) -> Refusal:
    shown = P.display(found, protected.root)
    if found in protected.handed_over:
        return Refusal(
            "handed-over-test",
            f"{shown} is the red test handed over to the implementor; {HANDED_OVER}",
            "change only source files until the staged test passes, then `git commit`",
        )
    return Refusal(
        "protected-path",
        f"this {verb} {shown}, which holds the hooks or their configuration",
        f"leave the hooks and their configuration to the person; {COMMIT_THROUGH_HOOKS}",
    )
