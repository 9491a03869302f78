"""The journal of files an agent created is pruned: it licences the undo to delete exactly those
files, so entries for files that are gone, changed, committed or beyond the bound are dropped."""

from __future__ import annotations

import json
from pathlib import Path

from support.repo import git

from tddhooks.agents.journal import (
    CREATED_JOURNAL,
    MAX_JOURNAL,
    content_digest,
    created_by_agent,
    save_journal,
)


def init_repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    return repo


def commit_all(repo: Path, *paths: str) -> None:
    git(repo, "add", *paths)
    git(repo, "commit", "-q", "--no-verify", "-m", "chore: files")


def _digest(path: Path) -> str:
    return content_digest(path.read_bytes())


def test_entries_that_licence_nothing_are_dropped(tmp_path: Path) -> None:
    repo = init_repo(tmp_path)
    for name in ("committed.rs", "kept.rs", "changed.rs", "gone.rs"):
        (repo / name).write_text(f"// {name}\n", encoding="utf-8")
    journal = {name: _digest(repo / name) for name in ("committed.rs", "kept.rs", "changed.rs")}
    journal["gone.rs"] = _digest(repo / "gone.rs")
    commit_all(repo, "committed.rs")
    (repo / "changed.rs").write_text("// the person's now\n", encoding="utf-8")
    (repo / "gone.rs").unlink()

    save_journal(repo, journal)

    assert created_by_agent(repo) == {"kept.rs": journal["kept.rs"]}


def test_the_journal_is_bounded_and_keeps_the_newest(tmp_path: Path) -> None:
    repo = init_repo(tmp_path)
    folder = repo / "many"
    folder.mkdir()
    journal = {}
    for number in range(MAX_JOURNAL + 50):
        path = folder / f"f{number}.txt"
        path.write_text(str(number), encoding="utf-8")
        journal[f"many/f{number}.txt"] = _digest(path)

    save_journal(repo, journal)

    stored = json.loads((repo / ".git" / "tddhooks" / CREATED_JOURNAL).read_text("utf-8"))
    assert len(stored) == MAX_JOURNAL
    assert f"many/f{MAX_JOURNAL + 49}.txt" in stored
    assert "many/f0.txt" not in stored


def test_a_symlink_never_keeps_its_entry(tmp_path: Path) -> None:
    repo = init_repo(tmp_path)
    outside = tmp_path / "outside.txt"
    outside.write_text("x\n", encoding="utf-8")
    (repo / "link.txt").symlink_to(outside)

    save_journal(repo, {"link.txt": _digest(outside)})

    assert created_by_agent(repo) == {}
    assert outside.read_text(encoding="utf-8") == "x\n"
