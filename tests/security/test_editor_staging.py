"""Red team: a file staged while the commit message editor is open (issue 7).

Verified with git 2.39: `git commit` reads the index again right after pre-commit and commits that
copy; `git add` during the editor writes `.git/index`, which commit-msg sees, but the commit does
not hold it and it stays staged. The hooks judge what git stores (policy/stored_index.py)."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from support.gatekit import rust_feature_kata_fixture
from support.redteam import RED_ONE, git, head, msg
from support.redteam import rust_code as _code
from support.redteam import rust_test as _test
from support.redteam import write_crate_files as _write

pytestmark = pytest.mark.cargo
__all__ = ["rust_feature_kata_fixture"]  # the `kata` fixture


def _editor(tmp_path: Path, message: str, stage: str) -> dict[str, str]:
    """GIT_EDITOR that stages `stage` (another terminal, an agent) and writes `message`."""
    text = tmp_path / "message.txt"
    text.write_text(message, encoding="utf-8")
    script = tmp_path / "editor.sh"
    script.write_text(f'#!/bin/sh\ngit add {stage}\ncat "{text}" > "$1"\n', encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return {"GIT_EDITOR": str(script)}


def test_a_test_staged_in_the_editor_does_not_make_an_untested_feature_legal(
    kata: Path, tmp_path: Path
) -> None:
    untested = _code("0", "\npub fn untested() -> i32 {\n    7\n}\n")
    _write(kata, {"src/lib.rs": untested, "tests/more.rs": _test("more", '""', 0)})
    git(kata, "add", "src/lib.rs")
    before = head(kata)

    result = git(kata, "commit", env=_editor(tmp_path, msg("feat", "untested"), "tests/more.rs"))

    text = result.stdout + result.stderr
    assert result.returncode == 1, text
    assert "[type-rules] feat: commits must add or change a test" in text
    assert "git commits the index as it was then" in text
    assert head(kata) == before
    assert (kata / "src/lib.rs").read_text(encoding="utf-8") == untested


def test_a_red_test_staged_in_the_editor_neither_blocks_nor_lands(
    kata: Path, tmp_path: Path
) -> None:
    _write(
        kata,
        {"src/lib.rs": _code("0", "\n// tidy\n"), "tests/zero.rs": _test("zero", '""', 0)},
    )
    _write(kata, {"tests/red.rs": RED_ONE})
    git(kata, "add", "src/lib.rs", "tests/zero.rs")

    result = git(kata, "commit", env=_editor(tmp_path, msg("feat", "zero again"), "tests/red.rs"))

    assert result.returncode == 0, result.stdout + result.stderr
    committed = git(kata, "ls-tree", "-r", "--name-only", "HEAD").stdout.split()
    assert "tests/zero.rs" in committed
    assert "tests/red.rs" not in committed
    assert git(kata, "diff", "--cached", "--name-only").stdout.split() == ["tests/red.rs"]
