from __future__ import annotations

from pathlib import Path

import pytest

from tddhooks.config import TddConfig, load_config, parse_config
from tddhooks.errors import ConfigError


def test_missing_file_gives_defaults(tmp_path: Path) -> None:
    config = load_config(tmp_path)
    assert config == TddConfig()
    assert config.language == "rust"
    assert config.policy.require_test_with == ["feat", "fix"]
    assert config.commit.author_name == "TDD Machine"


def test_values_are_read(tmp_path: Path) -> None:
    (tmp_path / "tdd.yaml").write_text(
        "language: python\nsteps: 3\n"
        "roles:\n  tester: {model: 'ollama:qwen2.5-coder:7b', temperature: 0.5}\n"
        "ci:\n  timeout_s: 5\n  test_cmd: [pytest, -q]\n",
        encoding="utf-8",
    )
    config = load_config(tmp_path)
    assert config.language == "python"
    assert config.steps == 3
    assert config.roles.tester.model == "ollama:qwen2.5-coder:7b"
    assert config.roles.for_role("tester").temperature == 0.5
    assert config.ci.test_cmd == ["pytest", "-q"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("stepz: 3\n", "unknown field 'stepz'"),
        ("roles:\n  tester: {modell: x}\n", "unknown field 'roles.tester.modell'"),
        ("steps: zero\n", "field 'steps'"),
        ("steps: 0\n", "field 'steps'"),
        ("language: cobol\n", "field 'language'"),
        ("ci:\n  test_cmd: []\n", "field 'ci.test_cmd'"),
        ("policy:\n  disabled_rules: [greeen]\n", "unknown rule(s) ['greeen']"),
        ("- just\n- a list\n", "expected a mapping"),
        ("steps: [unclosed\n", "not valid YAML"),
    ],
)
def test_errors_name_the_file_and_the_field(text: str, expected: str) -> None:
    path = Path("/kata/tdd.yaml")
    with pytest.raises(ConfigError) as caught:
        parse_config(text, path)
    assert str(path) in caught.value.message
    assert expected in caught.value.message
    assert caught.value.exit_code == 2


def test_an_oversized_file_points_at_the_field_list_that_exists() -> None:
    from tddhooks.config import MAX_CONFIG_BYTES

    with pytest.raises(ConfigError) as caught:
        parse_config("#" * (MAX_CONFIG_BYTES + 1), Path("tdd.yaml"))
    assert "docs/config.md" not in (caught.value.fix or "")  # there is no such file
    assert 'README.md, "Configuration: tdd.yaml"' in (caught.value.fix or "")


def test_empty_file_is_all_defaults() -> None:
    assert parse_config("", Path("tdd.yaml")) == TddConfig()
