"""The commit rules: a parsed message plus the facts of the diff in, violations out (pure)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from tddhooks.git import Change
from tddhooks.policy.compose import example_header, infer_role, section_skeleton, suggest_type
from tddhooks.policy.message import ROLES, SECTION_NAMES, CommitMessage
from tddhooks.policy.settings import PolicySettings

_STEP_RE = re.compile(r"^[0-9]+$")
_MAX_LISTED = 8


@dataclass(frozen=True)
class Violation:
    """One broken rule: its id (config.RULE_NAMES), what is wrong, and the next legal step."""

    rule: str
    message: str
    hint: str


@dataclass(frozen=True)
class CommitFacts:
    """What the rules know about the diff being committed (staged, or a commit vs its parent)."""

    changes: tuple[Change, ...]
    test_names_before: frozenset[str]
    test_names_after: frozenset[str]
    added_lines: Mapping[str, Sequence[str]]
    removed_lines: Mapping[str, Sequence[str]] = field(default_factory=dict)
    handoff_blobs: Mapping[str, str] | None = None
    staged_blobs: Mapping[str, str] = field(default_factory=dict)
    # source files outside the test globs whose test items / code items changed (policy/items.py)
    test_item_paths: frozenset[str] = frozenset()
    code_item_paths: frozenset[str] = frozenset()
    # whether the judged tree has the kata description (without one, `Kata goal:` is free text)
    has_kata: bool = True
    # tests that fail in the parent's tree (a red start, a test committed red): a `fix:` that
    # makes them pass needs no test of its own; the hooks fill it only once the tree is green
    base_failing: frozenset[str] = frozenset()
    # `git commit -a`: unstaging is undone by -a itself, so hints name other commands
    commit_all: bool = False
    # what the hints' skeletons say instead of placeholders (the commit-msg hook fills them)
    hint: MessageHint | None = None


@dataclass(frozen=True)
class MessageHint:
    """Real values for a message skeleton: the cycle, the goal, the runner's verification."""

    step: int
    goal: str
    verification: tuple[str, ...] = ()


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
    """Compile a gitignore-style glob: `**` spans any number of directories (also none), and a
    pattern without '/' matches the basename at any depth."""
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
    return re.compile(regex + r"\Z", re.DOTALL)


def is_test_path(path: str, settings: PolicySettings) -> bool:
    """Whether `path` (repository-relative, '/'-separated) matches one of the test path globs."""
    path = path.removeprefix("./")
    return any(glob_regex(glob).match(path) for glob in settings.test_paths)


def _listing(paths: Sequence[str]) -> str:
    shown = list(paths[:_MAX_LISTED])
    more = len(paths) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def split_paths(changes: Sequence[Change], settings: PolicySettings) -> tuple[list[str], list[str]]:
    """The changed paths split into (test paths, other paths), in diff order."""
    tests = [change.path for change in changes if is_test_path(change.path, settings)]
    return tests, [change.path for change in changes if change.path not in tests]


def changed_test_paths(facts: CommitFacts, cfg: PolicySettings) -> list[str]:
    """Changed paths that are tests: test files, and source files whose test items changed."""
    return [
        change.path
        for change in facts.changes
        if is_test_path(change.path, cfg) or change.path in facts.test_item_paths
    ]


def changed_code_paths(facts: CommitFacts, cfg: PolicySettings) -> list[str]:
    """Changed paths that are not tests: every other path, except a source file of which only
    test items changed (a unit test added beside the code)."""
    return [
        change.path
        for change in facts.changes
        if not is_test_path(change.path, cfg)
        and (change.path not in facts.test_item_paths or change.path in facts.code_item_paths)
    ]


def leave_out_hint(drop: Sequence[str], keep: Sequence[str], facts: CommitFacts) -> str:
    """A command that, run as printed, leaves `drop` out of the commit: unstage whole files;
    for a file holding both kept and dropped items, unstage hunk by hunk; after `git commit
    -a` (which would stage everything again) commit only the paths to keep."""
    shown = list(drop[:_MAX_LISTED])
    if facts.commit_all:
        whole = [path for path in keep if path not in drop]
        if whole and len(whole) == len(keep):
            return (
                f"commit only the rest, without -a: git commit {' '.join(whole[:_MAX_LISTED])} "
                "(the left-out changes stay in your work tree)"
            )
        return (
            "stage by hand instead of -a: git add -p, then git commit without -a "
            f"(answer n for the changes in {' '.join(shown)})"
        )
    both = [path for path in shown if path in keep]
    whole = [path for path in shown if path not in keep]
    parts = [f"git restore --staged {' '.join(whole)}"] if whole else []
    parts += [f"git restore --staged -p {' '.join(both)} (answer y to those hunks)"] if both else []
    return "unstage it: " + " and ".join(parts)


