"""The commit rules: a parsed message plus the facts of the diff in, violations out (pure)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import lru_cache
from types import MappingProxyType

from tddhooks.git import Change
from tddhooks.policy.globs import glob_regex as glob_regex  # re-exported for callers
from tddhooks.policy.globs import matches_any
from tddhooks.policy.message import (
    ROLES,
    SECTION_NAMES,
    CommitMessage,
    exempt_kind,
    parse_header,
)
from tddhooks.policy.settings import PolicySettings
from tddhooks.policy.testitems import ITEMS_PREFIX
from tddhooks.records import NamedTuple
from tddhooks.vocabulary import BUILD_FILES, CODE_SUFFIXES, FORMATTERS, LINT_FIXERS, MANIFESTS

_STEP_RE = re.compile(r"^[0-9]+$")
_MAX_LISTED = 8


# NamedTuples, not dataclasses (see proc.ProcResult); copy one with `._replace(...)`; the empty
# mappings a CommitFacts defaults to are read-only (MappingProxyType), since they are shared


NO_TEST_STAGED = "no test file is staged"


class Violation(NamedTuple):
    """One broken rule: its id (config.RULE_NAMES), what is wrong, and the next legal step."""

    rule: str
    message: str
    hint: str


class CommitFacts(NamedTuple):
    """What the rules know about the diff being committed (staged, or a commit vs its parent)."""

    changes: tuple[Change, ...]
    test_names_before: frozenset[str]
    test_names_after: frozenset[str]
    added_lines: Mapping[str, Sequence[str]]
    removed_lines: Mapping[str, Sequence[str]] = MappingProxyType({})
    handoff_blobs: Mapping[str, str] | None = None
    staged_blobs: Mapping[str, str] = MappingProxyType({})
    merge: bool = False  # git is making a merge (MERGE_HEAD at commit time, two parents later)
    target_subject: str | None = None  # fixup!/squash!/amend!: the subject of the commit found
    first_commit: bool = False  # no parent: the repository's first commit
    # a root commit that is not the repository's first (an orphan branch merged in): judged like
    # any commit against the empty tree, without the first commit's or the scaffold's freedom
    joined_root: bool = False
    revert_exact: bool = False  # the diff undoes exactly the commit "This reverts commit" names
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
    # path -> the paths the build makes of it: a symlink's target and the link, a file named by
    # include!/#[path] and the Rust file naming it (policy/build_inputs.py)
    stand_ins: Mapping[str, frozenset[str]] = MappingProxyType({})
    # changed files whose change is formatting only, proved (policy/formatting.py); the hooks
    # fill it for a `style:` message
    formatting_only: frozenset[str] = frozenset()


class MessageHint(NamedTuple):
    """Real values for a message skeleton: the cycle, the goal, the runner's verification."""

    step: int
    goal: str
    verification: tuple[str, ...] = ()


def is_test_path(path: str, settings: PolicySettings) -> bool:
    """Whether `path` (repository-relative, '/'-separated) matches one of the test path globs."""
    return matches_any(path, settings.test_paths)


def _listing(paths: Sequence[str]) -> str:
    shown = list(paths[:_MAX_LISTED])
    more = len(paths) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def split_paths(changes: Sequence[Change], settings: PolicySettings) -> tuple[list[str], list[str]]:
    """The changed paths split into (test paths, other paths), in diff order."""
    tests = [change.path for change in changes if is_test_path(change.path, settings)]
    return tests, [change.path for change in changes if change.path not in tests]


def _built_as(path: str, facts: CommitFacts) -> frozenset[str]:
    """The other paths the build makes of `path` (its symlink, the file including it, …)."""
    return facts.stand_ins.get(path, frozenset())


def changed_test_paths(facts: CommitFacts, cfg: PolicySettings) -> list[str]:
    """The changed paths whose TEST items changed: test files (the test path globs, also when
    only the build makes a test of them), and source files whose test items changed (unit tests
    beside the code, policy/items.py)."""
    return [
        change.path
        for change in facts.changes
        if is_test_path(change.path, cfg)
        or change.path in facts.test_item_paths
        or any(is_test_path(name, cfg) for name in _built_as(change.path, facts))
    ]


def _is_build_file(path: str, cfg: PolicySettings) -> bool:
    return matches_any(path, BUILD_FILES.get(cfg.language, ())) and not is_test_path(path, cfg)


