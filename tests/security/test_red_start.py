"""Red team, issue 8 item 3: the install commit lands on a red start, and nothing else hides in it.

Rule (policy/diagnosis.py, docs/gate.md "A red start"): a red staged tree may land when the
commit changes only `.pre-commit-config.yaml`, `tdd.yaml` and `kata.md` at the top level and its
parent's tree is red under the same policy."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.hookkit import CRATE, SUB_CODE, git, head, kata, kata_template, run, write

__all__ = ["kata", "kata_template"]  # fixtures
pytestmark = pytest.mark.cargo

RED_TEST = {
    "tests/red.rs": "#[test]\nfn adds_wrongly() {\n    assert_eq!(hookkata::add(1, 1), 3);\n}\n"
}
OWN = {
    ".pre-commit-config.yaml": "repos: []\n",
    "tdd.yaml": "language: rust\n",
    "kata.md": CRATE["kata.md"] + "\n- Also subtract.\n",
}
INSTALL = "chore: install tddhooks hooks"


def _red_head(repo: Path) -> str:
    write(repo, RED_TEST)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "test: red from before tddhooks")
    return head(repo)


def _install_commit(repo: Path, extra: dict[str, str] | None = None) -> tuple[str, object]:
    write(repo, {**OWN, **(extra or {})})
    git(repo, "add", "-A")
    before = head(repo)
    return before, git(repo, "commit", "-m", INSTALL)


def test_the_install_commit_lands_on_a_red_start(kata: Path) -> None:
    red = _red_head(kata)

    before, result = _install_commit(kata)

    assert result.returncode == 0, result.stderr  # type: ignore[attr-defined]
    assert "red start" in result.stderr  # type: ignore[attr-defined]
    assert before == red
    assert git(kata, "rev-parse", "HEAD~1").stdout.strip() == red


def test_the_next_commit_that_touches_code_must_be_green(kata: Path) -> None:
    _red_head(kata)
    _install_commit(kata)
    write(kata, SUB_CODE)
    git(kata, "add", "-A")
    before = head(kata)

    result = git(kata, "commit", "-m", "refactor: unrelated change on a red tree")

    assert result.returncode == 1
    assert "[green]" in result.stderr
    assert head(kata) == before


@pytest.mark.parametrize(
    "hidden",
    [
        {"src/lib.rs": CRATE["src/lib.rs"] + "\npub fn sneaky() {}\n"},
        {"build.rs": "fn main() {}\n"},
        {"src/kata.md": "not a top-level kata file\n"},
        {".cargo/config.toml": "[target.'cfg(all())']\nrunner = \"true\"\n"},
        {"tests/red.rs": RED_TEST["tests/red.rs"].replace("3)", "4)")},
    ],
    ids=["source", "build-script", "nested-kata-md", "cargo-config", "test"],
)
def test_a_change_hidden_in_the_install_commit_is_rejected(
    kata: Path, hidden: dict[str, str]
) -> None:
    _red_head(kata)

    before, result = _install_commit(kata, hidden)

    assert result.returncode == 1  # type: ignore[attr-defined]
    assert "[green]" in result.stderr  # type: ignore[attr-defined]
    assert "red start" not in result.stderr  # type: ignore[attr-defined]
    assert head(kata) == before


def test_deleting_a_file_alongside_the_install_files_is_rejected(kata: Path) -> None:
    _red_head(kata)
    git(kata, "rm", "-q", "tests/add.rs")

    before, result = _install_commit(kata)

    assert result.returncode == 1  # type: ignore[attr-defined]
    assert head(kata) == before


def test_own_files_that_turn_a_green_parent_red_are_rejected(kata: Path) -> None:
    # a test that reads kata.md: changing "only" kata.md makes a green parent red
    reads = (
        '#[test]\nfn kata_is_short() {\n    assert!(include_str!("../kata.md").len() < 80);\n}\n'
    )
    write(kata, {"tests/kata.rs": reads})
    git(kata, "add", "-A")
    git(kata, "commit", "-q", "--no-verify", "-m", "test: the kata file stays short")

    before, result = _install_commit(kata)

    assert result.returncode == 1  # type: ignore[attr-defined]
    assert "kata_is_short" in result.stderr  # type: ignore[attr-defined]
    assert head(kata) == before


def test_a_kata_file_configured_as_source_is_not_an_own_file(kata: Path) -> None:
    write(kata, {"tdd.yaml": "kata_description: src/lib.rs\n"})
    git(kata, "add", "-A")
    git(kata, "commit", "-q", "--no-verify", "-m", "chore: odd kata file")
    _red_head(kata)
    write(kata, {"src/lib.rs": CRATE["src/lib.rs"] + "\n// requirement: subtract\n"})
    git(kata, "add", "-A")
    before = head(kata)

    result = git(kata, "commit", "-m", INSTALL)

    assert result.returncode == 1
    assert head(kata) == before


def test_audit_agrees_with_the_hooks_on_a_red_start(kata: Path) -> None:
    red = _red_head(kata)
    _, result = _install_commit(kata)
    assert result.returncode == 0  # type: ignore[attr-defined]

    audit = run(kata, "tddhooks", "audit", "--json", f"{red}~1..HEAD")

    flagged = {(v["commit"], v["rule"]) for v in json.loads(audit.stdout)["violations"]}
    assert (red, "green") in flagged
    assert all(commit != head(kata) for commit, _ in flagged)
