"""Whole drive cycles with the ports faked, for scenario tests: a Python adder kata (FILES, read
when a Side is made, so a scenario may monkeypatch it), a Side on real git (HooklessWorkspace,
MarkerGate) or in memory (support/memory_drive.py), queued model answers, and one drive."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

from support.fake_drive import HooklessWorkspace, MarkerGate
from support.fake_model import FakeModel
from support.memory_drive import MemoryGate, MemoryWorkspace, no_processes
from tddhooks.drive.checks import active_checks
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


def git_stdout(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=root, check=True, capture_output=True, text=True
    ).stdout


FILES = {
    "tdd.yaml": "language: python\n", "kata.md": KATA,
    "pyproject.toml": '[project]\nname = "kata"\nversion = "0.1.0"\n',
    "src/kata/__init__.py": '"""The kata."""\n', "tests/.gitkeep": "",
    ".gitignore": ".tdd/\n",
}  # fmt: skip


class Side:
    """One repository the scenario drives: real git, or the in-memory workspace."""

    def __init__(self, kind: str, tmp_path: Path, files: dict[str, str] | None = None) -> None:
        # FILES looked up now: scenarios elsewhere monkeypatch it
        files = FILES if files is None else files
        self.root = root = tmp_path / "kata"
        self.memory: MemoryWorkspace | None = None
        if kind == "memory":
            self.memory = MemoryWorkspace(root, files, "chore: scaffold the kata")
            return
        (root / "src" / "kata").mkdir(parents=True)
        (root / "tests").mkdir()
        for path, text in files.items():
            (root / path).write_text(text, encoding="utf-8")
        git_stdout(root, "init", "-q")
        git_stdout(root, "add", "-A")
        git_stdout(root, "commit", "-q", "--no-verify", "-m", "chore: scaffold the kata")

    def ports(self) -> dict[str, Any]:
        if self.memory is not None:
            return {"gate": MemoryGate(self.memory), "workspace": self.memory}
        return {"gate": MarkerGate(), "workspace": HooklessWorkspace()}

    def subjects(self) -> list[str]:
        if self.memory is not None:
            return [commit.subject for commit in reversed(self.memory.commits)]
        return git_stdout(self.root, "log", "--format=%s").splitlines()

    def head_files(self) -> list[str]:
        """The paths HEAD changed."""
        if self.memory is not None:
            head, parent = self.memory.commits[-1].files, self.memory.commits[-2].files
            return sorted(p for p in {*head, *parent} if head.get(p) != parent.get(p))
        return git_stdout(self.root, "show", "--name-only", "--format=", "HEAD").split()

    def clean(self) -> bool:
        if self.memory is not None:
            staged = self.memory.staged_paths(self.root)
            settings = load_settings(self.root)
            info = self.memory.phase(self.root, settings, MemoryGate(self.memory))[0]
            return not staged and info.phase.value != "dirty"
        return git_stdout(self.root, "status", "--porcelain").strip() == ""


def drive_once(
    side: Side,
    models: dict[str, FakeModel],
    steps: int = 1,
    profile: str = "core",
    disabled: tuple[str, ...] = (),
) -> tuple[Any, Crew]:
    """One drive of `steps` cycles on side, under the answer checks of `profile`."""
    root = side.root
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
        checks=active_checks(profile, disabled),
        **side.ports(),
    )
    plan = DrivePlan(agent_roles=frozenset(models))
    if side.memory is None:
        return Drive(crew, plan).run(), crew
    with no_processes():  # the whole drive without git, or any other process
        return Drive(crew, plan).run(), crew


def plan_answer(
    plan: str, path: str | None = None, content: str = "", **extra: Any
) -> dict[str, Any]:
    edits = [{"path": path, "content": content}] if path else []
    return {"plan": plan, "edits": edits, **extra}


def fake_models() -> dict[str, FakeModel]:
    return {role: FakeModel(role) for role in ("tester", "implementor", "refactorer")}


FEAT_ADD = {"type": "feat", "scope": "add", "summary": "add exists"}
# ends a scenario where the tester would go on (a `done` with requirements open is refused):
# the drive stops as on Ctrl-C
STOP = KeyboardInterrupt()


def cycle_models(*implementor: dict[str, Any], refactor: dict[str, Any] | None = None
                  ) -> dict[str, FakeModel]:  # fmt: skip
    """One cycle: the tester hands over test_add.py, the implementor answers `implementor`
    (default: defines add), the refactorer `refactor` (default: nothing to tidy)."""
    models = fake_models()
    models["tester"].enqueue(plan_answer("add exists", "tests/test_add.py", TEST_ADD))
    models["implementor"].enqueue(
        *(implementor or (plan_answer("define add", "src/kata/__init__.py", SOURCE_ADD,
                                  commit=FEAT_ADD),))
    )  # fmt: skip
    models["refactorer"].enqueue(refactor or plan_answer("nothing to tidy"))
    return models
