"""A tiny Python kata project for command tests: its gate runs ruff and pytest, never cargo."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from support.repo import git, write_files

MakeRepo = Callable[..., Path]

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


def commit(repo: Path, files: dict[str, str], message: str) -> str:
    """Commit past any hooks (as `--no-verify` would) and return the new sha."""
    write_files(repo, files)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", message)
    return git(repo, "rev-parse", "HEAD").stdout.strip()


LINT_ONLY = "import os\n\n\n" + FILES["src/calc/__init__.py"]


def messy_history(make_repo: MakeRepo) -> tuple[Path, dict[str, str]]:
    """A history with a lint-only red commit, a tests-fail commit, bad messages, and a revert
    pair that brings back an earlier tree."""
    repo = make_repo(FILES)
    shas = {"start": git(repo, "rev-parse", "HEAD").stdout.strip()}
    shas["lint"] = commit(repo, {"src/calc/__init__.py": LINT_ONLY}, "refactor: tidy")
    shas["fixed"] = commit(repo, {"src/calc/__init__.py": FILES["src/calc/__init__.py"]},
                           "refactor: drop the import")  # fmt: skip
    shas["red"] = commit(repo, {"tests/test_sub.py": FAILING_TEST}, "a red test")
    git(repo, "revert", "--no-edit", "HEAD")
    git(repo, "revert", "--no-edit", "HEAD")
    for number in range(12):  # the same tree each time: judged once
        git(repo, "commit", "-q", "--no-verify", "--allow-empty", "-m", f"note {number}")
    return repo, shas
