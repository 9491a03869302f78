"""Red team: pytest and ruff configuration in the person's home judging the kata (issue 7).

The gate's snapshot lives under `~/.cache/tddhooks/snapshots/…`, so a `~/pytest.ini`,
`~/pyproject.toml` or `~/ruff.toml` is in a parent folder of it. The gate names the tree's own
configuration on the command line (runners/python_pins.py): these files never change a verdict.
Each test is a real Python kata with real git, pytest and ruff, and a HOME whose files would."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from support.redteam import commit, git, head, msg, refused

from tddhooks.runners.python_pins import pinned, pytest_config, ruff_config

FILES = {
    "pyproject.toml": '[project]\nname = "calc"\nversion = "0.1.0"\n',
    "calc.py": "def add(a: int, b: int) -> int:\n    return a + b\n",
    "conftest.py": '"""Puts the top folder on sys.path (pytest imports it from the rootdir)."""\n',
    "tests/test_calc.py": (
        "from calc import add\n\n\ndef test_adds_two_numbers() -> None:\n"
        "    assert add(2, 3) == 5\n"
    ),
    "tdd.yaml": "language: python\n",
    "kata.md": "# Addition kata\n\nAdd two numbers.\n",
    ".gitignore": ".tdd/\n__pycache__/\n",
}
RED = "from calc import add\n\n\ndef test_red_one() -> None:\n    assert add(1, 1) == 3\n"
# a conftest beside a pytest.ini in HOME: pytest would load it once the ini pulls the rootdir up
FLIP = """\
import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    outcome.get_result().outcome = "passed"
"""


@pytest.fixture
def kata(make_repo: object) -> Path:
    from support.hookkit import install_shims

    repo: Path = make_repo(FILES)  # type: ignore[operator]
    install_shims(repo)
    return repo


def _stage(repo: Path, relative: str, text: str) -> str:
    path = repo / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    git(repo, "add", "-A")
    return head(repo)


@pytest.mark.pygate
def test_a_home_conftest_that_flips_outcomes_cannot_land_a_red_test(
    kata: Path, isolated_home: Path
) -> None:
    (isolated_home / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    (isolated_home / "conftest.py").write_text(FLIP, encoding="utf-8")
    before = _stage(kata, "tests/test_red.py", RED)

    text = refused(commit(kata, msg("test", "a red one")), "[green]", before, kata)

    assert "test_red_one" in text
    assert (kata / "tests/test_red.py").read_text(encoding="utf-8") == RED


@pytest.mark.pygate
def test_home_addopts_that_deselect_never_apply(kata: Path, isolated_home: Path) -> None:
    (isolated_home / "pyproject.toml").write_text(
        "[tool.pytest.ini_options]\naddopts = \"-k 'not red'\"\n", encoding="utf-8"
    )
    before = _stage(kata, "tests/test_red.py", RED)

    text = refused(commit(kata, msg("test", "a red one")), "[green]", before, kata)

    assert "tests/test_red.py::test_red_one" in text
    assert "did not run" not in text  # it ran, and failed: the home's addopts were not read


@pytest.mark.pygate
def test_home_pytest_settings_cannot_turn_a_green_tree_red(kata: Path, isolated_home: Path) -> None:
    (isolated_home / "pytest.ini").write_text("[pytest]\naddopts = -p no:python\n", "utf-8")
    _stage(kata, "tests/test_more.py", RED.replace("== 3", "== 2").replace("red_one", "two"))

    result = commit(kata, msg("test", "one and one"))

    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.pygate
def test_a_home_ruff_config_cannot_hide_a_lint_error(kata: Path, isolated_home: Path) -> None:
    (isolated_home / "ruff.toml").write_text('[lint]\nignore = ["ALL"]\n', encoding="utf-8")
    code = "import os\n\n\ndef add(a: int, b: int) -> int:\n    return a + b\n"
    before = _stage(kata, "calc.py", code)

    text = refused(commit(kata, msg("refactor", "an import")), "[green]", before, kata)

    assert "F401" in text
    assert (kata / "calc.py").read_text(encoding="utf-8") == code


@pytest.mark.pygate
def test_a_home_ruff_config_cannot_turn_a_green_tree_red(kata: Path, isolated_home: Path) -> None:
    (isolated_home / ".ruff.toml").write_text('[lint]\nselect = ["ALL"]\n', encoding="utf-8")
    _stage(kata, "calc.py", "def add(a: int, b: int) -> int:\n    return b + a\n")

    result = commit(kata, msg("refactor", "commute"))

    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.pygate
def test_the_trees_own_ruff_config_still_applies(kata: Path, isolated_home: Path) -> None:
    (isolated_home / "ruff.toml").write_text('[lint]\nselect = ["ALL"]\n', encoding="utf-8")
    _stage(kata, "ruff.toml", '[lint]\nignore = ["F401"]\n')
    _stage(kata, "calc.py", "import os\n\n\ndef add(a: int, b: int) -> int:\n    return a + b\n")

    result = commit(kata, msg("refactor", "an import the kata allows"))

    assert result.returncode == 0, result.stdout + result.stderr


def test_pins_name_the_trees_files_and_leave_explicit_choices_alone(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
    (tmp_path / "tox.ini").write_text("[tox]\n\n[pytest]\naddopts = -q\n", encoding="utf-8")

    assert pytest_config(tmp_path) == tmp_path / "tox.ini"
    assert ruff_config(tmp_path) == tmp_path / "pyproject.toml"
    assert pinned(("python", "-m", "pytest", "-v"), tmp_path)[3:9] == (
        "--rootdir", str(tmp_path), "--confcutdir", str(tmp_path), "-c", str(tmp_path / "tox.ini"),
    )  # fmt: skip
    assert pinned(("ruff", "check", "."), tmp_path) == (
        "ruff", "check", "--config", str(tmp_path / "pyproject.toml"), ".",
    )  # fmt: skip
    assert pinned(("pytest", "-c", "mine.ini"), tmp_path) == ("pytest", "-c", "mine.ini")
    assert pinned(("cargo", "test"), tmp_path) == ("cargo", "test")
    (tmp_path / "pyproject.toml").unlink()
    (tmp_path / "tox.ini").unlink()
    assert pinned(("ruff", "format", "--check"), tmp_path) == (
        "ruff", "format", "--isolated", "--check",
    )  # fmt: skip
    assert pinned(("pytest",), tmp_path)[-1] != str(tmp_path / "tox.ini")
    # the gate's own `python -m ruff` runs the binary that command would exec, pinned alike (in
    # a venv, as this suite's is)
    assert sys.prefix != sys.base_prefix
    binary = str(Path(sys.executable).parent / "ruff")
    assert pinned((sys.executable, "-m", "ruff", "check", "."), tmp_path) == (
        binary, "check", "--isolated", ".",
    )  # fmt: skip
    assert pinned(("python3.9", "-m", "ruff", "check"), tmp_path)[:3] == ("python3.9", "-m", "ruff")