Found = Iterator[tuple[str, str]]  # (what is wrong, next legal step) for one rule


def _prefixed(msg: CommitMessage, facts: CommitFacts, cfg: PolicySettings) -> Found:
    header = msg.header
    if header is not None and (not cfg.types or header.type in cfg.types):
        return
    # a pre-filled template left without a subject starts with its Context: line
    subject = "" if _is_section_line(msg.subject) else msg.subject.strip()
    if not subject:
        problem = "the subject line is empty"
    elif header is not None:
        problem = f"type '{header.type}' is not one of the allowed types"
    else:
        problem = (
            f'subject "{msg.subject}" is not a Conventional Commits header '
            "(type(scope)!: summary, lowercase type, ': ' then a summary)"
        )
    example = example_header(subject, suggest_type(facts.changes, cfg, facts), cfg.types)
    allowed = ", ".join(cfg.types) or "any lowercase word"
    yield problem, f'start the subject with an allowed type ({allowed}); e.g. "{example}"'


def _is_section_line(line: str) -> bool:
    return line.strip().rstrip(":").strip().lower() in {name.lower() for name in SECTION_NAMES}


def _canonical_role(value: str) -> str | None:
    return next((role for role in ROLES if role.lower() == value.strip().lower()), None)


def _valid_step(value: str) -> bool:
    return bool(_STEP_RE.match(value.strip())) and int(value) > 0


_CONTEXT_RULES: dict[str, tuple[Callable[[str], bool], str]] = {
    "Role": (lambda value: _canonical_role(value) is not None, f"one of {', '.join(ROLES)}"),
    "Step": (_valid_step, "the cycle number, a positive integer (`tddhooks status` shows it)"),
    "Kata goal": (bool, "one sentence from the kata"),
}
# a skeleton bullet pasted unchanged: `<why this change now>`, `src/lib.rs: <intent>`
_PLACEHOLDER_RE = re.compile(r"^(?:[^<>]*:\s*)?<[^<>]+>$")


def _sections(msg: CommitMessage, facts: CommitFacts, cfg: PolicySettings) -> Found:
    header = msg.header
    if header is None or header.type not in cfg.require_sections:
        return
    role = _canonical_role(msg.fields.get("Role", "")) or infer_role(facts.changes, cfg, facts)
    missing = [name for name in SECTION_NAMES if not msg.sections.get(name)]
    step = msg.fields.get("Step", "")
    hint = facts.hint
    known_step = str(hint.step) if hint else "<cycle number: `tddhooks status` shows it>"
    known_goal = (hint.goal if hint else "") or (
        "<one sentence from the kata>" if facts.has_kata else ""
    )
    if missing:
        absent = [name for name in missing if name not in msg.sections]
        empty = [name for name in missing if name in msg.sections]
        what = "; ".join(
            ([f"missing {', '.join(absent)}"] if absent else [])
            + ([f"no '- ' bullet under {', '.join(empty)}"] if empty else [])
        )
        yield (
            f"{header.type}: commits need the sections {', '.join(SECTION_NAMES)}: {what}",
            "add after a blank line below the subject (each point a '- ' bullet):\n"
            + section_skeleton(
                missing,
                role=role,
                step=step if _valid_step(step) else known_step,
                goal=msg.fields.get("Kata goal") or known_goal,
                paths=[change.path for change in facts.changes][:_MAX_LISTED],
                verification=list(hint.verification) if hint else [],
            ),
        )
    pasted = [
        f"{name}: {bullet}"
        for name in SECTION_NAMES
        for bullet in msg.sections.get(name, [])
        if _PLACEHOLDER_RE.match(bullet.strip())
    ]
    if pasted:
        yield (
            f"placeholder left in the message: {_listing(pasted)}",
            "replace each <…> with what this commit really does (why, and per file its intent)",
        )
    if "Context" in missing:
        return
    examples = {"Role": role, "Step": known_step, "Kata goal": known_goal}
    for key, (valid, requirement) in _CONTEXT_RULES.items():
        if key == "Kata goal" and not facts.has_kata:
            continue  # no kata description: the goal is free text, or left out
        value = msg.fields.get(key)
        if value is None or not valid(value):
            problem = f"{key} must be {requirement}, got '{value}'"
            if value is None:
                problem = f"the Context section has no '{key}:' bullet ({requirement})"
            yield problem, f'write "- {key}: {examples[key]}" under Context:'


def _name_delta(facts: CommitFacts) -> str:
    added = sorted(facts.test_names_after - facts.test_names_before)
    removed = sorted(facts.test_names_before - facts.test_names_after)
    parts = [f"added {_listing(added)}"] if added else []
    parts += [f"removed {_listing(removed)}"] if removed else []
    return "; ".join(parts)


