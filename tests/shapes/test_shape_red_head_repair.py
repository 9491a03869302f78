"""A repository whose HEAD is red (a committed test fails): the code that repairs it is the
implementor's work under the one phase model. `status` calls it the repair, a `feat:` without
a test is told it is a `fix:`, and the `fix:` lands with `Role: Implementor` (real git, the
real `tddhooks` executable, real pytest and ruff)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.shapekit import make, message, run

pytestmark = pytest.mark.pygate

RED = {
    "pyproject.toml": '[project]\nname = "calc"\nversion = "0.1.0"\n\n'
    '[tool.pytest.ini_options]\npythonpath = ["src"]\n',
    ".gitignore": "__pycache__/\n",
    "src/calc/__init__.py": "def add(a, b):\n    return a - b\n",
    "tests/test_add.py": "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
}


def test_the_repair_of_a_red_head_is_the_implementors_fix(tmp_path: Path) -> None:
    repo = make(tmp_path / "calc", RED)
    installed = run(repo, "tddhooks", "install", "--direct")
    said = installed.stdout + installed.stderr
    assert "HEAD is red" in said, said
    (repo / "src/calc/__init__.py").write_text("def add(a, b):\n    return a + b\n", "utf-8")
    run(repo, "git", "add", "-A")
    status = " ".join(run(repo, "tddhooks", "status").stdout.split())
    assert "phase red" in status, status
    assert "is its repair" in status, status
    assert "mixed" not in status, status

    feat = run(repo, "git", "commit", "-m", "feat(calc): add adds")
    assert feat.returncode == 1
    assert "a change that makes them pass, with no test of its own, is fix:" in feat.stderr
    assert "use refactor:" not in feat.stderr, feat.stderr
    kept = (repo / ".git/tddhooks/last-message").read_text(encoding="utf-8")
    assert "- Role: Implementor\n" in kept, kept

    fix = run(repo, "git", "commit", "-m", "fix(calc): add adds")
    assert fix.returncode == 0, fix.stdout + fix.stderr
    assert "- Role: Implementor\n" in message(repo)
