"""A Python kata found red on format and lint only, under the default strict lint: its test
module's imports are unsorted (a finding `ruff check --fix` fixes) and its code is not formatted;
every test passes. A lone `style: ruff format` cannot land (the tree stays lint-red) and a
`refactor:` may not touch the test, so the first green commit is one `style:` with the
formatter's and the linter's safe fixes, tests included (real git, pytest, ruff)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.shapekit import make, run, write

pytestmark = pytest.mark.pygate

LEGACY = {
    "pyproject.toml": '[project]\nname = "numerals"\nversion = "1.0"\n\n'
    '[tool.ruff.lint]\nextend-select = ["I"]\n',
    ".gitignore": "__pycache__/\n",
    "numerals.py": "def to_text(n):\n    table = {1: 'one',\n             2: 'two'}\n"
    "    return table[n]\n\n\ndef size(n):\n    return len(to_text(n))\n",
    "test_numerals.py": "from numerals import to_text, size\n\n\ndef test_one():\n"
    "    assert to_text(1) == 'one'\n\n\ndef test_size():\n    assert size(2) == 3\n",
}


def test_one_style_commit_with_the_linters_fixes_gets_a_lint_red_start_green(
    tmp_path: Path,
) -> None:
    repo = make(tmp_path / "numerals", LEGACY)
    installed = run(repo, "tddhooks", "install", "--direct")
    hint = " ".join((installed.stdout + installed.stderr).split())
    assert "red because of fmt and lint only" in hint, hint
    assert "one `style: …` commit: run `ruff check --fix` and `ruff format`" in hint
    assert "then `refactor" not in hint  # a lone style: commit would stay lint-red

    run(repo, "ruff", "format", ".")
    run(repo, "git", "add", "-A")
    alone = run(repo, "git", "commit", "-m", "style: ruff format")
    assert alone.returncode == 1  # what the old hint said first: still red on lint
    assert "[green]" in alone.stderr

    run(repo, "ruff", "check", "--fix", ".")
    run(repo, "ruff", "format", ".")
    run(repo, "git", "add", "-A")
    done = run(repo, "git", "commit", "-m", "style: ruff check --fix and ruff format")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "from numerals import size, to_text" in (repo / "test_numerals.py").read_text()


def test_a_style_commit_may_not_change_a_test_beyond_the_tools(tmp_path: Path) -> None:
    repo = make(tmp_path / "numerals", LEGACY)
    assert run(repo, "tddhooks", "install", "--direct").returncode == 0
    run(repo, "ruff", "check", "--fix", ".")
    run(repo, "ruff", "format", ".")
    test = repo / "test_numerals.py"
    # the tools' changes plus one by hand: a test that asserts less
    write(repo, {"test_numerals.py": test.read_text().replace("== 3", ">= 0")})
    run(repo, "git", "add", "-A")
    refused = run(repo, "git", "commit", "-m", "style: ruff check --fix and ruff format")
    assert refused.returncode == 1
    assert "only as `ruff format` formats them (or `ruff check --fix` fixes them)" in (
        refused.stderr
    ), refused.stderr
