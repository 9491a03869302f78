"""Red team, a third pass: a hostile person or agent with a real kata made by `tddhooks init`
(default install) and real git. Each test is one attack and asserts what a user would see: the
commit refused with its rule and HEAD where it was."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.gatekit import rust_feature_kata_fixture
from support.redteam import (
    RED_ONE,
    commit,
    git,
    head,
    msg,
    refused,
)
from support.redteam import write_crate_files as _write

pytestmark = pytest.mark.cargo
__all__ = ["rust_feature_kata_fixture"]  # the `kata` fixture


# a test target built without libtest: its own `main` prints libtest's lines for a test that
# never runs (the `#[test]` function is compiled out without `--test`)
FAKE_MAIN = (
    RED_ONE
    + '\nfn main() {\n    println!("\\nrunning 1 test\\ntest red_one ... ok\\n");\n'
    + '    println!("test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured");\n}\n'
)
HARNESS_OFF = '\n[[test]]\nname = "red"\npath = "tests/red.rs"\nharness = false\n'


def test_a_test_target_without_the_harness_cannot_fake_a_green_run(kata: Path) -> None:
    manifest = (kata / "Cargo.toml").read_text(encoding="utf-8") + HARNESS_OFF
    _write(kata, {"tests/red.rs": FAKE_MAIN, "Cargo.toml": manifest})
    git(kata, "add", "-A")
    before = head(kata)

    text = refused(commit(kata, msg("feat", "one sums to one")), "[green]", before, kata)

    assert "Cargo.toml sets harness = false on the test target red" in text


def test_a_bench_without_the_harness_as_criterion_writes_it_is_no_fake(kata: Path) -> None:
    """`[[bench]] harness = false` is how criterion benches are declared; `cargo test` does not
    run a bench unless it says `test = true`, so the gate judges the tree green beside one (the
    type rules may still refuse the commit's type: that is not this test's)."""
    bench = '\n[[bench]]\nname = "speed"\nharness = false\n'
    manifest = (kata / "Cargo.toml").read_text(encoding="utf-8") + bench
    _write(kata, {"benches/speed.rs": "fn main() {}\n", "Cargo.toml": manifest})
    git(kata, "add", "-A")
    done = commit(kata, msg("build", "a speed bench"))
    assert "tddhooks: green (cargo test: 1 passed" in done.stderr, done.stderr
    assert "harness" not in done.stdout + done.stderr
    # the same bench run as a test is refused like a test target
    _write(
        kata, {"Cargo.toml": manifest.replace("harness = false", "harness = false\ntest = true")}
    )
    git(kata, "add", "-A")
    before = head(kata)
    text = refused(commit(kata, msg("build", "run the bench as a test")), "[green]", before, kata)
    assert "sets harness = false on the bench target speed" in text
