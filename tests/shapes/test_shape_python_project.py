"""A Python project as found in the wild: pyproject.toml, its own .pre-commit-config.yaml, tests
in tests/, no tdd.yaml, no kata.md. The language is detected: ruff and pytest gate it (real git,
pytest, ruff)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.shapekit import (
    PY_PROJECT,
    PY_SUB_CODE,
    PY_SUB_TEST,
    commit_with_editor,
    make,
    message,
    run,
    write,
)


@pytest.mark.pygate
def test_a_python_project_is_gated_by_ruff_and_pytest(tmp_path: Path) -> None:
    repo = make(tmp_path / "calc", PY_PROJECT)
    installed = run(repo, "tddhooks", "install", "--direct")
    assert installed.returncode == 0, installed.stdout + installed.stderr
    doctor = run(repo, "tddhooks", "doctor", "--offline")
    assert "python: detected from pyproject.toml;" in doctor.stdout
    assert "tddhooks init" not in doctor.stdout + doctor.stderr

    write(repo, PY_SUB_TEST)
    run(repo, "git", "add", "-A")
    status = " ".join(run(repo, "tddhooks", "status").stdout.split())
    assert "red" in status
    assert "implementor" in status
    assert "pytest" in status or "tests/test_sub.py" in status

    write(repo, PY_SUB_CODE)
    run(repo, "git", "add", "-A")
    done = commit_with_editor(repo, "feat(calc): subtract")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "pytest" in done.stderr  # the gate that ran is the Python one
    assert "cargo" not in done.stderr
    text = message(repo)
    assert "- Role: Implementor\n- Step: 1\n" in text
    assert "Kata goal" not in text
    assert "pytest: 2 passed" in text or "2 passed" in text


@pytest.mark.pygate
def test_a_format_failure_names_ruff_format_and_work_tree_paths(tmp_path: Path) -> None:
    repo = make(tmp_path / "calc", PY_PROJECT)
    assert run(repo, "tddhooks", "install", "--direct").returncode == 0
    write(repo, {"tests/test_sub.py": PY_SUB_TEST["tests/test_sub.py"].replace(
        "assert sub(5, 3) == 2", "assert sub( 5,3 )==2")})  # fmt: skip
    write(repo, PY_SUB_CODE)
    run(repo, "git", "add", "-A")
    rejected = commit_with_editor(repo, "feat(calc): subtract")
    assert rejected.returncode == 1
    assert "run `ruff format .`" in rejected.stderr
    assert "tddhooks/snapshot" not in rejected.stderr
    assert "\x1b[" not in rejected.stderr


@pytest.mark.pygate
def test_a_skeleton_in_a_python_kata_carries_python_values(tmp_path: Path) -> None:
    repo = make(tmp_path / "calc", PY_PROJECT)
    assert run(repo, "tddhooks", "install", "--direct").returncode == 0
    write(repo, {**PY_SUB_TEST, **PY_SUB_CODE})
    run(repo, "git", "add", "-A")
    rejected = run(repo, "git", "commit", "-m", "feat(calc): subtract")
    assert rejected.returncode == 1
    assert "- Step: 1" in rejected.stderr
    assert "e.g." not in rejected.stderr
    assert "cargo" not in rejected.stderr
    assert "- pytest: 2 passed" in rejected.stderr or "passed" in rejected.stderr
    # the kept message, reused with -e -F, is refreshed to what is staged now
    kept = ".git/tddhooks/last-message"
    again = run(repo, "git", "commit", "-e", "-F", kept, extra={"GIT_EDITOR": "true"})
    assert again.returncode == 0, again.stderr  # the sections were filled in from the index
    text = message(repo)
    assert text.startswith("feat(calc): subtract\n\nContext:\n- Role: Implementor\n- Step: 1\n")
    assert "Verification:\n- pytest: 2 passed" in text
    assert "- tests/test_sub.py: added" in text
