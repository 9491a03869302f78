"""Red team, class 6(a): an agent never writes over a path that exists and is not committed
(untracked, git-ignored, or only staged), a refused plan leaves every file as it was, and the undo
after a failed attempt never deletes a file the agent did not create. Real git repositories."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.rules_kit import CRATE, git, make_kata, write

from tddhooks.agents.edits import EditRefused, FileEdit, apply_edits, check_edits
from tddhooks.agents.roles import path_policy
from tddhooks.drive import workspace
from tddhooks.policy.rules import is_test_path
from tddhooks.policy.settings import PolicySettings

SETTINGS = PolicySettings(language="rust", test_paths=("tests/**",), source_paths=("src/**",))
SCRATCH = "// the person's scratch notes ñ\nfn idea() {}\n"


@pytest.fixture
def kata(tmp_path: Path) -> Path:
    return make_kata(tmp_path, CRATE)


def _upsert(path: str, content: str = "pub fn x() {}\n") -> FileEdit:
    return FileEdit(path=path, action="upsert", content=content)


def _refused(repo: Path, edits: list[FileEdit], role: str = "implementor") -> str:
    with pytest.raises(EditRefused) as caught:
        apply_edits(repo, edits, path_policy(role, SETTINGS))
    return caught.value.message


def test_a_file_listed_in_info_exclude_is_never_overwritten(kata: Path) -> None:
    (kata / ".git/info/exclude").write_text("src/scratch.rs\n", encoding="utf-8")
    write(kata, {"src/scratch.rs": SCRATCH})
    message = _refused(kata, [_upsert("src/scratch.rs")])
    assert "src/scratch.rs" in message
    assert "nothing was written" in message
    assert (kata / "src/scratch.rs").read_text(encoding="utf-8") == SCRATCH


def test_a_gitignored_file_is_never_overwritten(kata: Path) -> None:
    write(kata, {".gitignore": "src/local_*.rs\n", "src/local_notes.rs": SCRATCH})
    git(kata, "add", ".gitignore")
    git(kata, "commit", "-q", "--no-verify", "-m", "chore: ignore local files")
    _refused(kata, [_upsert("src/local_notes.rs")])
    assert (kata / "src/local_notes.rs").read_text(encoding="utf-8") == SCRATCH


def test_an_ignored_path_that_does_not_exist_yet_is_refused(kata: Path) -> None:
    (kata / ".git/info/exclude").write_text("src/gen/**\n", encoding="utf-8")
    message = _refused(kata, [_upsert("src/gen/x.rs")])
    assert "git ignores it" in message
    assert not (kata / "src/gen").exists()


def test_an_untracked_file_is_never_overwritten(kata: Path) -> None:
    write(kata, {"src/wip.rs": SCRATCH})
    _refused(kata, [_upsert("src/wip.rs")])
    assert (kata / "src/wip.rs").read_text(encoding="utf-8") == SCRATCH


def test_an_untracked_file_is_never_deleted_by_a_plan(kata: Path) -> None:
    write(kata, {"src/wip.rs": SCRATCH})
    _refused(kata, [FileEdit(path="src/wip.rs", action="delete")])
    assert (kata / "src/wip.rs").read_text(encoding="utf-8") == SCRATCH


def test_a_refused_plan_writes_none_of_its_other_files(kata: Path) -> None:
    write(kata, {"src/wip.rs": SCRATCH})
    lib = (kata / "src/lib.rs").read_text(encoding="utf-8")
    _refused(kata, [_upsert("src/lib.rs", "pub fn changed() {}\n"), _upsert("src/wip.rs")])
    assert (kata / "src/lib.rs").read_text(encoding="utf-8") == lib
    assert (kata / "src/wip.rs").read_text(encoding="utf-8") == SCRATCH


def test_a_staged_file_that_is_not_committed_is_refused(kata: Path) -> None:
    write(kata, {"src/helper.rs": SCRATCH})
    git(kata, "add", "src/helper.rs")
    _refused(kata, [_upsert("src/helper.rs")])
    assert git(kata, "show", ":src/helper.rs").stdout == SCRATCH


def test_committed_files_and_new_paths_are_still_writable(kata: Path) -> None:
    written = apply_edits(
        kata, [_upsert("src/lib.rs", "pub fn y() {}\n"), _upsert("src/new.rs")],
        path_policy("implementor", SETTINGS),
    )  # fmt: skip
    assert written == ["src/lib.rs", "src/new.rs"]


def test_the_undo_never_deletes_a_file_the_agent_did_not_create(kata: Path) -> None:
    (kata / ".git/info/exclude").write_text("src/scratch.rs\n", encoding="utf-8")
    write(kata, {"src/scratch.rs": SCRATCH, "src/wip.rs": SCRATCH})
    # a turn that failed after planning these paths undoes "its" changes
    workspace.restore_to_head(kata, ["src/scratch.rs", "src/wip.rs"])
    assert (kata / "src/scratch.rs").read_text(encoding="utf-8") == SCRATCH
    assert (kata / "src/wip.rs").read_text(encoding="utf-8") == SCRATCH


def test_the_undo_removes_what_the_agent_created_and_staged(kata: Path) -> None:
    paths = apply_edits(kata, [_upsert("src/new.rs")], path_policy("implementor", SETTINGS))
    workspace.stage(kata, paths)
    workspace.restore_to_head(kata, paths)
    assert not (kata / "src/new.rs").exists()
    assert git(kata, "status", "--porcelain").stdout == ""


def test_a_trailing_slash_test_glob_means_the_same_to_hooks_and_agents(kata: Path) -> None:
    settings = SETTINGS._replace(test_paths=("tests/",))
    assert is_test_path("tests/a.rs", settings)
    # the tester may write it, the implementor may not: both read it as a test
    apply_edits(
        kata, [_upsert("tests/a.rs", "#[test]\nfn a() {}\n")], path_policy("tester", settings)
    )
    with pytest.raises(EditRefused, match="test file"):
        check_edits(kata, [_upsert("tests/b.rs")], path_policy("implementor", settings))


def test_the_undo_removes_what_the_agent_created_before_it_was_staged(kata: Path) -> None:
    # Ctrl-C between the write and `git add`: the journal of created files licenses the delete
    paths = apply_edits(kata, [_upsert("src/new.rs")], path_policy("implementor", SETTINGS))
    workspace.restore_to_head(kata, paths)
    assert not (kata / "src/new.rs").exists()


def test_the_undo_keeps_a_created_file_someone_changed_since(kata: Path) -> None:
    paths = apply_edits(kata, [_upsert("src/new.rs")], path_policy("implementor", SETTINGS))
    (kata / "src/new.rs").write_text(SCRATCH, encoding="utf-8")  # the person typed into it
    workspace.restore_to_head(kata, paths)
    assert (kata / "src/new.rs").read_text(encoding="utf-8") == SCRATCH
