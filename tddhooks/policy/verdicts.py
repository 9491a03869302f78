"""Gate verdicts: what one run of fmt check, lint and tests said about a tree, and their store.

A verdict is stored under `.git/tddhooks/verdicts/<tree>-<key>.json`, where the key hashes
everything besides the tree that decides the result (commands, toolchain, our version, language).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from tddhooks import __version__
from tddhooks.policy.settings import PolicySettings
from tddhooks.policy.stored import GATE_REVISION as GATE_REVISION  # re-exported
from tddhooks.policy.stored import (
    VERIFICATION_FIELD,
    environment_digest,
    import_fingerprint,
    read_sealed,
    sealed_json,
    verdict_file,
)
from tddhooks.runners.base import Runner, TestReport

STEP_NAMES = ("fmt", "lint", "test")
# Progress chatter that says nothing about why a step failed.
_NOISE_RE = re.compile(
    r"^\s*(Compiling|Checking|Finished|Running|Doc-tests|Blocking|Fresh|Updating|Locking|Adding"
    r"|Downloaded|running \d+ tests?$|test \S+ \.\.\. ok$|test result: ok)"
)


class StepOutcome(BaseModel):
    """One gate command: what ran, how it ended, and the end of its output."""

    model_config = ConfigDict(extra="forbid")

    name: str
    cmd: list[str]
    returncode: int
    timed_out: bool
    duration_s: float
    output_tail: str

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out


class Verdict(BaseModel):
    """The gate's judgement of one tree; `cached` is True when it came from the store."""

    model_config = ConfigDict(extra="forbid")

    tree: str
    key: str
    green: bool
    steps: list[StepOutcome]
    report: TestReport
    test_names: list[str]
    duration_s: float
    created_at: float
    cached: bool = False
    # `lint: ratchet`: path -> the linter's findings in the tree (policy/ratchet.py)
    lint_findings: dict[str, int] | None = None

    @property
    def timed_out(self) -> bool:
        return any(step.timed_out for step in self.steps)

    def step(self, name: str) -> StepOutcome | None:
        return next((step for step in self.steps if step.name == name), None)

    def verification_lines(self) -> list[str]:
        """One line for the Verification section, e.g. 'cargo test: 7 passed, 0 failed; ...'."""
        parts = []
        test = self.step("test")
        if test is not None:
            parts.append(
                f"{command_label(test.cmd, full=True)}: {_test_summary(self.report, test)}"
            )
        for name in ("lint", "fmt"):
            step = self.step(name)
            if step is not None:
                label = "fmt" if name == "fmt" else command_label(step.cmd)
                state = _step_state(step)
                if name == "lint" and step.ok and self.lint_findings is not None:
                    state = f"ratchet ({sum(self.lint_findings.values())} finding(s) kept)"
                parts.append(f"{label} {state}")
        return ["; ".join(parts)] if parts else []

    def failure_excerpt(self, lines: int = 20) -> str:
        """The first lines that say why the tree is red (test failures first, then lint, fmt)."""
        picked: list[str] = []
        for name in ("test", "lint", "fmt"):
            step = self.step(name)
            if step is None or step.ok:
                continue
            picked.append(f"[{name}] {' '.join(step.cmd)}: {_step_state(step)}")
            picked.extend(_explaining_lines(step, self.report if name == "test" else None))
        return "\n".join(picked[:lines])


def command_label(cmd: list[str], *, full: bool = False) -> str:
    """Short name of a command: 'cargo test' (full) or 'clippy', 'pytest', 'ruff' (pure)."""
    if not cmd:
        return ""
    tool, rest = Path(cmd[0]).name, cmd[1:]
    if tool.startswith("python") and len(rest) > 1 and rest[0] == "-m":
        return rest[1]
    if tool in ("uv", "poetry", "pipenv") and len(rest) > 1 and rest[0] == "run":
        return command_label(rest[1:], full=full)
    if tool == "cargo":
        sub = next((word for word in rest if not word.startswith(("-", "+"))), "")
        return f"cargo {sub}".strip() if full else sub or tool
    return tool


def _step_state(step: StepOutcome) -> str:
    if step.timed_out:
        return f"timed out after {step.duration_s:.0f}s"
    return "clean" if step.ok else f"failed (exit {step.returncode})"


def _test_summary(report: TestReport, step: StepOutcome) -> str:
    if step.timed_out:
        return _step_state(step)
    summary = report.summary()
    if not step.ok and report.failed == 0 and not report.compile_errors:
        summary += f" (exit {step.returncode})"
    return summary


# the line of a failure excerpt that names the failing tests (read back by status, audit and
# the drive's retry prompt, drive/gather.py broken_expectations)
FAILING_TESTS = "failing tests: "


def _explaining_lines(step: StepOutcome, report: TestReport | None) -> list[str]:
    lines: list[str] = []
    if report is not None and report.failing_tests:
        lines.append(FAILING_TESTS + ", ".join(report.failing_tests))
    explained = report and (report.error_lines or report.compile_errors)
    if explained:  # the runner's own pick beats a filtered tail
        return [*lines, *explained]
    return lines + [
        line for line in step.output_tail.splitlines() if line.strip() and not _NOISE_RE.match(line)
    ]


class VerdictStore:
    """Verdicts on disk, one JSON file per (tree, key); writes are atomic."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def get(self, tree: str, key: str) -> Verdict | None:
        """The stored verdict (cached=True), or None when absent, unreadable or not sealed by
        this user's tddhooks (policy/stored.py read_sealed)."""
        data = read_sealed(verdict_file(self.directory, tree, key))
        if data is None:
            return None
        try:
            data.pop(VERIFICATION_FIELD, None)
            verdict = Verdict.model_validate(data)
        except (OSError, ValueError, ValidationError, AttributeError):
            return None
        if verdict.tree != tree or verdict.key != key:
            return None
        return verdict.model_copy(update={"cached": True})

    def put(self, verdict: Verdict) -> None:
        """Store a verdict (a timed-out one is never stored: the next run may finish in time)."""
        if verdict.timed_out or not verdict.tree:
            return
        data = verdict.model_dump(mode="json", exclude={"cached"})
        # read by the hook's fast path, which must not import pydantic
        data[VERIFICATION_FIELD] = verdict.verification_lines() if verdict.green else []
        self.directory.mkdir(parents=True, exist_ok=True)
        path = verdict_file(self.directory, verdict.tree, verdict.key)
        write_atomic(path, sealed_json(data))


def write_atomic(path: Path, text: str) -> None:
    """Write text to path through a temporary file and a rename, so readers never see half."""
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def verdict_key(settings: PolicySettings, runner: Runner) -> str:
    """Hash of what besides the tree decides a verdict: commands, toolchain, version (and the
    gate's revision), language, the environment the gate lets through, and what its commands can
    import or link (policy/stored.py import_fingerprint)."""
    material = {
        "commands": [list(settings.fmt_check), list(settings.lint), list(settings.test)],
        "toolchain": runner.toolchain_version(),
        "tddhooks": f"{__version__}+gate{GATE_REVISION}",
        "language": settings.language,
        "environment": environment_digest(settings),
        "imports": import_fingerprint(settings),
    }
    canonical = json.dumps(material, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:20]
