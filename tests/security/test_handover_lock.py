"""Red team: the handed-over test is locked by content, not by staging state (issue 34, item 8).

Once a red test is seen staged alone (the pre-commit hook refusing it, an agent hook, the drive),
it is recorded as handed over (policy/handover.py); the commit that lands on that HEAD must carry
it exactly as recorded (the `handoff` rule), whatever else is staged and whatever tool changed
it on the way. Each attack below edits the test after `git add src/…` with another tool; every one
is refused by the handoff rule at commit time. Real git, the real hooks, real pytest."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.gatekit import (
    RED_TEST,
    commit,
    git,
    head,
    landed,
    message,
    python_kata,
    python_kata_fixture,
    refused,
    write,
)

pytestmark = pytest.mark.pygate
__all__ = ["python_kata_fixture"]  # the `kata` fixture

CODE = "def add(text: str) -> int:\n    return int(text) if text else 0\n"
WEAK = RED_TEST.replace('assert add("1") == 1', 'assert add("1") >= 0')
CHEAT_CODE = "def add(text: str) -> int:\n    return 0\n"


def _hand_over_by_commit(repo: Path) -> None:
    """A person stages the red test alone and tries to commit it: refused red, handed over."""
    write(repo, {"tests/test_one.py": RED_TEST})
    git(repo, "add", "tests/test_one.py")
    before = head(repo)
    refused(commit(repo, message("test", "one", "Tester")), "[green]", before, repo)


def _agent_hook(repo: Path, event: str, payload: dict[str, object]) -> None:
    script = Path(sys.executable).parent / "tddhooks"
    subprocess.run(
        [str(script), "hook", "agent", "claude-code", event], cwd=repo, capture_output=True,
        text=True, input=json.dumps({**payload, "cwd": str(repo)}), check=False,
    )  # fmt: skip


def _hand_over_to_an_agent(repo: Path) -> None:
    """A person stages the red test alone; the agent's session starts (its context hook)."""
    write(repo, {"tests/test_one.py": RED_TEST})
    git(repo, "add", "tests/test_one.py")
    _agent_hook(repo, "context", {"hook_event_name": "SessionStart"})


def _handed_over(tmp_path: Path, session_dir: Path, how: str) -> tuple[Path, str]:
    """A copy of the kata whose red test was handed over `how` ("commit" or "agent"), and its
    HEAD (the hand-over is made once per session: the attacks come after it)."""
    setup = {"commit": _hand_over_by_commit, "agent": _hand_over_to_an_agent}[how]
    repo = python_kata(tmp_path, session_dir, setup=setup)
    assert (repo / ".git" / "tddhooks" / "handoff.json").is_file()
    return repo, head(repo)


def _weaken_with(tool: str, repo: Path) -> None:
    test = repo / "tests" / "test_one.py"
    if tool == "perl":
        subprocess.run(["perl", "-pi", "-e", "s/== 1/>= 0/", str(test)], check=True)
    elif tool == "sed":
        subprocess.run(["sed", "-i", "s/== 1/>= 0/", str(test)], check=True)
    elif tool == "ed":
        subprocess.run(
            ["ed", "-s", str(test)], input=",s/== 1/>= 0/\nw\nq\n", text=True, check=True
        )
    elif tool == "git-apply":
        patch = repo.parent / "weak.patch"
        test.write_text(WEAK, encoding="utf-8")
        patch.write_text(git(repo, "diff", "--", "tests/test_one.py").stdout, encoding="utf-8")
        test.write_text(RED_TEST, encoding="utf-8")
        git(repo, "update-index", "-q", "--refresh")
        applied = git(repo, "apply", "--index", str(patch))
        assert applied.returncode == 0, applied.stderr
    elif tool == "python":
        test.write_text(WEAK, encoding="utf-8")
    else:
        raise AssertionError(tool)
    assert test.read_text(encoding="utf-8") == WEAK


@pytest.mark.parametrize("tool", ["perl", "sed", "ed", "git-apply", "python"])
@pytest.mark.parametrize("hand_over", ["commit", "agent"])
def test_a_test_weakened_after_the_code_is_staged_cannot_land(
    tmp_path: Path, session_dir: Path, tool: str, hand_over: str
) -> None:
    if tool == "ed" and not os.path.exists("/usr/bin/ed") and not os.path.exists("/bin/ed"):
        pytest.skip("ed is not installed")
    kata, before = _handed_over(tmp_path, session_dir, hand_over)
    write(kata, {"src/kata/__init__.py": CHEAT_CODE})
    git(kata, "add", "src/kata/__init__.py")  # code staged: the staging-state lock is gone

    _weaken_with(tool, kata)
    git(kata, "add", "-A")

    text = refused(commit(kata, message("feat", "one")), "[handoff]", before, kata)
    assert "tests/test_one.py differs from the test that was handed over" in text


