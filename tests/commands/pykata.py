"""A tiny Python kata project for command tests: its gate runs ruff and pytest, never cargo."""

from __future__ import annotations

PYPROJECT = """\
[project]
name = "calc"
version = "0.1.0"
requires-python = ">=3.9"

[tool.pytest.ini_options]
pythonpath = ["src"]

[tool.ruff]
line-length = 100
"""
SOURCE = """\
def add(a: int, b: int) -> int:
    return a + b
"""
TEST = """\
from calc import add


def test_adds_two_numbers() -> None:
    assert add(2, 3) == 5
"""
FAILING_TEST = """\
from calc import add


def test_subtracts_négatifs() -> None:
    assert add(2, -3) == 5
"""
KATA = "# Addition kata\n\nAdd two numbers, even négatifs.\n"
FILES = {
    "pyproject.toml": PYPROJECT,
    "src/calc/__init__.py": SOURCE,
    "tests/test_calc.py": TEST,
    "tdd.yaml": "language: python\n",
    "kata.md": KATA,
    ".gitignore": ".tdd/\n__pycache__/\n.venv/\n",
}


def feat_message(summary: str, step: int, files: list[str]) -> str:
    """A feat: message with every context section DESIGN §3 asks for."""
    diff = "\n".join(f"- {path}: {summary}" for path in files)
    return (
        f"feat: {summary}\n\n"
        "Context:\n- Role: Implementor\n"
        f"- Step: {step}\n- Kata goal: Add two numbers.\n\n"
        f"Rationale:\n- the simplest code that passes\n\n"
        f"Diff summary:\n{diff}\n\n"
        "Verification:\n- pytest: all passed\n"
    )
