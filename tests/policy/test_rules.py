"""The commit rules, rule by rule: accepted and rejected cases, with the hint a person reads."""

from __future__ import annotations

import shlex
from typing import Any

import pytest
from support.repo import git, write_files
from support.rule_cases import SECTIONS, SETTINGS, check, facts, msg

from tddhooks.config import RULE_NAMES
from tddhooks.policy.rules import (
    MessageHint,
    Violation,
    format_rejection,
    is_test_path,
)

FEATURE = facts("A tests/roman.rs, M src/lib.rs", after=["tests/roman.rs::four"])


# --- is_test_path ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("globs", "path", "expected"),
    [
        (("tests/**",), "tests/a.rs", True),
        (("tests/**",), "tests/x/y.rs", True),
        (("tests/**",), "tests/ñandú/ü.rs", True),
        (("tests/**",), "src/tests/a.rs", False),
        (("tests/**",), "tests.rs", False),
        (("tests/**",), "testsuite/a.rs", False),
        (("tests/**",), "./tests/a.rs", True),
        (("/tests/**",), "tests/a.rs", True),
        (("./tests/**",), "tests/a.rs", True),
        (("tests/",), "tests/a/b.rs", True),
        (("tests/*.rs",), "tests/a.rs", True),
        (("tests/*.rs",), "tests/sub/a.rs", False),
        (("tests/**/*.rs",), "tests/a.rs", True),
        (("tests/**/*.rs",), "tests/x/y/a.rs", True),
        (("tests/**/*.rs",), "tests/x/a.py", False),
        (("**/fixtures/*.json",), "fixtures/a.json", True),
        (("**/fixtures/*.json",), "a/b/fixtures/c.json", True),
        (("**/fixtures/*.json",), "a/fixtures/b/c.json", False),
        (("test_*.py",), "test_roman.py", True),
        (("test_*.py",), "a/b/test_roman.py", True),
        (("test_*.py",), "a/b/roman_test.py", False),
        (("test_*.py",), "test_roman.pyc", False),
        (("*_test.py",), "pkg/roman_test.py", True),
        (("t?sts/**",), "tests/a.rs", True),
        (("t?sts/**",), "t/sts/a.rs", False),
        (("tests/[ab].rs",), "tests/a.rs", True),
        (("tests/[ab].rs",), "tests/c.rs", False),
        (("tests/[!ab].rs",), "tests/c.rs", True),
        (("tests/[!ab].rs",), "tests/a.rs", False),
        (("tests/[!].rs",), "tests/[!].rs", True),
        (("tests/a+b(1).rs",), "tests/a+b(1).rs", True),
        (("**",), "anything/at/all.txt", True),
        (("src/**", "tests/**"), "src/lib.rs", True),
        ((), "tests/a.rs", False),
        (("tests/**", "test_*.py"), "pkg/test_ñ.py", True),
    ],
)
def test_is_test_path(globs: tuple[str, ...], path: str, expected: bool) -> None:
    settings = SETTINGS._replace(test_paths=globs)
    assert is_test_path(path, settings) is expected


# --- prefixed ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "subject",
    [
        "feat(roman): convert 4 to IV",
        "feat!: drop zero",
        "feat: añade cálculo ✓",
        "fix(ローマ): 四",
    ],
)
def test_prefixed_accepts(subject: str) -> None:
    assert check(msg(subject), FEATURE) == []


@pytest.mark.parametrize(
    ("subject", "problem", "example"),
    [
        (
            "Add roman numeral 4",
            'subject "Add roman numeral 4" is not a Conventional',
            "feat: Add roman numeral 4",
        ),
        ("Feat: convert 4", "is not a Conventional Commits header", "feat: convert 4"),
        ("feat:convert 4", "is not a Conventional Commits header", "feat: convert 4"),
        ("feat(): convert 4", "is not a Conventional Commits header", "feat: convert 4"),
        ("FIX(roman)!: ½ bug", "is not a Conventional Commits header", "fix(roman)!: ½ bug"),
        (
            "feature(roman): convert 4",
            "type 'feature' is not one of the allowed types",
            "feat(roman): convert 4",
        ),
        ("wip: añade cálculo", "type 'wip' is not one of the allowed types", "feat: añade cálculo"),
    ],
)
def test_prefixed_rejects_with_example(subject: str, problem: str, example: str) -> None:
    violations = check(msg(subject), FEATURE)
    assert [v.rule for v in violations] == ["prefixed"]
    assert problem in violations[0].message
    assert f'e.g. "{example}"' in violations[0].hint
    assert "feat, fix, refactor, test, chore" in violations[0].hint


