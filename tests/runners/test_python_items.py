"""Which Python modules pytest collects, and which lines of a module are test items."""

from __future__ import annotations

from tddhooks.runners.python import python_test_names
from tddhooks.runners.python_items import (
    DEFAULT_PATTERNS,
    collected,
    item_spans,
    item_spans_lenient,
    python_files,
)

MODULE = """\
import pytest


def add(a, b):
    return a + b


@pytest.fixture
def numbers():
    return [1, 2]


def test_add():
    assert add(1, 2) == 3


class TestAdd:
    def test_zero(self):
        assert add(0, 0) == 0


def after():
    pass
"""


def test_test_items_with_their_decorators() -> None:
    assert item_spans(MODULE) == ((8, 10), (13, 14), (17, 19))


def test_a_module_that_does_not_parse_gets_a_line_based_guess() -> None:
    broken = "def add(a, b):\n    return a +\n\n@mark\ndef test_add():\n    assert add(\n"
    assert item_spans(broken) is None
    assert item_spans_lenient(broken) == ((4, 6),)


def test_python_files_from_pyproject_and_pytest_ini() -> None:
    pyproject = '[tool.pytest.ini_options]\npython_files = ["*.py"]\n'
    assert python_files({"pyproject.toml": pyproject}) == ("*.py",)
    assert python_files({"pyproject.toml": "[project]\nname='x'\n"}) == DEFAULT_PATTERNS
    ini = "[pytest]\npython_files = check_*.py test_*.py\n"
    assert python_files({"pytest.ini": ini, "pyproject.toml": pyproject}) == (
        "check_*.py",
        "test_*.py",
    )
    assert python_files({"setup.cfg": "[tool:pytest]\npython_files = *.py\n"}) == ("*.py",)
    assert python_files({"pyproject.toml": "not = [toml"}) == DEFAULT_PATTERNS


def test_collected_modules() -> None:
    assert collected("src/pkg/test_x.py")
    assert collected("x_test.py")
    assert not collected("src/pkg/calc.py")
    assert collected("src/pkg/calc.py", ("*.py",))


def test_names_follow_the_configured_python_files() -> None:
    files = {"src/pkg/calc.py": MODULE}
    assert python_test_names(files) == set()
    files["pyproject.toml"] = '[tool.pytest.ini_options]\npython_files = "*.py"\n'
    assert python_test_names(files) == {
        "src/pkg/calc.py::test_add",
        "src/pkg/calc.py::TestAdd::test_zero",
    }
