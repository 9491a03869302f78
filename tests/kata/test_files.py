"""The kata description's text: the work tree's, or the copy being committed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from support.repo import git, write_files

from tddhooks.kata.files import committed_kata_text, kata_file_text
from tddhooks.kata.title import kata_title

MakeRepo = Callable[..., Path]


def test_the_commit_reads_the_staged_kata_and_the_drive_the_work_trees(make_repo: MakeRepo) -> None:
    repo = make_repo({"kata.md": "# Kata: Bowling\n"})
    write_files(repo, {"kata.md": "# Kata: Bowling ü\n"})
    git(repo, "add", "kata.md")
    write_files(repo, {"kata.md": "# Unstaged draft\n"})
    assert committed_kata_text(repo, "kata.md", None) == "# Kata: Bowling ü\n"
    assert kata_file_text(repo, "kata.md") == "# Unstaged draft\n"
    assert kata_title(committed_kata_text(repo, "kata.md", None), "kata.md") == "Bowling ü"


def test_a_missing_or_undecodable_kata_reads_as_empty(make_repo: MakeRepo) -> None:
    repo = make_repo({"README.md": "x\n"})
    assert kata_file_text(repo, "kata.md") == ""
    assert committed_kata_text(repo, "kata.md", None) == ""
    (repo / "kata.md").write_bytes(b"\xff\xfe# broken\n")
    assert kata_file_text(repo, "kata.md") == ""
    assert "broken" in committed_kata_text(repo, "kata.md", None)
