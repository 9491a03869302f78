"""diagnose_head on real repositories with real cargo: green, lint-only, failing tests, nightly,
a missing tool; and what `install` and `doctor` print from it."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from support.hookkit import CRATE, build_template, git, run, write

from tddhooks.policy.diagnosis import diagnose_head

pytestmark = pytest.mark.cargo


def _repo(tmp_path: Path, files: dict[str, str]) -> Path:
    repo = build_template(tmp_path)
    write(repo, files)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "chore: as found in the wild")
    return repo


def test_green_head(tmp_path: Path) -> None:
    found = diagnose_head(build_template(tmp_path))
    assert found is not None
    assert found.green
    assert found.summary.startswith("green: cargo test: 1 passed")


def test_dead_code_is_lint_only_and_a_refactor_fixes_it(tmp_path: Path) -> None:
    repo = _repo(tmp_path, {"src/lib.rs": CRATE["src/lib.rs"] + "\nfn unused() {}\n"})
    found = diagnose_head(repo)
    assert found is not None
    assert found.state == "lint-only"
    assert found.summary == "red because of lint only: every test passes"
    assert any("unused" in line for line in found.details)
    assert found.first_commit.startswith("`refactor: …`")
    assert "chore: install tddhooks hooks" not in found.first_commit  # nothing to commit
    (repo / "tdd.yaml").write_text("language: rust\n", encoding="utf-8")
    pending = diagnose_head(repo)
    assert pending is not None
    assert "chore: install tddhooks hooks" in pending.first_commit


def test_formatting_only_suggests_a_style_commit(tmp_path: Path) -> None:
    repo = _repo(tmp_path, {"src/lib.rs": "pub fn add(a: i32, b: i32) -> i32 { a + b }\n"})
    found = diagnose_head(repo)
    assert found is not None
    assert found.state == "lint-only"
    assert "fmt" in found.summary
    assert found.first_commit.startswith("`style: cargo fmt`")


def test_a_failing_test_is_named_and_a_fix_commit_suggested(tmp_path: Path) -> None:
    red = "#[test]\nfn adds_wrongly() {\n    assert_eq!(hookkata::add(1, 1), 3);\n}\n"
    found = diagnose_head(_repo(tmp_path, {"tests/red.rs": red}))
    assert found is not None
    assert found.state == "failing-tests"
    assert "tests/red.rs::adds_wrongly" in found.summary
    assert found.first_commit.startswith("`fix: …`")


def test_a_nightly_feature_is_named(tmp_path: Path) -> None:
    version = subprocess.run(["rustc", "--version"], capture_output=True, text=True).stdout
    if "nightly" in version:
        pytest.skip("the toolchain here is nightly: the feature compiles")
    repo = _repo(tmp_path, {"src/lib.rs": "#![feature(test)]\n" + CRATE["src/lib.rs"]})
    found = diagnose_head(repo)
    assert found is not None
    assert found.state == "nightly"
    assert "`test`" in found.summary
    assert "rust-toolchain.toml" in found.first_commit


def test_a_missing_tool_is_a_diagnosis_not_a_red_tree(tmp_path: Path) -> None:
    repo = _repo(tmp_path, {"tdd.yaml": 'ci:\n  test_cmd: ["no-such-test-tool-xyz"]\n'})
    found = diagnose_head(repo)
    assert found is not None
    assert found.state == "tool"
    assert "no-such-test-tool-xyz" in found.summary


def test_no_commit_yet_has_no_diagnosis(tmp_path: Path) -> None:
    repo = tmp_path / "empty"
    repo.mkdir()
    git(repo, "init", "-q")
    assert diagnose_head(repo) is None


def test_install_prints_the_diagnosis(tmp_path: Path) -> None:
    repo = _repo(tmp_path, {"src/lib.rs": CRATE["src/lib.rs"] + "\nfn unused() {}\n"})
    for hook in (repo / ".git" / "hooks").glob("*commit*"):
        hook.unlink()  # the template's plain shims; install writes its own
    result = run(repo, "tddhooks", "install", "--direct", env={"COLUMNS": "300"})
    shown = result.stdout + result.stderr
    assert result.returncode == 0, shown
    assert "HEAD is red because of lint only" in shown
    assert "next: `refactor: …`" in shown


def test_install_says_it_could_not_run_the_gate_in_plain_words(tmp_path: Path) -> None:
    repo = _repo(tmp_path, {"tdd.yaml": 'ci:\n  test_cmd: ["no-such-test-tool-xyz"]\n'})
    for hook in (repo / ".git" / "hooks").glob("*commit*"):
        hook.unlink()
    result = run(repo, "tddhooks", "install", "--direct", env={"COLUMNS": "300"})
    shown = result.stdout + result.stderr
    assert result.returncode == 3, shown  # the environment exit: every commit would be refused
    assert "HEAD: cannot run the gate: cannot run the test step `no-such-test-tool-xyz`" in shown
    assert "the hooks are installed" in shown
    assert "HEAD is cannot" not in shown


def test_doctor_reports_the_same(tmp_path: Path) -> None:
    repo = _repo(tmp_path, {"src/lib.rs": CRATE["src/lib.rs"] + "\nfn unused() {}\n"})
    result = run(repo, "tddhooks", "doctor", "--offline", env={"COLUMNS": "300"})
    shown = result.stdout + result.stderr
    assert "gate on HEAD" in shown
    assert "red because of lint only" in shown
