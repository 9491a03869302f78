"""Check `handed-intent` (small-model repair, docs/checks.md): the tester's plan is handed to the
implementor only when it is about the test it wrote.

The handoff's intent is the implementor's "What the test checks" line (agents/context.py
`implementor_task`) and the feature commit's `Test:` rationale. A plan that names one
requirement of the kata (policy/goals.py `about`) while the test's own values pin others
(agents/examples.py `agreed_requirements`), or one that names a section of the tester's own
prompt, is dropped; the prompt still shows what the staged test calls and expects."""

from __future__ import annotations

import re
from collections.abc import Mapping

from tddhooks.agents.examples import agreed_requirements
from tddhooks.drive.interface import interface_functions
from tddhooks.policy.compose import kata_requirements
from tddhooks.policy.goals import about

# the tester's prompt's own sections (agents/context.py), which the implementor's has not
_TESTERS_SECTIONS = re.compile(r"\b(?:next\s+requirement|supervisor\s+hints?)\b", re.IGNORECASE)


def handed_intent(
    plan: str, kata: str, tests: Mapping[str, str], language: str, package: str | None
) -> str:
    """`plan`, or "" when it names a section of the tester's prompt, or a requirement the tests in
    `tests` (path -> text) do not pin while they pin another one."""
    if _TESTERS_SECTIONS.search(plan):
        return ""
    requirements = kata_requirements(kata, whole=True)
    if not plan or not requirements:
        return plan
    functions = interface_functions(kata, language)
    pinned = agreed_requirements(tests, requirements, language, package, list(functions))
    # `about` reads a test's name: its `::` path and `[…]` parameters are no words of a plan
    named = about(requirements, plan.replace("::", " ").replace("[", " "))
    if named is None or not pinned or named[1] + 1 in pinned:
        return plan
    return ""
