"""The per-user sealing secret: made private on first use, refused when others can touch it."""

from __future__ import annotations

import os
import stat
import threading
import time
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


def _first_seals_at_once(threads: int) -> list[bytes | Exception]:
    """What seal.secret() gave each of `threads` threads released together by a barrier."""
    barrier = threading.Barrier(threads)
    found: list[bytes | Exception] = []

    def first_seal() -> None:
        barrier.wait()
        try:
            found.append(seal.secret())
        except Exception as error:  # reported by the test, with the round it came in
            found.append(error)

    started = [threading.Thread(target=first_seal) for _ in range(threads)]
    for thread in started:
        thread.start()
    for thread in started:
        thread.join()
    return found


def test_the_first_seals_of_many_threads_at_once_share_one_secret(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Audit's lanes are threads of one process: their first seals against an empty state home
    once collided on one temporary file named after the process (FileExistsError in all but
    one). A slow link (a loaded or network file system) holds every thread inside that window:
    without it the race was lost in about 1 round of 5."""
    link = os.link

    def slow_link(source: Path, target: Path) -> None:
        time.sleep(0.005)
        link(source, target)

    monkeypatch.setattr(os, "link", slow_link)
    threads = 16
    for attempt in range(10):
        monkeypatch.setenv("TDDHOOKS_HOME", str(tmp_path / f"home-{attempt}"))
        seal.forget()
        found = _first_seals_at_once(threads)
        errors = [item for item in found if isinstance(item, Exception)]
        assert not errors, f"round {attempt}: {len(errors)} of {threads} failed: {errors[0]!r}"
        assert len(found) == threads
        assert set(found) == {seal.secret_path().read_bytes()}  # one secret, the one kept
        assert os.listdir(seal.secret_path().parent) == ["secret"]  # no temporary file left
