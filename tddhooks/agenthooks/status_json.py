"""`tddhooks status --json`: a stable, documented JSON object of where the repository stands.

Also what the agent hooks tell the agent at session start and on each prompt (`context_text`).
Schema version 1 (docs/agents.md): version, phase, cycle, turn, next_step, last_commit, staged
{paths, verdict, summary}, handoff {tests, intent} | null, rules. Fields are only ever added.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tddhooks import git
from tddhooks.agenthooks.repo_view import RepoView, light_facts

if TYPE_CHECKING:
    from tddhooks.policy.phase import PhaseInfo, RepoFacts
    from tddhooks.policy.settings import PolicySettings

SCHEMA_VERSION = 1
RULES = (
    "Rules: git judges every commit. A commit lands only when the staged tree is green (format "
    "check, lint and the whole test suite run on exactly what is staged); red is never committed. "
    "Messages are Conventional Commits `type(scope): summary`; feat, fix, refactor and test "
    "commits carry the sections Context (Role, Step, Kata goal), Rationale, Diff summary and "
    "Verification (the prepare-commit-msg hook pre-fills them). feat/fix add or change a test; "
    "refactor changes no test; test changes only tests; no skip markers. A red test handed over "
    "to the implementor is fixed: make it pass; the test is the tester's. Never skip the hooks "
    "(--no-verify, core.hooksPath, SKIP=…): `tddhooks audit` in CI re-checks every commit."
)


def cached_verdict(
    root: Path, tree: str, settings: PolicySettings, state: Path
) -> tuple[str, list[str]] | None:
    """("green" | "red", verification lines) of a stored verdict for `tree`, without running
    anything or importing pydantic; None when no verdict is stored."""
    from tddhooks.policy.stored import stored_verdict

    found = stored_verdict(root, tree, settings, state)
    return None if found is None else ("green" if found[0] else "red", found[1] or [])


def live_handoff(state: Path, head: str | None) -> dict[str, Any] | None:
    """The handoff note (`.git/tddhooks/handoff.json`) while HEAD is the commit it was written
    on; read as plain JSON so the hook path needs no pydantic."""
    from tddhooks.policy.facts import HANDOFF_FILE

    try:
        note = json.loads((state / HANDOFF_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(note, dict) or note.get("head") != head:
        return None
    return note


def build_status(root: Path, *, run_gate: bool) -> dict[str, Any]:
    """The status object for the repository at `root` (`tddhooks status --json`). run_gate
    runs the gate where `tddhooks status` does (a staged test-only tree, an unjudged HEAD); the
    `staged` verdict is the staged tree's only, as in the agent hooks' object."""
    from tddhooks.policy.history import cycle_number, last_commit
    from tddhooks.policy.phase import decide_phase, read_facts
    from tddhooks.policy.settings import load_settings

    state = git.tddhooks_dir(root)
    settings = load_settings(root, state)
    facts, verdict = read_facts(root, settings, with_verdict=run_gate, judge_head=run_gate)
    staged = [*facts.staged_test_paths, *facts.staged_other_paths, *facts.staged_deleted_tests]
    if verdict is not None and staged:
        found: tuple[str, list[str]] | None = (
            "green" if verdict.green else "red",
            verdict.verification_lines(),
        )
    else:
        found = cached_verdict(root, git.write_tree(root), settings, state) if staged else None
    facts = _with_verdict(facts, found)
    info = decide_phase(facts, cycle_number(root) if facts.has_commit else 0)
    last = last_commit(root) if facts.has_commit else None
    note = live_handoff(state, last[0]) if last else None
    return _status_object(info, last, staged, found, note)


def hook_status(view: RepoView) -> dict[str, Any]:
    """The same object for the agent hooks, from a RepoView and the verdict cache: never runs
    the suite, a handful of git processes."""
    from tddhooks.policy.history import count_cycles, first_parent_subjects
    from tddhooks.policy.phase import decide_phase
    from tddhooks.policy.settings import load_settings

    settings = load_settings(view.root, view.state)
    subjects = first_parent_subjects(view.root) if view.head else []
    facts = light_facts(view, settings, subjects)
    staged = list(view.staged)
    found = None
    if staged and view.head:
        found = cached_verdict(view.root, git.write_tree(view.root), settings, view.state)
    facts = _with_verdict(facts, found)
    info = decide_phase(facts, count_cycles([subject for _sha, subject in subjects]))
    last = subjects[-1] if subjects else None
    note = live_handoff(view.state, view.head) if view.head else None
    return _status_object(info, last, staged, found, note)


def _with_verdict(facts: RepoFacts, found: tuple[str, list[str]] | None) -> RepoFacts:
    if found is None or not facts.staged_test_paths:
        return facts
    return replace(facts, staged_green=found[0] == "green")


def _status_object(
    info: PhaseInfo,
    last: tuple[str, str] | None,
    staged: list[str],
    found: tuple[str, list[str]] | None,
    note: dict[str, Any] | None,
) -> dict[str, Any]:
    verdict, summary = found if found else ("unverified" if staged else None, [])
    return {
        "version": SCHEMA_VERSION,
        "phase": info.phase.value,
        "cycle": info.cycle,
        "turn": info.next_actor,
        "next_step": info.reason,
        "last_commit": {"sha": last[0], "subject": last[1]} if last else None,
        "staged": {"paths": staged, "verdict": verdict, "summary": summary},
        "handoff": _handoff_view(note),
        "rules": RULES,
    }


def _handoff_view(note: dict[str, Any] | None) -> dict[str, Any] | None:
    if note is None:
        return None
    blobs = note.get("test_blobs")
    intent = note.get("intent")
    return {
        "tests": sorted(blobs) if isinstance(blobs, dict) else [],
        "intent": intent if isinstance(intent, str) else "",
    }


def context_text(status: dict[str, Any]) -> str:
    """The short paragraph an agent gets at session start and with each prompt."""
    staged = status["staged"]
    verdict = staged["verdict"] or "nothing staged"
    if staged["summary"]:
        verdict += f" ({'; '.join(staged['summary'])})"
    handoff = status["handoff"]
    handed = f" Handed-over test: {', '.join(handoff['tests'])}." if handoff else ""
    return (
        f"tddhooks: phase {status['phase']}, cycle {status['cycle']}; it is the "
        f"{status['turn']}'s turn. Next legal step: {status['next_step']}. Staged tree: "
        f"{verdict}.{handed} {status['rules']} (`tddhooks status --json` shows this again.)"
    )
