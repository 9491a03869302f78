"""Which lines of a Python module are tests, and which modules pytest collects (pure).

pytest collects test functions and `Test*` classes from the modules its `python_files` patterns
match (default `test_*.py` and `*_test.py`); a project may widen them (`python_files = ["*.py"]`
in `[tool.pytest.ini_options]`) so tests sit beside the code. In such a module the rules judge
the test items and the code items apart.
"""

from __future__ import annotations

import ast
import configparser
import re
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from fnmatch import fnmatchcase

from tddhooks.runners.python import is_test_class

# pytest's default python_files
DEFAULT_PATTERNS = ("test_*.py", "*_test.py")
# the configuration files pytest reads, and the section that holds its options in each
_INI_FILES = (("pytest.ini", "pytest"), ("tox.ini", "pytest"), ("setup.cfg", "tool:pytest"))
CONFIG_FILES = ("pyproject.toml", *(name for name, _section in _INI_FILES))


def _split(value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        return tuple(value.split())
    if isinstance(value, list):
        return tuple(str(item) for item in value)
    return ()


def python_files(files: Mapping[str, str]) -> tuple[str, ...]:
    """pytest's python_files patterns from the top-level configuration among `files` (path ->
    text), in pytest's own order of precedence; the defaults when none sets them."""
    for name, section in _INI_FILES[:1]:
        found = _ini_patterns(files.get(name), section, required=True)
        if found is not None:
            return found or DEFAULT_PATTERNS
    text = files.get("pyproject.toml")
    if text is not None:
        try:
            options = tomllib.loads(text).get("tool", {}).get("pytest", {}).get("ini_options")
        except tomllib.TOMLDecodeError:
            options = None
        if isinstance(options, dict):
            return _split(options.get("python_files")) or DEFAULT_PATTERNS
    for name, section in _INI_FILES[1:]:
        found = _ini_patterns(files.get(name), section, required=False)
        if found is not None:
            return found or DEFAULT_PATTERNS
    return DEFAULT_PATTERNS


def _ini_patterns(text: str | None, section: str, *, required: bool) -> tuple[str, ...] | None:
    """The patterns of one ini file: None when it does not configure pytest."""
    if text is None:
        return None
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error:
        return () if required else None
    if not parser.has_section(section):
        return () if required else None  # a pytest.ini is pytest's even when empty
    return _split(parser.get(section, "python_files", fallback=""))


def collected(path: str, patterns: Sequence[str] = DEFAULT_PATTERNS) -> bool:
    """Whether pytest collects tests from this module (patterns match the file name)."""
    name = path.rsplit("/", 1)[-1]
    return name.endswith(".py") and any(fnmatchcase(name, pattern) for pattern in patterns)


def _is_fixture(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any("fixture" in ast.unparse(decorator) for decorator in node.decorator_list)


def _first_line(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> int:
    return min([node.lineno, *(decorator.lineno for decorator in node.decorator_list)])


def item_nodes(
    tree: ast.Module,
) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef]:
    """The module's top-level test items: test functions, test classes and fixtures."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            if node.name.startswith("test") or _is_fixture(node):
                yield node
        elif isinstance(node, ast.ClassDef) and is_test_class(node):
            yield node


def item_spans(text: str) -> tuple[tuple[int, int], ...] | None:
    """Line spans (1-based, inclusive, decorators included) of the test items of a module;
    None when it does not parse (a half-written red test: the caller decides)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, MemoryError, RecursionError):  # ast's MemoryError: `----1`
        return None
    return tuple((_first_line(node), node.end_lineno or node.lineno) for node in item_nodes(tree))


_TOP_TEST = re.compile(r"^(?:async\s+def\s+test|def\s+test|class\s+Test)")


def item_spans_lenient(text: str) -> tuple[tuple[int, int], ...]:
    """item_spans, or for a module that does not parse, a line-based guess: a top-level
    `def test…` / `class Test…` (with the decorators above it) runs to the next top-level line."""
    spans = item_spans(text)
    if spans is not None:
        return spans
    rows = text.rstrip("\n").split("\n")
    found: list[tuple[int, int]] = []
    start: int | None = None
    decorators: int | None = None
    for number, row in enumerate(rows, 1):
        top = bool(row.strip()) and not row[0].isspace() and not row.startswith("#")
        if not top:
            continue
        if start is not None and not row.startswith("@"):
            found.append((start, number - 1))
            start = None
        if row.startswith("@"):
            decorators = decorators or number
            continue
        if _TOP_TEST.match(row):
            start = decorators or number
        decorators = None
    if start is not None:
        found.append((start, len(rows)))
    return tuple(found)


# what unittest's discovery and habit name test modules: `tests.py`, `test*.py`, `*_test(s).py`
UNITTEST_STYLE = ("test*.py", "tests.py", "*_test.py", "*_tests.py")


def _is_test(node: ast.stmt) -> bool:
    return isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test")


def _defines_tests(text: str) -> bool:
    """A unittest.TestCase subclass with a test method, or a top-level test function."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False
    return any(
        _is_test(node)
        or (
            isinstance(node, ast.ClassDef) and is_test_class(node) and any(map(_is_test, node.body))
        )
        for node in tree.body
    )


def uncollected_test_modules(files: Mapping[str, str]) -> list[str]:
    """Modules among `files` (path -> text, the tree's Python files and pytest configuration)
    that hold tests (a TestCase, test functions) under a test module's name (UNITTEST_STYLE)
    but that pytest's python_files do not collect, sorted."""
    patterns = python_files(files)
    return sorted(
        path
        for path, text in files.items()
        if path.endswith(".py")
        and not collected(path, patterns)
        and collected(path, UNITTEST_STYLE)
        and _defines_tests(text)
    )


def collect_fix(modules: Sequence[str], files: Mapping[str, str]) -> str:
    """The configuration line that makes pytest collect `modules` (their name patterns added
    to the current python_files), and where it goes."""
    current = python_files(files)
    names = {path.rsplit("/", 1)[-1] for path in modules}
    extra = [
        p for p in UNITTEST_STYLE if p not in current and any(collected(n, (p,)) for n in names)
    ]
    wanted = (*current, *extra[:1])
    if "pytest.ini" in files:
        return f"add `python_files = {' '.join(wanted)}` under [pytest] in pytest.ini"
    listed = ", ".join(f'"{pattern}"' for pattern in wanted)
    return f"add `python_files = [{listed}]` under [tool.pytest.ini_options] in pyproject.toml"
