"""Path globs as the policy and the agents read them: gitignore-like, one implementation (pure).

`*` and `?` never cross '/', `[!x]` negates a class, `**` spans any number of directories (also
none), a trailing '/' means everything below, and a pattern without '/' matches at any depth.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

_GLOB_TOKEN_RE = re.compile(r"(\*+|\?|\[!?\]?[^\]]*\])")


def _segment_regex(segment: str) -> str:
    """One path segment of a glob: `*` and `?` never cross '/', `[!x]` negates a class."""
    parts = []
    for token in _GLOB_TOKEN_RE.split(segment):
        if token.startswith("*"):
            parts.append("[^/]*")
        elif token == "?":
            parts.append("[^/]")
        elif token.startswith("[") and len(token) > (3 if token.startswith("[!") else 2):
            body = token[1:-1].replace("\\", "\\\\")
            parts.append("[^" + body[1:] + "]" if body.startswith("!") else "[" + body + "]")
        else:
            parts.append(re.escape(token))
    return "".join(parts)


@lru_cache(maxsize=256)
def glob_regex(pattern: str) -> re.Pattern[str]:
    """Compile a gitignore-style glob (see the module docstring)."""
    return re.compile(_glob_source(pattern), re.DOTALL)


def _glob_source(pattern: str) -> str:
    pattern = pattern.strip().removeprefix("./")
    anchored = "/" in pattern.rstrip("/")
    segments = (pattern.lstrip("/") + ("**" if pattern.endswith("/") else "")).split("/")
    regex = "" if anchored else "(?:.*/)?"
    for index, segment in enumerate(segments):
        last = index == len(segments) - 1
        if segment == "**":
            regex += ".*" if last else "(?:.*/)?"
        else:
            regex += _segment_regex(segment) + ("" if last else "/")
    return regex + r"\Z"


@lru_cache(maxsize=64)
def _any_regex(patterns: tuple[str, ...]) -> re.Pattern[str]:
    # one compiled alternation per glob list: the hook path matches a dozen build-file globs
    return re.compile("|".join(f"(?:{_glob_source(p)})" for p in patterns) or r"(?!)", re.DOTALL)


def glob_match(path: str, pattern: str) -> bool:
    """Whether the repository-relative POSIX path matches the glob."""
    return glob_regex(pattern).match(path.removeprefix("./")) is not None


def matches_any(path: str, patterns: Sequence[str]) -> bool:
    """Whether the path matches one of the globs."""
    return _any_regex(tuple(patterns)).match(path.removeprefix("./")) is not None
