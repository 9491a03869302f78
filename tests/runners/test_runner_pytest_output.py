"""PythonRunner.parse_test_output on real pytest output captured from tiny projects."""

from __future__ import annotations

from pathlib import Path

import pytest

from tddhooks.runners.base import TestReport
from tddhooks.runners.python import PythonRunner

DATA = Path(__file__).parent / "data"


def parse(name: str, exit_code: int) -> TestReport:
    text = DATA.joinpath(f"python_{name}.txt").read_text("utf-8")
    return PythonRunner().parse_test_output(text, exit_code)


def test_green_run_names_every_passing_test_and_counts_skips_and_xfails_as_ignored() -> None:
    report = parse("green", 0)
    assert report.green
    assert (report.passed, report.failed, report.ignored) == (5, 0, 2)
    assert report.passing_tests == [
        "tests/test_add.py::test_adds_two",
        "tests/test_add.py::test_adds_ünïcode",
        "tests/test_add.py::test_adds_many[1-2-3]",
        "tests/test_add.py::test_adds_many[0-0-0]",
        "tests/test_add.py::TestCalculator::test_zero",
    ]
    assert report.error_lines == []


def test_failures_and_fixture_errors_are_failing_tests_with_their_location() -> None:
    report = parse("failing", 1)
    assert not report.green
    assert (report.passed, report.failed, report.ignored) == (5, 3, 2)
    assert report.failing_tests == [
        "tests/test_fail.py::test_adds_wrong",
        "tests/test_fail.py::test_raises",
        "tests/test_fail.py::test_uses_broken",
    ]
    assert report.compile_errors == []
    assert report.error_lines == [
        "tests/test_fail.py::test_adds_wrong: failed at tests/test_fail.py:7: assert 4 == 5",
        "  +  where 4 = add(2, 2)",
        "tests/test_fail.py::test_raises: failed at tests/test_fail.py:11: ValueError: bad value ✗",
        "tests/test_fail.py::test_uses_broken: failed at tests/test_fail.py:16: "
        "RuntimeError: fixture exploded",
    ]


def test_import_error_in_a_test_module_is_a_compile_error_located_in_the_test() -> None:
    report = parse("collect", 2)
    assert not report.green
    assert len(report.compile_errors) == 1
    assert report.compile_errors[0].startswith(
        "tests/test_sub.py:1: ImportError: cannot import name 'subtract' from 'kata'"
    )
    assert report.failed == 0
    # Python words: a module pytest cannot collect does not import (it is not compiled)
    assert report.summary() == "does not import (1 collection error(s))"
    assert report.build_failure == "does not import"


def test_syntax_error_in_the_source_names_the_test_that_imports_it_and_the_file() -> None:
    report = parse("syntax", 2)
    (error,) = report.compile_errors
    assert error.startswith("tests/test_add.py:3: SyntaxError: expected ':' (in ")
    assert error.endswith("/src/kata/__init__.py:1)")


def test_syntax_error_in_a_test_module_points_at_its_line() -> None:
    report = parse("syntax_test", 2)
    assert report.compile_errors == ["tests/test_bad.py:1: SyntaxError: invalid syntax"]


def test_no_tests_collected_is_its_own_state_on_a_fresh_project() -> None:
    report = parse("empty", 5)
    assert report.green  # nothing red to keep out of a commit
    assert report.no_tests
    assert report.exit_code == 0
    assert report.summary() == "no tests found"


@pytest.mark.parametrize(
    ("output", "code", "expected_line"),
    [
        pytest.param(
            "/usr/bin/python3: No module named pytest\n",
            1,
            "/usr/bin/python3: No module named pytest (install pytest for that Python, "
            "or set the command in tdd.yaml `ci:`)",
            id="pytest-missing",
        ),
        pytest.param(
            "..\n[tddhooks] killed after 5s timeout: python -m pytest\n",
            124,
            "[tddhooks] killed after 5s timeout: python -m pytest",
            id="timeout",
        ),
        pytest.param(
            "ERROR: file or directory not found: tests/nöpe.py\n\nno tests ran in 0.01s\n",
            4,
            "ERROR: file or directory not found: tests/nöpe.py",
            id="usage-error-falls-back-to-last-lines",
        ),
    ],
)
def test_unusual_outputs_are_red_with_a_readable_line(
    output: str, code: int, expected_line: str
) -> None:
    report = PythonRunner().parse_test_output(output, code)
    assert not report.green
    assert expected_line in report.error_lines


def test_exit_code_five_with_a_failure_is_not_turned_green() -> None:
    output = (
        "=== short test summary info ===\nFAILED t_test.py::test_x - assert 0\n1 failed in 0.1s\n"
    )
    assert not PythonRunner().parse_test_output(output, 5).green


def test_counts_fall_back_to_summary_lines_when_the_final_line_is_missing() -> None:
    output = (
        "=========================== short test summary info ============================\n"
        "PASSED tests/test_a.py::test_ok\nFAILED tests/test_a.py::test_bad - assert 1 == 2\n"
    )
    report = PythonRunner().parse_test_output(output, 1)
    assert (report.passed, report.failed) == (1, 1)
    assert report.error_lines == ["tests/test_a.py::test_bad: failed: assert 1 == 2"]


def test_verbose_run_names_skipped_and_xfailed_tests_however_spelled() -> None:
    # from pytest import mark / @mark.skip, @pt.mark.xfail, pytest.skip() inside, a skipped param
    report = parse("verbose_skips", 0)
    assert report.green
    assert report.ignored_tests == [
        "tests/test_a.py::test_marked",
        "tests/test_a.py::test_xf",
        "tests/test_a.py::test_inside",
        "tests/test_a.py::TestK::test_p[2]",
    ]
    assert report.passing_tests == [
        "tests/test_a.py::test_runs",
        "tests/test_a.py::TestK::test_p[1]",
    ]


def test_a_quiet_run_still_names_its_xfails() -> None:
    report = parse("green", 0)
    assert all("::" in name for name in report.ignored_tests)
    assert len(report.ignored_tests) <= report.ignored
