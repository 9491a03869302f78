"""The language is detected from the project's manifests, not assumed (pure file checks)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tddhooks.config import load_config
from tddhooks.errors import ConfigError
from tddhooks.policy.settings import load_settings, resolve_tool
from tddhooks.runners import detect_language


@pytest.mark.parametrize(
    ("files", "language"),
    [
        ({"Cargo.toml": ""}, "rust"),
        ({"pyproject.toml": ""}, "python"),
        ({"setup.cfg": ""}, "python"),
        ({"requirements.txt": ""}, "python"),
        ({"README.md": ""}, None),
    ],
)
def test_detect_language(tmp_path: Path, files: dict[str, str], language: str | None) -> None:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    assert detect_language(tmp_path) == language


def test_a_python_project_without_tdd_yaml_gates_with_ruff_and_pytest(tmp_path: Path) -> None:
    (tmp_path / "requirements.txt").write_text("pytest\n")
    settings = load_settings(tmp_path)
    assert settings.language == "python"
    assert "pytest" in settings.test
    assert "ruff" in settings.lint


def test_tdd_yaml_without_language_detects_and_with_language_decides(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "tdd.yaml").write_text("steps: 3\n")
    assert load_config(tmp_path).language == "python"
    (tmp_path / "Cargo.toml").write_text("")
    with pytest.raises(ConfigError) as raised:
        load_config(tmp_path)
    assert "language: rust" in (raised.value.fix or "")
    (tmp_path / "tdd.yaml").write_text("language: rust\n")
    assert load_config(tmp_path).language == "rust"


def test_relative_tool_paths_resolve_against_the_work_tree(tmp_path: Path) -> None:
    venv_python = str((tmp_path / ".venv/bin/python").absolute())
    assert resolve_tool((".venv/bin/python", "-m", "pytest"), tmp_path) == (
        venv_python,
        "-m",
        "pytest",
    )
    assert resolve_tool(("./tools/check",), tmp_path)[0] == str(tmp_path / "tools/check")
    assert resolve_tool(("cargo", "test"), tmp_path) == ("cargo", "test")
    assert resolve_tool(("/usr/bin/env", "x"), tmp_path) == ("/usr/bin/env", "x")
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "tdd.yaml").write_text("ci:\n  test_cmd: [.venv/bin/python, -m, pytest]\n")
    assert load_settings(tmp_path).test[0] == venv_python


def test_two_languages_without_language_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "Cargo.toml").write_text("")
    (tmp_path / "pyproject.toml").write_text("")
    with pytest.raises(ConfigError) as raised:
        detect_language(tmp_path)
    assert "rust (Cargo.toml); python (pyproject.toml)" in raised.value.message


def test_languages_of_a_listing_of_names() -> None:
    from tddhooks.runners import language_from
    from tddhooks.vocabulary import languages_of

    assert languages_of(["README.md", "requirements.txt"]) == {"python": ["requirements.txt"]}
    assert language_from(languages_of(["Cargo.toml", "src"]), "HEAD") == "rust"
    with pytest.raises(ConfigError):
        language_from(languages_of(["Cargo.toml", "setup.cfg"]), "HEAD")
