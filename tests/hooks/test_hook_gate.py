"""The pre-commit hook through real `git commit`, real cargo: the green gate on the staged tree."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from support.hookkit import (
    SUB_CODE,
    SUB_TEST,
    cargo_log_wrapper,
    commit,
    git,
    head,
    kata,
    kata_template,
    processes_matching,
    run,
    tdd_message,
    write,
)

__all__ = ["kata", "kata_template"]  # fixtures
pytestmark = pytest.mark.cargo
LIB_REFACTORED = "pub fn add(a: i32, b: i32) -> i32 {\n    b + a\n}\n"
FEAT = tdd_message("feat", "subtract two numbers", diff="- tests/sub.rs: new\n- src/lib.rs: sub")


def test_a_verified_tree_commits_without_running_cargo(
    kata: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bin_dir, log = cargo_log_wrapper(tmp_path)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    write(kata, {**SUB_TEST, **SUB_CODE})
    git(kata, "add", "-A")

    verified = run(kata, "tddhooks", "hook", "pre-commit")  # what `drive` does before committing
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert verified.stdout.startswith("tddhooks: green (cargo test: 2 passed, 0 failed; ")
    ran = log.read_text(encoding="utf-8")
    assert "fmt" in ran
    assert "clippy" in ran
    assert "test" in ran
    log.unlink()

    done = commit(kata, FEAT)

    assert done.returncode == 0, done.stderr
    assert "[cached]" in done.stderr
    assert not log.exists()  # not even `cargo --version`
    # prepare-commit-msg left the -F message exactly as given
    assert git(kata, "log", "-1", "--format=%B").stdout.rstrip("\n") == FEAT.rstrip("\n")


def test_a_red_staged_test_is_rejected(kata: Path) -> None:
    before = head(kata)
    write(kata, {"tests/add.rs": "#[test]\nfn adds_wrongly() {\n"
                 "    assert_eq!(hookkata::add(2, 2), 5);\n}\n"})  # fmt: skip
    git(kata, "add", "tests/add.rs")

    rejected = commit(kata, tdd_message("test", "a wrong sum", role="Tester"))

    assert rejected.returncode == 1
    out = rejected.stderr
    assert "[green] the staged tree" in out
    assert "cargo test: 0 passed, 1 failed" in out
    assert "adds_wrongly" in out
    assert "left: 4" in out  # the first lines of the failure
    assert "red is never committed" in out
    assert "write the code and commit it with its test as feat:" in out  # by hand
    assert "tddhooks drive --steps 1" in out  # or an agent
    assert head(kata) == before


def test_a_red_commit_says_its_message_is_checked_once_the_tree_is_green(kata: Path) -> None:
    write(kata, {"tests/add.rs": "#[test]\nfn adds_wrongly() {\n"
                 "    assert_eq!(hookkata::add(2, 2), 5);\n}\n"})  # fmt: skip
    git(kata, "add", "tests/add.rs")

    rejected = git(kata, "commit", "-m", "a wrong sum")  # no type, no sections: not judged yet

    assert rejected.returncode == 1
    assert "[green] the staged tree" in rejected.stderr
    assert "[prefixed]" not in rejected.stderr  # git runs commit-msg only after pre-commit passes
    assert (
        "the commit message is checked once the tree is green (git runs the commit-msg hook only "
        "after pre-commit passes)"
    ) in rejected.stderr


def test_a_red_lint_with_green_tests_says_to_fix_the_lint(kata: Path) -> None:
    write(kata, {"src/lib.rs": LIB_REFACTORED + "fn  unused() {}\n"})  # dead_code, unformatted
    git(kata, "add", "src/lib.rs")

    rejected = commit(kata, tdd_message("refactor", "operands in order", role="Refactorer",
                                        diff="- src/lib.rs: b + a"))  # fmt: skip

    assert rejected.returncode == 1
    out = rejected.stderr
    assert "clippy failed" in out
    assert "→ the tests pass: fix what the linter reports below" in out
    assert "run `cargo fmt --all`, stage it (`git add -u`) and commit again" in out
    assert "tddhooks drive" not in out  # no test to hand over


def test_unstaged_red_edits_are_left_out_and_left_alone(kata: Path) -> None:
    write(kata, {**SUB_TEST, **SUB_CODE})
    git(kata, "add", "-A")
    index_before = git(kata, "ls-files", "--stage").stdout
    broken = SUB_CODE["src/lib.rs"].replace("a - b", "a - ") + "fn unused( {\n"
    write(kata, {"src/lib.rs": broken, "notes/ideas.txt": "untracked ñ\n"})
    lib_bytes = (kata / "src/lib.rs").read_bytes()

    done = commit(kata, FEAT)

    assert done.returncode == 0, done.stderr
    assert (kata / "src/lib.rs").read_bytes() == lib_bytes
    assert (kata / "notes/ideas.txt").read_text(encoding="utf-8") == "untracked ñ\n"
    assert git(kata, "ls-files", "--stage").stdout == index_before
    assert git(kata, "diff", "--name-only").stdout.split() == ["src/lib.rs"]
    assert git(kata, "show", "HEAD:src/lib.rs").stdout == SUB_CODE["src/lib.rs"]


def test_an_untracked_file_the_staged_code_needs_makes_it_red(kata: Path) -> None:
    lib = "mod helper;\npub use helper::double;\n"
    write(kata, {
        "src/lib.rs": lib + SUB_CODE["src/lib.rs"],
        "src/helper.rs": "pub fn double(x: i32) -> i32 {\n    x * 2\n}\n",
        "tests/double.rs": "#[test]\nfn doubles() {\n    assert_eq!(hookkata::double(2), 4);\n}\n",
    })  # fmt: skip
    git(kata, "add", "src/lib.rs", "tests/double.rs")  # helper.rs stays untracked

    rejected = commit(kata, FEAT)

    assert rejected.returncode == 1
    assert "[green]" in rejected.stderr
    assert "helper" in rejected.stderr
    assert "untracked files are not part of this commit: src/helper.rs" in rejected.stderr
    assert (kata / "src/helper.rs").exists()


def test_code_left_unstaged_is_named_with_the_command_that_stages_it(kata: Path) -> None:
    write(kata, {
        "src/lib.rs": "pub fn double(x: i32) -> i32 {\n    x * 2\n}\n" + SUB_CODE["src/lib.rs"],
        "tests/double.rs": "#[test]\nfn doubles() {\n    assert_eq!(hookkata::double(2), 4);\n}\n",
    })  # fmt: skip
    git(kata, "add", "tests/double.rs")  # the code that makes it pass stays unstaged

    rejected = commit(kata, FEAT)

    assert rejected.returncode == 1
    assert "[green]" in rejected.stderr
    assert (
        "unstaged changes were left out of the check: src/lib.rs (`git add -u` stages them"
        in rejected.stderr
    )


def test_a_feature_refused_for_no_test_names_the_untracked_test_file(kata: Path) -> None:
    """`git commit -a` leaves a new test file out: the refusal says which one is untracked."""
    write(kata, {**SUB_TEST, **SUB_CODE})
    git(kata, "add", "src/lib.rs")  # what `commit -a` stages: tracked files only

    rejected = commit(kata, FEAT.replace("- tests/sub.rs: new\n", ""))

    assert rejected.returncode == 1
    assert "no test file is staged" in rejected.stderr
    assert "untracked files are not part of this commit: tests/sub.rs" in rejected.stderr


def test_a_partial_commit_is_judged_on_its_temporary_index(kata: Path) -> None:
    write(
        kata,
        {"tests/wrong.rs": "#[test]\nfn wrong() {\n    assert_eq!(hookkata::add(1, 1), 3);\n}\n"},
    )
    git(kata, "add", "tests/wrong.rs")  # red, staged, not part of this commit
    write(kata, {"src/lib.rs": LIB_REFACTORED})
    message = tdd_message("refactor", "operands in order", role="Refactorer",
                          diff="- src/lib.rs: b + a")  # fmt: skip

    done = git(kata, "commit", "-m", message, "src/lib.rs")

    assert done.returncode == 0, done.stderr
    assert git(kata, "show", "--name-only", "--format=", "HEAD").stdout.split() == ["src/lib.rs"]
    assert git(kata, "diff", "--cached", "--name-only").stdout.split() == ["tests/wrong.rs"]


def test_a_hung_test_is_killed_at_the_timeout(kata: Path) -> None:
    # the timeout is policy: it applies from the commit after the one that sets it
    write(kata, {"tdd.yaml": "ci:\n  timeout_s: 8\n"})
    git(kata, "add", "tdd.yaml")
    git(kata, "commit", "-q", "--no-verify", "-m", "chore: a short test timeout")
    write(kata, {
        "tests/hang.rs": "#[test]\nfn hangs_forever() {\n    loop {\n"
        "        std::thread::sleep(std::time::Duration::from_millis(10));\n    }\n}\n",
    })  # fmt: skip
    git(kata, "add", "-A")
    started = time.monotonic()

    rejected = commit(kata, tdd_message("test", "hang", role="Tester", diff="- tests/hang.rs"))

    assert rejected.returncode == 1
    assert time.monotonic() - started < 120
    assert "timed out after 8s (ci.timeout_s in tdd.yaml)" in rejected.stderr
    assert "endless loop" in rejected.stderr
    deadline = time.monotonic() + 5
    while processes_matching("/deps/hang-") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes_matching("/deps/hang-") == []
    tree = git(kata, "write-tree").stdout.strip()
    verdicts = kata / ".git" / "tddhooks" / "verdicts"
    assert not list(verdicts.glob(f"{tree}-*.json"))  # a timeout is never cached
