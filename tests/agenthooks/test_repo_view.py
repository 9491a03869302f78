"""The agent hooks' one-call reading of `git status --porcelain=v2` (pure)."""

from __future__ import annotations

from tddhooks.agenthooks.repo_view import parse_status


def test_porcelain_v2_gives_head_staged_unstaged_and_untracked() -> None:
    text = "\0".join(
        [
            "# branch.oid 0123456789abcdef0123456789abcdef01234567",
            "# branch.head main",
            "1 A. N... 000000 100644 100644 0000 1111 tests/test_new.py",
            "1 .M N... 100644 100644 100644 2222 2222 src/calc/__init__.py",
            "1 MM N... 100644 100644 100644 3333 4444 src/with space.py",
            "u UU N... 100644 100644 100644 100644 5555 6666 7777 conflicted.py",
            "? notes.txt",
            "",
        ]
    )
    head, staged, unstaged, untracked = parse_status(text)
    assert head == "0123456789abcdef0123456789abcdef01234567"
    assert staged == ["tests/test_new.py", "src/with space.py", "conflicted.py"]
    assert unstaged == ["src/calc/__init__.py", "src/with space.py", "conflicted.py"]
    assert untracked == ["notes.txt"]


def test_before_the_first_commit_there_is_no_head() -> None:
    assert parse_status("# branch.oid (initial)\0# branch.head main\0")[0] is None
