"""Commit messages of the agents' commits, composed by the tool (DESIGN §3): the plan's rationale,
the staged diff per file with its intent, the cycle, the kata goal and the gate's verification.
The model only contributes its summary and rationale; it never writes the message itself."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from tddhooks.agents.edits import AgentAnswer, matches_any
from tddhooks.drive.gather import kata_text, workspace_or_git
from tddhooks.policy.compose import compose_message, kata_goal, one_line
from tddhooks.policy.settings import PolicySettings

if TYPE_CHECKING:
    from tddhooks.drive.ports import Workspace

FALLBACK_GOAL = "work through the kata one small test at a time"
REFACTOR_SUMMARY = "restructure the code, behaviour kept"
_SCOPE = re.compile(r"[a-z][a-z0-9_-]{0,23}")
# scopes that name a place, not a subject, and the prompts' placeholders copied as they are
# and words that name any change at all (`feat(function): …`)
_NOT_A_SCOPE = {
    "src", "lib", "main", "mod", "tests", "test", "scope", "one_word", "kata", "code",
    "function", "fn", "feature", "implementation", "impl", "method", "module", "crate", "package",
    # the commit types themselves (`refactor(refactor): …`)
    "feat", "fix", "refactor", "refactoring", "chore", "docs", "style", "perf", "build", "ci",
}  # fmt: skip
_HEADER = re.compile(r"^\s*[a-z]+(?:\([^)]*\))?!?:\s*", re.IGNORECASE)
_TESTERS_WORDS = re.compile(
    r"\b(?:(?:a |the )?(?:new |first )?failing tests?|(?:add|write|adds|added|wrote)s? (?:a |the )?"
    r"(?:new )?tests?|tests? for)\b",
    re.IGNORECASE,
)
_CODE_SPAN = re.compile(r"(`[^`]*`)")
_PLACEHOLDER = re.compile(r"\b[A-Z]{3,}(?:_[A-Z]+)+\b|\b(?:WHAT|WHY) [A-Z ]+\b")


def usable_scope(scope: str | None, project: Sequence[str] = ()) -> str | None:
    """The scope as one lowercase word, or None when it is a path, a phrase, a placeholder or
    the name of the whole project (`project`: the crate or package name says nothing)."""
    text = (scope or "").strip().lower()
    # `one-word` is the answer shape's placeholder (agents/edits.py) as `one_word` is the prompt's
    if (
        _SCOPE.fullmatch(text)
        and text.replace("-", "_") not in _NOT_A_SCOPE
        and (text not in project)
    ):
        return text
    return None


def test_summary(test_names: Sequence[str]) -> str | None:
    """The one new test's name as words (`empty_string_sums_to_0` -> "empty string sums to
    0"): what now works, the implementor's summary when the model's says the tester's work."""
    names = {bare(name) for name in test_names}
    if len(names) != 1:
        return None
    words = next(iter(names)).removeprefix("test_").replace("_", " ").strip()
    return words or None


def usable_summary(summary: str | None, role: str) -> str | None:
    """The model's summary without a copied `type(scope):` header, in sentence case when it is
    all capitals (a name in backticks as it is); None when it is empty, a placeholder, or says
    another role's work (an implementor "adding a failing test")."""
    text = _HEADER.sub("", one_line(summary or "")).strip().rstrip(".")
    if not text or _PLACEHOLDER.search(text):
        return None
    if role != "tester" and _TESTERS_WORDS.search(text):
        return None
    prose = _CODE_SPAN.split(text)  # a name in backticks is code: its case is its own
    words = " ".join(prose[::2])
    if len(words.split()) > 1 and words.upper() == words != words.lower():
        # shouted (`CHANGED SAY FUNCTION TO SAY EACH NUMBER…`)
        text = "".join(part if index % 2 else part.lower() for index, part in enumerate(prose))
        return text[0].upper() + text[1:]
    return text


def head_scope(root: Path, workspace: Workspace | None = None) -> str | None:
    """The scope of HEAD's subject (`feat(add): …` -> add), when it is a usable one."""
    message, _diff = workspace_or_git(workspace).last_commit(root)
    subject = message.splitlines()[0].strip() if message else ""
    match = re.match(r"^[a-z]+\(([^)]*)\)", subject)
    return usable_scope(match.group(1)) if match else None


def first_sentence(text: str, limit: int = 100) -> str:
    """The first sentence of a plan, on one line (a fallback summary)."""
    flat = one_line(text)
    match = re.match(r"(.+?[.!?])(?:\s|$)", flat)
    sentence = (match.group(1) if match else flat).rstrip(".")
    return sentence if len(sentence) <= limit else sentence[: limit - 1] + "…"


def bare(name: str) -> str:
    """`tests/adds.rs::empty_is_zero` -> `empty_is_zero`."""
    return name.rsplit("::", 1)[-1]


def intents_by_test_file(test_names: Sequence[str]) -> dict[str, str]:
    """test file -> 'new test: a, b' from qualified test names."""
    by_file: dict[str, list[str]] = {}
    for name in test_names:
        path, _, _ = name.partition("::")
        by_file.setdefault(path, []).append(bare(name))
    return {
        path: f"new test{'s' if len(names) > 1 else ''}: {', '.join(names)}"
        for path, names in by_file.items()
    }


