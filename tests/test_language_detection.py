"""The language is detected from the project's manifests, not assumed (pure file checks)."""

from __future__ import annotations

import subprocess
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


def test_without_a_manifest_the_tracked_code_files_decide() -> None:
    from tddhooks.vocabulary import crate_folders, languages_by_files

    assert list(languages_by_files(["gilded_rose.py", "test_gilded_rose.py", "README.md"])) == [
        "python"
    ]
    crates = ["bowling/Cargo.toml", "bowling/src/lib.rs", "roman/Cargo.toml", "roman/src/lib.rs"]
    assert list(languages_by_files(crates)) == ["rust"]
    assert crate_folders(crates) == ["bowling", "roman"]
    assert languages_by_files(["README.md"]) == {}
    assert set(languages_by_files(["a.py", "b.rs"])) == {"python", "rust"}  # a tie asks


def test_a_repository_without_a_manifest_is_judged_by_its_files(make_repo: object) -> None:
    from tddhooks.policy.settings import settings_at

    repo = make_repo({"gilded_rose.py": "X = 1\n", "README.md": "kata\n"})  # type: ignore[operator]
    assert detect_language(repo) == "python"
    assert load_settings(repo).language == "python"
    # a commit on a parent of no language is judged by its own tree (audit)
    empty = make_repo({"README.md": "kata\n"}, name="empty")  # type: ignore[operator]
    (empty / "leap.py").write_text("X = 1\n")
    subprocess.run(["git", "add", "-A"], cwd=empty, check=True)
    subprocess.run(["git", "commit", "-qm", "feat: leap"], cwd=empty, check=True)
    head = subprocess.run(["git", "rev-parse", "HEAD", "HEAD^"], cwd=empty, text=True,
                          capture_output=True, check=True).stdout.split()  # fmt: skip
    assert settings_at(empty, head[1], own=head[0]).language == "python"


def test_a_folder_of_crates_names_the_workspace_to_add(tmp_path: Path) -> None:
    from tddhooks.policy.gate import missing_manifest
    from tddhooks.runners import get_runner

    for crate in ("bowling", "roman"):
        (tmp_path / crate / "src").mkdir(parents=True)
        (tmp_path / crate / "Cargo.toml").write_text(f'[package]\nname = "{crate}"\n')
    settings = load_settings(tmp_path)
    why = missing_manifest(tmp_path, settings, get_runner("rust"))
    assert why is not None
    assert "a folder of 2 crate(s) without a root manifest (bowling, roman)" in why
    assert '[workspace] members = ["bowling", "roman"] resolver = "2"' in why
    (tmp_path / "Cargo.toml").write_text('[workspace]\nmembers = ["bowling", "roman"]\n')
    assert missing_manifest(tmp_path, settings, get_runner("rust")) is None
