"""The snapshot earlier versions kept inside the repository (`.git/tddhooks/snapshot`, its index,
lock and cargo `target/`) is removed by `install` and by the gate, safely: only those names, a
symlink removed and never followed, nothing else in `.git/tddhooks/` touched."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.redteam import commit, git, msg
from support.security_kit import tddhooks


@pytest.fixture
def kata(make_repo: object) -> Path:
    from support.hookkit import install_shims
    from support.pykata import FILES

    repo: Path = make_repo(FILES)  # type: ignore[operator]
    install_shims(repo)
    return repo


def _plant_legacy(repo: Path) -> Path:
    state = repo / ".git" / "tddhooks"
    (state / "snapshot" / "src").mkdir(parents=True)
    (state / "snapshot" / "src" / "lib.rs").write_text("old\n", encoding="utf-8")
    (state / "target" / "debug").mkdir(parents=True)
    (state / "target" / "debug" / "big").write_bytes(b"\0" * 1024)
    (state / "snapshot.index").write_bytes(b"DIRC")
    (state / "snapshot.lock").write_text("", encoding="utf-8")
    (state / "verdicts").mkdir(exist_ok=True)
    (state / "verdicts" / "keep.json").write_text("{}", encoding="utf-8")
    return state


@pytest.mark.pygate
def test_install_removes_the_old_snapshot_and_keeps_everything_else(kata: Path) -> None:
    state = _plant_legacy(kata)

    result = tddhooks(kata, "install")

    assert result.returncode == 0, result.stdout + result.stderr
    for name in ("snapshot", "target", "snapshot.index", "snapshot.lock"):
        assert not (state / name).exists(), name
    assert (state / "verdicts" / "keep.json").read_text(encoding="utf-8") == "{}"
    assert "removed the old gate snapshot" in result.stdout + result.stderr


@pytest.mark.pygate
def test_the_gate_removes_the_old_snapshot(kata: Path) -> None:
    state = _plant_legacy(kata)
    (kata / "src" / "calc" / "__init__.py").write_text(
        "def add(a: int, b: int) -> int:\n    return b + a\n", encoding="utf-8"
    )
    git(kata, "add", "-A")

    result = commit(kata, msg("refactor", "commute"))

    assert result.returncode == 0, result.stdout + result.stderr
    assert not (state / "snapshot").exists()
    assert not (state / "target").exists()


@pytest.mark.pygate
def test_a_symlinked_old_snapshot_is_unlinked_never_followed(kata: Path, tmp_path: Path) -> None:
    outside = tmp_path / "precious"
    (outside / "inner").mkdir(parents=True)
    (outside / "inner" / "work.txt").write_text("mine\n", encoding="utf-8")
    state = kata / ".git" / "tddhooks"
    state.mkdir(exist_ok=True)
    (state / "snapshot").symlink_to(outside, target_is_directory=True)
    (state / "target").symlink_to(outside / "inner", target_is_directory=True)

    result = tddhooks(kata, "install")

    assert result.returncode == 0, result.stdout + result.stderr
    assert not (state / "snapshot").is_symlink()
    assert not (state / "target").is_symlink()
    assert (outside / "inner" / "work.txt").read_text(encoding="utf-8") == "mine\n"


@pytest.mark.pygate
def test_a_link_inside_the_old_snapshot_is_not_followed(kata: Path, tmp_path: Path) -> None:
    outside = tmp_path / "precious"
    outside.mkdir()
    (outside / "work.txt").write_text("mine\n", encoding="utf-8")
    state = _plant_legacy(kata)
    (state / "snapshot" / "link").symlink_to(outside, target_is_directory=True)

    assert tddhooks(kata, "install").returncode == 0

    assert not (state / "snapshot").exists()
    assert (outside / "work.txt").read_text(encoding="utf-8") == "mine\n"
