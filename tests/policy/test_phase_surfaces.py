"""One phase model, every surface: for each repository shape, `status`, `status --json`, the
prepare-commit-msg context, the agent hooks' SessionStart context and the drive's phase read
tell the same phase, turn and cycle (policy/phase.py). Python katas: the gate runs ruff and
pytest, never cargo."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from support.pykata import FAILING_TEST, FILES, SOURCE, TEST
from support.repo import git, write_files

from tddhooks import git as tgit
from tddhooks import output
from tddhooks.agenthooks.handlers import context, pre_tool, stop_reason
from tddhooks.agenthooks.repo_view import repo_view
from tddhooks.agenthooks.status_json import hook_status
from tddhooks.cli import cli
from tddhooks.commands.hook_prepare import prefill
from tddhooks.drive.ports import GitWorkspace, RealGate
from tddhooks.policy.gate import tree_verdict
from tddhooks.policy.settings import load_settings

MakeRepo = Callable[..., Path]

# tests beside the code: pytest collects every module (runners/python_items.py)
BESIDE = FILES["pyproject.toml"].replace(
    'pythonpath = ["src"]', 'pythonpath = ["src"]\npython_files = ["*.py"]'
)
UNIT_TEST = SOURCE + "\n\ndef test_adds_négatifs() -> None:\n    assert add(2, -3) == 5\n"


@dataclass(frozen=True)
class Said:
    phase: str
    turn: str
    cycle: int


def _judge_head(repo: Path) -> None:
    """Store HEAD's verdict, as `tddhooks install` does when it reports HEAD."""
    settings = load_settings(repo)
    tree_verdict(repo, tgit.tree_of(repo, "HEAD"), settings)


def clean_green(repo: Path) -> None:
    _judge_head(repo)


def red_head(repo: Path) -> None:
    write_files(repo, {"tests/test_sub.py": FAILING_TEST})
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "test: a red test committed round the hooks", "--no-verify")
    _judge_head(repo)


def red_head_never_judged(repo: Path) -> None:
    """`status` judges HEAD's tree itself; the others read the verdict it stored."""
    write_files(repo, {"tests/test_sub.py": FAILING_TEST})
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "test: a red test committed round the hooks", "--no-verify")


def red_test_staged(repo: Path) -> None:
    write_files(repo, {"tests/test_sub.py": FAILING_TEST})
    git(repo, "add", "tests/test_sub.py")


def red_unit_test_in_source(repo: Path) -> None:
    init = 'from calc.core import add\n\n__all__ = ["add"]\n'
    write_files(repo, {"pyproject.toml": BESIDE, "src/calc/core.py": SOURCE})
    write_files(repo, {"src/calc/__init__.py": init})
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "refactor: the code in its own module, tests collected beside it")
    write_files(repo, {"src/calc/core.py": UNIT_TEST})
    git(repo, "add", "src/calc/core.py")


def mixed(repo: Path) -> None:
    write_files(repo, {"tests/test_sub.py": FAILING_TEST, "src/calc/__init__.py": SOURCE + "\n"})
    git(repo, "add", "-A")


def overshoot(repo: Path) -> None:
    write_files(repo, {"tests/test_again.py": TEST.replace("two", "three")})
    git(repo, "add", "tests/test_again.py")


def deleted_test(repo: Path) -> None:
    git(repo, "rm", "-q", "tests/test_calc.py")


def agent_config(repo: Path) -> None:
    result = CliRunner().invoke(
        cli, ["install", "-C", str(repo), "--agent", "claude-code"], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    assert (repo / ".claude/settings.json").is_file()
    assert ".claude/settings.json" in tgit.untracked_paths(repo)


def no_scaffold_commit(repo: Path) -> None:
    """A kata found in the wild: three commits of a flat project, no manifest, no init."""
    git(repo, "rm", "-rq", "pyproject.toml", "src", "tests")
    write_files(repo, {"calc.py": SOURCE, "test_calc.py": TEST})
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "feat: flat layout")
    write_files(
        repo, {"test_calc.py": TEST + "\n\ndef test_zero() -> None:\n    assert add(0, 0) == 0\n"}
    )
    git(repo, "commit", "-qam", "test: zero")
    _judge_head(repo)


SHAPES: dict[str, tuple[Callable[[Path], None], Said]] = {
    "clean green": (clean_green, Said("green", "tester", 1)),
    "red HEAD": (red_head, Said("red", "person", 1)),
    "red HEAD no hook judged yet": (red_head_never_judged, Said("red", "person", 1)),
    "red test staged in tests/": (red_test_staged, Said("red", "implementor", 1)),
    "red unit test staged in a module": (red_unit_test_in_source, Said("red", "implementor", 1)),
    "test and code staged": (mixed, Said("mixed", "person", 1)),
    "overshoot": (overshoot, Said("overshoot", "tester", 1)),
    "a deleted test staged": (deleted_test, Said("mixed", "person", 1)),
    "install --agent wrote .claude/settings.json": (agent_config, Said("green", "tester", 1)),
    "history without a scaffold commit": (no_scaffold_commit, Said("green", "tester", 2)),
}