@pytest.mark.parametrize(
    ("changes", "example"),
    [
        ("M tests/a.rs", "test(<scope>): <the behaviour the test pins down>"),
        ("M src/lib.rs", "refactor(<scope>): <the structural improvement>"),
        ("M tests/a.rs, M src/lib.rs", "feat(<scope>): <what the new test demands>"),
        ("", "chore(<scope>): <what changed>"),
    ],
)
def test_empty_subject_suggests_type_from_diff(changes: str, example: str) -> None:
    for text in ("", "\n\n# only comments\n", "\n" + SECTIONS.format(role="Tester")):
        violations = check(text, facts(changes))
        assert violations[0].message == "the subject line is empty"
        assert f'e.g. "{example}"' in violations[0].hint


def test_configured_types_only() -> None:
    settings = SETTINGS._replace(types=("feat", "chore"))
    assert check("docs: readme\n", facts("M README.md"), settings)[0].rule == "prefixed"
    assert check("chore: bump\n", facts("M .gitignore"), settings) == []


def test_empty_type_list_allows_any_lowercase_type() -> None:
    settings = SETTINGS._replace(types=())
    assert check("anything: goes\n", facts("M README.md"), settings) == []
    assert check("Anything goes\n", facts("M README.md"), settings)[0].rule == "prefixed"


# --- sections ---------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["chore", "docs", "style", "build", "ci", "perf"])
def test_sections_not_required_for_other_types(kind: str) -> None:
    assert check(f"{kind}: tidy\n", facts("M README.md")) == []


def test_sections_missing_shows_the_skeleton_to_add() -> None:
    violations = check("feat(roman): convert 4\n\nSome prose.\n", FEATURE)
    assert [v.rule for v in violations] == ["sections"]
    assert violations[0].message == (
        "feat: commits need the sections Context, Rationale, Diff summary, Verification: "
        "missing Context, Rationale, Diff summary, Verification"
    )
    assert violations[0].hint == (
        "add after a blank line below the subject (each point a '- ' bullet):\n"
        "Context:\n"
        "- Role: Implementor\n"
        "- Step: <cycle number: `tddhooks status` shows it>\n"
        "- Kata goal: <one sentence from the kata>\n\n"
        "Rationale:\n- <why this change now>\n\n"
        "Diff summary:\n- tests/roman.rs: <intent>\n- src/lib.rs: <intent>\n\n"
        "Verification:\n- <the green gate's summary: `tddhooks status` shows it>"
    )


def test_the_skeleton_carries_the_real_values_when_known() -> None:
    known = FEATURE._replace(hint=MessageHint(3, "Numbers up to 10.", ("pytest: 4 passed",)))
    hint = check("feat(roman): convert 4\n\nSome prose.\n", known)[0].hint
    assert "- Step: 3\n- Kata goal: Numbers up to 10.\n" in hint
    assert "Verification:\n- pytest: 4 passed" in hint
    assert "e.g." not in hint
    without_kata = FEATURE._replace(has_kata=False)
    assert "Kata goal" not in check("feat(roman): convert 4\n", without_kata)[0].hint


def test_a_skeleton_pasted_unchanged_is_rejected() -> None:
    hint = check("feat(roman): convert 4\n", FEATURE)[0].hint
    pasted = "feat(roman): convert 4\n\n" + hint.split("\n", 1)[1].replace(
        "<cycle number: `tddhooks status` shows it>", "2"
    ).replace("<one sentence from the kata>", "Roman numerals.")
    violations = check(pasted, FEATURE)
    assert [v.rule for v in violations] == ["sections"]
    assert violations[0].message.startswith("placeholder left in the message: Rationale: <why")


def test_sections_empty_and_missing_listed_separately() -> None:
    body = (
        "\nContext:\n- Role: Tester\n- Step: 1\n- Kata goal: Añadir números.\n\nRationale:\nprose\n"
    )
    violations = check(msg("test: pin down four", body=body), facts("A tests/roman.rs"))
    assert len(violations) == 1
    assert violations[0].message.endswith(
        "missing Diff summary, Verification; no '- ' bullet under Rationale"
    )
    hint = violations[0].hint
    assert "Rationale:\n- <why this change now>" in hint
    assert "Context:" not in hint  # present and valid: not asked again
    assert "- tests/roman.rs: <intent>" in hint


