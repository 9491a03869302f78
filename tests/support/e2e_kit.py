"""Helpers for the drive tests: scripted sessions for the fake server (answers picked by role from
the system prompt), the demo's recorded answers, and the checks a reviewer makes on history.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from support.fake_openai import Answer, Fail, FakeOpenAI
from support.repo import git as git
from support.repo import write_files as write_files
from tddhooks.agents.context import crate_name
from tddhooks.agents.roles import system_prompt
from tddhooks.resources import read_template

KEY = "sk-drive-test-Kq81x-NEVER-WRITE-ME"
ROLES = ("tester", "implementor", "refactorer")
AGENT = "TDD Machine <tdd@local>"


def role_of(body: Mapping[str, Any]) -> str:
    """Which role asked: the system prompt is the role's template."""
    system = body["messages"][0]["content"]
    for role in ROLES:
        if system == system_prompt(role):
            return role
    raise AssertionError(f"unknown system prompt: {system[:80]!r}")


@dataclass
class Script:
    """A whole scripted session: per-role queues of answers (dicts become JSON text)."""

    answers: dict[str, list[Any]] = field(default_factory=dict)
    asked: list[tuple[str, str]] = field(default_factory=list)  # (role, user message)

    def add(self, role: str, *answers: Answer | dict[str, Any]) -> Script:
        self.answers.setdefault(role, []).extend(answers)
        return self

    def __call__(self, body: dict[str, Any]) -> Answer:
        role = role_of(body)
        self.asked.append((role, body["messages"][1]["content"]))
        queue = self.answers.get(role) or []
        if not queue:
            return Fail(500, f"script has no more answers for {role}")
        answer: Answer | dict[str, Any] = queue.pop(0)
        return json.dumps(answer) if isinstance(answer, dict) else answer

    def prompts(self, role: str) -> list[str]:
        return [text for asked_role, text in self.asked if asked_role == role]

    def left(self) -> dict[str, int]:
        return {role: len(queue) for role, queue in self.answers.items() if queue}


def shipped_answers(crate: str) -> dict[str, list[Any]]:
    """The demo's recorded answers per role, for this crate name."""
    answers: dict[str, list[Any]] = {}
    for line in read_template("sessions/string-calculator.jsonl").splitlines():
        if line.strip():
            entry = json.loads(line)
            answers.setdefault(entry["role"], []).append(
                json.loads(entry["answer"].replace("{crate}", crate))
            )
    return answers


def answer(plan: str, edits: Sequence[dict[str, str]] = (), **extra: Any) -> dict[str, Any]:
    """An answer in the protocol's JSON shape."""
    return {"plan": plan, "edits": list(edits), **extra}


def upsert(path: str, content: str) -> dict[str, str]:
    return {"path": path, "action": "upsert", "content": content}


def rust_test(crate: str, name: str, body: str) -> str:
    return f"use {crate}::add;\n\n#[test]\nfn {name}() {{\n    {body}\n}}\n"


def lib(signature_and_body: str) -> str:
    return f"/// The sum of the numbers in `text`.\npub fn add({signature_and_body}\n"


def crate_of(repo: Path) -> str:
    name = crate_name((repo / "Cargo.toml").read_text(encoding="utf-8"))
    assert name
    return name


def drive_args(server: FakeOpenAI, *extra: str) -> list[str]:
    return ["--provider", "custom", "--base-url", server.base_url, "--model", "fake-model",
            "--api-key", KEY, *extra]  # fmt: skip


def run_cli(*args: str) -> Result:
    """`tddhooks ARGS` in-process, through the real click wiring."""
    from tddhooks.cli import cli

    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def drive(repo: Path, server: FakeOpenAI, *extra: str) -> int:
    """One-cycle `tddhooks drive` against the fake server; the exit code."""
    result = run_cli("drive", "-C", str(repo), "--steps", "1", *extra, *drive_args(server))
    return result.exit_code


def scaffold_commit(repo: Path) -> str:
    return git(repo, "rev-list", "--max-parents=0", "HEAD").stdout.strip()


def subjects(repo: Path, since: str | None = None) -> list[str]:
    """Commit subjects after `since` (default: the scaffold commit), oldest first."""
    base = since or scaffold_commit(repo)
    return git(repo, "log", "--reverse", "--format=%s", f"{base}..HEAD").stdout.splitlines()


def authors(repo: Path, since: str | None = None) -> list[str]:
    base = since or scaffold_commit(repo)
    return git(repo, "log", "--reverse", "--format=%an <%ae>", f"{base}..HEAD").stdout.splitlines()


def step_log(repo: Path, name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((repo / ".tdd" / "logs" / name).read_text("utf-8"))
    return data


def assert_audit_clean(repo: Path, since: str | None = None) -> None:
    """`tddhooks audit` re-runs the gate on every commit (no cached verdict) and the rules."""
    base = since or scaffold_commit(repo)
    result = run_cli("audit", f"{base}..HEAD", "-C", str(repo), "--json")
    assert result.exit_code == 0, result.output


def assert_clean(repo: Path) -> None:
    """Nothing staged, modified or untracked (outside the ignored .tdd/)."""
    status = git(repo, "status", "--porcelain", "--untracked-files=all").stdout
    assert status == "", status


def all_files(*roots: Path) -> Iterator[tuple[Path, bytes]]:
    """Every file under the roots (cargo's target dirs skipped), with its bytes."""
    for root in roots:
        paths = [root] if root.is_file() else root.rglob("*")
        for path in paths:
            if path.is_file() and "target" not in path.parts:
                yield path, path.read_bytes()


FIRST_FEAT = "feat(add): an empty string sums to 0"


def configure(repo: Path, old: str, new: str) -> str:
    """Change one setting of tdd.yaml and commit it (as the person); returns the commit."""
    path = repo / "tdd.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    git(repo, "commit", "-q", "--no-verify", "-am", f"chore: {new.strip()}")
    return str(git(repo, "rev-parse", "HEAD").stdout.strip())
