"""No tests is its own state, never "every test passes"; test modules pytest does not collect are
named with the configuration line that collects them (pure)."""

from __future__ import annotations

from tddhooks.runners.libtest import parse_cargo_test
from tddhooks.runners.pytest_output import parse_pytest
from tddhooks.runners.python_items import collect_fix, uncollected_test_modules

UNITTEST = (
    "import unittest\n\nfrom leapyear.leap import is_leap\n\n\n"
    "class LeapTest(unittest.TestCase):\n    def test_1996(self):\n"
    "        self.assertTrue(is_leap(1996))\n"
)


def test_pytest_exit_5_and_cargo_0_tests_are_no_tests_found() -> None:
    empty = parse_pytest("no tests ran in 0.01s\n", 5)
    assert empty.no_tests
    assert empty.summary() == "no tests found"
    cargo = parse_cargo_test(
        "running 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; "
        "0 filtered out; finished in 0.00s\n",
        0,
    )
    assert cargo.no_tests
    assert cargo.summary() == "no tests found"
    ran = parse_pytest("tests/test_a.py::test_a PASSED\n1 passed in 0.01s\n", 0)
    assert not ran.no_tests


def test_unittest_style_modules_pytest_does_not_collect() -> None:
    files = {
        "leapyear/tests.py": UNITTEST,
        "leapyear/leap.py": "def is_leap(year):\n    return year % 4 == 0\n",
        "helpers/testing.py": "X = 1\n",  # a test-like name without tests
        "tests/test_ok.py": "def test_ok():\n    pass\n",
    }
    assert uncollected_test_modules(files) == ["leapyear/tests.py"]
    fix = collect_fix(["leapyear/tests.py"], files)
    assert fix == (
        'add `python_files = ["test_*.py", "*_test.py", "test*.py"]` under '
        "[tool.pytest.ini_options] in pyproject.toml"
    )
    configured = {
        **files,
        "pyproject.toml": '[tool.pytest.ini_options]\npython_files = ["test_*.py", "tests.py"]\n',
    }
    assert uncollected_test_modules(configured) == []
