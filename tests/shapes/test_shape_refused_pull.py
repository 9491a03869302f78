"""A kata shared with a teammate whose clone has no hooks: `git pull` from it fast-forwards onto a
commit the policy refuses. git writes the pulled files into the index and work tree before the
reference-transaction hook refuses the branch move, so the refusal must say so, name the exact
files to put back, and never call them the person's staged changes (real git, pytest, ruff)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from support.shapekit import PY_PROJECT, make, run, write

pytestmark = pytest.mark.pygate


def test_a_refused_pull_names_the_files_it_left_and_how_to_put_them_back(tmp_path: Path) -> None:
    repo = make(tmp_path / "calc", {**PY_PROJECT, "NOTES.md": "notes\n"})
    assert run(repo, "tddhooks", "install", "--direct").returncode == 0
    mate = tmp_path / "mate"
    assert run(tmp_path, "git", "clone", "-q", str(repo), str(mate)).returncode == 0
    untested = PY_PROJECT["src/calc/__init__.py"] + "\n\ndef mul(a, b):\n    return a * b\n"
    write(mate, {"src/calc/__init__.py": untested, "src/calc/extra.py": "X = 1\n"})
    run(mate, "git", "add", "-A")
    run(mate, "git", "-c", "user.name=mate", "-c", "user.email=m@x", "commit", "-qm", "feat: mul")
    write(repo, {"NOTES.md": "notes\nmine, unstaged\n"})  # the person's own work, not pulled
    head = run(repo, "git", "rev-parse", "HEAD").stdout

    pulled = run(repo, "git", "pull", "-q", "--ff-only", str(mate), "main")
    assert pulled.returncode != 0
    assert run(repo, "git", "rev-parse", "HEAD").stdout == head
    assert "your changes are still staged" not in pulled.stderr
    assert "already wrote" in pulled.stderr, pulled.stderr
    found = re.search(r"`(git restore --source=HEAD [^`]*)`", pulled.stderr)
    assert found is not None, pulled.stderr
    assert "src/calc/__init__.py" in found[1]
    assert "src/calc/extra.py" in found[1]
    assert "NOTES.md" not in found[1]

    subprocess.run(found[1], shell=True, cwd=repo, check=True)
    status = run(repo, "git", "status", "--porcelain").stdout
    assert status == " M NOTES.md\n", status  # the pulled files are gone, the person's edit stays
    assert (repo / "NOTES.md").read_text() == "notes\nmine, unstaged\n"


def test_a_refused_commit_still_says_the_changes_are_staged(tmp_path: Path) -> None:
    repo = make(tmp_path / "calc", PY_PROJECT)
    assert run(repo, "tddhooks", "install", "--direct").returncode == 0
    write(repo, {"src/calc/extra.py": "X = 1\n"})
    run(repo, "git", "add", "-A")
    refused = run(repo, "git", "commit", "--no-verify", "-qm", "feat: x")
    assert refused.returncode != 0
    assert "your changes are still staged" in refused.stderr, refused.stderr
    assert "git restore --source" not in refused.stderr
