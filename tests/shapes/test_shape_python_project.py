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

pytestmark = pytest.mark.pygate


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
    agent = {"TDDHOOKS_AGENT": "claude"}  # an agent writes the sections itself
    rejected = run(repo, "git", "commit", "-m", "feat(calc): subtract", extra=agent)
    assert rejected.returncode == 1
    assert "- Step: 1" in rejected.stderr
    assert "e.g." not in rejected.stderr
    assert "cargo" not in rejected.stderr
    assert "- pytest: 2 passed" in rejected.stderr or "passed" in rejected.stderr
    # the kept message, reused with -e -F, is refreshed to what is staged now
    kept = ".git/tddhooks/last-message"
    again = run(repo, "git", "commit", "-e", "-F", kept, extra={"GIT_EDITOR": "true", **agent})
    assert again.returncode == 0, again.stderr  # the sections were filled in from the index
    text = message(repo)
    assert text.startswith("feat(calc): subtract\n\nContext:\n- Role: Implementor\n- Step: 1\n")
    assert "Verification:\n- pytest: 2 passed" in text
    assert "- tests/test_sub.py: added" in text


def test_a_persons_one_line_message_lands_with_the_sections_filled(tmp_path: Path) -> None:
    repo = make(tmp_path / "calc", PY_PROJECT)
    assert run(repo, "tddhooks", "install", "--direct").returncode == 0
    write(repo, {**PY_SUB_TEST, **PY_SUB_CODE})
    run(repo, "git", "add", "-A")
    done = run(repo, "git", "commit", "-m", "feat(calc): subtract")
    assert done.returncode == 0, done.stderr
    text = message(repo)
    assert text.startswith("feat(calc): subtract\n\nContext:\n- Role: Implementor\n- Step: 1\n")
    assert "Rationale:\n- subtract\n" in text  # the person's words, no invented strategy
    assert "- tests/test_sub.py: added" in text
    assert "Verification:\n- pytest: 2 passed" in text
    # the identity agents commit under (tdd.yaml commit.author_name) keeps the full sections
    write(repo, {"tests/test_mul.py": "from calc import sub\n\n\ndef test_mul():\n"
                 "    assert sub(2, 2) == 0\n"})  # fmt: skip
    run(repo, "git", "add", "-A")
    drive = run(repo, "git", "-c", "user.name=TDD Machine", "-c", "user.email=tdd@local",
                "commit", "-m", "test(calc): zero")  # fmt: skip
    assert drive.returncode == 1
    assert "[sections]" in drive.stderr


def test_a_style_commit_formats_tests_and_code_and_only_formats(tmp_path: Path) -> None:
    ugly_test = PY_PROJECT["tests/test_add.py"].replace("add(1, 2) == 3", "add( 1,2 )==3")
    repo = make(tmp_path / "calc", {**PY_PROJECT, "tests/test_add.py": ugly_test})
    installed = run(repo, "tddhooks", "install", "--direct")
    assert "style: ruff format" in installed.stdout, installed.stdout
    assert "cargo" not in installed.stdout
    run(repo, "ruff", "format", ".")
    run(repo, "git", "add", "-A")
    done = run(repo, "git", "commit", "-m", "style: ruff format")
    assert done.returncode == 0, done.stdout + done.stderr
    write(repo, {"tests/test_add.py": PY_PROJECT["tests/test_add.py"].replace("3", "3  # three")})
    run(repo, "git", "add", "-A")
    more = run(repo, "git", "commit", "-m", "style: comment")
    assert more.returncode == 1
    assert "only as `ruff format` formats them" in more.stderr


def test_a_docs_commit_reuses_the_verdict_of_the_same_code(tmp_path: Path) -> None:
    repo = make(tmp_path / "calc", {**PY_PROJECT, "README.md": "# calc\n"})
    assert run(repo, "tddhooks", "install", "--direct").returncode == 0
    write(repo, {"README.md": "# calc\n\nAdds numbers.\n"})
    run(repo, "git", "add", "-A")
    first = run(repo, "git", "commit", "-m", "docs: say what it does")
    assert first.returncode == 0, first.stderr
    assert "[cached]" in first.stderr  # HEAD's verdict (install judged it), not a new run
    write(repo, {"src/calc/__init__.py": "def add(a, b):\n    return b + a\n"})
    run(repo, "git", "add", "-A")
    code = run(repo, "git", "commit", "-m", "refactor: commute")
    assert code.returncode == 0, code.stderr
    assert "[cached]" not in code.stderr


def test_the_kept_message_can_be_reused_from_a_subfolder(tmp_path: Path) -> None:
    repo = make(tmp_path / "calc", PY_PROJECT)
    assert run(repo, "tddhooks", "install", "--direct").returncode == 0
    write(repo, {**PY_SUB_TEST, **PY_SUB_CODE})
    run(repo, "git", "add", "-A")
    inside = repo / "src" / "calc"
    rejected = run(inside, "git", "commit", "-m", "add subtraction")  # no type: rejected
    assert rejected.returncode == 1
    hint = rejected.stderr.split("reuse it with: ", 1)[1].split("\n", 1)[0].split(" (", 1)[0]
    assert hint == "git commit -e -F ../../.git/tddhooks/last-message", hint
    again = run(inside, *hint.split(), extra={"GIT_EDITOR": "true"})
    assert "could not read log file" not in again.stderr  # git found the kept message
    assert "add subtraction" in again.stderr  # and the hooks judged it again
