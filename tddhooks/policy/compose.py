"""Write commit messages in the DESIGN §3 format, the prepare-commit-msg template, and the texts
the rules' hints show (pure)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from tddhooks.git import Change

# the kata's Markdown is read in kata/markdown.py; its names stay importable from here for drive/
# and agents/
from tddhooks.kata.markdown import GOAL_MAX as GOAL_MAX
from tddhooks.kata.markdown import kata_goal as kata_goal
from tddhooks.kata.markdown import kata_requirements as kata_requirements
from tddhooks.kata.markdown import kata_without_requirements as kata_without_requirements
from tddhooks.kata.markdown import one_line as one_line
from tddhooks.kata.markdown import shorten
from tddhooks.policy.message import HEADER_RE, ROLES
from tddhooks.policy.settings import PolicySettings

TYPE_CHECKING = False  # not typing's: the hook path does not import typing (tddhooks/records.py)
if TYPE_CHECKING:
    from tddhooks.policy.rules import CommitFacts

SUBJECT_MAX = 72
_TYPE_RE = re.compile(r"^[a-z]+$")
_ROLE_RATIONALE = {
    # a tester's commit is `test:`, and the gate keeps it green: its tests pass when committed
    "Tester": "pin down behaviour the code already has with a passing test",
    "Implementor": "the simplest code that makes the new test pass",
    "Refactorer": "improve the structure; behaviour and test names stay the same",
}
_SUMMARY_PLACEHOLDER = {
    "feat": "<what the new test demands>",
    "fix": "<the bug the new test pins down>",
    "test": "<the behaviour the test pins down>",
    "refactor": "<the structural improvement>",
}


def make_header(type: str, scope: str | None, summary: str) -> str:
    """`type(scope): summary` on one line, the summary shortened so the header fits 72 chars."""
    if not _TYPE_RE.match(type):
        raise ValueError(f"commit type must be a lowercase word, got {type!r}")
    scope = one_line(scope or "")
    if any(char in scope for char in "()"):
        raise ValueError(f"scope may not contain parentheses: {scope!r}")
    prefix = f"{type}({scope}): " if scope else f"{type}: "
    summary = one_line(summary)
    if not summary:
        raise ValueError("the commit summary is empty")
    if SUBJECT_MAX - len(prefix) < 12:
        raise ValueError(f"scope {scope!r} is too long for a {SUBJECT_MAX}-character header")
    return prefix + shorten(summary, SUBJECT_MAX - len(prefix))


def _bullets(items: Sequence[str]) -> list[str]:
    cleaned = (one_line(item).removeprefix("- ").strip() for item in items)
    return [f"- {item}" for item in cleaned if item]


def _canonical_role(role: str) -> str | None:
    return next((name for name in ROLES if name.lower() == role.strip().lower()), None)


def compose_message(
    *,
    type: str,
    scope: str | None,
    summary: str,
    role: str,
    step: int,
    goal: str,
    rationale: list[str],
    diff_summary: list[str],
    verification: list[str],
) -> str:
    """A complete TDD commit message in the DESIGN §3 format; ValueError on missing content."""
    header = make_header(type, scope, summary)
    canonical = _canonical_role(role)
    if canonical is None:
        raise ValueError(f"role must be one of {', '.join(ROLES)}, got {role!r}")
    if isinstance(step, bool) or not isinstance(step, int) or step < 1:
        raise ValueError(f"step must be a positive integer, got {step!r}")
    if not one_line(goal):
        raise ValueError("the kata goal is empty")
    sections = {
        "Rationale": _bullets(rationale),
        "Diff summary": _bullets(diff_summary),
        "Verification": _bullets(verification),
    }
    for name, lines in sections.items():
        if not lines:
            raise ValueError(f"the {name} section needs at least one non-empty bullet")
    context = [f"- Role: {canonical}", f"- Step: {step}", f"- Kata goal: {one_line(goal)}"]
    blocks = [header, "\n".join(["Context:", *context])]
    blocks += ["\n".join([f"{name}:", *lines]) for name, lines in sections.items()]
    return "\n\n".join(blocks) + "\n"


def prefill_template(
    *,
    role: str,
    step: int,
    goal: str,
    verification: list[str],
    diff_summary: list[str],
    handoff_intent: str | None,
    suggested_type: str,
    comment_char: str = "#",
) -> str:
    """The prepare-commit-msg text: an empty subject line to type on, help as comment lines, and
    the sections filled with what is known, so a valid header is all a person must add."""
    role = _canonical_role(role) or role
    intent = one_line(handoff_intent or "")
    placeholder = _summary_placeholder(suggested_type)
    suggestion = f"{suggested_type}(<scope>): " + (shorten(intent, 50) if intent else placeholder)
    c = comment_char
    help_lines = [
        f"{c} Write the subject on the first line: type(scope): summary, {SUBJECT_MAX} chars max.",
        f"{c} suggested: {suggestion}",
        f"{c} feat/fix: add or change a test; refactor: no test changes, same test names;",
        f"{c} test: test files only. Keep the sections below (edit their bullets freely).",
        f"{c} Lines starting with '{c}' are dropped; a message without a subject is rejected.",
    ]
    rationale = ([intent] if intent else []) + [_ROLE_RATIONALE.get(role, "<why this change now>")]
    sections = {
        # no kata description, no goal: an empty `Kata goal:` would be rejected by the hook
        "Context": [f"- Role: {role}", f"- Step: {step}"]
        + ([f"- Kata goal: {one_line(goal)}"] if one_line(goal) else []),
        "Rationale": _bullets(rationale),
        "Diff summary": _bullets(diff_summary) or ["- (nothing staged)"],
        "Verification": _bullets(verification)
        or ["- (no verdict recorded; `tddhooks status` shows the staged tree)"],
    }
    blocks = ["\n".join(help_lines)]
    blocks += ["\n".join([f"{name}:", *lines]) for name, lines in sections.items()]
    return "\n\n" + "\n\n".join(blocks) + "\n"


def section_skeleton(names: Sequence[str], *, role: str, step: str, goal: str,
                     paths: Sequence[str], verification: Sequence[str] = ()) -> str:  # fmt: skip
    """The text of the named sections, with the values known (cycle, goal, the runner's real
    verification line) and placeholders for what only the person knows (for hints); a goal of
    '' (no kata description) leaves the `Kata goal:` bullet out."""
    context = [f"Role: {role}", f"Step: {step}"] + ([f"Kata goal: {goal}"] if goal else [])
    blocks = {
        "Context": context,
        "Rationale": ["<why this change now>"],
        "Diff summary": [f"{path}: <intent>" for path in paths] or ["<file>: <intent>"],
        "Verification": list(verification)
        or ["<the green gate's summary: `tddhooks status` shows it>"],
    }
    return "\n\n".join(
        "\n".join([f"{name}:", *(f"- {line}" for line in blocks[name])]) for name in names
    )


def _split(
    changes: Sequence[Change], settings: PolicySettings, facts: CommitFacts | None
) -> tuple[list[str], list[str]]:
    """(test paths, code paths): item-aware with the diff's facts (unit tests beside code)."""
    # rules imports this module for its hints
    from tddhooks.policy.rules import changed_code_paths, changed_test_paths, split_paths

    if facts is None:
        return split_paths(changes, settings)
    return changed_test_paths(facts, settings), changed_code_paths(facts, settings)


