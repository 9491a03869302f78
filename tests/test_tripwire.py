"""The tripwire (support/tripwire.py) catches every way a test could start cargo or pytest
without its marker: in this process by any name, and in children through PATH and pytest's own
PYTEST_ADDOPTS."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support import tripwire
from support.pykata import PYPROJECT, SOURCE, TEST, MakeRepo
from support.repo import git, write_files

from tddhooks import proc


@pytest.mark.parametrize(
    ("argv", "kind"),
    [
        (["cargo", "test"], "cargo"),
        (["/home/me/.cargo/bin/cargo", "clippy"], "cargo"),
        (["rustc", "--version"], "cargo"),
        ([sys.executable, "-m", "pytest", "-q"], "pytest"),
        (["pytest", "-q"], "pytest"),
        (["sh", "-c", "cd x && cargo build"], None),  # a shell line: its words after `cd x &&`
        (["sh", "-c", "cargo build --quiet"], "cargo"),
        (["git", "commit", "-m", "cargo"], None),
        ([sys.executable, "-m", "ruff", "check"], None),
        ([], None),
    ],
)
def test_tool_kind_names_cargo_and_pytest_however_named(argv: list[str], kind: str | None) -> None:
    assert tripwire.tool_kind(argv) == kind


@pytest.mark.parametrize(
    ("markers", "allowed"),
    [
        ((), set()),
        (("cargo",), {"cargo"}),
        (("pygate", "parametrize"), {"pytest"}),
        (("cargo", "pygate"), {"cargo", "pytest"}),
        (("e2e",), {"cargo", "pytest"}),
        (("aider",), {"cargo", "pytest"}),
    ],
)
def test_each_marker_allows_its_own_tools(markers: tuple[str, ...], allowed: set[str]) -> None:
    assert tripwire.allowed_kinds(markers) == allowed


def _armed(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    folder = tmp_path / "wire"
    tripwire.write_shims(folder)
    return folder, tripwire.arm(folder, {"cargo", "pytest"})


def test_an_unmarked_test_cannot_start_cargo_in_this_process(tmp_path: Path) -> None:
    folder, _env = _armed(tmp_path)
    cargo = shutil.which("cargo", path=f"{Path.home()}/.cargo/bin:/usr/local/bin:/usr/bin")
    for argv in (["cargo", "--version"], [cargo or "/usr/bin/cargo", "--version"]):
        with pytest.raises(RuntimeError, match=r"without @pytest\.mark\.cargo"):
            subprocess.run(argv, capture_output=True, check=False)
    with pytest.raises(RuntimeError, match=r"without @pytest\.mark\.pygate"):
        proc.run([sys.executable, "-m", "pytest", "--version"])
    found = tripwire.disarm(folder)
    assert len(found) == 3
    assert all("(in this process)" in line for line in found)


def test_a_child_that_starts_cargo_or_pytest_is_caught(tmp_path: Path) -> None:
    folder, env = _armed(tmp_path)
    child_env = {**os.environ, **env}
    script = (
        "import subprocess, sys\n"
        "cargo = subprocess.run(['cargo', 'build'], capture_output=True)\n"
        "subprocess.run([sys.executable, '-m', 'pytest', '--co', '-q', sys.argv[1]],"
        " capture_output=True)\n"
        "sys.exit(cargo.returncode)\n"
    )
    (tmp_path / "empty").mkdir()
    child = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "empty")],
        env=child_env,
        capture_output=True,
        check=False,
    )
    assert child.returncode == tripwire.SHIM_EXIT  # the fake cargo fails loudly
    found = tripwire.disarm(folder)
    assert "cargo build (in a child process)" in found
    assert "pytest (a child process ran it)" in found


def test_a_disarmed_wire_lets_everything_through(tmp_path: Path) -> None:
    folder, _env = _armed(tmp_path)
    tripwire.arm(folder, set())
    done = proc.run([sys.executable, "-c", "print('fine')"])
    assert done.ok
    assert tripwire.disarm(folder) == []


@pytest.mark.cargo
def test_a_test_marked_cargo_runs_the_real_cargo() -> None:
    done = proc.run(["cargo", "--version"])
    assert done.ok, done.output
    assert done.stdout.startswith("cargo ")


@pytest.mark.pygate
def test_a_python_gate_an_installed_hook_runs_is_caught_by_its_trace(
    tmp_path: Path, make_repo: MakeRepo, isolated_home: Path
) -> None:
    """The gate starts pytest by the interpreter's path with an allowlisted environment: neither
    PATH shims nor PYTEST_ADDOPTS reach it, so the wire reads the trace its ruff leaves."""
    repo = make_repo({"pyproject.toml": PYPROJECT, "src/calc/__init__.py": SOURCE})
    folder, env = _armed(tmp_path)
    write_files(repo, {"tests/test_calc.py": TEST})
    git(repo, "add", "-A")
    hook = subprocess.run(
        [sys.executable, "-m", "tddhooks", "hook", "pre-commit"],
        cwd=repo,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=False,
    )
    assert hook.returncode == 0, hook.stdout + hook.stderr
    found = tripwire.disarm(folder, isolated_home / ".cache")
    assert [line for line in found if "Python kata's gate" in line], found
    assert tripwire.disarm(folder, tmp_path / "no-cache") == []
