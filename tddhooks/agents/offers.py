"""The paths a role is offered for this turn's edits (docs/agents.md, "Where each role writes").

The answer schema lists them as the only values of `path` (agents/schemas.py), so a model bound
by the schema cannot write a test as the implementor, code as the tester, or invent
`tests/src/lib.rs`; the prompt names them too. They steer; the sandbox (agents/edits.py) still
judges every path, so an answer in a form without a schema is judged exactly as before.

- tester: one new test file named after the next requirement (`tests/<words>.rs`,
  `tests/test_<words>.py`: a suggestion), the existing test files (a test may be added beside
  the others), and the source files that hold unit tests beside the code;
- implementor: the existing source files of the language (its minimal change edits them; the
  refactorer may also start new modules, so it gets no list).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tddhooks.policy.globs import matches_any
from tddhooks.vocabulary import CODE_SUFFIXES

if TYPE_CHECKING:
    from tddhooks.agents.edits import PathPolicy

MAX_WORDS = 5
MAX_STEM = 60  # a kata's 10,000-letter word must not become a file name the system refuses
_WORD_RE = re.compile(r"[a-z0-9]+")
# words that name nothing: dropped so the file name is the behaviour ("empty_string_sums_to_0")
_FILLER = frozenset(
    ["a", "an", "the", "of", "is", "are", "be", "that", "this", "its", "it", "with", "too"]
)
_NEW_TEST = {"rust": "tests/{}.rs", "python": "tests/test_{}.py"}


def behaviour_slug(requirement: str, fallback: str) -> str:
    """A snake_case file stem for a requirement: its first words up to a colon or full stop."""
    head = re.split(r"[:.](?:\s|$)", requirement.lower(), maxsplit=1)[0]
    head = re.sub(r'"[^"]*"|`[^`]*`', " ", head)  # examples are not names
    words = [word for word in _WORD_RE.findall(head) if word not in _FILLER][:MAX_WORDS]
    slug = "_".join(words)[:MAX_STEM].rstrip("_")
    if not slug or not slug[0].isalpha():
        slug = f"{fallback}_{slug}" if slug else fallback
    return slug


def may_write(path: str, policy: PathPolicy) -> bool:
    """Whether the role's globs let it write `path` as a whole file (the sandbox checks more)."""
    return (
        matches_any(path, policy.writable)
        and not matches_any(path, policy.protected)
        and not matches_any(path, policy.foreign)
    )


def new_test_path(
    language: str, requirement: str, cycle: int, taken: Sequence[str], policy: PathPolicy
) -> str | None:
    """A test file that does not exist yet for this requirement; None when the language has no
    such layout or the tester's globs would not let it write there."""
    pattern = _NEW_TEST.get(language)
    if pattern is None:
        return None
    stem = behaviour_slug(requirement, f"cycle_{cycle}")
    existing = {path.lower() for path in taken}
    path = pattern.format(stem)
    number = 2
    while path.lower() in existing:
        path = pattern.format(f"{stem}_{number}")
        number += 1
    return path if may_write(path, policy) else None


def offered_paths(
    role: str,
    policy: PathPolicy,
    *,
    files: Sequence[str],
    unit_test_files: Sequence[str],
    requirement: str,
    cycle: int,
) -> tuple[str, ...]:
    """The paths `role` (bound by `policy`) is offered; empty means any path (the schema leaves
    `path` free)."""
    if role == "tester":
        new = new_test_path(policy.language, requirement, cycle, files, policy)
        suffixes = CODE_SUFFIXES.get(policy.language, ())
        tests = [path for path in files if suffixes and path.endswith(suffixes)
                 and may_write(path, policy)]  # fmt: skip
        return tuple(dict.fromkeys([*([new] if new else []), *tests, *unit_test_files]))
    if role == "implementor":
        suffixes = CODE_SUFFIXES.get(policy.language, ())
        return tuple(path for path in files if path.endswith(suffixes) and may_write(path, policy))
    return ()
