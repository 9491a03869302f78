"""The per-user sealing secret: made private on first use, refused when others can touch it."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from tddhooks import seal
from tddhooks.errors import EnvironmentProblem


@pytest.fixture(autouse=True)
def fresh_secret() -> None:
    seal.forget()


def test_a_seal_verifies_its_own_payload_only() -> None:
    tag = seal.seal(b"tree parent message")
    assert seal.verify(b"tree parent message", tag)
    assert not seal.verify(b"tree parent message!", tag)
    assert not seal.verify(b"tree parent message", "")
    mode = stat.S_IMODE(seal.secret_path().stat().st_mode)
    assert mode == 0o600


def test_a_secret_others_can_read_is_refused_with_the_fix() -> None:
    seal.secret()
    seal.forget()
    os.chmod(seal.secret_path(), 0o644)
    with pytest.raises(EnvironmentProblem, match="chmod 600"):
        seal.seal(b"x")


def test_a_secret_behind_a_link_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere"
    target.write_bytes(b"k" * 64)
    target.chmod(0o600)
    path = seal.secret_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(target)
    with pytest.raises(EnvironmentProblem, match="not a regular file"):
        seal.seal(b"x")


def test_a_new_secret_changes_every_seal() -> None:
    tag = seal.seal(b"x")
    seal.secret_path().unlink()
    seal.forget()
    assert not seal.verify(b"x", tag)
