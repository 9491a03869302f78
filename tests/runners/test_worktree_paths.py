"""Gate output shows work-tree paths, never the snapshot's, and no colour codes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

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


def test_cargos_target_folder_becomes_target(tmp_path: Path) -> None:
    snapshot, target = tmp_path / "cache/abc/snapshot", tmp_path / "cache/abc/target"
    text = (
        f"process didn't exit successfully: `{target}/debug/deps/zero-5f1d` (signal: 6)\n"
        f"  --> {snapshot}/tests/zero.rs:3:5\n   Compiling x ({snapshot})"
    )
    assert to_work_tree(text, snapshot, target) == (
        "process didn't exit successfully: `target/debug/deps/zero-5f1d` (signal: 6)\n"
        "  --> tests/zero.rs:3:5\n   Compiling x (.)"
    )
    assert to_work_tree(f"{target}/debug", snapshot) == f"{target}/debug"  # no target given


@pytest.mark.cargo
def test_an_aborted_test_binary_is_named_the_same_in_every_clone(
    make_repo: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Measured: the gate's own cache path reached a prompt, and a replay elsewhere diverged."""
    from tddhooks.drive.ports import RealGate
    from tddhooks.policy.settings import load_settings

    monkeypatch.delenv("CARGO_TARGET_DIR", raising=False)
    outputs = []
    for name in ("one", "two"):
        repo = make_repo({
            "tdd.yaml": "language: rust\n", "src/lib.rs": "//! a\n",
            "Cargo.toml": '[package]\nname = "aborts"\nversion = "0.1.0"\nedition = "2021"\n',
            "tests/zero.rs": "#[test]\nfn zero() {\n    std::process::abort();\n}\n",
        }, name=name)  # fmt: skip
        verdict = RealGate().staged(repo, load_settings(repo))
        step = verdict.step("test")
        assert step is not None
        assert not step.ok
        assert "snapshots" not in step.output_tail
        outputs += [line for line in step.output_tail.splitlines() if "didn't exit" in line]
    expected = "process didn't exit successfully: `target/debug/deps/zero-"
    assert outputs[0].strip().startswith(expected)
    assert outputs == [outputs[0], outputs[0]]