@pytest.mark.parametrize(
    ("context", "problem", "hint"),
    [
        (
            "- Role: Pilot\n- Step: 1\n- Kata goal: G.",
            "Role must be one of Tester, Implementor, Refactorer, got 'Pilot'",
            'write "- Role: Implementor" under Context:',
        ),
        (
            "- Role: Implementor\n- Step: 0\n- Kata goal: G.",
            "Step must be the cycle number, a positive integer",
            'write "- Step: <cycle number: `tddhooks status` shows it>" under Context:',
        ),
        (
            "- Role: Implementor\n- Step: two\n- Kata goal: G.",
            "got 'two'",
            'write "- Step: <cycle number: `tddhooks status` shows it>" under Context:',
        ),
        (
            "- Role: Implementor\n- Step: ３\n- Kata goal: G.",
            "got '３'",
            'write "- Step: <cycle number: `tddhooks status` shows it>" under Context:',
        ),
        (
            "- Role: Implementor\n- Step: 1\n- Kata goal:",
            "Kata goal must be one sentence from the kata, got ''",
            'write "- Kata goal: <one sentence from the kata>" under Context:',
        ),
        (
            "- Step: 1\n- Kata goal: G.",
            "the Context section has no 'Role:' bullet",
            'write "- Role: Implementor" under Context:',
        ),
    ],
)
def test_context_fields(context: str, problem: str, hint: str) -> None:
    body = SECTIONS.format(role="X").replace(
        "- Role: X\n- Step: 2\n- Kata goal: Convert numbers to Roman numerals.", context
    )
    violations = check(msg("feat: convert 4", body=body), FEATURE)
    assert [v.rule for v in violations] == ["sections"]
    assert problem in violations[0].message
    assert violations[0].hint == hint


@pytest.mark.parametrize("role", ["Tester", "implementor", "REFACTORER"])
def test_role_is_case_insensitive(role: str) -> None:
    assert check(msg("feat: convert 4", role=role), FEATURE) == []


# --- type rules -------------------------------------------------------------------------------


def test_refactor_accepts_source_only_with_same_names() -> None:
    diff = facts("M src/lib.rs, A src/table.rs", before=["t::a"], after=["t::a"])
    assert check(msg("refactor: extract table", role="Refactorer"), diff) == []


@pytest.mark.parametrize("status", ["M", "A", "D"])
def test_refactor_rejects_test_file_change(status: str) -> None:
    diff = facts(f"M src/lib.rs, {status} tests/roman.rs", before=["t::a"], after=["t::a"])
    violations = check(msg("refactor: tidy", role="Refactorer"), diff)
    assert violations == [
        Violation(
            "type-rules",
            "refactor: commits may not change tests/roman.rs",
            "commit the test change as test: or feat:, or unstage it "
            "(git restore --staged tests/roman.rs)",
        )
    ]


def test_refactor_rejects_changed_test_names_in_source() -> None:
    diff = facts(
        "M src/lib.rs",
        before=["src/lib.rs::a", "src/lib.rs::b"],
        after=["src/lib.rs::a", "src/lib.rs::c"],
    )
    violations = check(msg("refactor: rename", role="Refactorer"), diff)
    assert [v.message for v in violations] == [
        "refactor: commits must keep the set of test names; added src/lib.rs::c; "
        "removed src/lib.rs::b"
    ]
    assert "commit test changes as test: or feat:" in violations[0].hint


@pytest.mark.parametrize("kind", ["feat", "fix"])
def test_feat_and_fix_need_a_test(kind: str) -> None:
    assert check(msg(f"{kind}: four"), FEATURE) == []
    violations = check(msg(f"{kind}: four"), facts("M src/lib.rs", before=["a"], after=["a"]))
    assert violations == [
        Violation(
            "type-rules",
            f"{kind}: commits must add or change a test, and no test file is staged "
            "(test paths: tests/**)",
            "stage the test that demands this change with the code (git add <test file>); "
            "if behaviour does not change, use refactor:",
        )
    ]


def test_feat_with_new_test_name_in_source_counts_as_test_change() -> None:
    diff = facts("M src/lib.rs", before=["src/lib.rs::a"], after=["src/lib.rs::a", "src/lib.rs::b"])
    assert check(msg("feat: four"), diff) == []


def test_require_test_with_is_configurable() -> None:
    settings = SETTINGS._replace(require_test_with=("feat",))
    assert check(msg("fix: four"), facts("M src/lib.rs"), settings) == []