def test_stashing_the_handed_over_test_away_cannot_land_the_code(
    tmp_path: Path, session_dir: Path
) -> None:
    kata, before = _handed_over(tmp_path, session_dir, "agent")
    write(
        kata, {"src/kata/__init__.py": CHEAT_CODE + "\n\ndef untouched() -> int:\n    return 1\n"}
    )
    git(kata, "add", "src/kata/__init__.py")
    assert git(kata, "stash", "push", "--", "tests/test_one.py").returncode == 0

    text = refused(commit(kata, message("feat", "one")), "[handoff]", before, kata)

    assert "the handed-over test tests/test_one.py is not in this commit" in text


def test_the_test_as_handed_over_lands_with_the_code_and_the_lock_is_released(
    tmp_path: Path, session_dir: Path
) -> None:
    kata, before = _handed_over(tmp_path, session_dir, "commit")
    write(kata, {"src/kata/__init__.py": CODE})
    git(kata, "add", "-A")

    landed(commit(kata, message("feat", "one")), before, kata)

    follow = RED_TEST.replace("test_one", "test_two").replace('"1") == 1', '"2") == 2')
    write(kata, {"tests/test_one.py": follow})  # the next cycle's tester may change it
    git(kata, "add", "-A")
    after = head(kata)
    landed(commit(kata, message("test", "two", "Tester")), after, kata)


def test_an_explicit_hand_back_releases_the_lock(tmp_path: Path, session_dir: Path) -> None:
    kata, before = _handed_over(tmp_path, session_dir, "commit")
    (kata / ".git" / "tddhooks" / "handoff.json").unlink()  # the person takes the test back
    write(kata, {"tests/test_one.py": WEAK, "src/kata/__init__.py": CODE})
    git(kata, "add", "-A")

    landed(commit(kata, message("feat", "one")), before, kata)


def test_a_new_hand_over_never_replaces_a_live_one(tmp_path: Path, session_dir: Path) -> None:
    kata, before = _handed_over(tmp_path, session_dir, "commit")
    _weaken_with("python", kata)
    git(kata, "add", "tests/test_one.py")  # still only tests staged: the agent re-stages
    _agent_hook(kata, "context", {"hook_event_name": "UserPromptSubmit", "prompt": "go"})
    write(kata, {"src/kata/__init__.py": CHEAT_CODE})
    git(kata, "add", "-A")

    refused(commit(kata, message("feat", "one")), "[handoff]", before, kata)


def test_a_commit_in_between_does_not_release_the_lock(tmp_path: Path, session_dir: Path) -> None:
    kata, _before = _handed_over(tmp_path, session_dir, "commit")
    git(kata, "restore", "--staged", "tests/test_one.py")  # the test leaves the index
    write(kata, {"NOTES.md": "later\n"})
    git(kata, "add", "NOTES.md")
    before = head(kata)
    # the hooks refuse a commit without the handed-over test; one that moves HEAD anyway (judged
    # by the reference-transaction hook, which knows no hand-over) must not release the lock
    refused(commit(kata, "docs: notes\n"), "[handoff]", before, kata)
    assert git(kata, "commit", "-q", "--no-verify", "-m", "docs: notes").returncode == 0
    write(kata, {"tests/test_one.py": WEAK, "src/kata/__init__.py": CHEAT_CODE})
    git(kata, "add", "-A")
    before = head(kata)

    refused(commit(kata, message("feat", "one")), "[handoff]", before, kata)


def test_a_test_that_needs_formatting_is_not_handed_over_until_it_is_clean(kata: Path) -> None:
    note = kata / ".git" / "tddhooks" / "handoff.json"
    write(kata, {"tests/test_one.py": RED_TEST.replace('add("1")', "add( '1' )")})
    git(kata, "add", "tests/test_one.py")
    before = head(kata)
    refused(commit(kata, message("test", "one", "Tester")), "[green]", before, kata)
    assert not note.exists()  # `ruff format .` as the hint says must not break a lock

    write(kata, {"tests/test_one.py": RED_TEST})
    git(kata, "add", "tests/test_one.py")
    refused(commit(kata, message("test", "one", "Tester")), "[green]", before, kata)

    assert note.exists()
