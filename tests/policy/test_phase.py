"""Phase from git: decide_phase over every row of DESIGN §4, and read_facts on real repositories."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from support.repo import git, write_files

from tddhooks.policy.phase import (
    Phase,
    RepoFacts,
    clear_done,
    decide_phase,
    head_type,
    mark_done,
    read_done,
    read_facts,
)
from tddhooks.policy.settings import load_settings

MakeRepo = Callable[..., Path]

READY = RepoFacts(is_repo=True, has_commit=True, has_scaffold=True)
TESTS = ("tests/sum.rs",)


def facts(**changes: Any) -> RepoFacts:
    return replace(READY, **changes)


# (facts, cycle so far, phase, next actor, cycle shown)
NONE = RepoFacts(is_repo=False, has_commit=False, has_scaffold=False)
EMPTY = RepoFacts(is_repo=True, has_commit=False, has_scaffold=False)
RED, GREEN = False, True
PHASE_TABLE = [
    (NONE, 0, Phase.UNINITIALIZED, "scaffold", 0),
    (EMPTY, 0, Phase.UNINITIALIZED, "scaffold", 0),
    (facts(has_scaffold=False), 0, Phase.UNINITIALIZED, "scaffold", 0),
    (facts(dirty_paths=("src/lib.rs",)), 2, Phase.DIRTY, "person", 3),
    # dirty wins over a staged red test: the agents never touch a person's unstaged work
    (facts(dirty_paths=("ü.md",), staged_test_paths=TESTS), 2, Phase.DIRTY, "person", 3),
    (facts(staged_test_paths=TESTS, staged_green=RED), 2, Phase.RED, "implementor", 3),
    (facts(staged_test_paths=TESTS, staged_green=None), 2, Phase.RED, "implementor", 3),
    (facts(staged_test_paths=TESTS, staged_green=GREEN), 2, Phase.OVERSHOOT, "tester", 3),
    # code alone is a refactor of the current cycle (the prefill's Step: says the same)
    (facts(staged_other_paths=("src/lib.rs",)), 1, Phase.MIXED, "person", 1),
    (facts(staged_other_paths=("src/lib.rs",)), 0, Phase.MIXED, "person", 1),
    (facts(staged_test_paths=TESTS, staged_other_paths=("a.rs",)), 1, Phase.MIXED, "person", 2),
    (facts(head_type="feat"), 4, Phase.GREEN_FEATURE, "refactorer", 4),
    (facts(head_type="fix"), 4, Phase.GREEN_FEATURE, "refactorer", 4),
    # the refactorer already had its (empty) turn on this feature: the next cycle opens
    (facts(head_type="feat", refactor_taken=True), 4, Phase.GREEN, "tester", 5),
    (facts(head_type="refactor"), 4, Phase.GREEN, "tester", 5),
    (facts(head_type="chore"), 0, Phase.GREEN, "tester", 1),
    (facts(head_type=None), 0, Phase.GREEN, "tester", 1),
    (facts(head_type="feat", done_reason="all rules covered"), 4, Phase.DONE, "none", 4),
    (facts(head_type="refactor", done_reason="fertig ✓"), 4, Phase.DONE, "none", 4),
    # a person staging another test after `done` reopens the kata
    (facts(done_reason="x", staged_test_paths=TESTS), 4, Phase.RED, "implementor", 5),
    # a test staged on top of a feature: the next cycle is open
    (facts(head_type="fix", staged_test_paths=TESTS), 4, Phase.RED, "implementor", 5),
    # a red HEAD (its stored verdict) is the person's to make green, whatever HEAD's type
    (facts(head_green=RED, head_type="feat"), 4, Phase.RED, "person", 4),
    (facts(head_green=RED), 4, Phase.RED, "person", 5),
    (facts(head_green=GREEN, head_type="feat"), 4, Phase.GREEN_FEATURE, "refactorer", 4),
    # code alone on a red HEAD is the person's repair of it, no hand-over gone wrong
    (facts(head_green=RED, staged_other_paths=("src/lib.rs",)), 4, Phase.RED, "person", 4),
    (facts(head_green=GREEN, staged_other_paths=("src/lib.rs",)), 4, Phase.MIXED, "person", 4),
    # staged tests decide over HEAD's verdict: they are what the implementor makes pass
    (facts(head_green=RED, staged_test_paths=TESTS), 4, Phase.RED, "implementor", 5),
    # a test `git rm`ed is no test to hand over: the person commits or restores it
    (facts(staged_deleted_tests=TESTS), 2, Phase.MIXED, "person", 3),
    (
        facts(staged_deleted_tests=TESTS, staged_test_paths=("tests/b.rs",)),
        2,
        Phase.MIXED,
        "person",
        3,
    ),
]


@pytest.mark.parametrize(("given", "cycle", "phase", "actor", "shown"), PHASE_TABLE)
def test_decide_phase_follows_the_design_table(
    given: RepoFacts, cycle: int, phase: Phase, actor: str, shown: int
) -> None:
    info = decide_phase(given, cycle)
    assert (info.phase, info.next_actor, info.cycle) == (phase, actor, shown)
    assert info.reason


def test_the_reasons_name_the_red_head_and_the_deleted_test() -> None:
    red = decide_phase(facts(head_green=RED, head_summary=("pytest: 1 failed",)), 0).reason
    assert "HEAD's tree is red (pytest: 1 failed)" in red
    gone = decide_phase(facts(staged_deleted_tests=("tests/test_ü.py",)), 0).reason
    assert "git restore --staged --worktree tests/test_ü.py" in gone


def test_a_repair_of_a_red_head_is_never_told_to_unstage_itself() -> None:
    repair = facts(head_green=RED, head_summary=("clippy failed",), staged_other_paths=("a.rs",))
    reason = decide_phase(repair, 1).reason
    assert "HEAD's tree is red (clippy failed); the staged change (a.rs) is its repair" in reason
    assert "restore" not in reason


def test_mixed_reason_names_the_files_and_how_to_split() -> None:
    info = decide_phase(facts(staged_other_paths=("src/lib.rs", "src/ünï.rs")), 0)
    assert "src/lib.rs" in info.reason
    assert "git restore --staged src/lib.rs src/ünï.rs" in info.reason


def test_dirty_reason_lists_a_few_paths_and_counts_the_rest() -> None:
    paths = tuple(f"f{i}.txt" for i in range(8))
    info = decide_phase(facts(dirty_paths=paths), 0)
    assert "f0.txt" in info.reason
    assert "(+3 more)" in info.reason
    assert "f7.txt" not in info.reason


@pytest.mark.parametrize(
    ("subject", "expected"),
    [
        ("feat: add numbers", "feat"),
        ("fix(parser)!: négatifs refusés", "fix"),
        ("Feat(x): upper case type", None),  # not a header to the hooks either
        ("feat:add", None),
        ("refactor!: rename", "refactor"),
        ("Merge branch 'main'", None),
        ('Revert "feat: x"', None),
        ("feat add numbers", None),
        ("feat(: broken scope", None),
        ("", None),
    ],
)
def test_head_type(subject: str, expected: str | None) -> None:
    assert head_type(subject) == expected


SCAFFOLD = {"Cargo.toml": "[package]\nname = 'k'\n", "src/lib.rs": "", "kata.md": "# K\n"}


def test_read_facts_outside_a_repository(tmp_path: Path) -> None:
    found, verdict = read_facts(tmp_path, load_settings(tmp_path), with_verdict=False)
    assert not found.is_repo
    assert verdict is None


def test_read_facts_before_the_first_commit(make_repo: MakeRepo) -> None:
    repo = make_repo()
    found, _ = read_facts(repo, load_settings(repo), with_verdict=False)
    assert (found.is_repo, found.has_commit, found.has_scaffold) == (True, False, False)


def test_read_facts_without_a_manifest_is_unscaffolded(make_repo: MakeRepo) -> None:
    repo = make_repo({"README.md": "hi\n"})
    found, _ = read_facts(repo, load_settings(repo), with_verdict=False)
    assert found.has_commit
    assert not found.has_scaffold


def test_read_facts_separates_dirty_staged_tests_and_other_staged(make_repo: MakeRepo) -> None:
    repo = make_repo(SCAFFOLD)
    git(repo, "commit", "-q", "--allow-empty", "--no-verify", "-m", "feat: première")
    write_files(repo, {"tests/sum.rs": "// test\n", "src/lib.rs": "// staged\n"})
    git(repo, "add", "tests/sum.rs", "src/lib.rs")
    write_files(repo, {"notes ü.txt": "untracked\n", ".tdd/logs/step-1.json": "{}\n"})
    (repo / "src/lib.rs").write_text("// staged, then edited\n", encoding="utf-8")
    found, verdict = read_facts(repo, load_settings(repo), with_verdict=False)
    assert found.dirty_paths == ("notes ü.txt", "src/lib.rs")  # .tdd/ is the tool's scratch
    assert found.staged_test_paths == ("tests/sum.rs",)
    assert found.staged_other_paths == ("src/lib.rs",)
    assert found.head_type == "feat"
    assert found.staged_green is None
    assert verdict is None


def test_done_marker_holds_for_its_head_only(make_repo: MakeRepo) -> None:
    repo = make_repo(SCAFFOLD)
    head = git(repo, "rev-parse", "HEAD").stdout.strip()
    mark_done(repo, "every rule of the kata is covered ✓")
    assert read_done(repo, head) == "every rule of the kata is covered ✓"
    found, _ = read_facts(repo, load_settings(repo), with_verdict=False)
    assert found.done_reason == "every rule of the kata is covered ✓"
    git(repo, "commit", "-q", "--allow-empty", "--no-verify", "-m", "chore: later")
    found, _ = read_facts(repo, load_settings(repo), with_verdict=False)
    assert found.done_reason is None
    assert not (repo / ".git/tddhooks/done.json").exists()  # a stale record is cleared


def test_clear_done_forgets_the_report(make_repo: MakeRepo) -> None:
    repo = make_repo(SCAFFOLD)
    mark_done(repo, "complete")
    clear_done(repo)
    clear_done(repo)  # clearing twice is fine
    assert read_done(repo, git(repo, "rev-parse", "HEAD").stdout.strip()) is None
