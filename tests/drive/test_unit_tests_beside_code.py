"""A drive on a real Rust kata whose unit tests live in src/lib.rs (`#[cfg(test)] mod tests`): the
tester adds its test inside that module, the sandbox refuses a tester that touches the code and an
implementor that touches the handed-over test, and the commit passes the real hooks (real git,
real cargo; the model is the queued fake)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from support.fake_model import FakeModel
from support.shapekit import BIN, RUST_UNIT, SUB_CODE, SUB_TEST, make, message, run

from tddhooks.drive.console import QuietDisplay
from tddhooks.drive.crew import Crew
from tddhooks.drive.loop import Drive, DrivePlan
from tddhooks.drive.steplog import StepWriter
from tddhooks.drive.supervisor import Supervisor
from tddhooks.llm.usage import UsageLedger
from tddhooks.policy.settings import load_settings

pytestmark = pytest.mark.cargo
KATA = "# Calculator\n\n## Requirements\n\n1. Add two numbers.\n2. Subtract two numbers.\n"
LIB = RUST_UNIT["src/lib.rs"]
WITH_TEST = LIB.removesuffix("    }\n}\n") + "    }\n" + SUB_TEST
WITH_CODE = WITH_TEST.replace("\n#[cfg(test)]", SUB_CODE + "\n#[cfg(test)]")


def _answer(plan: str, content: str, **extra: Any) -> dict[str, Any]:
    return {"plan": plan, "edits": [{"path": "src/lib.rs", "content": content}], **extra}


def _feat(summary: str) -> dict[str, Any]:
    # not the crate's own name: `calc` would be no scope (docs/agents.md)
    return {"type": "feat", "scope": "sub", "summary": summary, "rationale": ["minimal"]}


@pytest.fixture
def kata(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PATH", f"{BIN}{os.pathsep}{os.environ['PATH']}")
    repo = make(tmp_path / "calc", {**RUST_UNIT, "kata.md": KATA, ".gitignore": "target/\n.tdd/\n"})
    installed = run(repo, "tddhooks", "install", "--direct")
    assert installed.returncode == 0, installed.stdout + installed.stderr
    assert run(repo, "git", "status", "--porcelain").stdout == ""  # --direct: hooks only
    return repo


def _drive(root: Path, models: dict[str, FakeModel]) -> tuple[Any, Crew]:
    crew = Crew(
        root=root,
        settings=load_settings(root),
        clients=models,
        supervisor=Supervisor(max_attempts=3, max_failed_cycles=3, steps=1, budget_tokens=None),
        ledger=UsageLedger(),
        display=QuietDisplay(),
        steps=StepWriter(root),
        context_tokens=3000,
        max_attempts=3,
    )
    return Drive(crew, DrivePlan(agent_roles=frozenset(models))).run(), crew


def test_a_cycle_with_the_test_inside_the_source_files_test_module(kata: Path) -> None:
    tester = FakeModel("tester").enqueue(
        # the code changes too: refused before anything is written
        _answer("test and code at once", WITH_CODE),
        _answer("a subtraction unit test beside the add test", WITH_TEST),
    )
    implementor = FakeModel("implementor").enqueue(
        # the handed-over test changed (other numbers): refused
        _answer(
            "sub",
            WITH_CODE.replace("sub(5, 3), 2", "sub(6, 4), 2"),
            commit=_feat("subtract two numbers"),
        ),
        _answer("sub", WITH_CODE, commit=_feat("subtract two numbers")),
    )
    refactorer = FakeModel("refactorer").enqueue({"plan": "nothing worth changing", "edits": []})
    models = {"tester": tester, "implementor": implementor, "refactorer": refactorer}
    _summary, _crew = _drive(kata, models)

    # the tester saw the whole file as the place for its test, and was told why it was refused
    assert "src/lib.rs (unit tests beside the code" in tester.asked[0].user
    assert "it changes code in src/lib.rs" in tester.asked[1].user
    # the implementor was refused for changing the handed-over test, then landed
    assert "it changes the tests in src/lib.rs" in implementor.asked[1].user
    head = message(kata)
    assert head.startswith("feat(sub): subtract two numbers"), head
    assert "- Role: Implementor" in head
    assert (kata / "src/lib.rs").read_text(encoding="utf-8") == WITH_CODE
    assert run(kata, "git", "status", "--porcelain").stdout == ""
    logs = sorted((kata / ".tdd" / "logs").glob("step-1-*.json"))
    outcomes = {
        path.name: [a["outcome"] for a in json.loads(path.read_text("utf-8"))["attempts"]]
        for path in logs
    }
    assert outcomes["step-1-tester.json"] == ["refused", "handed-over"]
    assert outcomes["step-1-implementor.json"] == ["refused", "committed"]


def test_a_failed_implementor_attempt_keeps_the_handed_over_test_staged(kata: Path) -> None:
    tester = FakeModel("tester").enqueue(_answer("sub test", WITH_TEST))
    broken = WITH_CODE.replace("a - b", "a + b")  # compiles, the test fails: red
    without_test = LIB.replace("\n#[cfg(test)]", SUB_CODE + "\n#[cfg(test)]")
    implementor = FakeModel("implementor").enqueue(
        _answer("wrong", broken, commit=_feat("subtract")),
        # drops the handed-over test: refused only if the red attempt put the staged test back
        _answer("code only", without_test, commit=_feat("subtract")),
        _answer("right", WITH_CODE, commit=_feat("subtract")),
    )
    refactorer = FakeModel("refactorer").enqueue({"plan": "nothing", "edits": []})
    _drive(kata, {"tester": tester, "implementor": implementor, "refactorer": refactorer})
    assert "it changes the tests in src/lib.rs" in implementor.asked[2].user
    assert "fn subtracts()" in run(kata, "git", "show", "HEAD:src/lib.rs").stdout
    assert message(kata).startswith("feat(sub): subtract")


def test_the_hooks_refuse_an_implementor_commit_that_changed_the_handed_over_test_item(
    kata: Path,
) -> None:
    """Past the sandbox (a person commits): the handoff names the test items of src/lib.rs."""
    from tddhooks.drive.ports import GitWorkspace
    from tddhooks.drive.turnkit import handoff_tokens

    tester = FakeModel("tester").enqueue(_answer("sub test", WITH_TEST))
    _drive(kata, {"tester": tester})
    tokens = handoff_tokens(GitWorkspace(), kata, load_settings(kata), ["src/lib.rs"])
    assert tokens["src/lib.rs"].startswith("items:")
    (kata / "src/lib.rs").write_text(WITH_CODE.replace("sub(5, 3), 2", "sub(6, 4), 2"), "utf-8")
    run(kata, "git", "add", "src/lib.rs")
    editor = {"GIT_EDITOR": "sed -i '1s/^/feat(calc): subtract/'"}
    rejected = run(kata, "git", "commit", extra=editor)
    assert rejected.returncode == 1, rejected.stdout + rejected.stderr
    assert "[handoff] the test items of src/lib.rs" in rejected.stderr
    (kata / "src/lib.rs").write_text(WITH_CODE, "utf-8")
    run(kata, "git", "add", "src/lib.rs")
    accepted = run(kata, "git", "commit", extra=editor)
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
