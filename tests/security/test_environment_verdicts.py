"""An environment problem is never remembered as the code's fault, and a verdict knows what its
runner could import (issue 36, item 5).

A dependency the tree declares but the gate's Python lacks, or one cargo cannot fetch, ends the
hook with exit 3 and the fix, and nothing is stored; a verdict's key holds a fingerprint of the
gate's site-packages (policy/stored.py import_fingerprint), so installing a package judges the
tree again. Real git, the real hooks, pytest in a virtual environment of the test's own, and
cargo without a network."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from support.gatekit import (
    commit,
    gate_venv,
    git,
    head,
    landed,
    message,
    python_kata_fixture,
    refused,
    rust_kata,
    unhooked_commit,
    write,
)

from tddhooks.policy.dependencies import declared_modules, own_modules
from tddhooks.policy.envcheck import missing_dependency

__all__ = ["python_kata_fixture"]  # the `kata` fixture

HELPER_TEST = (
    "from kata_helper_lib import double\n\n\n"
    "def test_double() -> None:\n    assert double(2) == 4\n"
)
HELPER = "def double(number: int) -> int:\n    return 2 * number\n"
FOUND_TEST = (
    "import importlib.util\n\n\n"
    "def test_helper_is_installed() -> None:\n"
    '    assert importlib.util.find_spec("kata_helper_lib") is not None\n'
)


def _install(site: Path) -> None:
    (site / "kata_helper_lib.py").write_text(HELPER, encoding="utf-8")
    info = site / "kata_helper_lib-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Name: kata-helper-lib\nVersion: 1.0\n", encoding="utf-8")


def _hooks_run_by(bin_dir: Path, kata: Path) -> None:
    """Install the hooks again from the gate's venv: the shims run the interpreter the install
    recorded (never a `tddhooks` on PATH), so its packages are what the gate imports."""
    subprocess.run([str(bin_dir / "tddhooks"), "install", "--direct"], cwd=kata, check=True,
                   capture_output=True)  # fmt: skip


def _verdicts(repo: Path) -> list[Path]:
    tree = git(repo, "write-tree").stdout.strip()
    return list((repo / ".git" / "tddhooks" / "verdicts").glob(f"{tree}-*.json"))


@pytest.mark.pygate
def test_a_declared_dependency_the_gate_cannot_import_is_exit_3_and_never_cached(
    kata: Path, tmp_path: Path
) -> None:
    bin_dir, site = gate_venv(tmp_path)
    env = {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    _hooks_run_by(bin_dir, kata)
    pyproject = kata / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8").replace(
        "dependencies = []", 'dependencies = ["kata-helper-lib>=1"]'
    )
    write(kata, {"pyproject.toml": text, "tests/test_helper.py": HELPER_TEST})
    git(kata, "add", "-A")
    before = head(kata)

    result = commit(kata, message("feat", "double"), env=env)

    said = result.stdout + result.stderr
    assert result.returncode != 0, said  # git's own code; the hook's is 3 (below)
    assert "No module named 'kata_helper_lib', a dependency the tree declares" in said
    assert "-m pip install kata_helper_lib" in said
    assert head(kata) == before
    assert _verdicts(kata) == []
    hook = subprocess.run(
        [str(bin_dir / "tddhooks"), "hook", "pre-commit"], cwd=kata, capture_output=True,
        text=True, env={**os.environ, **env},
    )  # fmt: skip
    assert hook.returncode == 3, hook.stdout + hook.stderr
    assert _verdicts(kata) == []
    _install(site)  # the fix: the same tree now lands
    landed(commit(kata, message("feat", "double"), env=env), before, kata)


@pytest.mark.pygate
def test_installing_a_package_judges_a_cached_red_tree_again(kata: Path, tmp_path: Path) -> None:
    bin_dir, site = gate_venv(tmp_path)
    env = {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    _hooks_run_by(bin_dir, kata)
    write(kata, {"tests/test_found.py": FOUND_TEST})
    git(kata, "add", "-A")
    before = head(kata)
    refused(commit(kata, message("test", "found", "Tester"), env=env), "[green]", before, kata)
    assert len(_verdicts(kata)) == 1  # a red verdict, cached

    _install(site)

    landed(commit(kata, message("test", "found", "Tester"), env=env), before, kata)


def test_a_module_the_tree_neither_holds_nor_declares_is_the_codes_business() -> None:
    output = "E   ModuleNotFoundError: No module named 'roman'\n"
    files = ["src/kata/__init__.py", "tests/test_roman.py"]

    assert missing_dependency(output, own_modules(files), {"requests"}) is None
    assert missing_dependency(output, own_modules(files), {"roman"}) == "roman"
    own = own_modules([*files, "src/roman/__init__.py"])
    assert missing_dependency("No module named 'roman.numerals'", own, {"roman"}) is None


def test_declared_dependencies_are_read_from_every_usual_place(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\ndependencies = ["Requests>=2", "PyYAML"]\n'
        '[project.optional-dependencies]\ndev = ["hypothesis[cli]"]\n'
        "[dependency-groups]\ntest = [\"freezegun; python_version > '3'\"]\n"
        "[tool.poetry.dependencies]\npython = '^3.11'\nattrs = '*'\n",
        encoding="utf-8",
    )
    (tmp_path / "requirements-dev.txt").write_text(
        "# tools\n-r requirements.txt\nnumpy==2.0\n", encoding="utf-8"
    )

    found = declared_modules(tmp_path)

    assert found == {"Requests", "yaml", "hypothesis", "freezegun", "attr", "numpy"}


CRATE_TOML = """[package]
name = "NAME"
version = "0.1.0"
edition = "2021"

[dev-dependencies]
kata-helper-crate-that-is-not-fetched = "0.5"
"""


@pytest.mark.cargo
@pytest.mark.parametrize(
    "env",
    [{"CARGO_NET_RETRY": "0"}, {"CARGO_NET_RETRY": "0", "CARGO_NET_OFFLINE": "true"}],
    ids=["no-network", "offline"],
)
def test_a_dependency_cargo_cannot_fetch_is_exit_3_and_never_cached(
    tmp_path: Path, session_dir: Path, env: dict[str, str]
) -> None:
    repo = rust_kata(tmp_path, session_dir)
    manifest = repo / "Cargo.toml"
    name = next(
        line.split('"')[1]
        for line in manifest.read_text(encoding="utf-8").splitlines()
        if line.startswith("name")
    )
    yaml = repo / "tdd.yaml"
    yaml.write_text(
        yaml.read_text(encoding="utf-8").replace(
            "  env: []", "  env: [CARGO_NET_RETRY, CARGO_NET_OFFLINE]"
        ),
        encoding="utf-8",
    )
    git(repo, "add", "tdd.yaml")
    unhooked_commit(repo, "chore: the gate takes cargo's network settings\n")
    write(repo, {"Cargo.toml": CRATE_TOML.replace("NAME", name)})
    git(repo, "add", "-A")
    before = head(repo)

    result = commit(repo, "build: a benchmark dependency\n", env=env)

    said = result.stdout + result.stderr
    assert result.returncode != 0, said
    assert "an environment problem, not your code; nothing was cached" in said
    assert "cargo fetch" in said
    assert head(repo) == before
    assert _verdicts(repo) == []
