"""The type-scope table, rule by rule (pure): which type may touch tests, code, build files and
other files, who may remove a test, and how git-shaped messages are judged."""

from __future__ import annotations

import pytest
from support.rule_cases import SETTINGS, check, facts, msg

from tddhooks.policy.message import parse_message
from tddhooks.policy.rules import (
    TYPE_SCOPES,
    CommitFacts,
    changed_build_paths,
    changed_code_paths,
    changed_test_paths,
    effective_type,
)

TEST = "M tests/a.rs"
CODE = "M src/lib.rs"
BUILD = "M Cargo.toml"
OTHER = "M README.md"
ALLOWED = {
    # type: (tests, code, build, other)
    "feat": (True, True, True, True),
    "fix": (True, True, True, True),
    "test": (True, False, False, False),
    "refactor": (False, True, True, True),
    "style": (False, True, True, True),
    "perf": (False, True, True, True),
    "build": (False, False, True, True),
    "docs": (False, False, False, True),
    "chore": (False, False, False, True),
    "ci": (False, False, False, True),
}
SAME_NAMES = {"before": ["tests/a.rs::a"], "after": ["tests/a.rs::a"]}


def _type_rules(text: str, diff: CommitFacts) -> list[str]:
    return [v.message for v in check(text, diff) if v.rule == "type-rules"]


def test_the_table_covers_every_default_type_but_revert() -> None:
    assert set(TYPE_SCOPES) == set(SETTINGS.types) - {"revert"}


@pytest.mark.parametrize("kind", list(ALLOWED))
@pytest.mark.parametrize(("index", "change"), list(enumerate([TEST, CODE, BUILD, OTHER])))
def test_what_each_type_may_touch(kind: str, index: int, change: str) -> None:
    # a feature/fix needs a test: give it one when the change under test is not a test
    extra = f"{TEST}, " if kind in ("feat", "fix") and change != TEST else ""
    names = {"before": ["tests/a.rs::a"], "after": ["tests/a.rs::a", "tests/a.rs::b"]}
    chosen = names if kind in ("feat", "fix") else SAME_NAMES
    diff = facts(extra + change, before=chosen["before"], after=chosen["after"])
    problems = _type_rules(
        msg(f"{kind}: x", role="Tester" if kind == "test" else "Implementor"), diff
    )
    assert (not problems) is ALLOWED[kind][index], problems


@pytest.mark.parametrize("kind", [k for k in ALLOWED if k != "test"])
def test_only_test_commits_remove_a_test(kind: str) -> None:
    diff = facts(
        f"{TEST}, {CODE}", before=["tests/a.rs::a", "tests/a.rs::b"], after=["tests/a.rs::a"]
    )
    problems = _type_rules(msg(f"{kind}: x"), diff)
    assert problems
    assert not _type_rules(msg("test: drop b", role="Tester"), facts(TEST, before=["x"], after=[]))


def test_a_deleted_test_file_counts_as_a_removed_test() -> None:
    problems = _type_rules(msg("feat: x"), facts(f"D tests/old.rs, A tests/new.rs, {CODE}"))
    assert problems == ["feat: commits may not remove a test; this one removes tests/old.rs"]


@pytest.mark.parametrize(
    ("kind", "change", "fits"),
    [
        ("docs", CODE, "refactor"),
        ("chore", BUILD, "build"),
        ("ci", f"{CODE}, {BUILD}", "refactor"),
    ],
)
def test_each_rejection_names_the_type_to_use(kind: str, change: str, fits: str) -> None:
    hints = [v.hint for v in check(f"{kind}: x\n", facts(change)) if v.rule == "type-rules"]
    assert hints
    assert all(f"commit it as {fits}:" in hint for hint in hints)


def test_path_classes() -> None:
    diff = facts(
        "M tests/a.rs, M src/lib.rs, M src/bin/x.rs, M build.rs, M Cargo.lock, "
        "M .cargo/config.toml, M sub/.cargo/config.toml, M README.md, M benches/b.rs"
    )
    assert changed_test_paths(diff, SETTINGS) == ["tests/a.rs"]
    # build.rs is code: cargo compiles and runs it, and it can write the crate's code
    assert changed_code_paths(diff, SETTINGS) == [
        "src/lib.rs", "src/bin/x.rs", "build.rs", "benches/b.rs",
    ]  # fmt: skip
    assert changed_build_paths(diff, SETTINGS) == [
        "Cargo.lock", ".cargo/config.toml", "sub/.cargo/config.toml",
    ]  # fmt: skip


def test_the_scaffold_may_touch_everything() -> None:
    scaffold = facts("A Cargo.toml, A src/lib.rs, A tests/.gitkeep")
    assert not _type_rules("chore: scaffold kata\n", scaffold)
    first = facts("A src/lib.rs, A tests/a.rs")._replace(first_commit=True)
    assert not _type_rules("chore: initial files\n", first)
    assert _type_rules("chore: later\n", facts("A src/lib.rs"))
    # a project that has tests cannot lift the rules by adding a manifest again
    rescaffold = facts(
        "A Cargo.toml, A src/lib.rs", before=["tests/a.rs::a"], after=["tests/a.rs::a"]
    )
    assert _type_rules("chore: scaffold again\n", rescaffold)


@pytest.mark.parametrize(
    ("subject", "target", "expected"),
    [
        ("fixup! feat: x", None, "feat"),
        ("squash! fixup! refactor(a): y", None, "refactor"),
        ("amend! whatever", "docs: readme", "docs"),
        ("fixup! whatever", None, None),
        ('fixup! Revert "feat: x"', None, "revert"),
        ('Revert "anything"', None, "revert"),
        ("Merge branch 'x'", None, None),
        ("feat: y", None, "feat"),
    ],
)
def test_effective_type(subject: str, target: str | None, expected: str | None) -> None:
    diff = facts(CODE)._replace(target_subject=target)
    assert effective_type(parse_message(subject + "\n"), diff) == expected


def test_an_exact_revert_passes_the_type_rules_and_nothing_else_does() -> None:
    removal = facts(f"D tests/a.rs, {CODE}", before=["tests/a.rs::a"])
    text = 'Revert "feat: a"\n\nThis reverts commit 0123456789abcdef.\n'
    assert [v.rule for v in check(text, removal)] == ["type-rules"]
    assert check(text, removal._replace(revert_exact=True)) == []
    skip = facts(TEST, added={"tests/a.rs": ["#[ignore]"]})
    assert [v.rule for v in check(text, skip._replace(revert_exact=True))] == ["no-skip"]


def test_a_merge_being_made_is_judged_by_no_skip_only() -> None:
    merge = facts(f"{TEST}, {CODE}", before=["x"])._replace(merge=True)
    assert check("whatever\n", merge) == []
    with_skip = merge._replace(added_lines={"tests/a.rs": ["#[ignore]"]})
    assert [v.rule for v in check("Merge branch 'x'\n", with_skip)] == ["no-skip"]
