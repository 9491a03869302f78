"""The handoff note: written by the tester, valid only while HEAD has not moved."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

from support.repo import git, write_files

from tddhooks.policy.facts import live_handoff, live_handoff_blobs
from tddhooks.policy.handoff import (
    Handoff,
    clear_handoff,
    handoff_path,
    read_handoff,
    write_handoff,
)

MakeRepo = Callable[..., Path]


def _note(head: str | None) -> Handoff:
    return Handoff(
        head=head,
        intent="números romanos: I → 1",
        test_names=["tests/roman.rs::converts_i"],
        red_output="thread 'converts_i' panicked: left: 0, right: 1",
        test_blobs={"tests/roman.rs": "a" * 40},
        by="tester",
        created_at=time.time(),
    )


def _head(repo: Path) -> str:
    return git(repo, "rev-parse", "HEAD").stdout.strip()


def test_round_trip_while_head_stays(make_repo: MakeRepo) -> None:
    repo = make_repo({"src/lib.rs": "\n"})
    note = _note(_head(repo))
    assert read_handoff(repo) is None
    write_handoff(repo, note)
    assert handoff_path(repo) == repo / ".git" / "tddhooks" / "handoff.json"
    assert read_handoff(repo) == note
    # the hook's pydantic-free reader sees the same note
    assert live_handoff_blobs(repo, _head(repo)) == {"tests/roman.rs": "a" * 40}
    stored = live_handoff(repo, _head(repo))
    assert stored is not None
    assert stored["intent"] == "números romanos: I → 1"
    assert [p.name for p in handoff_path(repo).parent.iterdir() if p.name.endswith(".tmp")] == []


def test_a_commit_that_does_not_carry_the_tests_keeps_the_lock(make_repo: MakeRepo) -> None:
    """The note is the drive's only on its own HEAD, but the lock (policy/handover.py) holds on
    a later HEAD until a commit carries the handed-over tests as recorded."""
    repo = make_repo({"src/lib.rs": "\n"})
    old_head = _head(repo)
    write_handoff(repo, _note(old_head))
    write_files(repo, {"src/lib.rs": "// moved on\n"})
    git(repo, "commit", "-q", "-a", "--no-verify", "-m", "feat: x")
    assert read_handoff(repo) is None
    assert live_handoff_blobs(repo, _head(repo)) == _note(old_head).test_blobs
    assert live_handoff_blobs(repo, old_head) is not None


def test_before_the_first_commit_head_is_none(make_repo: MakeRepo) -> None:
    repo = make_repo()
    note = _note(None)
    write_handoff(repo, note)
    assert read_handoff(repo) == note


def test_unreadable_note_counts_as_absent_and_clear_removes_it(make_repo: MakeRepo) -> None:
    repo = make_repo({"src/lib.rs": "\n"})
    path = handoff_path(repo)
    path.write_text("{not json", encoding="utf-8")
    assert read_handoff(repo) is None
    assert live_handoff_blobs(repo, _head(repo)) is None
    path.write_text(json.dumps({"head": _head(repo), "unknown": 1}), encoding="utf-8")
    assert read_handoff(repo) is None
    clear_handoff(repo)
    assert not path.exists()
    clear_handoff(repo)  # clearing twice is fine
