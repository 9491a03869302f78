"""What the gate's own process reads of a judged tree before its tools run (limits.read_tree_file,
policy/dependencies.py, runners/python_pins.py): only regular files the tree holds, bounded, so a
hostile tree can neither hang nor exhaust the hook, nor be judged by a file it does not commit;
and the spellings a requirements file really holds name the distribution they declare."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.gatekit import git, python_kata
from support.hookkit import run

from tddhooks.limits import read_tree_file
from tddhooks.policy.dependencies import declared_distributions
from tddhooks.policy.gate import leaving_tree, read_code_files
from tddhooks.policy.runner_hooks import tree_addopts
from tddhooks.policy.tool_config import outside_references, untrusted_settings
from tddhooks.runners.python_pins import pytest_config


def _kata(tmp_path: Path) -> Path:
    tree = tmp_path / "kata"
    tree.mkdir()
    return tree


def test_a_requirements_file_symlinked_outside_the_tree_declares_nothing(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("anyio\n", encoding="utf-8")
    tree = _kata(tmp_path)
    (tree / "requirements.txt").symlink_to(elsewhere)
    (tree / "deps").mkdir()
    (tree / "deps" / "dev.txt").write_text("pytest-mock\n", encoding="utf-8")
    (tree / "requirements-dev.txt").symlink_to("deps/dev.txt")  # held by the tree: read

    assert declared_distributions(tree) == {"pytest-mock"}


def test_a_symlink_to_a_device_is_not_read(tmp_path: Path) -> None:
    # read whole, /dev/zero never ends and /dev/stdin waits on the terminal of `git commit`
    tree = _kata(tmp_path)
    for name in ("pyproject.toml", "requirements.txt", "tox.ini"):
        (tree / name).symlink_to("/dev/zero")

    (tree / ".cargo").mkdir()
    for name in ("Cargo.toml", "rust-toolchain", ".cargo/config.toml"):
        (tree / name).symlink_to("/dev/zero")

    assert read_tree_file(tree / "requirements.txt", tree) is None
    assert declared_distributions(tree) == set()
    assert pytest_config(tree) is None
    assert tree_addopts(tree) == ""
    assert untrusted_settings(tree, "rust", {}) == []


def test_a_file_larger_than_the_limit_is_not_read(tmp_path: Path) -> None:
    tree = _kata(tmp_path)
    (tree / "requirements.txt").write_text("anyio\n" * 100, encoding="utf-8")

    assert read_tree_file(tree / "requirements.txt", tree, limit=599) is None
    assert read_tree_file(tree / "requirements.txt", tree, limit=600) == "anyio\n" * 100


def test_a_requirements_file_written_on_windows_declares_its_names(tmp_path: Path) -> None:
    # Notepad's UTF-8 with a byte order mark; PowerShell's `pip freeze > requirements.txt`
    tree = _kata(tmp_path)
    (tree / "requirements.txt").write_bytes("anyio==4.4\r\n".encode("utf-8-sig"))
    (tree / "requirements-dev.txt").write_bytes("pytest-mock==3.14\r\n".encode("utf-16"))
    (tree / "pyproject.toml").write_bytes(
        '[project]\ndependencies = ["rich"]\n'.encode("utf-8-sig")
    )

    assert declared_distributions(tree) == {"anyio", "pytest-mock", "rich"}


def test_the_spellings_of_a_requirement_name_only_the_distribution(tmp_path: Path) -> None:
    tree = _kata(tmp_path)
    (tree / "requirements.txt").write_text(
        "# comment\n"
        "anyio[trio]>=4; python_version > '3'\n"
        "httpx @ https://example.invalid/httpx-0.27.tar.gz\n"
        "-e git+https://example.invalid/evil.git#egg=pytest_asyncio\n"
        "  --index-url https://example.invalid/simple\n"
        "-r other.txt\n"
        "Pytest_Mock==3.14 \\\n"
        "    --hash=sha256:00\n",
        encoding="utf-8",
    )
    (tree / "pyproject.toml").write_text(
        '[project]\ndependencies = ["sniffio ; sys_platform == \'win32\'", 3, "", "?x"]\n'
        "[tool.poetry.dependencies]\npython = '^3.11'\nidna = '*'\n",
        encoding="utf-8",
    )

    assert declared_distributions(tree) == {"anyio", "httpx", "Pytest_Mock", "sniffio", "idna"}


def test_a_code_file_symlinked_to_a_device_is_not_read(tmp_path: Path) -> None:
    tree = _kata(tmp_path)
    (tree / "tests").mkdir()
    (tree / "tests" / "test_zero.py").symlink_to("/dev/zero")
    (tree / "kata.py").write_bytes(b"# caf\xe9\nx = 1\n")  # still read, however it is encoded

    assert read_code_files(tree, "python") == {"kata.py": "# caf\ufffd\nx = 1\n"}


@pytest.mark.pygate
def test_the_gate_runs_no_tool_on_a_tree_with_symlinks_to_devices(
    tmp_path: Path, session_dir: Path
) -> None:
    repo = python_kata(tmp_path, session_dir)
    (repo / "requirements.txt").symlink_to("/dev/zero")
    (repo / "pyproject.toml").unlink()
    (repo / "pyproject.toml").symlink_to("/dev/zero")
    (repo / "tests" / "test_zero.py").symlink_to("/dev/zero")
    git(repo, "add", "-A")

    result = run(repo, "tddhooks", "hook", "pre-commit")

    text = result.stdout + result.stderr
    assert result.returncode == 1, text
    assert "requirements.txt is a symlink to /dev/zero" in text
    assert "tests/test_zero.py is a symlink to /dev/zero" in text
    assert "ruff" not in text.split("[green]", 1)[-1]  # read without end, until memory runs out


def test_a_committed_symlink_loop_is_read_as_absent_and_crashes_nothing(tmp_path: Path) -> None:
    tree = _kata(tmp_path)
    (tree / "src").mkdir()
    (tree / "a.py").symlink_to("b.py")
    (tree / "b.py").symlink_to("a.py")
    (tree / "requirements.txt").symlink_to("requirements.txt")
    (tree / "src" / "lib.rs").write_text('include!("../a.py");\n', encoding="utf-8")

    assert outside_references(tree, {"src/lib.rs": 'include!("../a.py");\n'}) == []
    assert declared_distributions(tree) == set()
    assert read_code_files(tree, "python") == {}


def test_a_requirements_file_declares_what_it_includes_inside_the_tree(tmp_path: Path) -> None:
    tree = _kata(tmp_path)
    (tree / "requirements").mkdir()
    (tree / "requirements.txt").write_text("-r requirements/dev.txt\nrich\n", encoding="utf-8")
    (tree / "requirements" / "dev.txt").write_text(
        "--requirement=base.txt  # shared\n-rtest.txt\n-r ../../outside.txt\npytest-mock\n",
        encoding="utf-8",
    )
    (tree / "requirements" / "base.txt").write_text("-r dev.txt\nanyio\n", encoding="utf-8")
    (tree / "requirements" / "test.txt").write_text("sniffio\n", encoding="utf-8")
    (tmp_path / "outside.txt").write_text("idna\n", encoding="utf-8")

    assert declared_distributions(tree) == {"rich", "pytest-mock", "anyio", "sniffio"}


def test_a_rust_include_of_a_device_stops_the_gate_before_rustc(tmp_path: Path) -> None:
    tree = _kata(tmp_path)
    (tree / "src").mkdir()
    (tree / "src" / "lib.rs").write_text('const Z: &str = include_str!("/dev/zero");\n')

    assert "src/lib.rs includes /dev/zero" in (leaving_tree(tree, "rust") or "")
    assert leaving_tree(tree, "python") is None  # not Rust: nothing reads lib.rs
