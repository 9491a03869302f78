"""The three hooks run by the real pre-commit framework (`repo: local`, `language: system`)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hooks.hookkit import (
    HOOKS,
    SUB_CODE,
    SUB_TEST,
    commit,
    git,
    head,
    kata,
    kata_template,
    run,
    write,
)

__all__ = ["kata", "kata_template"]  # fixtures
pytestmark = pytest.mark.cargo

CONFIG = """\
repos:
  - repo: local
    hooks:
      - id: tddhooks-green
        name: tddhooks green gate
        entry: tddhooks hook pre-commit
        language: system
        pass_filenames: false
        always_run: true
        verbose: true
        stages: [pre-commit]
      - id: tddhooks-commit-msg
        name: tddhooks commit message rules
        entry: tddhooks hook commit-msg
        language: system
        always_run: true
        stages: [commit-msg]
      - id: tddhooks-prepare-commit-msg
        name: tddhooks message template
        entry: tddhooks hook prepare-commit-msg
        language: system
        always_run: true
        stages: [prepare-commit-msg]
"""


def test_hooks_through_the_pre_commit_framework(kata: Path, tmp_path: Path) -> None:
    for name in HOOKS:
        (kata / ".git" / "hooks" / name).unlink()
    write(kata, {".pre-commit-config.yaml": CONFIG})
    git(kata, "add", ".pre-commit-config.yaml")
    git(kata, "commit", "-q", "--no-verify", "-m", "chore: pre-commit config")
    pre_commit = str(Path(sys.executable).parent / "pre-commit")
    installed = run(kata, pre_commit, "install", "--hook-type", "pre-commit",
                    "--hook-type", "commit-msg", "--hook-type", "prepare-commit-msg")  # fmt: skip
    assert installed.returncode == 0, installed.stdout + installed.stderr
    write(kata, {**SUB_TEST, **SUB_CODE})
    git(kata, "add", "-A")
    before = head(kata)

    rejected = commit(kata, "add sub\n")
    output = rejected.stdout + rejected.stderr
    assert rejected.returncode == 1
    assert "tddhooks: green (cargo test: 2 passed, 0 failed" in output
    assert "[prefixed]" in output
    assert head(kata) == before

    editor = tmp_path / "editor.sh"
    editor.write_text('#!/bin/sh\n{ echo "feat: subtract"; cat "$1"; } > "$1.new"\n'
                      'mv "$1.new" "$1"\n', encoding="utf-8")  # fmt: skip
    editor.chmod(0o755)
    accepted = git(kata, "commit", env={"GIT_EDITOR": str(editor)})

    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    assert "[cached]" in accepted.stdout + accepted.stderr
    body = git(kata, "log", "-1", "--format=%B").stdout
    assert body.startswith("feat: subtract\n\nContext:\n- Role: Implementor\n- Step: 1\n")
    assert "- cargo test: 2 passed, 0 failed; clippy clean; fmt clean" in body