def test_test_commits_change_only_tests() -> None:
    assert check(msg("test: pin four", role="Tester"), facts("A tests/roman.rs")) == []
    violations = check(
        msg("test: pin four", role="Tester"), facts("A tests/roman.rs, M src/lib.rs, M README.md")
    )
    assert violations == [
        Violation(
            "type-rules",
            "test: commits may change only test files (test paths: tests/**); "
            "src/lib.rs, README.md are not",
            "commit the code with its test as feat: or fix:, or unstage it "
            "(git restore --staged src/lib.rs README.md)",
        )
    ]


def test_long_path_lists_are_shortened() -> None:
    changes = ", ".join(f"M tests/t{i}.rs" for i in range(12))
    violation = check(msg("refactor: x", role="Refactorer"), facts(changes))[0]
    assert violation.message.endswith("tests/t7.rs and 4 more")


# --- no-skip ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("added", "removed", "rejected"),
    [
        (["#[ignore]", "#[test]"], [], "#[ignore]"),
        (['    #[ignore = "slow"]'], [], '#[ignore = "slow"]'),
        (["@pytest.mark.skip(reason='later')"], [], "@pytest.mark.skip(reason='later')"),
        (["    pytest.skip('not yet')"], [], "pytest.skip('not yet')"),
        (["@unittest.skip('ñ')"], [], "@unittest.skip('ñ')"),
        (["#[ignore]", "#[ignore]"], ["#[ignore]"], "#[ignore]"),
        (["#[ignore]"], ["#[ignore]"], None),
        (["#[ignore]"], ["#[ignore]", "#[ignore]"], None),
        (["#[test]", "fn four() {}"], [], None),
        (["// mentions ignore without the attribute"], [], None),
    ],
)
def test_no_skip(added: list[str], removed: list[str], rejected: str | None) -> None:
    diff = facts(
        "M tests/roman.rs, M src/lib.rs",
        after=["x"],
        added={"tests/roman.rs": added, "src/lib.rs": ["fn f() {}"]},
        removed={"tests/roman.rs": removed},
    )
    violations = check(msg("feat: four"), diff)
    if rejected is None:
        assert violations == []
    else:
        assert violations == [
            Violation(
                "no-skip",
                f"tests/roman.rs adds a skip marker: {rejected}",
                f"remove `{rejected}` from tests/roman.rs; a test that cannot pass yet stays "
                "staged and uncommitted until the code makes it pass",
            )
        ]


def test_marker_moved_to_another_file_is_rejected() -> None:
    diff = facts(
        "M tests/a.rs, M tests/b.rs",
        added={"tests/b.rs": ["#[ignore]"]},
        removed={"tests/a.rs": ["#[ignore]"]},
    )
    assert [v.rule for v in check(msg("test: move", role="Tester"), diff)] == ["no-skip"]


def test_invalid_marker_regex_matches_literally() -> None:
    settings = SETTINGS._replace(skip_markers=("skip(",))
    diff = facts("M tests/a.rs", added={"tests/a.rs": ["skip(now)"]})
    assert [v.rule for v in check(msg("test: x", role="Tester"), diff, settings)] == ["no-skip"]


# --- handoff ----------------------------------------------------------------------------------


def test_handoff_respected() -> None:
    diff = FEATURE._replace(
        handoff_blobs={"tests/roman.rs": "a" * 40},
        staged_blobs={"tests/roman.rs": "a" * 40},
    )
    assert check(msg("feat: four"), diff) == []


def test_handoff_absent_is_not_checked() -> None:
    assert check(msg("feat: four"), FEATURE._replace(handoff_blobs=None)) == []


def test_handoff_changed_test() -> None:
    diff = FEATURE._replace(
        handoff_blobs={"tests/roman.rs": "a" * 40},
        staged_blobs={"tests/roman.rs": "b" * 40},
    )
    assert check(msg("feat: four"), diff) == [
        Violation(
            "handoff",
            "tests/roman.rs differs from the test that was handed over "
            "(handed over aaaaaaaaaaaa, staged bbbbbbbbbbbb)",
            "stage the test exactly as handed over (your copy in the work tree stays as it is): "
            f"git update-index --add --cacheinfo 100644,{'a' * 40},tests/roman.rs; "
            "if the test must really change, delete .git/tddhooks/handoff.json first",
        )
    ]


