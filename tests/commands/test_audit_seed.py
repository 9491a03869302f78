"""An audit lane's first build starts from the hooks' warm cargo target folder, and still judges
its own tree: a red commit on top of a warm green build is red (real git, real cargo)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from support.hookkit import CRATE, build_template, write

from tddhooks.commands.audit_gate import seed_target
from tddhooks.policy.diagnosis import diagnose_head
from tddhooks.policy.snapshot import gate_dirs

pytestmark = pytest.mark.cargo


def test_a_seeded_lane_rebuilds_the_kata_and_sees_the_red_commit(tmp_path: Path) -> None:
    repo = build_template(tmp_path)
    found = diagnose_head(repo)  # the hooks' gate: its target folder is now warm
    assert found is not None
    assert found.green
    write(repo, {"src/lib.rs": CRATE["src/lib.rs"].replace("a + b", "a - b")})
    subprocess.run(["git", "commit", "-qam", "fix: wrong", "--no-verify"], cwd=repo, check=True)
    done = subprocess.run(
        ["tddhooks", "audit", "-j", "1", "--since", "HEAD~1"],
        cwd=repo, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    assert "tests fail" in done.stdout
    lane_target = gate_dirs(repo, "audit")[1]
    warm_tag = gate_dirs(repo)[1] / "CACHEDIR.TAG"
    # seeded: the copy keeps the warm folder's files and times (cp -a)
    assert (lane_target / "CACHEDIR.TAG").stat().st_mtime == warm_tag.stat().st_mtime
    assert not seed_target(repo, "audit")  # never seeded over a lane's own build
