"""The Python runner: ruff format, ruff check, pytest; a src-layout scaffold, no dependencies."""

from __future__ import annotations

import ast
import keyword
import re
import sys
from collections.abc import Iterator, Mapping
from fnmatch import fnmatchcase
from functools import cache
from pathlib import Path

from tddhooks.runners.common import FALLBACK_NAME, name_words, write_scaffold

TYPE_CHECKING = False  # not typing's: importing typing costs the hook path ~10 ms; mypy reads it
if TYPE_CHECKING:
    from tddhooks.runners.base import RunnerCommands, TestReport

# pytest's default python_files: the only modules it collects tests from
TEST_FILE_PATTERNS = ("test_*.py", "*_test.py")
# a package with one of these names would shadow what the tests themselves import
_SHADOWING = frozenset({"test", "tests", "conftest", "pytest", "src", "ruff"})
_FALLBACK_DEF = re.compile(r"^(?P<indent>[ \t]*)(?:async\s+)?def\s+(?P<name>test\w*)\s*\(")
_FALLBACK_CLASS = re.compile(r"^class\s+(?P<name>\w+)")


def is_test_module(path: str) -> bool:
    """Whether pytest (default settings) collects tests from this file."""
    name = path.rsplit("/", 1)[-1]
    return any(fnmatchcase(name, pattern) for pattern in TEST_FILE_PATTERNS)


def is_test_class(node: ast.ClassDef) -> bool:
    """pytest collects Test* classes without __init__, and every unittest.TestCase subclass."""
    bases = [ast.unparse(base) for base in node.bases]
    if any(base.endswith("TestCase") for base in bases):
        return True
    has_init = any(
        isinstance(item, ast.FunctionDef) and item.name == "__init__" for item in node.body
    )
    return node.name.startswith("Test") and not has_init


def _tests_in(body: list[ast.stmt], prefix: str) -> Iterator[str]:
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            if node.name.startswith("test"):
                yield f"{prefix}::{node.name}"
        elif isinstance(node, ast.ClassDef) and is_test_class(node):
            yield from _tests_in(node.body, f"{prefix}::{node.name}")


def _tests_by_lines(path: str, text: str) -> Iterator[str]:
    """Best effort for a file that does not parse (a red test may be half written)."""
    owner: str | None = None
    for line in text.splitlines():
        klass = _FALLBACK_CLASS.match(line)
        if klass:
            owner = klass["name"] if klass["name"].startswith("Test") else None
            continue
        match = _FALLBACK_DEF.match(line)
        if match and not match["indent"]:
            owner = None
            yield f"{path}::{match['name']}"
        elif match and owner:
            yield f"{path}::{owner}::{match['name']}"
        elif line.strip() and not line[0].isspace() and not line.startswith(("@", "#")):
            owner = None


def python_test_names(files: Mapping[str, str]) -> set[str]:
    """pytest node ids ('<path>::<name>', '<path>::<Class>::<name>') of the modules given that
    pytest collects: its python_files patterns come from a pyproject.toml / pytest.ini among
    `files` when one is given, else pytest's defaults."""
    from tddhooks.runners.python_items import collected, python_files

    patterns = python_files(files)
    names: set[str] = set()
    for path, text in files.items():
        if not collected(path, patterns):
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, MemoryError, RecursionError):
            names.update(_tests_by_lines(path, text))
            continue
        names.update(_tests_in(tree.body, path))
    return names


def project_names(project_name: str) -> tuple[str, str]:
    """(distribution, package) names: "Bowling Kata" -> ("bowling-kata", "bowling_kata")."""
    words = name_words(project_name) or [FALLBACK_NAME]
    if words[0][0].isdigit():
        words.insert(0, FALLBACK_NAME)
    package = "_".join(words)
    if keyword.iskeyword(package) or package in sys.stdlib_module_names or package in _SHADOWING:
        words.append(FALLBACK_NAME)
        package = "_".join(words)
    return "-".join(words), package


@cache
def _toolchain_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    parts = [f"Python {sys.version.split()[0]}"]
    for tool in ("pytest", "ruff"):
        try:
            parts.append(f"{tool} {version(tool)}")
        except PackageNotFoundError:
            parts.append(f"{tool}: not installed")
    return "; ".join(parts)


class PythonRunner:
    """ruff and pytest, run by the Python that runs tddhooks (`python -m ...`)."""

    name = "python"
    test_globs: tuple[str, ...] = ("tests/**", "test_*.py", "*_test.py")
    source_globs: tuple[str, ...] = ("src/**", "*.py")
    # aliases included: `from pytest import mark` + `@mark.skip`, `@pt.mark.skip`, `@m.xfail`
    skip_markers: tuple[re.Pattern[str], ...] = (
        re.compile(r"@\s*[\w.]*\b(?:skip|skipif|xfail|skipIf|skipUnless|expectedFailure)\b"),
        re.compile(r"\bmark\s*\.\s*(?:skip|skipif|xfail)\b"),
        re.compile(r"\b\w+\s*\.\s*(?:skip|xfail|importorskip|skipTest)\s*\("),
        re.compile(r"\bfrom\s+(?:pytest|unittest)\s+import\b.*\b(?:skip\w*|xfail|SkipTest)\b"),
        re.compile(r"unittest\.(?:skip|skipIf|skipUnless|expectedFailure)\b"),
        re.compile(r"\braise\s+[\w.]*SkipTest\b"),
        re.compile(r"^\s*__test__\s*=\s*False\b"),
        re.compile(r"^\s*collect_ignore(?:_glob)?\b"),
    )
    tool_names: tuple[str, ...] = ("python", "pytest", "ruff")

    def default_commands(self) -> RunnerCommands:
        """ruff format --check, ruff check, and pytest with a per-test summary."""
        from tddhooks.runners.base import RunnerCommands

        python = sys.executable
        return RunnerCommands(
            fmt_check=(python, "-m", "ruff", "format", "--check", "."),
            fmt_fix=(python, "-m", "ruff", "format", "."),
            lint=(python, "-m", "ruff", "check", "."),
            # -rfEsxXp: one summary line per test with its node id, without the PASSES output;
            # -v: one line per test, the only place pytest names a skipped test (no-skip rule)
            test=(python, "-m", "pytest", "-v", "-rfEsxXp", "-p", "no:cacheprovider"),
            timeout_s=300.0,
            lint_fix=(python, "-m", "ruff", "check", "--fix", "--quiet", "."),
        )

    def env(self, target_dir: Path | None) -> dict[str, str]:
        """No __pycache__ left in the repository; target_dir has no meaning for Python."""
        return {"PYTHONDONTWRITEBYTECODE": "1"}

    def parse_test_output(self, output: str, exit_code: int) -> TestReport:
        """Counts, node ids, assertion lines and collection errors from pytest output."""
        from tddhooks.runners.pytest_output import parse_pytest  # off the commit-msg path

        return parse_pytest(output, exit_code)

    def test_names(self, files: Mapping[str, str]) -> set[str]:
        """Static pytest node ids of the test functions and methods in test modules."""
        return python_test_names(files)

    def toolchain_version(self) -> str:
        """Python, pytest and ruff versions of the interpreter that runs the commands."""
        return _toolchain_version()

    def scaffold(self, dest: Path, project_name: str) -> list[str]:
        """pyproject.toml, src/<package>/__init__.py, tests/.gitkeep: green from the start."""
        distribution, package = project_names(project_name)
        return write_scaffold("python", dest, {"project": distribution, "package": package})
