"""tddhooks as a person gets it from `pip install` (a built wheel, byte-compiled), not editable.

`scripts/test` installs the checkout editable, where templates are plain files; a regular install
byte-compiles every `.py` it unpacks, templates included (issue 7, class 9). Select these with
`pytest -m install`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from support.repo import git

from tddhooks.runners.common import _walk

REPO_ROOT = Path(__file__).resolve().parents[2]


def run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    result = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    assert result.returncode == 0, f"{cmd}:\n{result.stdout}\n{result.stderr}"
    return result.stdout + result.stderr


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel built from this checkout installed the regular way; its
    dependencies come from the test interpreter's site-packages (no download), through a .pth."""
    folder = tmp_path_factory.mktemp("wheel")
    run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(folder), "."],
        REPO_ROOT)  # fmt: skip
    wheel = next(folder.glob("tddhooks-*.whl"))
    venv = folder / "venv"
    run([sys.executable, "-m", "venv", str(venv)], folder)
    python = venv / "bin" / "python"
    site = Path(run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                    folder).strip())  # fmt: skip
    (site / "test-deps.pth").write_text(sysconfig.get_path("purelib") + "\n", encoding="utf-8")
    run([str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)], folder)
    return venv


def person_env(venv: Path) -> dict[str, str]:
    """PATH with the installed tddhooks first (the hooks call it), the toolchains after it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PATH"] = os.pathsep.join([str(venv / "bin"), env.get("PATH", "")])
    return env


@pytest.mark.install
def test_the_installed_package_is_byte_compiled_and_not_the_checkout(installed: Path) -> None:
    python = str(installed / "bin" / "python")
    where = run([python, "-c", "import tddhooks; print(tddhooks.__file__)"], installed).strip()
    assert where.startswith(str(installed))
    package = Path(where).parent
    assert list((package / "commands" / "__pycache__").glob("*.pyc"))  # pip compiled it
    # templates are stored so that pip has nothing to compile among them
    assert not list((package / "templates").rglob("*.py"))


@pytest.mark.install
def test_the_python_extra_brings_what_a_python_katas_gate_runs(installed: Path) -> None:
    """`pip install "tddhooks[python]"`: pytest and ruff, which a plain install does not bring."""
    python = str(installed / "bin" / "python")
    code = "import importlib.metadata as m; print('\\n'.join(m.requires('tddhooks') or []))"
    requires = run([python, "-c", code], installed).splitlines()
    marker = "extra == 'python'"
    extra = sorted(r.split(">")[0] for r in requires if r.replace('"', "'").endswith(marker))
    assert extra == ["pytest", "ruff"]
    assert not any(r.startswith(("pytest", "ruff")) and "extra" not in r for r in requires)


@pytest.mark.install
def test_init_python_and_first_commit_with_the_installed_script(
    installed: Path, tmp_path: Path
) -> None:
    kata = tmp_path / "py kata"
    out = run([str(installed / "bin" / "tddhooks"), "init", "--language", "python", str(kata)],
              tmp_path, person_env(installed))  # fmt: skip
    assert "Traceback" not in out
    init_text = (kata / "src" / "py_kata" / "__init__.py").read_text(encoding="utf-8")
    assert "\x00" not in init_text
    assert git(kata, "log", "--format=%s").stdout.startswith("chore: scaffold")
    assert not git(kata, "status", "--porcelain").stdout.strip()


@pytest.mark.install
@pytest.mark.cargo
def test_init_rust_and_first_commit_with_the_installed_script(
    installed: Path, tmp_path: Path
) -> None:
    kata = tmp_path / "rust-kata"
    out = run([str(installed / "bin" / "tddhooks"), "init", str(kata)], tmp_path,
              person_env(installed))  # fmt: skip
    assert "Traceback" not in out
    assert (kata / "Cargo.toml").is_file()
    assert git(kata, "log", "--format=%s").stdout.startswith("chore: scaffold")


def test_scaffold_walk_skips_byte_code_and_strips_the_template_suffix(tmp_path: Path) -> None:
    tmp_path = tmp_path / "templates"
    (tmp_path / "src" / "__pycache__").mkdir(parents=True)
    (tmp_path / "src" / "__pycache__" / "__init__.cpython-311.pyc").write_bytes(b"\x00\xa7\r\n")
    (tmp_path / "src" / "stale.pyc").write_bytes(b"\x00")
    (tmp_path / "src" / "__init__.py.tmpl").write_text("X = 1\n", encoding="utf-8")
    assert [relative for relative, _ in _walk(tmp_path)] == ["src/__init__.py"]
