"""A Rust kata whose history starts before its crate: the first commit holds only a README and
a .gitignore, the crate comes later (as `cargo new` after creating the repository on a forge).
`audit` calls that first tree red because nothing could run, naming why, never "tests fail"
with "0 passed, 0 failed" (real git, cargo)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.shapekit import RUST_UNIT, make, run, write

pytestmark = pytest.mark.cargo


def test_a_tree_before_the_manifest_is_red_because_nothing_ran_not_because_tests_fail(
    tmp_path: Path,
) -> None:
    repo = make(tmp_path / "calc", {"README.md": "# calc\n", ".gitignore": "target/\n"})
    write(repo, RUST_UNIT)
    run(repo, "git", "add", "-A")
    assert run(repo, "git", "commit", "-q", "--no-verify", "-m", "crate").returncode == 0
    assert run(repo, "tddhooks", "install", "--direct").returncode == 0

    audited = run(repo, "tddhooks", "audit", "--json")
    assert audited.returncode == 1  # and neither subject is a Conventional Commits header
    report = json.loads(audited.stdout)
    root = run(repo, "git", "rev-list", "--max-parents=0", "HEAD").stdout.strip()
    gate = [v for v in report["violations"] if v["commit"] == root and v["rule"] == "green"]
    assert len(gate) == 1, report["violations"]
    assert gate[0]["kind"] == "no test ran"
    assert "no Cargo.toml at the top of the tree" in gate[0]["message"]
    assert "0 passed, 0 failed" not in gate[0]["message"]
    later = [v for v in report["violations"] if v["commit"] != root and v["rule"] == "green"]
    assert later == []  # the crate's own tree is green