@pytest.fixture(autouse=True)
def wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    output.use_streams()


def said_by_status(repo: Path) -> Said:
    result = CliRunner().invoke(cli, ["status", "-C", str(repo)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    found = re.search(r"phase (\S+) next (\w+): .* cycle (\d+)", text)
    assert found, text
    return Said(found[1], found[2], int(found[3]))


def said_by_status_json(repo: Path) -> Said:
    result = CliRunner().invoke(cli, ["status", "--json", "-C", str(repo)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    status = json.loads(result.output)
    return Said(status["phase"], status["turn"], status["cycle"])


def said_by_session_start(repo: Path) -> Said:
    answer, code = context("claude-code", {"hook_event_name": "SessionStart"}, str(repo))
    assert code == 0
    text = answer["hookSpecificOutput"]["additionalContext"]
    found = re.search(r"phase (\S+), cycle (\d+); it is the (\w+)'s turn", text)
    assert found, text
    return Said(found[1], found[3], int(found[2]))


def said_by_drive(repo: Path) -> Said:
    info, _verdict = GitWorkspace().phase(repo, load_settings(repo), RealGate())
    return Said(info.phase.value, info.next_actor, info.cycle)


def prefilled_step(repo: Path) -> int | None:
    """The `Step:` prepare-commit-msg writes for what is staged; None with nothing staged."""
    if tgit.write_tree(repo) == tgit.tree_of(repo, "HEAD"):
        return None
    settings = load_settings(repo)
    text = prefill(repo, tgit.tddhooks_dir(repo), settings, None, "#")
    found = re.search(r"Step: (\d+)", text)
    assert found, text
    return int(found[1])


@pytest.mark.pygate
@pytest.mark.parametrize("shape", list(SHAPES))
def test_every_surface_tells_the_same_phase(make_repo: MakeRepo, shape: str) -> None:
    arrange, expected = SHAPES[shape]
    repo = make_repo(FILES)
    arrange(repo)
    # `status` first: it runs the gate on a staged test-only tree; the others read its verdict
    surfaces = {
        "status": said_by_status(repo),
        "status --json": said_by_status_json(repo),
        "SessionStart": said_by_session_start(repo),
        "drive": said_by_drive(repo),
    }
    assert surfaces == dict.fromkeys(surfaces, expected)
    step = prefilled_step(repo)
    if step is not None:
        assert step == expected.cycle
    # Stop sends the agent back exactly in the person's phases of a staged tree
    view = repo_view(str(repo))
    assert view is not None
    held = stop_reason(hook_status(view)) is not None
    assert held == (expected.phase in {"dirty", "mixed", "overshoot"})


def test_the_files_install_agent_writes_are_every_agents_configuration() -> None:
    from tddhooks.agenthooks.formats import AGENTS
    from tddhooks.vocabulary import AGENT_CONFIG_FILES

    assert {spec.config for spec in AGENTS.values()} == AGENT_CONFIG_FILES


def edit(repo: Path, old: str, new: str) -> dict[str, object]:
    payload = {
        "hook_event_name": "PreToolUse",
        "tool_name": "Edit",
        "tool_input": {"file_path": "src/calc/core.py", "old_string": old, "new_string": new},
    }
    answer, code = pre_tool("claude-code", payload, str(repo))
    assert code in (0, 2)
    return answer


def test_a_unit_test_handed_over_in_a_module_is_the_implementors_to_pass_not_to_edit(
    make_repo: MakeRepo,
) -> None:
    repo = make_repo(FILES)
    red_unit_test_in_source(repo)
    assert said_by_session_start(repo) == Said("red", "implementor", 1)
    refused = edit(repo, "assert add(2, -3) == 5", "assert add(2, -3) == -1")
    assert "this edit changes the tests handed over in src/calc/core.py" in json.dumps(refused)
    assert edit(repo, "return a + b", "return 5 if b < 0 else a + b") == {}
    # a Write of the whole file that keeps the test as staged is the implementor's too
    kept = UNIT_TEST.replace("return a + b", "return 5 if b < 0 else a + b")
    write = {"tool_name": "Write", "tool_input": {"file_path": "src/calc/core.py", "content": kept}}
    assert pre_tool("claude-code", write, str(repo)) == ({}, 0)
