"""RustRunner.parse_test_output on real `cargo test` output captured from tiny crates.

Each capture exists twice: as proc.ProcResult.output gives it (stdout, then stderr) and with the
streams merged in time order (`2>&1`); both must read the same. See data/README.md.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tddhooks.runners.base import TestReport
from tddhooks.runners.rust import RustRunner

DATA = Path(__file__).parent / "data"
BOTH_LAYOUTS = pytest.mark.parametrize("layout", ["", "_merged"])


def parse(name: str, exit_code: int) -> TestReport:
    return RustRunner().parse_test_output(
        DATA.joinpath(f"{name}.txt").read_text("utf-8"), exit_code
    )


@BOTH_LAYOUTS
def test_green_run_over_two_binaries_and_doctests(layout: str) -> None:
    report = parse(f"rust_green{layout}", 0)
    assert report.green
    assert (report.passed, report.failed, report.ignored) == (5, 0, 1)
    assert sorted(report.passing_tests) == [
        "src/lib.rs - add (line 5)",
        "tests/adds.rs::adds_négatives",
        "tests/adds.rs::adds_two",
        "tests/ignored.rs::overflow_panics",
        "tests::adds_in_unit",
    ]
    assert report.failing_tests == []
    assert report.error_lines == []
    assert report.summary() == "5 passed, 0 failed, 1 ignored"


@BOTH_LAYOUTS
def test_failing_assertion_and_panics_are_named_with_their_message(layout: str) -> None:
    report = parse(f"rust_failing{layout}", 101)
    assert not report.green
    assert (report.passed, report.failed, report.ignored) == (4, 3, 1)
    assert sorted(report.failing_tests) == [
        "tests/adds.rs::adds_two",
        "tests/panics.rs::explodes",
        "tests/panics.rs::unwraps_none",
    ]
    assert "tests/adds.rs::adds_négatives" in report.passing_tests
    assert report.compile_errors == []
    lines = report.error_lines
    assert (
        "tests/adds.rs::adds_two: panicked at tests/adds.rs:5:5: assertion `left == right` failed"
    ) in lines
    assert "  left: 2" in lines
    assert "  right: 3" in lines
    assert (
        "tests/panics.rs::explodes: panicked at tests/panics.rs:6:9: "
        "the calculator exploded: ünïcode"
    ) in lines
    assert any(line.startswith("tests/panics.rs::unwraps_none: panicked at") for line in lines)
    assert not any("RUST_BACKTRACE" in line for line in lines)


@BOTH_LAYOUTS
def test_compile_error_in_a_test_file_is_located_in_that_file(layout: str) -> None:
    report = parse(f"rust_compile_test{layout}", 101)
    assert not report.green
    assert report.summary() == "does not compile (2 error(s))"
    assert report.compile_errors == [
        "tests/subtracts.rs:5:22: error[E0425]: cannot find function `subtract` in crate `kata`",
        "tests/subtracts.rs:7:13: error[E0425]: cannot find function `multiply` in this scope",
    ]
    assert report.error_lines[:2] == [
        "error[E0425]: cannot find function `subtract` in crate `kata`",
        " --> tests/subtracts.rs:5:22",
    ]
    assert report.passed == report.failed == 0


@BOTH_LAYOUTS
def test_compile_errors_in_src_are_listed_once_each(layout: str) -> None:
    report = parse(f"rust_compile_src{layout}", 101)
    assert report.compile_errors == [
        "src/lib.rs:5:13: error[E0425]: cannot find value `undefined_thing` in this scope",
        "src/lib.rs:9:21: error[E0308]: mismatched types",
        "src/lib.rs:10:5: error[E0308]: mismatched types",
    ]
    assert not any("could not compile" in error for error in report.compile_errors)


def test_timeout_keeps_what_finished_and_names_the_binary_still_running() -> None:
    report = parse("rust_timeout", 124)
    assert report.timed_out
    assert not report.green
    assert report.summary() == "timed out"
    assert "tests/slow.rs::quick" in report.passing_tests
    assert report.error_lines == [
        "[tddhooks] killed after 8s timeout: cargo test --all --no-fail-fast",
        "tests/slow.rs: still running when it was killed",
    ]


def test_output_tail_is_the_last_forty_lines() -> None:
    text = DATA.joinpath("rust_failing.txt").read_text("utf-8")
    tail = RustRunner().parse_test_output(text, 101).output_tail
    assert tail.splitlines() == text.rstrip().splitlines()[-40:]


SYNTHETIC = [
    # (output, exit code, expected failing, expected compile errors, expected error line)
    pytest.param(
        "cargo: command not found (is it installed and on PATH?)\n",
        127,
        [],
        [],
        "cargo: command not found (is it installed and on PATH?)",
        id="missing-cargo",
    ),
    pytest.param(
        "     Running unittests src/lib.rs (target/debug/deps/k-1)\n\nrunning 1 test\n"
        "test tests::ünïcode ... FAILED\n\nfailures:\n\n---- tests::ünïcode stdout ----\n"
        "thread 'tests::ünïcode' panicked at 'boom', src/lib.rs:9:5\n\nfailures:\n"
        "    tests::ünïcode\n\ntest result: FAILED. 0 passed; 1 failed; 0 ignored; "
        "0 measured; 0 filtered out\n",
        101,
        ["tests::ünïcode"],
        [],
        "tests::ünïcode: panicked at src/lib.rs:9:5: boom",
        id="old-panic-format-unit-test",
    ),
    pytest.param(
        "     Running tests/a.rs (target/debug/deps/a-1)\n\nrunning 1 test\ntest crash ... \n"
        "error: test failed, to rerun pass `--test a`\n\nCaused by:\n"
        "  process didn't exit successfully: `a-1` (signal: 6, SIGABRT: process abort signal)\n",
        101,
        [],
        [],
        "process didn't exit successfully: `a-1` (signal: 6, SIGABRT: process abort signal)",
        id="crashed-binary",
    ),
    pytest.param(
        "error: failed to parse manifest at `/k/Cargo.toml`\n\n"
        "Caused by:\n  missing field `name`\n",
        101,
        [],
        ["error: failed to parse manifest at `/k/Cargo.toml`"],
        "error: failed to parse manifest at `/k/Cargo.toml`",
        id="broken-manifest",
    ),
]


@pytest.mark.parametrize(("output", "code", "failing", "errors", "line"), SYNTHETIC)
def test_unusual_outputs(
    output: str, code: int, failing: list[str], errors: list[str], line: str
) -> None:
    report = RustRunner().parse_test_output(output, code)
    assert not report.green
    assert report.failing_tests == failing
    assert report.compile_errors == errors
    assert line in report.error_lines


def test_doctest_compile_failure_is_a_failing_doctest_not_a_crate_compile_error() -> None:
    output = (
        "   Doc-tests k\n\nrunning 1 test\ntest src/lib.rs - add (line 3) ... FAILED\n\n"
        "failures:\n\n---- src/lib.rs - add (line 3) stdout ----\n"
        "error[E0425]: cannot find function `nope` in this scope\n --> src/lib.rs:4:1\n\n"
        "failures:\n    src/lib.rs - add (line 3)\n\n"
        "test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out\n\n"
        "error: doctest failed, to rerun pass `--doc`\n"
    )
    report = RustRunner().parse_test_output(output, 101)
    assert report.compile_errors == []
    assert report.failing_tests == ["src/lib.rs - add (line 3)"]
    assert report.error_lines[0] == "src/lib.rs - add (line 3): failed"
    assert "error[E0425]: cannot find function `nope` in this scope" in report.error_lines[1]


@BOTH_LAYOUTS
def test_ignored_tests_are_named(layout: str) -> None:
    report = parse(f"rust_green{layout}", 0)
    assert report.ignored_tests == ["tests/ignored.rs::later"]
