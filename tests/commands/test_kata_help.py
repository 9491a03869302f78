"""`--help` of the commands that take `--kata` names the shipped katas (docs/commands.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tddhooks.bench.katas import shipped_bench_katas
from tddhooks.cli import cli
from tddhooks.commands.init_cmd import shipped_katas


@pytest.mark.parametrize("command", ["init", "drive", "step"])
def test_help_names_every_shipped_kata_unbroken(command: str) -> None:
    result = CliRunner().invoke(cli, [command, "--help"], terminal_width=50)

    assert result.exit_code == 0
    names = shipped_katas()
    assert "password-validation" in names
    epilog = result.output[result.output.index("Shipped katas:") :]
    for name in names:
        assert name in epilog  # a hyphenated name is never split over two lines


def test_bench_help_names_the_katas_with_acceptance_suites() -> None:
    result = CliRunner().invoke(cli, ["bench", "--help"], terminal_width=50)

    assert result.exit_code == 0
    epilog = result.output[result.output.index("acceptance suites") :]
    assert all(name in epilog for name in shipped_bench_katas())
    assert len(epilog.splitlines()) > 2  # wrapped to the terminal, not one long line


def test_a_command_without_kata_has_no_kata_list() -> None:
    assert "Shipped katas" not in CliRunner().invoke(cli, ["status", "--help"]).output


@pytest.mark.parametrize("command", ["init", "drive", "step", "bench"])
def test_help_without_the_templates_folder_still_shows(
    command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # red team: with no templates/ reachable, bench --help raised FileNotFoundError and the
    # others ended with "Shipped katas: ."
    monkeypatch.setattr("tddhooks.resources.templates", lambda: tmp_path / "none")

    result = CliRunner().invoke(cli, [command, "--help"])

    assert result.exit_code == 0, result.output
    assert "Usage:" in result.output
    assert "katas" not in result.output.split("Options:")[-1].split("-h, --help")[-1]
