"""The real aider, configured by `tddhooks install --agent aider`, driven by the fake OpenAI
server: a scripted edit that breaks a test never becomes a commit; a green one lands with a
message the commit-msg rules accept (aider's one-line message, completed by prepare-commit-msg).

aider comes from its own venv: scripts/aider-venv. TDDHOOKS_TEST_AIDER names its executable;
scripts/test installs it beside the tests and names instead the file it writes that path to when
done (TDDHOOKS_TEST_AIDER_FILE), which these tests wait for (conftest.py runs them mid-suite).
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.agentkit import kata_with_agent, run
from support.fake_openai import FakeOpenAI, Reply

pytestmark = pytest.mark.aider
INSTALL_WAIT_S = 1200.0  # a fresh machine downloads aider's many dependencies
BROKEN_SOURCE = "def add(a: int, b: int) -> int:\n    return a - b\n"
GREEN_SOURCE = (
    "def add(a: int, b: int) -> int:\n    return a + b\n\n\n"
    "def subtract(a: int, b: int) -> int:\n    return a - b\n"
)
GREEN_TEST = (
    "from calc import add, subtract\n\n\n"
    "def test_adds_two_numbers() -> None:\n    assert add(2, 3) == 5\n\n\n"
    "def test_subtracts_two_numbers() -> None:\n    assert subtract(5, 3) == 2\n"
)


def whole_files(files: dict[str, str]) -> str:
    """An answer in aider's `whole` edit format: each file's path, then its full text fenced."""
    return "\n".join(f"{path}\n```python\n{text}```\n" for path, text in files.items())


def installed_aider() -> str:
    """The aider executable: TDDHOOKS_TEST_AIDER, else what scripts/test's install wrote to
    TDDHOOKS_TEST_AIDER_FILE (waited for; empty when the install failed), else ''."""
    named = os.environ.get("TDDHOOKS_TEST_AIDER", "")
    pending = os.environ.get("TDDHOOKS_TEST_AIDER_FILE", "")
    if named or not pending:
        return named
    deadline = time.monotonic() + INSTALL_WAIT_S
    while not Path(pending).exists() and time.monotonic() < deadline:
        time.sleep(0.5)
    return Path(pending).read_text(encoding="utf-8").strip() if Path(pending).exists() else ""


@pytest.fixture(scope="module")
def aider() -> str:
    found = installed_aider()
    if not found or not Path(found).exists():
        pytest.skip("aider is not installed: run scripts/aider-venv, set TDDHOOKS_TEST_AIDER")
    return found


@pytest.fixture
def fake(aider: str) -> Iterator[FakeOpenAI]:
    server = FakeOpenAI(models=("fake-model",)).start()
    try:
        yield server
    finally:
        server.stop()


def script(edit: dict[str, str], message: str) -> Any:
    def respond(body: dict[str, Any]) -> Reply:
        system = str(body["messages"][0].get("content", ""))
        if "one-line Git commit messages" in system:
            return Reply(message)
        return Reply("Here is the change.\n\n" + whole_files(edit))

    return respond


def run_aider(
    aider: str, repo: Path, server: FakeOpenAI, instruction: str
) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "OPENAI_API_KEY": "sk-fake",
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        "AIDER_CHECK_UPDATE": "false",
    }
    args = [
        aider, "--model", "openai/fake-model", "--openai-api-base", server.base_url,
        "--edit-format", "whole", "--no-stream", "--yes-always", "--no-pretty",
        "--no-show-model-warnings", "--no-check-update", "--analytics-disable",
        "--no-gitignore", "--map-tokens", "0", "--no-restore-chat-history",
        "--chat-history-file", str(repo.parent / "chat.md"),
        "--input-history-file", str(repo.parent / "input.txt"),
        "--message", instruction, "src/calc/__init__.py", "tests/test_calc.py",
    ]  # fmt: skip
    return subprocess.run(args, cwd=repo, env=env, capture_output=True, text=True, timeout=300)


def test_an_edit_that_breaks_a_test_never_becomes_a_commit(
    tmp_path: Path, fake: FakeOpenAI, aider: str
) -> None:
    repo = kata_with_agent(tmp_path, "aider")
    head = run(repo, "git", "rev-parse", "HEAD").stdout
    fake.responder = script({"src/calc/__init__.py": BROKEN_SOURCE}, "fix: simplify add")
    result = run_aider(aider, repo, fake, "make add subtract")
    assert run(repo, "git", "rev-parse", "HEAD").stdout == head, result.stdout
    assert "tddhooks" in result.stdout  # the gate's rejection reached aider (and its model)
    # aider's edit stays in the work tree for the person; nothing was reverted
    assert (repo / "src/calc/__init__.py").read_text(encoding="utf-8") == BROKEN_SOURCE


def test_a_green_edit_lands_with_an_accepted_message(
    tmp_path: Path, fake: FakeOpenAI, aider: str
) -> None:
    repo = kata_with_agent(tmp_path, "aider")
    edit = {"src/calc/__init__.py": GREEN_SOURCE, "tests/test_calc.py": GREEN_TEST}
    fake.responder = script(edit, "feat: subtract two numbers")
    result = run_aider(aider, repo, fake, "add subtract with a test")
    log = run(repo, "git", "log", "-1", "--format=%B").stdout
    assert log.startswith("feat: subtract two numbers\n"), result.stdout + result.stderr
    assert "- Role: Implementor" in log
    assert "- Step: 1" in log
    assert "Diff summary:\n- src/calc/__init__.py: changed\n- tests/test_calc.py: changed" in log
    assert run(repo, "git", "status", "--porcelain").stdout == ""
    audit = run(repo, "tddhooks", "audit", "HEAD~1..HEAD")
    assert audit.returncode == 0, audit.stdout + audit.stderr
