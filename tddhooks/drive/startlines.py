"""Two lines of the implementor's "What the staged test expects" that depend on where the kata
stands (docs/answers.md, "Hints on a red attempt"):

- the empty start: when the staged test is the kata's only test and every call it makes expects
  an empty list, the line says the whole body can be that empty list;
- counting characters: the kata's note that lengths are characters, not bytes, is passed on only
  where a length is in view (the staged test or its expectations speak of characters, or hold a
  non-ASCII literal, or the library counts already). It is a hint: nothing is refused for it."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from tddhooks.runners.rust_lexer import blanked_text, without_comments

CALLS = "The test calls "

EMPTY_START = {
    "rust": "Every call of the test expects an empty list, and no other test exists yet: the "
    "whole body can be `Vec::new()`. Each message comes with the test that asks for it.",
    "python": "Every call of the test expects an empty list, and no other test exists yet: the "
    "whole body can be `return []`. Each message comes with the test that asks for it.",
}

_EXPECTS = re.compile(r" and expects `(?P<value>.+)`\.$")
_EMPTY_LIST = re.compile(
    r"Vec(?:::<[^<>]*(?:<[^<>]*>)?[^<>]*>)?::new\(\)|vec!\[\s*\]|\[\s*\]|list\(\)"
)
_LENGTH_IN_CODE = re.compile(r"\.\s*len\s*\(\s*\)|\.\s*chars\s*\(\s*\)\s*\.\s*count\s*\(")


def asks_for_nothing(lines: Sequence[str]) -> bool:
    """Whether the staged test makes at least one call and every call expects an empty list."""
    calls = [line for line in lines if line.startswith(CALLS)]
    if not calls:
        return False
    for line in calls:
        if line.endswith(" and expects it to be empty."):
            continue
        found = _EXPECTS.search(line)
        if found is None or not _EMPTY_LIST.fullmatch(found.group("value").strip()):
            return False
    return True


_CALLED = re.compile(r"^" + re.escape(CALLS) + r"`(?P<name>\w+)\s*\(")


def called_through_a_path(lines: Sequence[str], tests: Mapping[str, str]) -> bool:
    """Whether the tests also call a function the lines name through a path (`pv::validate(…)`,
    `pv.validate(…)`): the expectation reader lists only calls by the imported name, so what
    such a call expects is unknown."""
    names = {found["name"] for line in lines if (found := _CALLED.match(line))}
    if not names:
        return False
    path = re.compile(r"(?:::|\.)\s*(?:" + "|".join(sorted(names)) + r")\s*\(")
    return any(path.search(text) for text in tests.values())


def empty_start(
    language: str,
    lines: Sequence[str],
    other_tests: Sequence[str],
    tests: Mapping[str, str],
) -> tuple[str, ...]:
    """The empty-start line, when the staged test is the only one and asks for nothing: `lines`
    are every call the staged `tests` make (not only those the prompt shows), and a call of
    the same function through a path is one that may ask for something."""
    if other_tests or language not in EMPTY_START or not asks_for_nothing(lines):
        return ()
    if called_through_a_path(lines, tests):
        return ()
    return (EMPTY_START[language],)


def length_in_view(tests: Mapping[str, str], lines: Sequence[str], library: str) -> bool:
    """Whether a length is what the turn is about: the staged (Rust) tests or what they expect
    speak of characters or hold a non-ASCII character, or the library measures a length already.
    Comments are left out, the library's strings too: `// a good password — no errors` or a
    `// later: .len()` is no length, and the note before one invites a length check."""
    said = "\n".join((*map(without_comments, tests.values()), *lines))
    return (
        "character" in said.casefold()
        or not said.isascii()
        or bool(_LENGTH_IN_CODE.search(blanked_text(library)))
    )
