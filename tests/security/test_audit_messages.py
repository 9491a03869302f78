"""Red team, classes 3 and 4 in `tddhooks audit`: a commit made with --no-verify is judged by
the message git stored (a kept `#` line is part of it) and by the same merge/revert/fixup rules
as the hooks. The gate is switched off in these repositories: only the message rules are under
test here."""

from __future__ import annotations

import json
from pathlib import Path

from support.rules_kit import CRATE, SUB_CODE, SUB_TEST, git, make_kata, run, tdd, write

NO_GATE = {**CRATE, "tdd.yaml": "language: rust\npolicy:\n  disabled_rules: [green]\n"}


def _commit(repo: Path, files: dict[str, str], *messages: str) -> str:
    write(repo, files)
    git(repo, "add", "-A")
    args = [part for message in messages for part in ("-m", message)]
    assert git(repo, "commit", "-q", "--no-verify", *args).returncode == 0
    return git(repo, "rev-parse", "HEAD").stdout.strip()


def _findings(repo: Path) -> set[tuple[str, str]]:
    result = run(repo, "tddhooks", "audit", "--json")
    report = json.loads(result.stdout)
    return {(item["commit"], item["rule"]) for item in report["violations"]}


def test_audit_judges_the_stored_message_with_its_comment_line(tmp_path: Path) -> None:
    repo = make_kata(tmp_path, NO_GATE)
    wip = _commit(repo, {"README.md": "x\n"}, "# WIP hack", "docs: notes")
    assert git(repo, "log", "-1", "--format=%s").stdout.strip() == "# WIP hack"
    assert _findings(repo) == {(wip, "prefixed")}


def test_audit_rejects_lookalike_reverts_and_fixups(tmp_path: Path) -> None:
    repo = make_kata(tmp_path, NO_GATE)
    revert = _commit(repo, {"src/lib.rs": SUB_CODE}, 'Revert "nothing"')
    fixup = _commit(repo, {"src/extra.rs": "pub fn x() {}\n"}, "fixup! whatever")
    merge = _commit(repo, {"src/more.rs": "pub fn y() {}\n"}, "Merge branch 'feature'")
    assert _findings(repo) == {(revert, "type-rules"), (fixup, "prefixed"), (merge, "prefixed")}


def test_audit_accepts_an_exact_revert_of_a_feature(tmp_path: Path) -> None:
    repo = make_kata(tmp_path, NO_GATE)
    feature = _commit(repo, {"tests/sub.rs": SUB_TEST, "src/lib.rs": SUB_CODE}, tdd("feat", "sub"))
    assert git(repo, "revert", "--no-edit", feature).returncode == 0
    assert _findings(repo) == set()
