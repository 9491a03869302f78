"""Red team, issue 7 class 2: a commit cannot loosen the policy that judges it.

The hooks judge a commit by the tdd.yaml of its parent (a root commit by its own; the first
tdd.yaml a history gets only picks the language), and audit does the same per commit."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from support.hookkit import (
    SUB_CODE,
    SUB_TEST,
    commit,
    git,
    head,
    install_shims,
    kata,
    kata_template,
    run,
    tdd_message,
    write,
)

__all__ = ["kata", "kata_template"]  # fixtures
pytestmark = pytest.mark.cargo

RED_TEST = {
    "tests/red.rs": "#[test]\nfn adds_wrongly() {\n    assert_eq!(hookkata::add(1, 1), 3);\n}\n"
}
RED_MESSAGE = tdd_message("test", "a failing test", role="Tester", diff="- tests/red.rs: new")
EVERY_RULE_OFF = (
    "policy:\n  disabled_rules: [green, prefixed, sections, type-rules, no-skip, handoff]\n"
)
TEST_CMD_TRUE = 'ci:\n  test_cmd: ["true"]\n  check_cmd: ["true"]\n  fmt_check_cmd: ["true"]\n'
POLICY_CHANGE = tdd_message("chore", "loosen the policy", role="Refactorer", diff="- tdd.yaml")


def _commit_policy(repo: Path, text: str) -> None:
    """A policy change in its own commit, through the hooks (judged by the old policy)."""
    write(repo, {"tdd.yaml": text})
    git(repo, "add", "tdd.yaml")
    done = commit(repo, POLICY_CHANGE)
    assert done.returncode == 0, done.stderr


def _audit(repo: Path, *args: str) -> dict[str, object]:
    result = run(repo, "tddhooks", "audit", "--json", *args)
    assert result.returncode in (0, 1), result.stderr
    report: dict[str, object] = json.loads(result.stdout)
    return report


def _rules_of(report: dict[str, object], subject: str) -> set[str]:
    violations = report["violations"]
    assert isinstance(violations, list)
    return {v["rule"] for v in violations if v["subject"] == subject}


@pytest.mark.parametrize("policy", [EVERY_RULE_OFF, TEST_CMD_TRUE], ids=["rules-off", "true-cmd"])
def test_staging_a_loose_policy_with_a_red_test_is_rejected(kata: Path, policy: str) -> None:
    write(kata, {"tdd.yaml": policy, **RED_TEST})
    git(kata, "add", "-A")
    before = head(kata)

    result = commit(kata, RED_MESSAGE)

    assert result.returncode == 1
    assert "[green]" in result.stderr
    assert "adds_wrongly" in result.stderr
    assert head(kata) == before
    assert git(kata, "diff", "--cached", "--name-only").stdout.split() == [
        "tdd.yaml",
        "tests/red.rs",
    ]


def test_a_loosened_first_policy_file_only_chooses_the_language(kata: Path) -> None:
    # the kata has no tdd.yaml yet: the first one may pick language and kata file, nothing else
    write(kata, {"tdd.yaml": "language: rust\n" + EVERY_RULE_OFF, **RED_TEST})
    git(kata, "add", "-A")

    assert commit(kata, RED_MESSAGE).returncode == 1


def test_deleting_the_policy_with_a_red_test_is_judged_by_the_deleted_policy(kata: Path) -> None:
    _commit_policy(kata, "ci:\n  timeout_s: 200\n")
    git(kata, "rm", "-q", "tdd.yaml")
    write(kata, RED_TEST)
    git(kata, "add", "-A")

    assert commit(kata, RED_MESSAGE).returncode == 1


def test_a_loose_policy_cannot_relax_the_message_rules_of_its_own_commit(kata: Path) -> None:
    write(kata, {"tdd.yaml": EVERY_RULE_OFF, **SUB_TEST, **SUB_CODE})
    git(kata, "add", "-A")
    before = head(kata)

    result = commit(kata, "whatever I like\n")

    assert result.returncode == 1
    assert "[prefixed]" in result.stderr
    assert head(kata) == before


def test_audit_flags_a_loose_policy_landed_with_its_red_test(kata: Path) -> None:
    for policy, subject in ((EVERY_RULE_OFF, "test: sneaked red"), (TEST_CMD_TRUE, "test: red 2")):
        write(kata, {"tdd.yaml": policy, **RED_TEST})
        (kata / "tests/red.rs").write_text(
            RED_TEST["tests/red.rs"].replace("wrongly", subject[-1]), encoding="utf-8"
        )
        git(kata, "add", "-A")
        git(kata, "commit", "-q", "--no-verify", "-m", subject)

    report = _audit(kata)

    assert "green" in _rules_of(report, "test: sneaked red")
    # the second commit is judged by the first one's tdd.yaml (every rule off): it passes
    assert _rules_of(report, "test: red 2") == set()
    assert report["ok"] is False


def test_a_legit_policy_change_lands_and_applies_from_the_next_commit(kata: Path) -> None:
    _commit_policy(kata, "policy:\n  disabled_rules: [green]\n")
    assert git(kata, "log", "-1", "--format=%s").stdout.strip() == "chore: loosen the policy"
    write(kata, RED_TEST)
    git(kata, "add", "-A")

    landed = commit(kata, RED_MESSAGE)

    assert landed.returncode == 0, landed.stderr
    report = _audit(kata)
    assert _rules_of(report, "test: a failing test") == set()


def test_a_tightening_applies_from_the_next_commit_not_to_itself(kata: Path) -> None:
    _commit_policy(kata, "policy:\n  disabled_rules: [green, type-rules]\n")
    write(kata, {"tdd.yaml": "ci:\n  timeout_s: 100\n", **RED_TEST})
    git(kata, "add", "-A")

    assert commit(kata, RED_MESSAGE).returncode == 0  # still judged by the loose parent
    write(kata, {"tests/red2.rs": RED_TEST["tests/red.rs"].replace("wrongly", "again")})
    git(kata, "add", "-A")
    assert commit(kata, RED_MESSAGE).returncode == 1  # now the tight policy applies


def test_amend_is_judged_by_the_policy_of_heads_parent(kata: Path) -> None:
    _commit_policy(kata, "policy:\n  disabled_rules: [green]\n")
    loosened = head(kata)
    write(kata, RED_TEST)
    git(kata, "add", "-A")

    amended = commit(kata, POLICY_CHANGE, "--amend")

    assert amended.returncode == 1
    assert "[green]" in amended.stderr
    assert head(kata) == loosened


def test_amend_through_an_abbreviated_flag_is_detected(kata: Path) -> None:
    _commit_policy(kata, "policy:\n  disabled_rules: [green]\n")
    write(kata, RED_TEST)
    git(kata, "add", "-A")

    assert commit(kata, POLICY_CHANGE, "--ame").returncode == 1


def test_a_root_commit_is_judged_by_its_own_policy(tmp_path: Path) -> None:
    repo = tmp_path / "fresh"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    install_shims(repo)
    write(repo, {"tdd.yaml": EVERY_RULE_OFF, "notes.txt": "no crate at all\n"})
    git(repo, "add", "-A")

    result = commit(repo, "anything goes in the very first commit\n")

    assert result.returncode == 0, result.stderr


def test_a_symlinked_policy_file_is_a_config_error(kata: Path, tmp_path: Path) -> None:
    loose = tmp_path / "loose.yaml"
    loose.write_text(EVERY_RULE_OFF, encoding="utf-8")
    os.symlink(loose, kata / "tdd.yaml")
    git(kata, "add", "tdd.yaml")
    git(kata, "commit", "-q", "--no-verify", "-m", "chore: policy by link")
    write(kata, RED_TEST)
    git(kata, "add", "-A")

    result = run(kata, "tddhooks", "hook", "pre-commit")

    assert result.returncode == 2
    assert "not a regular file" in result.stderr
