"""The runner registry: lookup, language detection, and a cheap import for the hook path."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from support.repo import write_files

from tddhooks.errors import ConfigError
from tddhooks.policy.settings import load_settings
from tddhooks.runners import LANGUAGES, REGISTRY, detect_language, get_runner
from tddhooks.runners.python import PythonRunner
from tddhooks.runners.rust import RustRunner


def test_registry_maps_each_language_to_its_runner() -> None:
    assert REGISTRY["rust"] is RustRunner
    assert REGISTRY["python"] is PythonRunner
    assert LANGUAGES == ("rust", "python")
    for language, runner_class in REGISTRY.items():
        runner = get_runner(language)
        assert isinstance(runner, runner_class)
        assert runner.name == language


def test_unknown_language_names_the_choices() -> None:
    with pytest.raises(ConfigError) as caught:
        get_runner("cobol")
    assert "unknown language 'cobol'" in caught.value.message
    assert caught.value.fix is not None
    assert "rust, python" in caught.value.fix


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ({"Cargo.toml": ""}, "rust"),
        ({"pyproject.toml": ""}, "python"),
        ({"setup.py": ""}, "python"),
        ({"README.md": "# kätä"}, None),
    ],
)
def test_detect_language(tmp_path: Path, files: dict[str, str], expected: str | None) -> None:
    write_files(tmp_path, files)
    assert detect_language(tmp_path) == expected


def test_importing_runners_and_listing_test_names_does_not_load_pydantic() -> None:
    # the commit-msg hook scans test names; pydantic alone costs ~0.1 s to import
    code = (
        "import sys\n"
        "from tddhooks.runners import get_runner\n"
        "names = get_runner('rust').test_names({'tests/a.rs': '#[test]\\nfn a() {}'})\n"
        "names |= get_runner('python').test_names({'tests/test_a.py': 'def test_a(): pass'})\n"
        "print(sorted(names), 'pydantic' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "['tests/a.rs::a', 'tests/test_a.py::test_a'] False"


@pytest.mark.parametrize("language", ["rust", "python"])
def test_settings_take_the_runner_defaults(tmp_path: Path, language: str) -> None:
    write_files(tmp_path, {"tdd.yaml": f"language: {language}\n"})
    settings = load_settings(tmp_path)
    runner = get_runner(language)
    commands = runner.default_commands()
    assert settings.test_paths == runner.test_globs
    assert settings.source_paths == runner.source_globs
    assert settings.test == commands.test
    assert settings.lint == commands.lint
    assert settings.skip_markers == tuple(marker.pattern for marker in runner.skip_markers)