def diff_lines(
    root: Path,
    settings: PolicySettings,
    *,
    test_intent: Mapping[str, str],
    source_intent: str,
    workspace: Workspace | None = None,
) -> list[str]:
    """One line per staged file: `path (+added -removed): intent`."""
    lines = []
    for path, (added, removed) in sorted(workspace_or_git(workspace).numstat_staged(root).items()):
        if matches_any(path, settings.test_paths):
            intent = test_intent.get(path, "test changed as handed over")
        else:
            intent = source_intent
        lines.append(f"{path} (+{added} -{removed}): {intent}")
    return lines


def _compose(
    root: Path,
    settings: PolicySettings,
    *,
    type: str,
    answer: AgentAnswer,
    summary: str,
    role: str,
    cycle: int,
    rationale: list[str],
    diff_summary: list[str],
    verification: list[str],
    fallback_scope: str | None = None,
    added_tests: Sequence[str] = (),
    workspace: Workspace | None = None,
    project: Sequence[str] = (),
) -> str:
    goal = _cycle_goal(root, settings, added_tests, refactor=type == "refactor",
                       workspace=workspace_or_git(workspace))  # fmt: skip
    scope = usable_scope(answer.commit.scope if answer.commit else None, project)
    scope = scope or usable_scope(fallback_scope, project)

    def compose(scope: str | None) -> str:
        return compose_message(
            type=type,
            scope=scope,
            summary=summary,
            role=role,
            step=max(cycle, 1),
            goal=goal,
            rationale=rationale,
            diff_summary=diff_summary,
            verification=verification or ["gate green"],
        )

    try:
        return compose(scope)
    except ValueError:
        # a scope the header cannot carry (too long, parentheses): drop it, keep the rest
        return compose(None)


def feature_message(
    root: Path,
    settings: PolicySettings,
    *,
    cycle: int,
    answer: AgentAnswer,
    handoff_intent: str | None,
    test_names: Sequence[str],
    verification: list[str],
    fallback_scope: str | None = None,
    workspace: Workspace | None = None,
    project: Sequence[str] = (),
) -> str:
    """The implementor's `feat:` message for the staged test plus its code (its test asks for a
    behaviour the code does not have yet: the model's `type` is not asked for, nor taken); a
    scope or summary the model got wrong is derived (the test's item; the tester's intent, else
    the test's name when the intent too says "add a test")."""
    intent = answer.commit
    summary = (
        usable_summary(intent.summary if intent else None, "implementor")
        or first_sentence(usable_summary(handoff_intent, "implementor") or "")
        or test_summary(test_names)
        or first_sentence(handoff_intent or answer.plan)
    )
    rationale = []
    if handoff_intent:
        rationale.append(f"Test: {one_line(handoff_intent)}")
    rationale += list(intent.rationale) if intent and intent.rationale else [answer.plan]
    diff = diff_lines(
        root,
        settings,
        test_intent=intents_by_test_file(test_names),
        source_intent=first_sentence(summary),
        workspace=workspace,
    )
    return _compose(
        root,
        settings,
        type="feat",
        answer=answer,
        summary=summary,
        role="Implementor",
        cycle=cycle,
        rationale=rationale,
        diff_summary=diff,
        verification=verification,
        fallback_scope=fallback_scope,
        added_tests=test_names,
        workspace=workspace,
        project=project,
    )


def _cycle_goal(
    root: Path,
    settings: PolicySettings,
    added_tests: Sequence[str],
    *,
    refactor: bool,
    workspace: Workspace,
) -> str:
    """The requirement this cycle works on (policy/goals.py): the implementor's by the tests it
    commits, the refactorer's as the feature commit (HEAD) quoted it."""
    from tddhooks.drive import gather
    from tddhooks.policy.goals import cycle_goal
    from tddhooks.policy.message import parse_message

    text = kata_text(root, settings)
    globs = (*settings.test_paths, *settings.source_paths)
    listed = [path for path in workspace.listed(root) if matches_any(path, globs)]
    files = {path: workspace.read_blob(root, ":", path) or "" for path in listed}
    tree = gather.test_names(settings, files)
    feature = None
    if refactor:
        head_message = workspace.last_commit(root)[0]
        feature = parse_message(head_message).fields.get("Kata goal") or None
    goal = cycle_goal(text, added_tests, tree, feature)
    return goal or kata_goal(text) or FALLBACK_GOAL


def refactor_message(
    root: Path,
    settings: PolicySettings,
    *,
    cycle: int,
    answer: AgentAnswer,
    verification: list[str],
    workspace: Workspace | None = None,
) -> str:
    """The refactorer's `refactor:` message; without a usable scope, the feature's (HEAD's).
    Without a usable summary, the plan's first sentence, and when that too says another role's
    work (`refactor(validate): Add a new test …` on a change to src/lib.rs alone),
    `REFACTOR_SUMMARY`."""
    intent = answer.commit
    summary = usable_summary(intent.summary if intent else None, "refactorer")
    summary = summary or usable_summary(first_sentence(answer.plan), "refactorer")
    summary = summary or REFACTOR_SUMMARY
    rationale = list(intent.rationale) if intent and intent.rationale else [answer.plan]
    diff = diff_lines(
        root, settings, test_intent={}, source_intent=first_sentence(summary), workspace=workspace
    )
    return _compose(
        root,
        settings,
        type="refactor",
        answer=answer,
        summary=summary,
        role="Refactorer",
        cycle=cycle,
        rationale=rationale,
        diff_summary=diff,
        verification=verification,
        fallback_scope=head_scope(root, workspace),
        workspace=workspace,
    )
