from __future__ import annotations

from pathlib import Path

import pytest
from support.repo import git, write_files

from tddhooks import git as tgit


def test_parse_name_status() -> None:
    text = "M\0src/lib.rs\0A\0tests/ñandú.rs\0D\0old file.rs\0"
    assert tgit.parse_name_status(text) == [
        tgit.Change("M", "src/lib.rs"),
        tgit.Change("A", "tests/ñandú.rs"),
        tgit.Change("D", "old file.rs"),
    ]
    assert tgit.parse_name_status("") == []


def test_added_lines() -> None:
    diff = (
        "diff --git a/tests/a.rs b/tests/a.rs\n--- a/tests/a.rs\n+++ b/tests/a.rs\n@@ -1 +1,2 @@\n"
        " fn x() {}\n+#[ignore]\n-old\n"
        "diff --git a/gone.rs b/gone.rs\n--- a/gone.rs\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n"
    )
    assert tgit.added_lines(diff) == {"tests/a.rs": ["#[ignore]"]}


def test_staged_unstaged_untracked_and_blobs(make_repo: object, tmp_path: Path) -> None:
    repo = make_repo({"src/lib.rs": "pub fn a() {}\n"})  # type: ignore[operator]
    assert isinstance(repo, Path)
    write_files(repo, {"tests/t.rs": "#[test]\nfn t() {}\n", "src/lib.rs": "pub fn b() {}\n"})
    git(repo, "add", "tests/t.rs")
    write_files(repo, {"notes.txt": "x"})
    assert tgit.staged_changes(repo) == [tgit.Change("A", "tests/t.rs")]
    assert tgit.unstaged_paths(repo) == ["src/lib.rs"]
    assert tgit.untracked_paths(repo) == ["notes.txt"]
    staged = tgit.blob_ids(repo, ":", ["tests/t.rs"])
    assert staged["tests/t.rs"] == git(repo, "rev-parse", ":tests/t.rs").stdout.strip()
    assert tgit.read_blob(repo, ":", "tests/t.rs") == "#[test]\nfn t() {}\n"
    assert tgit.read_blob(repo, "HEAD", "missing.rs") is None
    tree = tgit.write_tree(repo)
    assert "tests/t.rs" in tgit.list_files(repo, tree)
    assert tgit.head(repo) is not None
    assert tgit.tddhooks_dir(repo) == (repo / ".git" / "tddhooks").resolve()
    assert tgit.find_root(repo / "src") == repo.resolve()
    assert tgit.find_root(tmp_path) is None


def test_clean_env_strips_git_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_INDEX_FILE", "/tmp/leaked")
    env = tgit.clean_env({"X": "1"})
    assert "GIT_INDEX_FILE" not in env
    assert env["X"] == "1"


def test_commit_env_finds_the_running_tddhooks_without_an_activated_venv(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import shutil

    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    monkeypatch.setenv("GIT_DIR", "/leaked")
    assert shutil.which("tddhooks", path="/usr/bin:/bin") is None
    env = tgit.commit_env()
    assert shutil.which("tddhooks", path=env["PATH"]) is not None
    assert "GIT_DIR" not in env
