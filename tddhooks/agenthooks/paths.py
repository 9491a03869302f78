"""Which files an agent may not write, and whether a path an agent names is one of them (pure).

Protected: git's hooks directory, `.git/tddhooks/`, the hook manager's and the agents' hook
configurations, `tdd.yaml`; and, while a red test is handed over, that test.
"""

from __future__ import annotations

import fnmatch
import os
import re
from dataclasses import dataclass

GLOB_CHARS = "*?["
_BRACES = re.compile(r"\{([^{}]*,[^{}]*)\}")


@dataclass(frozen=True)
class Protected:
    """Absolute, normalised paths: what nobody but a person may change, and the handed-over
    tests (fixed until the implementor's commit makes them pass)."""

    root: str
    files: tuple[str, ...]
    handed_over: tuple[str, ...] = ()


def expand_braces(word: str) -> list[str]:
    """`a/{b,c}` → [`a/b`, `a/c`] (as bash does before running the command)."""
    match = _BRACES.search(word)
    if match is None:
        return [word]
    words: list[str] = []
    for choice in match.group(1).split(","):
        words.extend(expand_braces(word[: match.start()] + choice + word[match.end() :]))
    return words


def resolve(word: str, cwd: str) -> str:
    """The absolute, normalised path a shell word names from `cwd` (no symlinks resolved)."""
    return os.path.normpath(os.path.join(cwd, os.path.expanduser(word)))


def _ancestors(path: str, root: str) -> list[str]:
    found = [path]
    while path not in (root, os.path.dirname(path)):
        path = os.path.dirname(path)
        found.append(path)
    return found


def _touches(target: str, protected: str, root: str) -> bool:
    """`target` is the protected path, inside it, or a directory containing it (or a glob that
    names one of those)."""
    if any(char in target for char in GLOB_CHARS):
        fixed = target[: min(target.find(c) for c in GLOB_CHARS if c in target)]
        if fixed.startswith(protected + os.sep):
            return True
        return any(fnmatch.fnmatchcase(p, target) for p in _ancestors(protected, root))
    return (
        target == protected
        or target.startswith(protected + os.sep)
        or protected.startswith(target.rstrip(os.sep) + os.sep)
    )


def hit(word: str, cwd: str, paths: tuple[str, ...], root: str) -> str | None:
    """The protected path (of `paths`) that the shell word `word` touches, if any."""
    if not word or word == "-":
        return None
    for expanded in expand_braces(word):
        target = resolve(expanded, cwd)
        for protected in paths:
            if _touches(target, protected, root):
                return protected
    return None


def looks_like_hook_path(word: str) -> bool:
    """A word built from a variable or substitution that still reads like a hooks path."""
    return "$" in word and ("/hooks" in word or "tddhooks" in word)


def mentions(text: str, paths: tuple[str, ...], root: str) -> str | None:
    """The protected path whose repository-relative spelling appears in `text` (used for the
    code strings of `python -c`, `perl -e` and the like, which we cannot parse)."""
    for protected in paths:
        relative = os.path.relpath(protected, root)
        if relative != "." and relative in text:
            return protected
    return None


def display(path: str, root: str) -> str:
    """A protected path as the person sees it (relative to the repository)."""
    relative = os.path.relpath(path, root)
    return path if relative.startswith("..") else relative
