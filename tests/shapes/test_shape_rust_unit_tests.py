"""A Rust kata with its unit tests in src/ (no tests/ folder, no kata.md, no tdd.yaml): install,
doctor, status, a red-green-refactor cycle by hand, an amend (real git and cargo)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.shapekit import RUST_UNIT, SUB_CODE, SUB_TEST, commit_with_editor, make, message, run

pytestmark = pytest.mark.cargo


def _lib(test: bool, code: bool) -> str:
    text = RUST_UNIT["src/lib.rs"]
    if code:
        text = text.replace("\n#[cfg(test)]", SUB_CODE + "\n#[cfg(test)]")
    if test:
        text = text.removesuffix("    }\n}\n") + "    }\n" + SUB_TEST
    return text


def test_unit_tests_in_src_through_a_whole_cycle(tmp_path: Path) -> None:
    repo = make(tmp_path / "calc", RUST_UNIT)
    installed = run(repo, "tddhooks", "install", "--direct")
    assert installed.returncode == 0, installed.stdout + installed.stderr
    doctor = run(repo, "tddhooks", "doctor", "--offline")
    assert "rust: detected from Cargo.toml;" in doctor.stdout
    assert "tddhooks init" not in doctor.stdout + doctor.stderr

    # tester: a failing unit test beside the code is a staged test, red, the implementor's turn
    (repo / "src/lib.rs").write_text(_lib(test=True, code=False), encoding="utf-8")
    run(repo, "git", "add", "src/lib.rs")
    status = run(repo, "tddhooks", "status")
    assert "red" in status.stdout, status.stdout
    assert "implementor" in status.stdout
    assert "mixed" not in status.stdout
    assert "cycle       1" in status.stdout or "cycle 1" in " ".join(status.stdout.split())

    # implementor: the code; the prefill says Implementor, writes no empty Kata goal
    (repo / "src/lib.rs").write_text(_lib(test=True, code=True), encoding="utf-8")
    run(repo, "git", "add", "src/lib.rs")
    done = commit_with_editor(repo, "feat(calc): subtract two numbers")
    assert done.returncode == 0, done.stdout + done.stderr
    text = message(repo)
    assert "- Role: Implementor" in text
    assert "- Step: 1" in text
    assert "Kata goal" not in text  # no kata.md: not demanded, not written empty

    # amend that only rewords the feature: judged against HEAD's parent, accepted
    reworded = message(repo).replace("subtract two numbers", "subtract numbers")
    amended = run(repo, "git", "commit", "--amend", "-F", "-", stdin=reworded)
    assert amended.returncode == 0, amended.stdout + amended.stderr
    assert message(repo).startswith("feat(calc): subtract numbers")

    # refactor: the code only, Role: Refactorer, the cycle stays 1
    (repo / "src/lib.rs").write_text(
        _lib(test=True, code=True).replace("a - b", "a + -b"), encoding="utf-8"
    )
    run(repo, "git", "add", "src/lib.rs")
    status_text = " ".join(run(repo, "tddhooks", "status").stdout.split())
    assert "cycle 1" in status_text
    refactor = commit_with_editor(repo, "refactor(calc): subtract by adding the negation")
    assert refactor.returncode == 0, refactor.stdout + refactor.stderr
    assert "- Role: Refactorer\n- Step: 1\n" in message(repo)

    # a refactor may not touch a unit test, even keeping its name
    (repo / "src/lib.rs").write_text(
        (repo / "src/lib.rs").read_text("utf-8").replace("sub(5, 3), 2", "sub(6, 4), 2"),
        encoding="utf-8",
    )
    run(repo, "git", "add", "src/lib.rs")
    rejected = commit_with_editor(repo, "refactor(calc): other numbers")
    assert rejected.returncode == 1
    assert "[type-rules] refactor: commits may not change src/lib.rs" in rejected.stderr


def test_cargo_fmt_of_the_unit_tests_lands_as_style(tmp_path: Path) -> None:
    ugly = RUST_UNIT["src/lib.rs"].replace("assert_eq!(add(1, 1), 2);", "assert_eq!( add(1,1),2 );")
    repo = make(tmp_path / "calc", {**RUST_UNIT, "src/lib.rs": ugly})
    installed = run(repo, "tddhooks", "install", "--direct")
    said = installed.stdout + installed.stderr
    assert "style: cargo fmt" in said, said
    assert "ruff" not in said
    assert run(repo, "cargo", "fmt").returncode == 0
    done = run(repo, "git", "commit", "-am", "style: cargo fmt")  # the #[cfg(test)] module too
    assert done.returncode == 0, done.stdout + done.stderr
    assert message(repo).startswith("style: cargo fmt")
