"""A Cargo workspace whose crate has a dependency that cannot be fetched (offline, nothing in the
registry cache): install says what it runs, fails fast with the environment exit (3) and the
fix, and nothing remembers a red verdict (real git, the real `tddhooks` executable, real cargo;
the registry is a closed local port, so the test never depends on the network)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from support.shapekit import make, run

pytestmark = pytest.mark.cargo

WORKSPACE = {
    ".gitignore": "target/\n",
    "Cargo.toml": '[workspace]\nmembers = ["score"]\nresolver = "2"\n',
    "score/Cargo.toml": '[package]\nname = "score"\nversion = "0.1.0"\nedition = "2021"\n\n'
    '[dependencies]\nitertools = "0.12"\n',
    "score/src/lib.rs": "pub fn score() -> u32 {\n    0\n}\n",
}
# crates.io replaced by a registry nobody answers on: every fetch fails as offline
DEAD_REGISTRY = (
    '[source.crates-io]\nreplace-with = "dead"\n\n[source.dead]\n'
    'registry = "sparse+http://127.0.0.1:9/index/"\n'
)


def test_an_unfetchable_dependency_is_an_environment_problem_said_at_once(tmp_path: Path) -> None:
    repo = make(tmp_path / "ws", WORKSPACE)
    cargo_home = tmp_path / "cargo-home"
    cargo_home.mkdir()
    (cargo_home / "config.toml").write_text(DEAD_REGISTRY, encoding="utf-8")
    offline = {"CARGO_HOME": str(cargo_home)}

    started = time.monotonic()
    installed = run(repo, "tddhooks", "install", "--direct", extra=offline)
    took = time.monotonic() - started
    said = installed.stdout + installed.stderr
    assert installed.returncode == 3, said
    assert "checking HEAD with the gate: `cargo fmt`, `cargo clippy`, `cargo test`" in said
    assert "failed to get `itertools`" in said, said
    assert "cargo fetch" in said
    assert "nothing was cached" in said
    assert "the hooks are installed" in said
    assert took < 120, took  # one step's failed fetch, no retries (minutes before)

    status = run(repo, "tddhooks", "status", extra=offline)
    assert "red" not in status.stdout, status.stdout  # no verdict was remembered