def _type_rules(msg: CommitMessage, facts: CommitFacts, cfg: PolicySettings) -> Found:
    if msg.header is None:
        return
    kind = msg.header.type
    tests, others = changed_test_paths(facts, cfg), changed_code_paths(facts, cfg)
    names_changed = facts.test_names_after != facts.test_names_before
    globs = ", ".join(cfg.test_paths) or "none configured"
    if kind == "refactor" and tests:
        yield (
            f"refactor: commits may not change {_listing(tests)}",
            "commit the test change as test: or feat:, or " + leave_out_hint(tests, others, facts),
        )
    elif kind == "refactor" and names_changed:
        yield (
            f"refactor: commits must keep the set of test names; {_name_delta(facts)}",
            "keep the tests as they are in a refactor; commit test changes as test: or feat:",
        )
    elif kind == "fix" and not tests and not names_changed and facts.base_failing:
        return  # the tests that demand this fix are committed already and fail on the parent
    elif kind in cfg.require_test_with and not tests and not names_changed:
        yield (
            f"{kind}: commits must add or change a test, and no test file is staged "
            f"(test paths: {globs})",
            "stage the test that demands this change with the code (git add <test file>); "
            "if behaviour does not change, use refactor: or chore:",
        )
    elif kind == "test" and others:
        yield (
            f"test: commits may change only test files (test paths: {globs}); "
            f"{_listing(others)} {'is' if len(others) == 1 else 'are'} not",
            "commit the code with its test as feat: or fix:, or "
            + leave_out_hint(others, tests, facts),
        )


@lru_cache(maxsize=64)
def _marker_regex(marker: str) -> re.Pattern[str]:
    try:
        return re.compile(marker)
    except re.error:
        # a marker that is not a valid regex is still useful as literal text
        return re.compile(re.escape(marker))


def _marker_lines(lines: Sequence[str], markers: Sequence[str]) -> list[str]:
    return [line for line in lines if any(_marker_regex(m).search(line) for m in markers)]


def _no_skip(msg: CommitMessage, facts: CommitFacts, cfg: PolicySettings) -> Found:
    for path, lines in facts.added_lines.items():
        added = _marker_lines(lines, cfg.skip_markers)
        removed = _marker_lines(facts.removed_lines.get(path, ()), cfg.skip_markers)
        # moving a marked test within a file removes as many markers as it adds: not new skipping
        if len(added) > len(removed):
            line = added[0].strip()
            yield (
                f"{path} adds a skip marker: {line}",
                f"remove `{line}` from {path}; a test that cannot pass yet stays staged and "
                "uncommitted until the code makes it pass",
            )


def _handoff(msg: CommitMessage, facts: CommitFacts, cfg: PolicySettings) -> Found:
    if facts.handoff_blobs is None:
        return
    for path, blob in sorted(facts.handoff_blobs.items()):
        staged = facts.staged_blobs.get(path)
        if staged == blob:
            continue
        problem = (
            f"the handed-over test {path} is not in this commit"
            if staged is None
            else f"{path} differs from the test that was handed over "
            f"(handed over {blob[:12]}, staged {staged[:12]})"
        )
        yield (
            problem,
            "stage the test exactly as handed over (your copy in the work tree stays as it is): "
            f"git update-index --add --cacheinfo 100644,{blob},{path}; if the test must really "
            "change, delete .git/tddhooks/handoff.json first",
        )


Rule = Callable[[CommitMessage, CommitFacts, PolicySettings], Found]
RULES: tuple[tuple[str, Rule], ...] = (
    ("prefixed", _prefixed),
    ("sections", _sections),
    ("type-rules", _type_rules),
    ("no-skip", _no_skip),
    ("handoff", _handoff),
)


def check_message(
    message: CommitMessage, facts: CommitFacts, settings: PolicySettings
) -> list[Violation]:
    """Every violation of the enabled message rules; git's own messages pass when exempt."""
    if message.exempt is not None and settings.exempt_git_messages:
        return []
    return [
        Violation(rule, problem, hint)
        for rule, check in RULES
        if settings.enabled(rule)
        for problem, hint in check(message, facts, settings)
    ]


def format_rejection(violations: Sequence[Violation]) -> str:
    """A readable rejection: a header line, then per problem its rule, what, and the next step."""
    if not violations:
        return ""
    count = len(violations)
    lines = [f"tddhooks: commit rejected ({count} problem{'s' if count != 1 else ''})"]
    for violation in violations:
        first, *rest = violation.hint.split("\n")
        lines += [f"[{violation.rule}] {violation.message}", f"  → {first}"]
        lines += [f"      {line}" if line else "" for line in rest]
    return "\n".join(lines) + "\n"