def changed_build_paths(facts: CommitFacts, cfg: PolicySettings) -> list[str]:
    """Changed manifests, lock files, build scripts and toolchain configuration (also what the
    build reads as one: a symlink's target)."""
    return [
        change.path
        for change in facts.changes
        if _is_build_file(change.path, cfg)
        or any(_is_build_file(name, cfg) for name in _built_as(change.path, facts))
    ]


def _is_code_name(path: str, cfg: PolicySettings) -> bool:
    """A source file by its name: the language's code suffix or the runner's source globs, and
    neither a test path nor a build file."""
    return (
        not _is_build_file(path, cfg)
        and not is_test_path(path, cfg)
        and (
            path.endswith(CODE_SUFFIXES.get(cfg.language, ()))
            or matches_any(path, cfg.source_paths)
        )
    )


def changed_code_paths(facts: CommitFacts, cfg: PolicySettings) -> list[str]:
    """The changed paths whose CODE items changed: source files (the runner's source globs or
    the language's code suffixes) that are neither test paths nor build files, and not a
    source file of which only test items changed (a unit test added beside the code); also a
    file the build reads as a source file (a symlink target, an include!)."""
    return [
        change.path
        for change in facts.changes
        if (
            _is_code_name(change.path, cfg)
            and (change.path not in facts.test_item_paths or change.path in facts.code_item_paths)
        )
        or any(_is_code_name(name, cfg) for name in _built_as(change.path, facts))
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
    parts += (
        [f"git restore --staged -p {' '.join(both)}, answering y to those hunks"] if both else []
    )
    return f"unstage it ({' and '.join(parts)})"


def removed_tests(facts: CommitFacts, cfg: PolicySettings) -> list[str]:
    """Test names that disappear, and test files deleted, by this change."""
    names = sorted(facts.test_names_before - facts.test_names_after)
    deleted = [
        change.path
        for change in facts.changes
        if change.status == "D" and is_test_path(change.path, cfg)
    ]
    return names + [path for path in deleted if not any(n.startswith(path) for n in names)]


def creates_project(facts: CommitFacts, cfg: PolicySettings) -> bool:
    """The first commit, or the scaffold: it adds the project's manifest where no test exists yet
    (a project with tests cannot re-scaffold itself to lift the type rules)."""
    manifests = MANIFESTS.get(cfg.language, ())
    if facts.joined_root:
        return False
    return facts.first_commit or (
        not facts.test_names_before
        and any(change.status == "A" and change.path in manifests for change in facts.changes)
    )


class TypeScope(NamedTuple):
    """What a commit type may change (the README's policy table)."""

    tests: bool  # may change test files
    code: bool  # may change source files
    build: bool  # may change manifests, lock files, build and toolchain configuration
    other: bool = True  # may change anything else (docs, CI files, …)
    keep_names: bool = False  # must keep the set of test names (all still green)
    remove_tests: bool = False  # may remove a test


_FEATURE = TypeScope(tests=True, code=True, build=True)
_REFACTOR = TypeScope(tests=False, code=True, build=True, keep_names=True)
_HOUSEKEEPING = TypeScope(tests=False, code=False, build=False, keep_names=True)
TYPE_SCOPES: dict[str, TypeScope] = {
    "feat": _FEATURE,
    "fix": _FEATURE,
    "test": TypeScope(tests=True, code=False, build=False, other=False, remove_tests=True),
    "refactor": _REFACTOR,
    "style": _REFACTOR,
    "perf": _REFACTOR,
    "build": TypeScope(tests=False, code=False, build=True, keep_names=True),
    "docs": _HOUSEKEEPING,
    "chore": _HOUSEKEEPING,
    "ci": _HOUSEKEEPING,
}
# a type the table does not know (a custom one in policy.types) gets the strictest scope
STRICTEST = _HOUSEKEEPING
_FIXUP_KINDS = ("fixup", "squash", "amend")


def effective_type(msg: CommitMessage, facts: CommitFacts) -> str | None:
    """The type whose rules judge the change: the header's; for `fixup!`/`squash!`/`amend!` the
    type of the commit it fixes (its subject, as written or as found in the history); "revert"
    for git's `Revert "…"`. None when there is none (the prefixed rule reports that)."""
    if msg.exempt in _FIXUP_KINDS:
        for subject in (msg.target, facts.target_subject):
            if subject is None:
                continue
            header = parse_header(subject)
            if header is not None:
                return header.type
            if exempt_kind(subject) == "revert":
                return "revert"
        return None
    if msg.exempt == "revert":
        return "revert"
    return msg.header.type if msg.header is not None else None


def _git_shaped(msg: CommitMessage, facts: CommitFacts, cfg: PolicySettings) -> bool:
    """A revert or fixup/squash/amend message that may skip the message-shape rules."""
    if not cfg.exempt_git_messages or msg.exempt not in ("revert", *_FIXUP_KINDS):
        return False
    return msg.exempt == "revert" or effective_type(msg, facts) is not None


Found = Iterator[tuple[str, str]]  # (what is wrong, next legal step) for one rule


def _prefixed(msg: CommitMessage, facts: CommitFacts, cfg: PolicySettings) -> Found:
    if msg.subject_lines > 1 and not _is_section_line(msg.text.split("\n", 1)[0]):
        yield (
            f'git stores the first {msg.subject_lines} lines as one subject: "{msg.subject}"',
            "leave line 2 empty: the subject is one line, then a blank line, then the body",
        )
        return
    if "\r" in msg.subject:
        yield (
            "the message uses carriage returns (CR) as line ends; git keeps them in the subject",
            "save the message with LF (or CRLF) line ends",
        )
        return
    if _git_shaped(msg, facts, cfg):
        return
    header = msg.header
    if header is not None and (not cfg.types or header.type in cfg.types):
        return
    if msg.exempt in _FIXUP_KINDS and cfg.exempt_git_messages:
        yield (
            f'"{msg.subject}" names no commit of this branch whose type is known',
            "let git write it: git commit --fixup=<commit> (or squash!/amend! followed by the "
            "exact subject of the commit it fixes)",
        )
        return
    # a pre-filled template left without a subject starts with its Context: line
    subject = "" if _is_section_line(msg.text.split("\n", 1)[0]) else msg.subject.strip()
    if not subject:
        problem = "the subject line is empty"
    elif header is not None:
        problem = f"type '{header.type}' is not one of the allowed types"
    elif msg.exempt == "merge" and cfg.exempt_git_messages:
        problem = (
            f'subject "{msg.subject}" looks like git\'s merge message, but no merge is being '
            "made; only a real merge is exempt"
        )
    else:
        problem = (
            f'subject "{msg.subject}" is not a Conventional Commits header '
            "(type(scope)!: summary, lowercase type, ': ' then a summary)"
        )
    from tddhooks.policy.compose import example_header, suggest_type  # only to explain

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


def _explained_role(msg: CommitMessage, facts: CommitFacts, cfg: PolicySettings) -> str:
    from tddhooks.policy.compose import infer_role  # only to explain a rejection

    return _canonical_role(msg.fields.get("Role", "")) or infer_role(
        facts.changes, cfg, facts, head_red=bool(facts.base_failing)
    )


def _sections(msg: CommitMessage, facts: CommitFacts, cfg: PolicySettings) -> Found:
    header = msg.header
    if header is None or header.type not in cfg.require_sections or _git_shaped(msg, facts, cfg):
        return
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
        from tddhooks.policy.compose import section_skeleton  # only to explain

        role = _explained_role(msg, facts, cfg)
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
    for key, (valid, requirement) in _CONTEXT_RULES.items():
        if key == "Kata goal" and not facts.has_kata:
            continue  # no kata description: the goal is free text, or left out
        value = msg.fields.get(key)
        if value is None or not valid(value):
            examples = {"Role": "", "Step": known_step, "Kata goal": known_goal}
            examples["Role"] = _explained_role(msg, facts, cfg)
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


def _type_for(tests: Sequence[str], code: Sequence[str], build: Sequence[str]) -> str:
    """The type whose scope fits a change with these paths (named in every rejection)."""
    if tests:
        return "feat" if code or build else "test"
    return "refactor" if code else "build" if build else "docs or chore"


def _type_rules(msg: CommitMessage, facts: CommitFacts, cfg: PolicySettings) -> Found:
    kind = effective_type(msg, facts)
    if kind is None or (cfg.types and kind not in cfg.types and msg.exempt is None):
        return  # no type, or one the prefixed rule already refuses
    if kind == "revert":
        yield from _revert_rule(msg, facts)
        return
    scope = TYPE_SCOPES.get(kind, STRICTEST)
    if creates_project(facts, cfg):
        scope = _FEATURE  # the scaffold: nothing existed that a type could keep or remove
    tests = changed_test_paths(facts, cfg)
    code = changed_code_paths(facts, cfg)
    build = changed_build_paths(facts, cfg)
    if kind == "style":  # formatting may touch any file: tests, code, build files alike
        reformatted = facts.formatting_only
        tests, code, build = (
            [path for path in paths if path not in reformatted] for paths in (tests, code, build)
        )
    fits = _type_for(tests, code, build)
    names_changed = facts.test_names_after != facts.test_names_before
    removed = removed_tests(facts, cfg)
    globs = ", ".join(cfg.test_paths) or "none configured"
    changed = [change.path for change in facts.changes]
    if tests and not scope.tests:
        rest = [path for path in changed if path not in tests or path in code]
        formatter = FORMATTERS.get(cfg.language, "the formatter")
        fixer = LINT_FIXERS.get(cfg.language)
        fixes = f" (or `{fixer}` fixes them)" if fixer else ""
        more = (
            f" (a style: commit may change them only as `{formatter}` formats them{fixes}; "
            "this change is more than that)"
            if kind == "style"
            else ""
        )
        yield (
            f"{kind}: commits may not change {_listing(tests)}{more}",
            "commit the test change as test: or feat:, or " + leave_out_hint(tests, rest, facts),
        )
    elif scope.keep_names and names_changed:
        yield (
            f"{kind}: commits must keep the set of test names; {_name_delta(facts)}",
            f"keep the tests as they are in a {kind}: commit; commit test changes as test: "
            "or feat:",
        )
    elif removed and not scope.remove_tests:
        yield (
            f"{kind}: commits may not remove a test; this one removes {_listing(removed)}",
            "remove tests in a test: commit of their own, then commit the rest",
        )
    if not scope.other:
        # a file holding a unit test and changed code is not a test file for this
        others = [path for path in changed if path not in tests or path in code]
        if others:
            yield (
                f"{kind}: commits may change only test files (test paths: {globs}); "
                f"{_listing(others)} {'is' if len(others) == 1 else 'are'} not",
                "commit the code with its test as feat: or fix:, or "
                + leave_out_hint(others, tests, facts),
            )
        return
    if code and not scope.code:
        yield (
            f"{kind}: commits may not change source files: {_listing(code)}",
            f"commit it as {fits}: (new behaviour with its test as feat: or fix:), or "
            + leave_out_hint(code, [p for p in changed if p not in code or p in tests], facts),
        )
    if build and not scope.build:
        yield (
            f"{kind}: commits may not change the manifest or build files: {_listing(build)}",
            f"commit it as {fits}:, or "
            + leave_out_hint(build, [p for p in changed if p not in build], facts),
        )
    # a fix for tests that are committed already and fail in the parent needs no test of its own
    fixes_red = kind == "fix" and bool(facts.base_failing)
    if kind in cfg.require_test_with and not tests and not names_changed and not fixes_red:
        hint = (
            "stage the test that demands this change with the code (git add <test file>); "
            f"if behaviour does not change, use {fits}:"
        )
        if facts.base_failing and "fix" in cfg.require_test_with:
            hint = (
                f"the parent's committed tests fail ({_listing(sorted(facts.base_failing))}): "
                "a change that makes them pass, with no test of its own, is fix:"
            )
        yield (
            f"{kind}: commits must add or change a test, and {NO_TEST_STAGED} "
            f"(test paths: {globs})",
            hint,
        )


def _revert_rule(msg: CommitMessage, facts: CommitFacts) -> Found:
    if facts.revert_exact:
        return
    named = f"commit {msg.reverts[:12]}" if msg.reverts else "no commit"
    yield (
        f'a revert must undo exactly the commit it names ("This reverts commit <id>." in the '
        f"body); this one names {named} and its changes are not that commit's inverse",
        "let git write it: git revert <commit>; to change more, commit the rest on its own "
        "under its own type",
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
        if blob.startswith(ITEMS_PREFIX):  # tests beside code: only the test items count
            yield (
                f"the test items of {path} (its test module or test functions) differ from "
                "the ones handed over: the code beside them may change, they may not",
                f"put the test items of {path} back as handed over (`git diff HEAD -- {path}` "
                "shows them); if the test must really change, delete "
                ".git/tddhooks/handoff.json first",
            )
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


_MERGE_EXEMPT = ("prefixed", "sections", "type-rules", "handoff")
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
    """Every violation of the enabled rules. A merge git is making skips all but no-skip; a
    revert or fixup/squash/amend skips only the message-shape rules (prefixed, sections)."""
    return [
        Violation(rule, problem, hint)
        for rule, check in RULES
        if settings.enabled(rule) and not (facts.merge and rule in _MERGE_EXEMPT)
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
