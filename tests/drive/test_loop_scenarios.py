"""Whole drive cycles through the real loop, turns and supervisor, with the ports faked: the model
(queued answers), the gate (markers instead of a suite) and the commit (no hooks). Real git;
no HTTP, no cargo, no pytest run: each scenario takes well under a second."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

from support.fake_drive import HooklessWorkspace, MarkerGate
from support.fake_model import FakeModel

from tddhooks.drive.console import QuietDisplay
from tddhooks.drive.crew import Crew
from tddhooks.drive.loop import Drive, DrivePlan
from tddhooks.drive.steplog import StepWriter
from tddhooks.drive.supervisor import Supervisor
from tddhooks.llm.usage import UsageLedger
from tddhooks.policy.settings import load_settings

KATA = "# Adder\n\nAdd numbers.\n\n## Requirements\n\n1. add() exists.\n2. add(1) is 1.\n"
TEST_ADD = "from kata import add\n\n\ndef test_add_exists():  # needs: def add\n    add()\n"
SOURCE_ADD = "def add(*numbers: int) -> int:\n    return sum(numbers)\n"


def _git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=root, check=True, capture_output=True, text=True
    ).stdout


def _repo(tmp_path: Path) -> Path:
    root = tmp_path / "kata"
    (root / "src" / "kata").mkdir(parents=True)
    (root / "tests").mkdir()
    files = {
        "tdd.yaml": "language: python\n", "kata.md": KATA,
        "pyproject.toml": '[project]\nname = "kata"\nversion = "0.1.0"\n',
        "src/kata/__init__.py": '"""The kata."""\n', "tests/.gitkeep": "",
        ".gitignore": ".tdd/\n",
    }  # fmt: skip
    for path, text in files.items():
        (root / path).write_text(text, encoding="utf-8")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "--no-verify", "-m", "chore: scaffold the kata")
    return root


def _drive(root: Path, models: dict[str, FakeModel], steps: int = 1) -> tuple[Any, Crew]:
    crew = Crew(
        root=root,
        settings=load_settings(root),
        clients=models,
        supervisor=Supervisor(max_attempts=3, max_failed_cycles=3, steps=steps, budget_tokens=None),
        ledger=UsageLedger(),
        display=QuietDisplay(),
        steps=StepWriter(root),
        context_tokens=1800,
        max_attempts=3,
        gate=MarkerGate(),
        workspace=HooklessWorkspace(),
    )
    plan = DrivePlan(agent_roles=frozenset(models))
    return Drive(crew, plan).run(), crew


def _answer(plan: str, path: str | None = None, content: str = "", **extra: Any) -> dict[str, Any]:
    edits = [{"path": path, "content": content}] if path else []
    return {"plan": plan, "edits": edits, **extra}


def _models() -> dict[str, FakeModel]:
    return {role: FakeModel(role) for role in ("tester", "implementor", "refactorer")}


def test_one_cycle_hands_over_commits_and_refactors_nothing(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    models = _models()
    models["tester"].enqueue(_answer("add exists", "tests/test_add.py", TEST_ADD))
    commit = {"type": "feat", "scope": "src/kata/__init__.py", "summary": "Add a failing test"}
    models["implementor"].enqueue(
        _answer("define add", "src/kata/__init__.py", SOURCE_ADD, commit=commit)
    )
    models["refactorer"].enqueue(_answer("nothing to tidy"))

    summary, _crew = _drive(root, models)

    assert summary.stop_reason == "steps"
    assert summary.cycles == 1
    # the model's path scope and tester-ish summary were replaced by derived ones
    assert _git(root, "log", "-1", "--format=%s").strip() == "feat(add): add exists"
    assert _git(root, "show", "--name-only", "--format=", "HEAD").split() == [
        "src/kata/__init__.py",
        "tests/test_add.py",
    ]
    assert _git(root, "status", "--porcelain").strip() == ""
    # the implementor was told what the staged test calls
    assert "The test calls `add()`." in models["implementor"].asked[0].user


def test_a_stuck_implementor_has_the_test_set_aside_and_the_tester_told(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    models = _models()
    models["tester"].enqueue(
        _answer("add exists", "tests/test_add.py", TEST_ADD),
        _answer("all covered", done=True, reason="nothing left"),
    )
    wrong = _answer("try", "src/kata/__init__.py", "def sub() -> int:\n    return 0\n")
    models["implementor"].enqueue(wrong, wrong, wrong)

    summary, crew = _drive(root, models, steps=3)

    actions = [decision.action for decision in crew.decisions]
    assert actions[:3] == ["retry", "retry", "give-up"]
    assert "set-aside-test" in actions
    assert "set aside" in models["tester"].asked[1].user
    assert summary.stop_reason == "done"
    assert _git(root, "log", "--format=%s").splitlines() == ["chore: scaffold the kata"]
    assert (root / ".tdd" / "set-aside").is_dir()
    assert not (root / "tests" / "test_add.py").exists()
