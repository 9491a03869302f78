"""The one phase model of the TDD cycle, read from git (docs/agents.md): `decide_phase` is pure,
the rest reads. Hooks, `status`, the agent hooks and the drive all ask it.

The drive keeps no state between runs; every turn asks `current_phase`. Our only files are
`.git/tddhooks/done.json` (the tester reported the kata complete) and `refactor-turn.json` (the
refactorer had its turn), each void as soon as HEAD moves past the commit it was written for.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from tddhooks.headstate import read_record, write_record
from tddhooks.policy.message import parse_header
from tddhooks.vocabulary import FEATURE_TYPES

if TYPE_CHECKING:
    from tddhooks.policy.rules import CommitFacts
    from tddhooks.policy.settings import PolicySettings
    from tddhooks.policy.verdicts import Verdict

DONE_FILE = "done.json"
REFACTOR_MARK = "refactor-turn.json"
SCRATCH_DIR = ".tdd/"


class StagedJudge(Protocol):
    """What judges the staged tree when staged tests decide the phase (the drive's Gate is one)."""

    def staged(self, root: Path, settings: PolicySettings) -> Verdict: ...


class Phase(StrEnum):
    UNINITIALIZED = "uninitialized"
    DIRTY = "dirty"
    RED = "red"
    OVERSHOOT = "overshoot"
    MIXED = "mixed"
    GREEN_FEATURE = "green-feature"
    GREEN = "green"
    DONE = "done"


@dataclass(frozen=True)
class RepoFacts:
    """Everything `decide_phase` needs, read from git; no decisions are taken here."""

    is_repo: bool
    has_commit: bool
    has_scaffold: bool
    dirty_paths: tuple[str, ...] = ()
    staged_test_paths: tuple[str, ...] = ()
    staged_other_paths: tuple[str, ...] = ()
    staged_green: bool | None = None
    head_type: str | None = None
    done_reason: str | None = None
    refactor_taken: bool = False  # the refactorer already had its turn on HEAD's feature
    staged_deleted_tests: tuple[str, ...] = ()  # test files `git rm`ed: no test to make pass
    head_green: bool | None = None  # HEAD's tree verdict as stored (None: not judged yet)
    head_summary: tuple[str, ...] = ()  # the verification lines of that verdict


@dataclass(frozen=True)
class PhaseInfo:
    """The phase, who acts next ("scaffold", "tester", "implementor", "refactorer", "person",
    "none"), why, and the cycle number to show (the `Step:` of the next TDD commit)."""

    phase: Phase
    next_actor: str
    reason: str
    cycle: int


def _listing(paths: tuple[str, ...], limit: int = 5) -> str:
    shown = ", ".join(paths[:limit])
    return shown + (f" (+{len(paths) - limit} more)" if len(paths) > limit else "")


def step_number(cycle: int, *, tests_staged: bool, code_staged: bool, feature_landed: bool) -> int:
    """The `Step:` of the next TDD commit, shown by `status` and written by the prefill alike:
    staged tests open (tester) or close (implementor) the next cycle; code alone is a refactor of
    the current one; with nothing staged, the landed feature's cycle while the refactorer may
    still act on it, else the next one (pure)."""
    if tests_staged:
        return cycle + 1
    if code_staged:
        return max(cycle, 1)
    return cycle if feature_landed else cycle + 1


def committer_role(*, tests_staged: bool, code_staged: bool, head_red: bool) -> str:
    """The role of the one committing what is staged, as decide_phase reads it: tests with code
    close a cycle (Implementor), tests alone are handed over or pinned (Tester), code alone on a
    red HEAD is its repair, making the committed tests pass (Implementor), else a tidy-up
    (Refactorer) (pure)."""
    if tests_staged:
        return "Implementor" if code_staged else "Tester"
    return "Implementor" if code_staged and head_red else "Refactorer"


def decide_phase(facts: RepoFacts, cycle: int) -> PhaseInfo:
    """The phase for these facts (the table in docs/commands.md, `tddhooks status`); `cycle` is
    the number of feat/fix commits so far."""
    feature_landed = facts.head_type in FEATURE_TYPES and not facts.refactor_taken
    shown = step_number(
        cycle,
        tests_staged=bool(facts.staged_test_paths or facts.staged_deleted_tests),
        code_staged=bool(facts.staged_other_paths),
        feature_landed=feature_landed,
    )
    if not facts.is_repo:
        return PhaseInfo(Phase.UNINITIALIZED, "scaffold", "not a git repository", 0)
    if not facts.has_commit:
        return PhaseInfo(Phase.UNINITIALIZED, "scaffold", "the repository has no commit yet", 0)
    if not facts.has_scaffold:
        return PhaseInfo(
            Phase.UNINITIALIZED,
            "scaffold",
            "HEAD holds neither a project manifest nor a test file (no scaffold)",
            0,
        )
    if facts.dirty_paths:
        return PhaseInfo(
            Phase.DIRTY,
            "person",
            f"unstaged or untracked changes: {_listing(facts.dirty_paths)}; "
            "stage them (`git add`), or set them aside without losing what is staged "
            "(`git stash push --keep-index --include-untracked`) — tddhooks never touches them",
            shown,
        )
    if facts.staged_deleted_tests and not facts.staged_other_paths:
        gone = facts.staged_deleted_tests
        return PhaseInfo(
            Phase.MIXED,
            "person",
            f"staged deletion of tests: {_listing(gone)}; no role hands over a deleted test: "
            f"commit the deletion yourself (`test:`), or bring it back with "
            f"`git restore --staged --worktree {' '.join(gone[:5])}`",
            shown,
        )
    if facts.head_green is False and facts.staged_other_paths and not facts.staged_test_paths:
        why = "; ".join(facts.head_summary) or "the gate failed"
        return PhaseInfo(
            Phase.RED,
            "person",
            f"HEAD's tree is red ({why}); the staged change "
            f"({_listing(facts.staged_other_paths)}) is its repair: commit it once the gate is "
            "green (`tddhooks doctor` names the commit type)",
            shown,
        )
    if facts.staged_other_paths:
        files = facts.staged_other_paths
        # a file holding both a staged unit test and staged code: unstage only the code hunks
        both = [path for path in files[:5] if path in facts.staged_test_paths]
        whole = [path for path in files[:5] if path not in both]
        commands = [f"`git restore --staged {' '.join(whole)}`"] if whole else []
        if both:
            commands.append(
                f"`git restore --staged -p {' '.join(both)}` (answer y to the code hunks only)"
            )
        return PhaseInfo(
            Phase.MIXED,
            "person",
            f"staged changes outside the tests: {_listing(files)}; a tester hands over "
            f"tests only: unstage the rest with {' and '.join(commands)}, "
            "or commit test and code together yourself",
            shown,
        )
    if facts.staged_test_paths:
        tests = _listing(facts.staged_test_paths)
        if facts.staged_green is True:
            return PhaseInfo(
                Phase.OVERSHOOT,
                "tester",
                f"the staged tests ({tests}) already pass: pick a test for behaviour that does "
                "not exist yet, or commit these as `test:`",
                shown,
            )
        verdict = "fail" if facts.staged_green is False else "are not verified yet"
        return PhaseInfo(
            Phase.RED,
            "implementor",
            f"staged tests ({tests}) {verdict}: make them pass with the least code",
            shown,
        )
    if facts.head_green is False:
        why = "; ".join(facts.head_summary) or "the gate failed"
        return PhaseInfo(
            Phase.RED,
            "person",
            f"HEAD's tree is red ({why}): make it green before the next test "
            "(`tddhooks doctor` says what fails and the commit that fixes it)",
            shown,
        )
    if facts.done_reason is not None:
        return PhaseInfo(Phase.DONE, "none", f"kata complete: {facts.done_reason}", cycle)
    if feature_landed:
        return PhaseInfo(
            Phase.GREEN_FEATURE,
            "refactorer",
            f"HEAD is a `{facts.head_type}:` commit and the tree is clean: tidy up, tests stay "
            "untouched",
            cycle,
        )
    return PhaseInfo(
        Phase.GREEN, "tester", "clean and green: write the next failing test and stage it", shown
    )


def head_type(subject: str) -> str | None:
    """The Conventional Commits type of a subject line (policy.message decides what a header
    is, for the hooks and the drive alike); None when there is none."""
    header = parse_header(subject)
    return header.type if header is not None else None


def _done_path(root: Path) -> Path:
    from tddhooks import git

    return git.tddhooks_dir(root) / DONE_FILE


def mark_done(root: Path, reason: str) -> None:
    """Record that the tester reported the kata complete at the current HEAD."""
    from tddhooks import git

    write_record(_done_path(root), git.head(root), {"reason": reason, "created_at": time.time()})


def clear_done(root: Path) -> None:
    """Forget a `done` report (e.g. the person adds another test)."""
    _done_path(root).unlink(missing_ok=True)


def read_done(root: Path, head: str | None) -> str | None:
    """The done reason when it was recorded for `head`; a stale record is removed."""
    record = read_record(_done_path(root), head, drop_stale=True)
    if record is None:
        return None
    return str(record.get("reason") or "the tester reported the kata complete")


def mark_refactor_turn(root: Path) -> None:
    """Remember that the refactorer had its turn on the feature at HEAD (nothing to commit)."""
    from tddhooks import git

    write_record(git.tddhooks_dir(root) / REFACTOR_MARK, git.head(root), {})


def refactor_turn_taken(root: Path) -> bool:
    """True when the refactorer already had its turn on HEAD's feature (a stale mark is void)."""
    from tddhooks import git

    return read_record(git.tddhooks_dir(root) / REFACTOR_MARK, git.head(root)) is not None


def ignored_for_phase(path: str) -> bool:
    """Paths that never make a tree dirty: the drive's scratch (`.tdd/`) and the agent
    configurations `tddhooks install --agent` writes."""
    from tddhooks.vocabulary import AGENT_CONFIG_FILES

    return path.startswith(SCRATCH_DIR) or path in AGENT_CONFIG_FILES


def split_staged(
    facts: CommitFacts, settings: PolicySettings
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """(tests, code, deleted tests) of the staged changes, item-aware: a source file whose staged
    change is only to its unit tests (`#[cfg(test)]`, a test function beside the code) is a
    test; a test file `git rm`ed is no test to make pass (pure)."""
    from tddhooks.policy.rules import changed_code_paths, changed_test_paths

    gone = {change.path for change in facts.changes if change.status == "D"}
    tests = changed_test_paths(facts, settings)
    return (
        tuple(path for path in tests if path not in gone),
        tuple(changed_code_paths(facts, settings)),
        tuple(path for path in tests if path in gone),
    )


def has_project(root: Path, settings: PolicySettings) -> bool:
    """HEAD holds a project: a manifest of its language, or, without one (a kata found in the
    wild), a tracked test file: a repository with commits and tests is no empty scaffold."""
    from tddhooks import git
    from tddhooks.policy.rules import is_test_path
    from tddhooks.vocabulary import LANGUAGE_FILES

    names = LANGUAGE_FILES.get(settings.language, ())
    listed = git.out(["ls-tree", "--name-only", "HEAD", "--", *names], root) if names else ""
    if listed.strip():
        return True
    tracked = git.out(["ls-tree", "-r", "-z", "--name-only", "HEAD"], root)
    return any(is_test_path(path, settings) for path in tracked.split("\0") if path)


def head_verdict(
    root: Path, settings: PolicySettings, state: Path
) -> tuple[bool, list[str]] | None:
    """(green, verification lines) of the verdict stored for HEAD's tree; never runs the gate."""
    from tddhooks import git
    from tddhooks.policy.stored import stored_verdict

    found = stored_verdict(root, git.tree_of(root, "HEAD"), settings, state)
    return None if found is None else (found[0], found[1] or [])


def facts_at(
    root: Path,
    settings: PolicySettings,
    *,
    head: str,
    subject: str,
    changed: list[str],
    staged: bool,
    state: Path,
) -> RepoFacts:
    """The facts of a repository with a commit, from what the caller already read (HEAD, its
    subject, the unstaged and untracked paths, whether anything is staged); the staged tree's
    verdict is the caller's. The one reading behind every surface of the phase."""
    from tddhooks.headstate import read_record

    tests: tuple[str, ...] = ()
    others: tuple[str, ...] = ()
    gone: tuple[str, ...] = ()
    if staged:
        from tddhooks.policy.facts import staged_facts

        tests, others, gone = split_staged(staged_facts(root, settings), settings)
    # HEAD's verdict decides the phase with nothing staged, and with code alone (its repair)
    found = None if tests or gone else head_verdict(root, settings, state)
    done = read_record(state / DONE_FILE, head)
    return RepoFacts(
        is_repo=True,
        has_commit=True,
        has_scaffold=has_project(root, settings),
        dirty_paths=tuple(sorted({path for path in changed if not ignored_for_phase(path)})),
        staged_test_paths=tests,
        staged_other_paths=others,
        head_type=head_type(subject),
        done_reason=None
        if done is None
        else str(done.get("reason") or "the tester reported the kata complete"),
        refactor_taken=read_record(state / REFACTOR_MARK, head) is not None,
        staged_deleted_tests=gone,
        head_green=None if found is None else found[0],
        head_summary=() if found is None else tuple(found[1]),
    )


def read_facts(
    root: Path,
    settings: PolicySettings,
    *,
    with_verdict: bool = True,
    gate: StagedJudge | None = None,
    judge_head: bool = False,
) -> tuple[RepoFacts, Verdict | None]:
    """Read the facts from the repository at `root`. with_verdict runs (or reuses) the gate on the
    staged tree when only tests are staged (its verdict decides red or overshoot), and, with
    `judge_head` (`status`), on HEAD's tree when nothing is staged and no verdict is stored for
    it yet (green or a red HEAD); otherwise it only looks up a cached verdict."""
    from tddhooks import git

    top = git.find_root(root)
    if top is None:
        return RepoFacts(is_repo=False, has_commit=False, has_scaffold=False), None
    root = top  # git lists untracked paths relative to the working directory
    head = git.head(root)
    if head is None:
        return RepoFacts(is_repo=True, has_commit=False, has_scaffold=False), None
    state = git.tddhooks_dir(root)
    read_done(root, head)  # a stale done record is removed
    staged = _something_staged(root)
    facts = facts_at(
        root,
        settings,
        head=head,
        subject=git.out(["log", "-1", "--format=%s", "HEAD"], root),
        changed=[*git.unstaged_paths(root), *git.untracked_paths(root)],
        staged=staged,
        state=state,
    )
    tests = facts.staged_test_paths
    decides = bool(tests) and not facts.staged_other_paths and not facts.dirty_paths
    # nothing staged: the index is HEAD's tree, and its verdict tells green from a red HEAD
    unjudged_head = not staged and not facts.dirty_paths and facts.head_green is None
    verdict = None
    if with_verdict:
        if decides or (judge_head and unjudged_head and facts.has_scaffold):
            verdict = gate.staged(root, settings) if gate else _staged_verdict(root, settings)
        else:
            verdict = _cached_verdict(root, settings)
    if verdict is not None and tests:
        facts = replace(facts, staged_green=verdict.green)
    if verdict is not None and not staged:
        lines = tuple(verdict.verification_lines())
        facts = replace(facts, head_green=verdict.green, head_summary=lines)
    return facts, verdict


def _something_staged(root: Path) -> bool:
    """The index differs from HEAD's tree (unmerged paths count as staged)."""
    from tddhooks import git
    from tddhooks.errors import GitError

    try:
        return git.write_tree(root) != git.tree_of(root, "HEAD")
    except GitError:
        return True


def _staged_verdict(root: Path, settings: PolicySettings) -> Verdict:
    from tddhooks.policy.gate import staged_tree_verdict

    return staged_tree_verdict(root, settings)


def _cached_verdict(root: Path, settings: PolicySettings) -> Verdict | None:
    """The index tree's verdict if the hooks already cached one; never runs the suite."""
    from tddhooks import git
    from tddhooks.errors import GitError
    from tddhooks.policy.stored import memoized_key, verdicts_dir
    from tddhooks.policy.verdicts import VerdictStore, verdict_key
    from tddhooks.runners import get_runner

    try:
        tree = git.write_tree(root)
    except GitError:  # unmerged paths: there is no tree to look up
        return None
    state = git.tddhooks_dir(root)
    key = memoized_key(root, state, settings)
    if key is None:
        key = verdict_key(settings, get_runner(settings.language))
    return VerdictStore(verdicts_dir(state)).get(tree, key)


def current_phase(
    root: Path,
    settings: PolicySettings,
    *,
    gate: StagedJudge | None = None,
    judge_head: bool = False,
) -> tuple[PhaseInfo, Verdict | None]:
    """The phase of the repository at `root` (cycle from history) and the verdict behind it;
    `gate` judges staged tests (default: the real gate); `judge_head` as in read_facts."""
    from tddhooks.policy.history import cycle_number

    facts, verdict = read_facts(root, settings, gate=gate, judge_head=judge_head)
    cycle = cycle_number(root) if facts.has_commit else 0
    return decide_phase(facts, cycle), verdict
