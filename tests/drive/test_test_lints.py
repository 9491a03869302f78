"""A new test the linter rejects goes back to the tester (drive/redcheck.py `lints_in_test`): only
the tester may change tests. Measured: the 1.5B tester's
`assert_eq!(validate("Abcdef1!").is_empty(), true)` failed clippy's `bool_assert_comparison` in
three of four Password Validation drives, and each time the implementor spent all five attempts on
a file it may not touch."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from support.crates import PV_KATA as KATA
from support.crates import PV_KEPT as KEPT
from support.crates import pv_models as _models
from support.crates import pv_repo as _repo
from support.e2e_kit import git, write_files
from support.fake_drive import one_cycle

from tddhooks.drive.redcheck import checks, lints_in_test, too_many_checks
from tddhooks.policy.verdicts import StepOutcome, Verdict
from tddhooks.runners.base import TestReport

MakeRepo = Callable[..., Path]
CLIPPY = """error: used `assert_eq!` with a literal bool
 --> tests/no_rule.rs:5:5
  |
5 | /     assert_eq!(
6 | |         validate("Abcdef1!").is_empty(),
7 | |         true,
  | |_____^
  |
  = note: `-D clippy::bool-assert-comparison` implied by `-D warnings`
help: replace it with `assert!(..)`
  |
5 ~     assert!(
error: could not compile `run-1` (test "no_rule") due to 1 previous error
"""
BOOL_TEST = (
    "use pv::validate;\n\n#[test]\nfn no_uppercase() {\n"
    '    assert_eq!(validate("abcdefg1!").is_empty(), false);\n}\n'
)
GOOD_TEST = (
    "use pv::validate;\n\n#[test]\nfn no_uppercase() {\n"
    '    assert_eq!(\n        validate("abcdefg1!"),\n'
    '        vec!["must contain an uppercase letter"]\n    );\n}\n'
)  # as rustfmt leaves it: the test's own workspace here formats nothing
UPPER = KEPT.replace(
    "    vec![]\n}",
    "    if !password.chars().any(char::is_uppercase) {\n"
    '        return vec!["must contain an uppercase letter".to_string()];\n    }\n    vec![]\n}',
)


def _verdict(output: str, returncode: int = 101, name: str = "lint") -> Verdict:
    step = StepOutcome(name=name, cmd=["cargo", "clippy"], returncode=returncode,
                       timed_out=False, duration_s=0.0, output_tail=output)  # fmt: skip
    return Verdict(tree="t", key="k", green=False, steps=[step], report=TestReport(exit_code=101),
                   test_names=[], duration_s=0.0, created_at=0.0)  # fmt: skip


def test_a_lint_in_the_new_test_is_the_testers_with_clippys_help() -> None:
    why = lints_in_test(_verdict(CLIPPY), ["tests/no_rule.rs"])
    assert why == (
        "the linter rejects the new test, and only the tester may change tests: used `assert_eq!` "
        "with a literal bool (tests/no_rule.rs:5:5); replace it with `assert!(..)`. Write the "
        "test so the lint step passes"
    )


@pytest.mark.parametrize(
    ("output", "returncode", "name"),
    [
        (CLIPPY, 101, "lint"),  # another file: not this test's
        (CLIPPY, 0, "lint"),  # the lint step passed
        (CLIPPY, 101, "test"),  # not the lint step
        ("error[E0425]: cannot find function `validate` in this scope\n --> tests/x.rs:3:5\n",
         101, "lint"),  # a compile error, not a lint: the implementor's to remove
    ],
)  # fmt: skip
def test_what_is_not_a_lint_in_the_new_test_is_left_alone(
    output: str, returncode: int, name: str
) -> None:
    verdict = _verdict(output, returncode, name)
    assert lints_in_test(verdict, ["tests/x.rs"]) is None


def test_a_linter_that_writes_one_line_per_finding_counts_too() -> None:
    output = "tests/test_x.py:1:8: F401 [*] `os` imported but unused\nFound 1 error.\n"
    why = lints_in_test(_verdict(output), ["tests/test_x.py"])
    assert why is not None
    assert "F401 [*] `os` imported but unused (tests/test_x.py:1:8)" in why


@pytest.mark.cargo
def test_the_tester_is_told_and_its_lint_clean_test_is_handed_over(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(make_repo, monkeypatch, KEPT)
    models = _models((UPPER,), tests=(BOOL_TEST, GOOD_TEST), test_path="tests/no_uppercase.rs")

    one_cycle(repo, models)

    assert len(models["tester"].asked) == 2
    told = models["tester"].asked[1].user
    assert "the linter rejects the new test" in told
    assert "used `assert_eq!` with a literal bool (tests/no_uppercase.rs:5:5)" in told
    assert len(models["implementor"].asked) == 1
    assert git(repo, "show", "HEAD:tests/no_uppercase.rs").stdout == GOOD_TEST


@pytest.mark.cargo
def test_before_the_function_exists_the_lint_is_found_against_the_interface(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tddhooks.drive.interface import interface_mismatch
    from tddhooks.drive.ports import RealGate
    from tddhooks.policy.settings import load_settings

    repo = _repo(make_repo, monkeypatch, "//! The pv kata.\n")
    write_files(repo, {"tests/no_uppercase.rs": BOOL_TEST})
    git(repo, "add", "tests/no_uppercase.rs")
    settings = load_settings(repo)
    verdict = RealGate().staged(repo, settings)
    assert verdict.report.compile_errors  # validate does not exist yet: the real red is E0432
    assert lints_in_test(verdict, ["tests/no_uppercase.rs"]) is None

    why = interface_mismatch(RealGate(), repo, settings, KATA, ["tests/no_uppercase.rs"], verdict)

    assert why is not None
    assert "used `assert_eq!` with a literal bool (tests/no_uppercase.rs:5:5)" in why


@pytest.mark.parametrize(
    ("path", "text", "count"),
    [
        ("tests/t.rs", "assert!(a);\nassert_eq!(b, c);\nassert_ne!(d, e);\ndebug_assert!(f);\n", 4),
        ("tests/t.rs", "// assert_eq!(commented, out);\n/* assert!(x) */\nassert!(y);\n", 1),
        ("tests/t.rs", 'let s = "assert!(in a string)";\n', 1),  # literals are not skipped
        ("tests/test_t.py", "def test_t():\n    assert f(1) == 1\n    assert f(2) == 2\n", 2),
        ("tests/test_t.py", "with pytest.raises(ValueError):\n    self.assertEqual(1, 1)\n", 2),
        ("README.md", "assert!(x);\n", 0),
    ],
)
def test_the_assertions_of_a_test_file_are_counted(path: str, text: str, count: int) -> None:
    assert checks(path, text) == count


def test_only_the_assertions_a_test_file_gains_count_toward_the_limit() -> None:
    five = "".join(f'    assert_eq!(say({n}), "{n}");\n' for n in range(1, 6))
    assert too_many_checks([("tests/a.rs", None, five)]) is not None
    assert (
        too_many_checks([("tests/a.rs", None, five.replace("assert_eq!(say(5)", "f(say(5)"))])
        is None
    )
    # unit tests beside the code: the file's earlier assertions are not the new test's
    assert too_many_checks([("src/lib.rs", five, five + "    assert!(x);\n")]) is None
    # split over two files, still one answer's new test
    assert (
        too_many_checks([("tests/a.rs", None, five[:120]), ("tests/b.rs", None, five)]) is not None
    )