def infer_role(
    changes: Sequence[Change],
    settings: PolicySettings,
    facts: CommitFacts | None = None,
    *,
    head_red: bool = False,
) -> str:
    """The committer's role under the phase model (policy/phase.py committer_role): Tester for
    tests alone, Implementor for tests with code or for code repairing a red HEAD, else
    Refactorer."""
    from tddhooks.policy.phase import committer_role

    tests, others = _split(changes, settings, facts)
    return committer_role(tests_staged=bool(tests), code_staged=bool(others), head_red=head_red)


def suggest_type(
    changes: Sequence[Change], settings: PolicySettings, facts: CommitFacts | None = None
) -> str:
    """The commit type a diff most likely is: feat for tests with code, test, refactor, chore."""
    tests, others = _split(changes, settings, facts)
    wanted = "feat" if tests and others else "test" if tests else "refactor" if others else "chore"
    return wanted if not settings.types or wanted in settings.types else settings.types[0]


def example_header(subject: str, suggested_type: str, types: Sequence[str]) -> str:
    """A valid header close to what the person wrote, for the 'prefixed' hint."""
    if not subject.strip():  # the shape the editor template suggests
        return f"{suggested_type}(<scope>): {_summary_placeholder(suggested_type)}"
    loose = re.match(r"^\s*([^\W\d_]+)\s*(?:\(([^()]*)\))?\s*(!)?\s*:\s*(.*?)\s*$", subject)
    if loose is None:
        return f"{suggested_type}: {subject.strip()}"
    kind = loose[1].lower()
    kind = (
        kind if (not types or kind in types) and HEADER_RE.match(f"{kind}: x") else suggested_type
    )
    scope = one_line(loose[2] or "")
    summary = loose[4] or _summary_placeholder(kind)
    return f"{kind}{f'({scope})' if scope else ''}{loose[3] or ''}: {summary}"