def test_handoff_dropped_test() -> None:
    diff = FEATURE._replace(
        handoff_blobs={"tests/roman.rs": "a" * 40, "tests/ñ.rs": "c" * 40},
        staged_blobs={"tests/roman.rs": "a" * 40},
    )
    violations = check(msg("feat: four"), diff)
    assert [v.message for v in violations] == [
        "the handed-over test tests/ñ.rs is not in this commit"
    ]


@pytest.mark.parametrize("drop", [False, True])
def test_handoff_hint_restages_without_touching_the_work_tree(make_repo: Any, drop: bool) -> None:
    repo = make_repo({"tests/roman.rs": "#[test]\nfn one() {}\n"})
    write_files(repo, {"tests/roman.rs": "#[test]\nfn four() {}\n"})
    git(repo, "add", "tests/roman.rs")
    handed = git(repo, "rev-parse", ":tests/roman.rs").stdout.strip()
    edited = "#[test]\nfn four() { /* weakened */ }\n"
    write_files(repo, {"tests/roman.rs": edited})
    git(repo, "add", "tests/roman.rs")
    if drop:
        git(repo, "rm", "-q", "--cached", "tests/roman.rs")
    staged = git(repo, "ls-files", "-s", "tests/roman.rs").stdout.split()
    diff = FEATURE._replace(
        handoff_blobs={"tests/roman.rs": handed},
        staged_blobs={"tests/roman.rs": staged[1]} if staged else {},
    )
    (violation,) = check(msg("feat: four"), diff)
    command = violation.hint.split(": ", 1)[1].split(";")[0]
    assert command.startswith("git update-index --add --cacheinfo ")
    git(repo, *shlex.split(command)[1:])
    assert git(repo, "rev-parse", ":tests/roman.rs").stdout.strip() == handed
    assert (repo / "tests/roman.rs").read_text(encoding="utf-8") == edited


# --- switches, exemptions, ordering, formatting -----------------------------------------------

EVERYTHING_WRONG = facts(
    "M tests/roman.rs, M src/lib.rs",
    added={"tests/roman.rs": ["#[ignore]"]},
    handoff={"tests/roman.rs": "a" * 40},
    staged={"tests/roman.rs": "b" * 40},
)


def test_all_rules_report_in_order() -> None:
    text = "refactor: tidy\n"
    assert [v.rule for v in check(text, EVERYTHING_WRONG)] == [
        "sections",
        "type-rules",
        "no-skip",
        "handoff",
    ]
    assert [v.rule for v in check("Tidy up\n", EVERYTHING_WRONG)] == [
        "prefixed",
        "no-skip",
        "handoff",
    ]


@pytest.mark.parametrize("rule", [name for name in RULE_NAMES if name != "green"])
def test_disabled_rules_are_skipped(rule: str) -> None:
    settings = SETTINGS._replace(disabled_rules=(rule,))
    for text in ("refactor: tidy\n", "Tidy up\n"):
        rules = {v.rule for v in check(text, EVERYTHING_WRONG, settings)}
        assert rule not in rules
        assert rules  # the others still run


@pytest.mark.parametrize(
    "subject",
    ["Merge branch 'roman'", 'Revert "feat: four"', "fixup! feat: four", "squash! x", "amend! x"],
)
def test_git_shaped_messages_exempt_nothing_by_their_shape(subject: str) -> None:
    rules = {v.rule for v in check(subject + "\n", EVERYTHING_WRONG)}
    assert {"no-skip", "handoff"} <= rules


def test_a_real_merge_skips_all_rules_but_no_skip() -> None:
    merging = EVERYTHING_WRONG._replace(merge=True)
    assert [v.rule for v in check("Merge branch 'roman'\n", merging)] == ["no-skip"]
    assert [v.rule for v in check("anything at all\n", merging)] == ["no-skip"]


def test_format_rejection() -> None:
    violations = [
        Violation(
            "type-rules", "refactor: commits may not change tests/roman.rs", "commit it as test:"
        ),
        Violation(
            "sections",
            "feat: commits need the sections",
            "add:\nContext:\n- Role: Tester\n\nRationale:",
        ),
    ]
    assert format_rejection(violations) == (
        "tddhooks: commit rejected (2 problems)\n"
        "[type-rules] refactor: commits may not change tests/roman.rs\n"
        "  → commit it as test:\n"
        "[sections] feat: commits need the sections\n"
        "  → add:\n"
        "      Context:\n"
        "      - Role: Tester\n"
        "\n"
        "      Rationale:\n"
    )
    assert format_rejection(violations[:1]).startswith("tddhooks: commit rejected (1 problem)\n")
    assert format_rejection([]) == ""
