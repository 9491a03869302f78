"""The reference-transaction and pre-push shims: chained after a person's hook (which still gets
git's input), removed byte-exactly by `uninstall`, and light on a commit the hooks judged."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support.refkit import git, green_feature, hooked_commit, installed_kata, sneak

from tddhooks.commands.install import install_hooks, uninstall

THEIRS = b'#!/bin/sh\n# a person\'s own hook\ncat >> "$(git rev-parse --git-dir)/seen"\n'


@pytest.mark.parametrize("hook", ["reference-transaction", "pre-push"])
def test_a_persons_hook_is_chained_and_put_back_byte_exactly(tmp_path: Path, hook: str) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    path = repo / ".git" / "hooks" / hook
    path.write_bytes(THEIRS)
    path.chmod(0o750)
    install_hooks(repo)
    assert (repo / ".git" / "hooks" / f"{hook}.tddhooks-chained").read_bytes() == THEIRS
    assert b"tddhooks-shim" in path.read_bytes()
    if hook == "reference-transaction":  # theirs still reads every update, in every state
        (repo / "f").write_text("x\n", encoding="utf-8")
        git(repo, "add", "f")
        git(repo, "-c", "core.hooksPath=.git/hooks", "tag", "-a", "-m", "t", "v0", "HEAD")
        git(repo, "update-ref", "refs/notes/x", git(repo, "hash-object", "-w", "f").stdout.strip())
        seen = (repo / ".git" / "seen").read_text(encoding="utf-8")
        assert "refs/notes/x" in seen
    uninstall(repo)
    assert path.read_bytes() == THEIRS
    assert oct(path.stat().st_mode & 0o777) == oct(0o750)
    assert not (repo / ".git" / "hooks" / f"{hook}.tddhooks-chained").exists()


PROBE = """
import json, sys
from tddhooks.commands.refcheck import main
code = main(sys.argv[1:])
heavy = sorted(
    {h for h in %r for name in sys.modules if name == h or name.startswith(h + ".")}
)
sys.stderr.write("PROBE=" + json.dumps({"code": code, "heavy": heavy}) + "\\n")
"""
HEAVY = (
    "subprocess",
    "tddhooks.git",
    "tddhooks.proc",
    "tddhooks.policy.settings",
    "tddhooks.policy.judge",
    "pydantic",
    "hashlib",
    "click",
    "rich",
)


@pytest.mark.pygate
def test_a_move_onto_a_judged_commit_loads_none_of_the_judging_code(tmp_path: Path) -> None:
    repo = installed_kata(tmp_path)
    parent = git(repo, "rev-parse", "HEAD").stdout.strip()
    judged = hooked_commit(repo, *green_feature())
    git(repo, "reset", "-q", "--soft", parent)
    done = subprocess.run(
        [sys.executable, "-c", PROBE % (HEAVY,), "reference-transaction", "prepared"],
        cwd=repo,
        input=f"{parent} {judged} refs/heads/main\n",
        capture_output=True,
        text=True,
    )
    probe = json.loads(done.stderr.rpartition("PROBE=")[2])
    assert probe == {"code": 0, "heavy": []}
    # the probe sees them when a commit must be judged (one made with the hooks off)
    git(repo, "reset", "-q", "--hard", parent)
    unjudged = sneak(repo, {"NOTES.md": "x\n"}, "docs: notes")
    git(repo, "reset", "-q", "--soft", parent)
    done = subprocess.run(
        [sys.executable, "-c", PROBE % (HEAVY,), "reference-transaction", "prepared"],
        cwd=repo,
        input=f"{parent} {unjudged} refs/heads/main\n",
        capture_output=True,
        text=True,
    )
    probe = json.loads(done.stderr.rpartition("PROBE=")[2])
    assert probe["code"] == 0, done.stdout + done.stderr
    assert {"subprocess", "tddhooks.git", "tddhooks.policy.judge"} <= set(probe["heavy"])
