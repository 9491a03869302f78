"""Red team: a stored verdict is a speed-up, never a pass (issue 34, item 4).

The gate's verdicts live in `.git/tddhooks/verdicts/<tree>-<key>.json`, where anything that can
write the repository can write. Each record carries a seal under a per-user secret kept outside
the repository (tddhooks/seal.py); a record without a valid seal is recomputed, never trusted.
Real git, the real hooks, real pytest."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.gatekit import (
    RED_TEST,
    commit,
    git,
    head,
    message,
    python_kata_fixture,
    refused,
    write,
)

pytestmark = pytest.mark.pygate
__all__ = ["python_kata_fixture"]  # the `kata` fixture


def _verdicts(repo: Path) -> Path:
    return repo / ".git" / "tddhooks" / "verdicts"


def _green_record(repo: Path) -> Path:
    """The sealed green verdict of a commit made here and now (the key holds this test's
    environment, so the copied kata's own records are under another key)."""
    write(repo, {"NOTES.txt": "notes\n"})
    git(repo, "add", "-A")
    assert commit(repo, "docs: notes\n").returncode == 0
    tree = git(repo, "rev-parse", "HEAD^{tree}").stdout.strip()
    found = list(_verdicts(repo).glob(f"{tree}-*.json"))
    assert len(found) == 1, found
    return found[0]


def _forge(repo: Path, green: Path, tree: str, *, keep_seal: bool) -> Path:
    data = json.loads(green.read_text(encoding="utf-8"))
    old = data["tree"]
    data["tree"] = tree
    if not keep_seal:
        data.pop("seal", None)
    forged = green.with_name(green.name.replace(old, tree))
    forged.write_text(json.dumps(data), encoding="utf-8")
    return forged


@pytest.mark.parametrize("keep_seal", [True, False], ids=["copied-seal", "no-seal"])
def test_a_green_verdict_copied_to_a_red_tree_is_recomputed(kata: Path, keep_seal: bool) -> None:
    green = _green_record(kata)
    write(kata, {"tests/test_one.py": RED_TEST})
    git(kata, "add", "-A")
    tree = git(kata, "write-tree").stdout.strip()
    forged = _forge(kata, green, tree, keep_seal=keep_seal)
    before = head(kata)

    text = refused(commit(kata, message("test", "one number", "Tester")), "[green]", before, kata)

    assert "[cached]" not in text
    assert "test_one" in text
    assert json.loads(forged.read_text(encoding="utf-8"))["green"] is False  # recomputed


def test_a_red_verdict_flipped_to_green_is_recomputed(kata: Path) -> None:
    write(kata, {"tests/test_one.py": RED_TEST})
    git(kata, "add", "-A")
    before = head(kata)
    refused(commit(kata, message("test", "one number", "Tester")), "[green]", before, kata)
    tree = git(kata, "write-tree").stdout.strip()
    (record,) = _verdicts(kata).glob(f"{tree}-*.json")
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["green"] is False
    data["green"] = True
    data["verification"] = ["pytest: 2 passed, 0 failed"]
    record.write_text(json.dumps(data), encoding="utf-8")

    text = refused(commit(kata, message("test", "one number", "Tester")), "[green]", before, kata)

    assert "[cached]" not in text


def test_a_forged_key_memo_cannot_point_at_another_policys_verdicts(kata: Path) -> None:
    green = _green_record(kata)  # the key memo is this copy's now
    memo = kata / ".git" / "tddhooks" / "verdict-key.json"
    data = json.loads(memo.read_text(encoding="utf-8"))
    data["key"] = "0" * 20
    memo.write_text(json.dumps(data), encoding="utf-8")
    write(kata, {"tests/test_one.py": RED_TEST})
    git(kata, "add", "-A")
    tree = git(kata, "write-tree").stdout.strip()
    forged = json.loads(green.read_text(encoding="utf-8"))
    forged.update(tree=tree, key="0" * 20)
    (_verdicts(kata) / f"{tree}-{'0' * 20}.json").write_text(json.dumps(forged), "utf-8")
    before = head(kata)

    text = refused(commit(kata, message("test", "one number", "Tester")), "[green]", before, kata)

    assert "[cached]" not in text


def test_a_sealed_green_verdict_is_reused(kata: Path) -> None:
    write(kata, {"README.txt": "notes\n"})
    git(kata, "add", "-A")
    tree = git(kata, "write-tree").stdout.strip()
    done = commit(kata, "docs: notes\n")
    assert done.returncode == 0, done.stderr
    git(kata, "reset", "-q", "--soft", "HEAD~1")
    assert git(kata, "write-tree").stdout.strip() == tree

    again = commit(kata, "docs: notes\n")

    assert again.returncode == 0, again.stderr
    assert "[cached]" in again.stdout + again.stderr
