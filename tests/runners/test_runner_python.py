"""PythonRunner: static test names, package names, skip markers, env, commands and the scaffold."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from support.repo import git, write_files

from tddhooks import proc
from tddhooks.git import clean_env
from tddhooks.runners.python import PythonRunner, is_test_module, project_names

CLASS_TESTS = """
import unittest

class TestCalculator:
    def test_adds(self):
        pass

    def helper(self):
        pass

    class TestNested:
        def test_deep(self):
            pass

class TestWithInit:
    def __init__(self):
        pass

    def test_never_collected(self):
        pass

class Scores(unittest.TestCase):
    def test_strike(self):
        pass

def test_top():
    pass

async def test_async():
    pass

def helper_test():
    pass
"""

NAME_CASES = [
    pytest.param(
        {"tests/test_calc.py": CLASS_TESTS},
        {
            "tests/test_calc.py::TestCalculator::test_adds",
            "tests/test_calc.py::TestCalculator::TestNested::test_deep",
            "tests/test_calc.py::Scores::test_strike",
            "tests/test_calc.py::test_top",
            "tests/test_calc.py::test_async",
        },
        id="functions-classes-unittest",
    ),
    pytest.param(
        {"test_ünïcode.py": "def test_größe():\n    assert True\n"},
        {"test_ünïcode.py::test_größe"},
        id="non-ascii-root-module",
    ),
    pytest.param(
        {"tests/calc_test.py": "def test_a(): pass\n", "tests/helpers.py": "def test_b(): pass\n"},
        {"tests/calc_test.py::test_a"},
        id="only-modules-pytest-collects",
    ),
    pytest.param(
        {
            "tests/test_half.py": "def test_done():\n    pass\n\nclass TestX:\n"
            "    def test_m(self):\n        assert add(\n\ndef test_after(:\n"
        },
        {
            "tests/test_half.py::test_done",
            "tests/test_half.py::TestX::test_m",
            "tests/test_half.py::test_after",
        },
        id="syntax-error-falls-back-to-lines",
    ),
    pytest.param({"tests/test_empty.py": ""}, set(), id="empty"),
]


@pytest.mark.parametrize(("files", "expected"), NAME_CASES)
def test_static_test_names(files: dict[str, str], expected: set[str]) -> None:
    assert PythonRunner().test_names(files) == expected


@pytest.mark.parametrize(
    ("path", "collected"),
    [
        ("tests/test_a.py", True),
        ("a_test.py", True),
        ("tests/conftest.py", False),
        ("src/kata/test.py", False),
        ("tests/test_a.txt", False),
    ],
)
def test_is_test_module(path: str, collected: bool) -> None:
    assert is_test_module(path) is collected


@pytest.mark.parametrize(
    ("project", "expected"),
    [
        ("bowling", ("bowling", "bowling")),
        ("Bowling Kata", ("bowling-kata", "bowling_kata")),
        ("Mars-Rover", ("mars-rover", "mars_rover")),
        ("Größe", ("grosse", "grosse")),
        ("2048", ("kata-2048", "kata_2048")),
        ("string", ("string-kata", "string_kata")),
        ("class", ("class-kata", "class_kata")),
        ("tests", ("tests-kata", "tests_kata")),
        ("", ("kata", "kata")),
    ],
)
def test_project_names(project: str, expected: tuple[str, str]) -> None:
    assert project_names(project) == expected


@pytest.mark.parametrize(
    ("line", "skips"),
    [
        ("@pytest.mark.skip", True),
        ('@pytest.mark.skipif(sys.platform == "win32", reason="x")', True),
        ("@pytest.mark.xfail(reason='later')", True),
        ("    pytest.skip('not yet')", True),
        ("    pytest.xfail('no')", True),
        ("@unittest.skip('größer')", True),
        ("@unittest.expectedFailure", True),
        ("@skip('later')", True),
        ("np = pytest.importorskip('numpy')", True),
        ("def test_skips_the_gutter():", False),
        ("skip = 3", False),
        ("@pytest.mark.parametrize('a', [1])", False),
    ],
)
def test_skip_markers(line: str, skips: bool) -> None:
    assert any(marker.search(line) for marker in PythonRunner.skip_markers) is skips


def test_commands_use_this_interpreter_and_print_node_ids() -> None:
    commands = PythonRunner().default_commands()
    assert commands.test[:3] == (sys.executable, "-m", "pytest")
    assert "-rfEsxXp" in commands.test
    assert commands.lint == (sys.executable, "-m", "ruff", "check", ".")
    assert commands.fmt_check == (sys.executable, "-m", "ruff", "format", "--check", ".")
    assert PythonRunner().env(Path("/ignored")) == {"PYTHONDONTWRITEBYTECODE": "1"}


def test_toolchain_version_names_python_pytest_and_ruff() -> None:
    version = PythonRunner().toolchain_version()
    assert version.startswith(f"Python {sys.version.split()[0]}; pytest ")
    assert "; ruff " in version


def test_scaffold_never_overwrites(tmp_path: Path) -> None:
    write_files(tmp_path, {"pyproject.toml": "# mine\n"})
    written = PythonRunner().scaffold(tmp_path, "Bowling Kata")
    assert written == ["src/bowling_kata/__init__.py", "tests/.gitkeep"]
    assert (tmp_path / "pyproject.toml").read_text(encoding="utf-8") == "# mine\n"
    assert PythonRunner().scaffold(tmp_path, "Bowling Kata") == []


def _run(runner: PythonRunner, command: tuple[str, ...], cwd: Path) -> proc.ProcResult:
    return proc.run(command, cwd=cwd, env=clean_env(runner.env(None)), timeout_s=120)


@pytest.mark.pygate
def test_scaffold_is_green_for_real_then_a_failing_test_is_named(tmp_path: Path) -> None:
    runner = PythonRunner()
    repo = tmp_path / "bowling"
    repo.mkdir()
    assert runner.scaffold(repo, "Bowling Kata") == [
        "pyproject.toml",
        "src/bowling_kata/__init__.py",
        "tests/.gitkeep",
    ]
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "chore: scaffold")
    commands = runner.default_commands()
    for command in (commands.fmt_check, commands.lint):
        result = _run(runner, command, repo)
        assert result.ok, result.output
    result = _run(runner, commands.test, repo)
    assert result.returncode == 5  # pytest: no tests collected
    assert runner.parse_test_output(result.output, result.returncode).green

    test_file = (
        "import bowling_kata\n\n\ndef test_package_imports():\n    assert bowling_kata\n\n\n"
        "def test_gutter_gäme():\n    assert 1 + 1 == 3\n"
    )
    write_files(repo, {"tests/test_game.py": test_file})
    result = _run(runner, commands.test, repo)
    report = runner.parse_test_output(result.output, result.returncode)
    assert not report.green
    assert report.failing_tests == ["tests/test_game.py::test_gutter_gäme"]
    assert report.passing_tests == ["tests/test_game.py::test_package_imports"]
    assert report.error_lines[0] == (
        "tests/test_game.py::test_gutter_gäme: failed at tests/test_game.py:9: assert (1 + 1) == 3"
    )
    assert runner.test_names({"tests/test_game.py": test_file}) == {
        *report.failing_tests,
        *report.passing_tests,
    }
    # no bytecode or pytest cache left behind: only the new test is untracked
    assert git(repo, "status", "--porcelain").stdout == "?? tests/test_game.py\n"
