"""Fixtures for the drive tests: a real Rust kata repository (string calculator, hooks installed,
initialised once per session and copied per test) and the fake OpenAI server."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from support.fake_openai import fake_openai  # noqa: F401  (fixture re-export)

_TEMPLATES: dict[str, Path] = {}


@pytest.fixture
def kata_repo(tmp_path: Path, session_dir: Path) -> Path:
    """A fresh copy of an initialised string-calculator kata (init runs once per session)."""
    from tddhooks.commands import init_cmd

    template = _TEMPLATES.get("rust")
    if template is None:
        template = session_dir / "kata-template"
        init_cmd.run(template, language="rust", kata="string-calculator", direct=False)
        _TEMPLATES["rust"] = template
    repo = tmp_path / "kata"
    shutil.copytree(template, repo, symlinks=True)
    return repo
