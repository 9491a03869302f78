"""Commit facts and messages for the rule tables: settings with every rule on, a message with
its sections, and `check` (the message rules on parsed text)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tddhooks.config import DEFAULT_TYPES
from tddhooks.git import Change
from tddhooks.policy.message import parse_message
from tddhooks.policy.rules import CommitFacts, Violation, check_message
from tddhooks.policy.settings import PolicySettings

SETTINGS = PolicySettings(
    types=DEFAULT_TYPES,
    require_sections=("feat", "fix", "refactor", "test"),
    require_test_with=("feat", "fix"),
    test_paths=("tests/**",),
    skip_markers=(r"#\[ignore", r"pytest\.mark\.skip", r"pytest\.skip\(", r"unittest\.skip"),
)

SECTIONS = """
Context:
- Role: {role}
- Step: 2
- Kata goal: Convert numbers to Roman numerals.

Rationale:
- why now

Diff summary:
- src/lib.rs: what

Verification:
- cargo test: 3 passed, 0 failed
"""


def msg(subject: str, role: str = "Implementor", body: str | None = None) -> str:
    return f"{subject}\n{SECTIONS.format(role=role) if body is None else body}"


def facts(
    changes: str = "",
    *,
    before: Sequence[str] = (),
    after: Sequence[str] = (),
    added: Mapping[str, Sequence[str]] | None = None,
    removed: Mapping[str, Sequence[str]] | None = None,
    handoff: Mapping[str, str] | None = None,
    staged: Mapping[str, str] | None = None,
) -> CommitFacts:
    """changes as 'M src/lib.rs, A tests/roman.rs'."""
    parsed = tuple(Change(*item.split()) for item in changes.split(",") if item.strip())
    return CommitFacts(
        changes=parsed,
        test_names_before=frozenset(before),
        test_names_after=frozenset(after),
        added_lines=added or {},
        removed_lines=removed or {},
        handoff_blobs=handoff,
        staged_blobs=staged or {},
    )


def check(text: str, diff: CommitFacts, settings: PolicySettings = SETTINGS) -> list[Violation]:
    return check_message(parse_message(text), diff, settings)
