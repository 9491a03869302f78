"""The facts the commit rules judge, read from real repositories (no cargo needed)."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from support.repo import git, write_files

from tddhooks.git import Change
from tddhooks.policy.facts import (
    commit_facts,
    hook_index_file,
    parse_patch,
    parse_raw,
    split_batch,
    staged_facts,
    unquote_c,
)
from tddhooks.policy.settings import PolicySettings

MakeRepo = Callable[..., Path]
SETTINGS = PolicySettings(language="rust", test_paths=("tests/**",))
LIB = "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n"
TEST = "#[test]\nfn adds() {\n    assert_eq!(kata::add(1, 2), 3);\n}\n"


@pytest.mark.parametrize(
    ("patch", "added", "removed"),
    [
        ("", {}, {}),
        (
            "diff --git a/src/lib.rs b/src/lib.rs\n--- a/src/lib.rs\n+++ b/src/lib.rs\n"
            "@@ -2 +2 @@\n-    a + b\n+    b + a\n",
            {"src/lib.rs": ["    b + a"]},
            {"src/lib.rs": ["    a + b"]},
        ),
        (  # removed/added lines that look like file headers stay content
            "--- a/notes.md\n+++ b/notes.md\n@@ -1,2 +1,2 @@\n--- old rule\n-+++ x\n"
            "+++ new rule\n+--- y\n",
            {"notes.md": ["++ new rule", "--- y"]},
            {"notes.md": ["-- old rule", "+++ x"]},
        ),
        (
            "--- /dev/null\n+++ b/tests/ñandú.rs\n@@ -0,0 +1,2 @@\n+#[test]\n+#[ignore]\n"
            "--- a/gone.rs\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n",
            {"tests/ñandú.rs": ["#[test]", "#[ignore]"]},
            {"gone.rs": ["bye"]},
        ),
        (
            '--- "a/tests/t\\tab.rs"\n+++ "b/tests/t\\tab.rs"\n@@ -1 +1 @@\n-a\r\n+b\r\n'
            "\\ No newline at end of file\n",
            {"tests/t\tab.rs": ["b"]},
            {"tests/t\tab.rs": ["a"]},
        ),
    ],
)
def test_parse_patch(
    patch: str, added: dict[str, list[str]], removed: dict[str, list[str]]
) -> None:
    assert parse_patch(patch) == (added, removed)


@pytest.mark.parametrize(
    ("quoted", "path"),
    [
        ("plain.rs", "plain.rs"),
        ("tab\\there", "tab\there"),
        ('say \\"hi\\"', 'say "hi"'),
        ("\\303\\261and\\303\\272.rs", "ñandú.rs"),
        ("back\\\\slash", "back\\slash"),
    ],
)
def test_unquote_c(quoted: str, path: str) -> None:
    assert unquote_c(quoted) == path


def test_parse_raw_and_split_batch() -> None:
    zero, one, two = "0" * 40, "1" * 40, "2" * 40
    raw = f":000000 100644 {zero} {one} A\0tests/ñ.rs\0:100644 000000 {two} {zero} D\0old.rs\0"
    assert parse_raw(raw) == [("A", "tests/ñ.rs", one), ("D", "old.rs", zero)]
    # each object: header, content (sizes count bytes, not characters), one newline
    output = f"{one} blob 8\nñandú\n\n{two} blob 4\nab\n\n\n"
    assert split_batch(output, [one, two]) == {one: "ñandú\n", two: "ab\n\n"}
    assert split_batch(f"{one} blob 0\n\n{two} blob 1\nx\n", [one, two]) == {one: "", two: "x"}
    assert split_batch(f"{one} missing\n", [one]) == {}


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, None),
        ({"GIT_INDEX_FILE": ""}, None),
        ({"GIT_INDEX_FILE": ".git/index"}, "/repo/.git/index"),
        ({"GIT_INDEX_FILE": "/repo/.git/next-index-42.lock"}, "/repo/.git/next-index-42.lock"),
    ],
)
def test_hook_index_file(environ: dict[str, str], expected: str | None) -> None:
    assert hook_index_file(Path("/repo"), environ) == expected


def test_staged_facts_against_head(make_repo: MakeRepo) -> None:
    repo = make_repo({"src/lib.rs": LIB, "tests/add.rs": TEST, "README.md": "kata\n"})
    write_files(repo, {
        "tests/add.rs": TEST.replace("#[test]\nfn adds", "#[test]\n#[ignore]\nfn adds")
        + "\n#[test]\nfn adds_ñ() {}\n",
        "src/lib.rs": LIB.replace("a + b", "b + a"),
        "src/unstaged.rs": "#[test]\nfn not_staged() {}\n",
    })  # fmt: skip
    git(repo, "add", "tests/add.rs", "src/lib.rs")
    git(repo, "rm", "-q", "README.md")

    facts = staged_facts(repo, SETTINGS)

    assert set(facts.changes) == {
        Change("M", "tests/add.rs"), Change("M", "src/lib.rs"), Change("D", "README.md")
    }  # fmt: skip
    assert facts.test_names_before == {"tests/add.rs::adds"}
    assert facts.test_names_after == {"tests/add.rs::adds", "tests/add.rs::adds_ñ"}
    assert "#[ignore]" in facts.added_lines["tests/add.rs"]
    assert facts.removed_lines["src/lib.rs"] == ["    a + b"]
    assert facts.removed_lines["README.md"] == ["kata"]
    blob = git(repo, "rev-parse", ":tests/add.rs").stdout.strip()
    assert facts.staged_blobs == {"tests/add.rs": blob}
    assert facts.handoff_blobs is None


def test_staged_facts_reads_the_given_index_and_the_live_handoff(make_repo: MakeRepo) -> None:
    repo = make_repo({"src/lib.rs": LIB})
    write_files(repo, {"tests/add.rs": TEST})
    git(repo, "add", "tests/add.rs")
    head = git(repo, "rev-parse", "HEAD").stdout.strip()
    blob = git(repo, "rev-parse", ":tests/add.rs").stdout.strip()
    note = {"head": head, "intent": "add", "test_blobs": {"tests/add.rs": blob}}
    (repo / ".git/tddhooks").mkdir(exist_ok=True)
    (repo / ".git/tddhooks/handoff.json").write_text(json.dumps(note), encoding="utf-8")
    # a temporary index like `git commit src/lib.rs` builds: HEAD plus one path
    other = str(repo / ".git" / "other-index")
    env = {"GIT_INDEX_FILE": other}
    subprocess.run(["git", "read-tree", "HEAD"], cwd=repo, env=_env(env), check=True)
    write_files(repo, {"src/lib.rs": LIB + "// tidy\n"})
    subprocess.run(["git", "add", "src/lib.rs"], cwd=repo, env=_env(env), check=True)

    default = staged_facts(repo, SETTINGS)
    partial = staged_facts(repo, SETTINGS, index_file=other)

    assert default.changes == (Change("A", "tests/add.rs"),)
    assert default.handoff_blobs == {"tests/add.rs": blob}
    assert default.test_names_after == {"tests/add.rs::adds"}
    assert partial.changes == (Change("M", "src/lib.rs"),)
    assert partial.test_names_after == frozenset()
    assert partial.staged_blobs == {}


def _env(extra: dict[str, str]) -> dict[str, str]:
    return {**os.environ, **extra}


def test_staged_facts_before_the_first_commit(make_repo: MakeRepo) -> None:
    repo = make_repo()
    write_files(repo, {"tests/add.rs": TEST})
    git(repo, "add", "tests/add.rs")
    facts = staged_facts(repo, SETTINGS)
    assert facts.changes == (Change("A", "tests/add.rs"),)
    assert facts.test_names_before == frozenset()
    assert facts.test_names_after == {"tests/add.rs::adds"}


def test_commit_facts_against_first_parent_or_empty_tree(make_repo: MakeRepo) -> None:
    repo = make_repo({"src/lib.rs": LIB})
    root_facts = commit_facts(repo, "HEAD", SETTINGS)
    assert root_facts.changes == (Change("A", "src/lib.rs"),)
    write_files(repo, {"tests/add.rs": TEST})
    git(repo, "add", "tests/add.rs")
    git(repo, "commit", "-q", "--no-verify", "-m", "feat: add")
    facts = commit_facts(repo, "HEAD", SETTINGS)
    assert facts.changes == (Change("A", "tests/add.rs"),)
    assert facts.test_names_before == frozenset()
    assert facts.test_names_after == {"tests/add.rs::adds"}
    assert facts.added_lines["tests/add.rs"][0] == "#[test]"
    assert facts.handoff_blobs is None
    assert set(facts.staged_blobs) == {"tests/add.rs"}


def test_facts_stay_whole_when_git_output_exceeds_the_capture_limit(make_repo: MakeRepo) -> None:
    padding = "// " + "ñ" * 8000 + "\n"  # 40 files of this: more than proc's 256k output cap
    files = {f"tests/t{i:03}.rs": f"#[test]\nfn t{i:03}() {{}}\n{padding}" for i in range(40)}
    repo = make_repo(files)
    changed = {path: text + padding for path, text in files.items()}
    changed["tests/t020.rs"] = "#[test]\n#[ignore]\nfn t020() {}\n" + padding * 2
    write_files(repo, changed)
    git(repo, "add", "-A")

    facts = staged_facts(repo, SETTINGS)

    assert len(facts.changes) == 40
    assert "#[ignore]" in facts.added_lines["tests/t020.rs"]
    assert all(padding.rstrip("\n") in facts.added_lines[path] for path in files)
    assert facts.test_names_before == facts.test_names_after
    assert len(facts.test_names_after) == 40


def test_changes_carry_their_file_modes(make_repo: MakeRepo) -> None:
    repo = make_repo({"src/lib.rs": LIB, "docs/lib.md": LIB, "run.sh": "true\n"})
    (repo / "src/lib.rs").unlink()
    (repo / "src/lib.rs").symlink_to("../docs/lib.md")
    (repo / "run.sh").chmod(0o755)
    write_files(repo, {"new.rs": "// new\n"})
    git(repo, "add", "-A")

    facts = staged_facts(repo, SETTINGS)

    modes = {change.path: (change.old_mode, change.new_mode) for change in facts.changes}
    assert modes == {
        "src/lib.rs": ("100644", "120000"),
        "run.sh": ("100644", "100755"),
        "new.rs": ("", "100644"),
    }
    assert facts.stand_ins["docs/lib.md"] == {"src/lib.rs"}


def test_a_tree_too_long_for_one_output_is_read_whole(make_repo: MakeRepo) -> None:
    # thousands of files around the test: a listing cut in its middle would lose the test
    files = {
        f"{side}/{'n' * 40}{number:05}.txt": "" for side in ("aaa", "zzz") for number in range(2600)
    }
    repo = make_repo({**files, "tests/add.rs": TEST, "src/lib.rs": LIB})
    write_files(repo, {"src/lib.rs": LIB.replace("a + b", "b + a")})
    git(repo, "add", "src/lib.rs")

    facts = staged_facts(repo, SETTINGS)

    assert facts.test_names_before == facts.test_names_after == {"tests/add.rs::adds"}
