"""Language runners: a registry of small, equal plug-ins."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from tddhooks.errors import ConfigError

if TYPE_CHECKING:
    from tddhooks.runners.base import Runner

LANGUAGES = ("rust", "python")


def get_runner(language: str) -> Runner:
    """The runner registered under `language`."""
    if language == "rust":
        from tddhooks.runners.rust import RustRunner

        return RustRunner()
    if language == "python":
        from tddhooks.runners.python import PythonRunner

        return PythonRunner()
    raise ConfigError(
        f"unknown language {language!r}", fix=f"use one of: {', '.join(LANGUAGES)}"
    )


def detect_language(root: Path) -> str | None:
    """Guess the language of an existing project from its manifest."""
    if (root / "Cargo.toml").exists():
        return "rust"
    if (root / "pyproject.toml").exists() or (root / "setup.py").exists():
        return "python"
    return None
