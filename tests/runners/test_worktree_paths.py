"""Gate output shows work-tree paths, never the snapshot's, and no colour codes."""

from __future__ import annotations

from pathlib import Path

from tddhooks.commands.hook import format_next_step
from tddhooks.runners.worktree_paths import to_work_tree


def test_snapshot_prefixes_become_work_tree_paths(tmp_path: Path) -> None:
    snapshot = tmp_path / "repo/.git/tddhooks/snapshot"
    snapshot.mkdir(parents=True)
    text = (
        f"Diff in {snapshot}/src/lib.rs:5:\n\x1b[31m-\x1b(B\x1b[m x\nat {snapshot.resolve()}/a.py"
    )
    assert to_work_tree(text, snapshot) == "Diff in src/lib.rs:5:\n- x\nat a.py"
    assert to_work_tree("cd /other/place/x", snapshot) == "cd /other/place/x"


def test_a_format_failure_names_the_formatter() -> None:
    assert format_next_step(("cargo", "fmt", "--all")).startswith(
        "run `cargo fmt --all`, stage what it changed (`git add -u`)"
    )
    assert format_next_step(("/venv/bin/python3", "-m", "ruff", "format", ".")).startswith(
        "run `ruff format .`"
    )
