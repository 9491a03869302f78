"""Step files: `.tdd/logs/step-<cycle>-<role>.json` and `.tdd/plan/step-<cycle>-<role>.md`.

One file per agent turn: what was asked (sizes, not prompts), what the model planned, which files
it touched (paths, actions, sizes: the contents live in git or in a `--record` session), what the
runner said, what the supervisor decided and what got committed. No key ever reaches them: the
models are named by provider and model only.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from tddhooks.keys import redact, redact_data
from tddhooks.proc import cap_text
from tddhooks.vocabulary import SCRATCH as SCRATCH  # re-exported

DECISIONS = "decisions.jsonl"
OUTPUT_TAIL_CHARS = 2_000


class _Log(BaseModel):
    model_config = ConfigDict(extra="forbid")


class EditRecord(_Log):
    """One file an attempt wrote or deleted (no contents)."""

    path: str
    action: Literal["upsert", "delete"]
    bytes: int = 0
    lines: int = 0


class RunnerOutput(_Log):
    """One gate step's result, with the tail of its output."""

    name: str
    returncode: int
    timed_out: bool = False
    duration_s: float = 0.0
    output_tail: str = ""


class VerdictSummary(_Log):
    """What the gate said about the tree an attempt produced."""

    green: bool
    cached: bool = False
    summary: list[str] = []
    failing_tests: list[str] = []
    compile_errors: list[str] = []
    steps: list[RunnerOutput] = []


class AttemptRecord(_Log):
    """One model answer and what became of it."""

    number: int
    prompt_tokens_estimate: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached: bool = False
    latency_s: float = 0.0
    plan: str = ""
    edits: list[EditRecord] = []
    verdict: VerdictSummary | None = None
    outcome: str = ""  # e.g. "red-handed-over", "overshoot", "committed", "invalid-answer"
    failure: str | None = None


class StepLog(_Log):
    """Everything one agent turn did, written when the turn ends (also when it is interrupted)."""

    cycle: int
    role: str
    provider: str
    model: str
    phase: str
    outcome: str = ""
    commit: str | None = None
    subject: str | None = None
    attempts: list[AttemptRecord] = []
    decisions: list[dict[str, str]] = []
    prompt_tokens: int = 0
    completion_tokens: int = 0
    started_at: float = 0.0
    duration_s: float = 0.0


def tail(text: str, limit: int = OUTPUT_TAIL_CHARS) -> str:
    """The last `limit` characters of runner output (what a person scrolls up to read), keys
    redacted before the cut (a cut key would no longer match)."""
    text = redact(text)
    return text if len(text) <= limit else "…" + text[-limit:]


def _free_name(directory: Path, stem: str, suffix: str, taken: set[Path]) -> Path:
    """step-3-tester.json, then step-3-tester-2.json, ... so a second turn never overwrites."""
    path = directory / f"{stem}{suffix}"
    number = 2
    while path.exists() or path in taken:
        path = directory / f"{stem}-{number}{suffix}"
        number += 1
    return path


class StepWriter:
    """Writes step files under `<root>/.tdd/`; the same turn keeps its file names on rewrite."""

    def __init__(self, root: Path) -> None:
        self.root = root
        # keyed by id(): the log is kept alive here, so its id is never reused by another turn
        self._names: dict[int, tuple[StepLog, Path, Path]] = {}

    def paths_for(self, log: StepLog) -> tuple[Path, Path]:
        """The (json, markdown) paths of this turn's step files."""
        known = self._names.get(id(log))
        if known is None:
            logs = self.root / SCRATCH / "logs"
            plans = self.root / SCRATCH / "plan"
            taken = {path for _, *pair in self._names.values() for path in pair}
            stem = f"step-{log.cycle}-{log.role}"
            known = (
                log,
                _free_name(logs, stem, ".json", taken),
                _free_name(plans, stem, ".md", taken),
            )
            self._names[id(log)] = known
        return known[1], known[2]

    def log_decision(self, action: str, reason: str) -> None:
        """Append a supervisor decision to `.tdd/logs/decisions.jsonl` (all turns, all drives)."""
        path = self.root / SCRATCH / "logs" / DECISIONS
        path.parent.mkdir(parents=True, exist_ok=True)
        entry = {"time": round(time.time(), 3), "action": action, "reason": redact(reason)}
        with path.open("a", encoding="utf-8") as stream:
            stream.write(json.dumps(entry, ensure_ascii=False) + "\n")

    def write(self, log: StepLog) -> Path:
        """Write (or rewrite) both step files; returns the JSON file's path."""
        json_path, plan_path = self.paths_for(log)
        json_path.parent.mkdir(parents=True, exist_ok=True)
        plan_path.parent.mkdir(parents=True, exist_ok=True)
        data = redact_data(log.model_dump(mode="json"))
        json_path.write_text(
            json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        plan_path.write_text(redact(plan_markdown(log)), encoding="utf-8")
        return json_path


def plan_markdown(log: StepLog) -> str:
    """The turn in prose: each attempt's plan and what became of it."""
    lines = [f"# Step {log.cycle}: {log.role} ({log.provider}:{log.model})", ""]
    if not log.attempts:
        lines.append("No answer was received.")
    for attempt in log.attempts:
        lines += [f"## Attempt {attempt.number}: {attempt.outcome or 'unfinished'}", ""]
        lines += [attempt.plan.strip() or "(no plan)", ""]
        for edit in attempt.edits:
            lines.append(f"- {edit.action} `{edit.path}` ({edit.lines} lines)")
        if attempt.edits:
            lines.append("")
        if attempt.failure:
            lines += [
                "Why it did not land:",
                "",
                "```",
                cap_text(redact(attempt.failure), 4_000),
                "```",
                "",
            ]
    if log.commit:
        lines += [f"Committed {log.commit[:12]}: {log.subject}", ""]
    for decision in log.decisions:
        lines.append(f"- supervisor: {decision.get('action')}: {decision.get('reason')}")
    return "\n".join(lines).rstrip() + "\n"
