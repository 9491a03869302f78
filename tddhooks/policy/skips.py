"""The `no-skip` rule, judged from the runner's own report: a test the new tree's report lists as
ignored, skipped or xfail that the parent tree's report did not was skipped by this commit,
however it was spelled (`#[ignore]` through a macro or `cfg_attr`, `from pytest import mark`,
`@pt.mark.skip`, `@m.xfail`, `pytest.skip()` inside the test, a conftest hook...): a test that ran
before, and a new test that arrives skipped alike. Rust doc-tests (`src/lib.rs - add (line 5)`) are
named by line, which moves with every edit above them: a new ignored one counts only when that
exact name ran before.

The text check in policy/rules.py catches the markers it knows before anything runs; this one
needs both trees' gate verdicts. On the hook's fast path both are stored verdict files, read as
JSON without pydantic; a parent tree without a verdict under the same key is gated here first.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from tddhooks import git

TYPE_CHECKING = False  # not typing's: importing typing costs the hook path ~4 ms; mypy reads it
if TYPE_CHECKING:
    from typing import Any

    from tddhooks.policy.rules import Violation
    from tddhooks.policy.settings import PolicySettings

RULE = "no-skip"
HINT = (
    "take the skip back out (#[ignore], cfg_attr, @mark.skip, xfail, pytest.skip(), ...): a test "
    "that cannot pass yet stays out of the commit until the code makes it pass; a test that "
    "is obsolete is deleted in a `test:` commit"
)
_SHOWN = 6
_DOCTEST = re.compile(r" - .*\(line \d+\)$")


def newly_ignored(before: Mapping[str, Any], ignored_now: Iterable[str]) -> list[str]:
    """Tests the new report ignores that the parent's report (JSON form) did not."""
    ran = {*before.get("passing_tests", []), *before.get("failing_tests", [])}
    if "ignored_tests" not in before:  # stored by a version that did not name them: ran only
        return [name for name in dict.fromkeys(ignored_now) if name in ran]
    ignored = set(before["ignored_tests"])
    return [
        name
        for name in dict.fromkeys(ignored_now)
        if name not in ignored and (name in ran or not _DOCTEST.search(name))
    ]


def violation(names: list[str]) -> Violation:
    from tddhooks.policy.rules import Violation

    shown = ", ".join(names[:_SHOWN]) + (" ..." if len(names) > _SHOWN else "")
    what = f"the test runner skips {len(names)} test(s) it did not skip before this commit: {shown}"
    return Violation(RULE, what, HINT)


def _stored_report(state: Path, tree: str, key: str | None) -> dict[str, Any] | None:
    from tddhooks.policy.stored import read_sealed, verdict_file, verdicts_dir

    if key is None:
        return None
    data = read_sealed(verdict_file(verdicts_dir(state), tree, key))
    report = None if data is None else data.get("report")
    if data is None or not isinstance(report, dict):
        return None
    if data.get("tree") != tree or data.get("key") != key:
        return None
    return report


def _report(
    root: Path, state: Path, tree: str, settings: PolicySettings, *, run: bool = True
) -> dict[str, Any] | None:
    from tddhooks.policy.stored import memoized_key

    stored = _stored_report(state, tree, memoized_key(root, state, settings))
    if stored is not None or not run:
        return stored
    from tddhooks.policy.gate import tree_verdict

    return tree_verdict(root, tree, settings).report.model_dump(mode="json")


def added_skips(
    root: Path, state: Path, base: str | None, tree: str, settings: PolicySettings
) -> list[str]:
    """Tests that ran in commit `base` and that the runner skips in `tree`. The tree's verdict
    must be stored already (the pre-commit gate stored it); the parent's is gated when missing."""
    if base is None or not settings.enabled(RULE) or not settings.enabled("green"):
        return []
    now = _report(root, state, tree, settings, run=False)
    if not now or not now.get("ignored_tests"):
        return []
    parent_tree = git.tree_of(root, base)
    if parent_tree == tree:
        return []
    before = _report(root, state, parent_tree, settings) or {}
    return newly_ignored(before, now["ignored_tests"])


def report_violations(
    root: Path,
    state: Path,
    settings: PolicySettings,
    index_file: str | None,
    base: str | None,
    found: Iterable[Violation],
) -> list[Violation]:
    """The commit-msg hook's report-based no-skip check for a commit on top of `base`, unless the
    text check already said it (one rejection per rule is enough). Git's own messages are never
    exempt from it."""
    if base is None or any(item.rule == RULE for item in found):
        return []
    tree = git.write_tree(root, index_file=index_file)
    skipped = added_skips(root, state, base, tree, settings)
    return [violation(skipped)] if skipped else []