def _summary_placeholder(commit_type: str) -> str:
    return _SUMMARY_PLACEHOLDER.get(commit_type, "<what changed>")


_SECTION_LINE_RE = re.compile(r"^(Context|Rationale|Diff summary|Verification):\s*$")
_CONTEXT_KEYS = ("role:", "step:", "kata goal:")


def refresh_message(
    text: str,
    *,
    role: str,
    step: int,
    goal: str,
    verification: list[str],
    diff_summary: list[str],
    comment_char: str = "#",
    rationale: str | None = None,
) -> str:
    """A kept message brought up to date with what is staged now: Role, Step and Kata goal
    rewritten, the Diff summary listing the staged paths (a bullet the person wrote for a path
    that is still staged is kept), the Verification replaced when a verdict is known; the
    subject, the body above the sections and the Rationale stay as written (`rationale` is the
    one written when the message has none)."""
    head: list[str] = []
    sections: dict[str, list[str]] = {}
    current: list[str] = head
    for line in text.replace("\r\n", "\n").split("\n"):
        if line.startswith(comment_char):
            continue
        match = _SECTION_LINE_RE.match(line.strip())
        if match:
            current = sections.setdefault(match[1], [])
            continue
        if current is head:
            head.append(line.rstrip())
        elif line.strip():
            current.append(line.strip())
    context = [f"- Role: {_canonical_role(role) or role}", f"- Step: {step}"]
    context += [f"- Kata goal: {one_line(goal)}"] if one_line(goal) else []
    context += [
        line
        for line in sections.get("Context", [])
        if not line.removeprefix("- ").strip().lower().startswith(_CONTEXT_KEYS)
    ]
    written = {
        line.removeprefix("- ").split(":", 1)[0].strip(): line
        for line in sections.get("Diff summary", [])
    }
    fresh = _bullets(diff_summary)
    diff = [written.get(line[2:].split(":", 1)[0].strip(), line) for line in fresh]
    blocks = {
        "Context": context,
        "Rationale": sections.get("Rationale")
        or _bullets([rationale or _ROLE_RATIONALE.get(role, "")]),
        "Diff summary": diff or ["- (nothing staged)"],
        "Verification": _bullets(verification) or sections.get("Verification", []),
    }
    body = "\n".join(head).strip("\n")
    parts = [body] + ["\n".join([f"{name}:", *lines]) for name, lines in blocks.items() if lines]
    return "\n\n".join(parts) + "\n"
