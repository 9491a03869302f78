"""The `no-skip` rule, judged from the runner's own report: a test that ran (passed or failed) in
the parent tree and is ignored, skipped or xfail in the new tree was skipped by this commit,
however it was spelled (`#[ignore]` through a macro or `cfg_attr`, `from pytest import mark`,
`@pt.mark.skip`, `pytest.skip()` inside the test, a conftest hook...).

The text check in policy/rules.py catches the markers it knows before anything runs; this one
needs both trees' gate verdicts. On the hook's fast path both are stored verdict files, read as
JSON without pydantic; a parent tree without a verdict under the same key is gated here first.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tddhooks import git

if TYPE_CHECKING:
    from tddhooks.policy.rules import Violation
    from tddhooks.policy.settings import PolicySettings

RULE = "no-skip"
HINT = (
    "take the skip back out (#[ignore], cfg_attr, @mark.skip, xfail, pytest.skip(), ...): a test "
    "that cannot pass yet stays out of the commit until the code makes it pass; a test that "
    "is obsolete is deleted in a `test:` commit"
)
_SHOWN = 6


def newly_ignored(ran_before: Iterable[str], ignored_now: Iterable[str]) -> list[str]:
    """Tests of the parent's report that ran, and that the new report lists as ignored."""
    ran = set(ran_before)
    return [name for name in dict.fromkeys(ignored_now) if name in ran]


def report_ran(report: Mapping[str, Any]) -> list[str]:
    """Names that ran in a report (a TestReport or its JSON form)."""
    return [*report.get("passing_tests", []), *report.get("failing_tests", [])]


def violation(names: list[str]) -> Violation:
    from tddhooks.policy.rules import Violation

    shown = ", ".join(names[:_SHOWN]) + (" ..." if len(names) > _SHOWN else "")
    what = f"the test runner now skips {len(names)} test(s) that ran before this commit: {shown}"
    return Violation(RULE, what, HINT)


def _stored_report(state: Path, tree: str, key: str | None) -> dict[str, Any] | None:
    from tddhooks.policy.gate import verdict_file, verdicts_dir

    if key is None:
        return None
    try:
        data = json.loads(verdict_file(verdicts_dir(state), tree, key).read_text("utf-8"))
        report = data["report"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not isinstance(report, dict) or data.get("tree") != tree or data.get("key") != key:
        return None
    return report


def _report(root: Path, state: Path, tree: str, settings: PolicySettings) -> dict[str, Any]:
    from tddhooks.policy.gate import memoized_key, tree_verdict

    stored = _stored_report(state, tree, memoized_key(root, state, settings))
    if stored is not None:
        return stored
    return tree_verdict(root, tree, settings).report.model_dump(mode="json")


def added_skips(
    root: Path, state: Path, base: str | None, tree: str, settings: PolicySettings
) -> list[str]:
    """Tests that ran in commit `base` and that the runner skips in `tree` (both gated)."""
    if base is None or not settings.enabled(RULE) or not settings.enabled("green"):
        return []
    now = _report(root, state, tree, settings)
    if not now.get("ignored_tests"):
        return []
    parent_tree = git.tree_of(root, base)
    if parent_tree == tree:
        return []
    before = _report(root, state, parent_tree, settings)
    return newly_ignored(report_ran(before), now["ignored_tests"])
