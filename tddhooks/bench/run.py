"""One bench run: initialise the kata in a fresh directory, drive it in a child `tddhooks drive
--json`, re-gate every commit with `tddhooks audit`, then score the hidden acceptance suite."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from tddhooks import reaper
from tddhooks.bench.katas import BenchKata

KEY_VARIABLE = "TDDHOOKS_BENCH_API_KEY"  # the child gets a key through this, never its argv


class RunResult(BaseModel):
    """What one drive scored; the JSON file holds a list of these."""

    model_config = ConfigDict(extra="forbid")

    model: str
    kata: str
    language: str
    run: int
    profile: str = ""  # the drive's check profile (--profile, else its tdd.yaml); "" unknown
    cycles: int = 0
    cycles_landed: int = 0
    commits: int = 0
    red_commits: int = 0
    audit_clean: bool = False
    acceptance_passed: int = 0
    acceptance_total: int = 0
    tokens: dict[str, dict[str, int]] = Field(default_factory=dict)  # role -> tokens, calls
    calls: int = 0  # model calls of every role, cached or not
    # answers not taken, by the check that refused them (or by outcome where none is named)
    refusals: dict[str, int] = Field(default_factory=dict)
    model_time_s: float = 0.0
    wall_time_s: float = 0.0
    stop_reason: str = ""
    error: str = ""


@dataclass(frozen=True)
class RunSpec:
    """One drive to run: which model on which kata, and where."""

    model: str
    kata: BenchKata
    run: int
    language: str
    steps: int
    work_dir: Path
    llm_args: tuple[str, ...]  # --provider/--base-url/--role-model/… for the child
    api_key: str | None = None
    profile: str | None = None  # --profile for the child; None: its tdd.yaml says
    # the bench's own directory: a relative path it checked (`replay:own.jsonl`) is the same file
    # for the drive
    cwd: Path = field(default_factory=Path.cwd)

    @property
    def label(self) -> str:
        profile = f" · {self.profile}" if self.profile else ""
        return f"{self.model}{profile} · {self.kata.name} · run {self.run}"


class Children:
    """The drives running now, so Ctrl-C can stop them cleanly (SIGINT: each undoes its turn)."""

    def __init__(self) -> None:
        self._running: set[subprocess.Popen[str]] = set()
        self._lock = threading.Lock()
        self.stopping = threading.Event()

    def start(self, cmd: Sequence[str], *, cwd: Path, env: dict[str, str],
              stdout: Any) -> subprocess.Popen[str]:  # fmt: skip
        with self._lock:
            if self.stopping.is_set():
                raise KeyboardInterrupt
            # the reaper must know these children: its orphan sweep after another job's
            # command would otherwise take them for leftovers and kill them
            token = reaper.starting()
            child: subprocess.Popen[str] | None = None
            try:
                child = subprocess.Popen(
                    list(cmd), cwd=cwd, env=env, stdout=stdout, stderr=subprocess.PIPE,
                    text=True, start_new_session=True,
                )  # fmt: skip
            finally:
                reaper.started(token, None if child is None else child.pid)
            self._running.add(child)
            return child

    def finished(self, child: subprocess.Popen[str]) -> None:
        with self._lock:
            self._running.discard(child)
        reaper.finished(child.pid)

    def interrupt(self) -> None:
        """Ctrl-C: no new drive starts; the running ones get SIGINT and stop cleanly."""
        self.stopping.set()
        with self._lock:
            for child in self._running:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(child.pid, signal.SIGINT)
        self.stop_commands()

    def stop_commands(self) -> None:
        """Kill what the runs' own threads run (an acceptance suite, git): those commands have
        their own sessions, so a terminal's Ctrl-C never reaches them. The drives are spared:
        SIGINT lets each undo its turn."""
        with self._lock:
            drives = {child.pid for child in self._running}
        reaper.kill_all_running(spare=drives)


def _tddhooks(*args: str) -> list[str]:
    return [sys.executable, "-m", "tddhooks", *args]


def _child_env(spec: RunSpec) -> dict[str, str]:
    """What a run's drive and audit see: ours, less a shared cargo folder (bench/acceptance.py
    `own_cargo`), plus the key by environment only."""
    from tddhooks.bench.acceptance import own_cargo

    env = own_cargo(os.environ)
    if spec.api_key:
        env[KEY_VARIABLE] = spec.api_key
    return env


def _events(path: Path) -> list[dict[str, Any]]:
    events = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict):
            events.append(event)
    return events


def _run_child(spec: RunSpec, children: Children, cmd: list[str], log: Path) -> tuple[int, str]:
    with log.open("w", encoding="utf-8") as out:
        child = children.start(cmd, cwd=spec.cwd, env=_child_env(spec), stdout=out)
        try:
            _, stderr = child.communicate()
        finally:
            children.finished(child)
    return child.returncode, stderr or ""


def drive_command(spec: RunSpec) -> tuple[list[str], dict[str, str]]:
    """The child drive's argv and environment: a key given as such is in the environment only."""
    key_args = ("--api-key", KEY_VARIABLE) if spec.api_key else ()
    profile_args = ("--profile", spec.profile) if spec.profile else ()
    cmd = _tddhooks(
        "drive", "-C", str(spec.work_dir), "--kata", spec.kata.init_argument,
        "--language", spec.language, "--steps", str(spec.steps), "--json",
        "--record", str(session_file(spec)),
        "--model", spec.model, *spec.llm_args, *profile_args, *key_args,
    )  # fmt: skip
    return cmd, _child_env(spec)


def session_file(spec: RunSpec) -> Path:
    """Where a run's drive records every request and answer (`run-N.session.jsonl` beside the
    run): what the model was asked, for reading a low score, and a session `--model replay:`
    drives again."""
    return spec.work_dir.parent / f"{spec.work_dir.name}.session.jsonl"


def drive_error(stderr: str, code: int) -> str:
    """What a drive that did not finish said: its last `error:` line with the lines after it (the
    `fix:`), on one line; else its last line."""
    lines = [line.strip() for line in stderr.strip().splitlines() if line.strip()]
    starts = [i for i, line in enumerate(lines) if line.lower().startswith("error")]
    chosen = lines[starts[-1] :] if starts else lines[-1:]
    return " ".join(chosen)[:600] or f"drive exited with {code}"


def stopped_with(stderr: str, detail: str) -> str:
    """Why a drive that ran to its summary stopped on an error: its `error:` line with the `fix:`
    when it printed them, else the summary's stop detail."""
    said = drive_error(stderr, 0)
    return said if said.lower().startswith("error") else detail or said


def _drive(spec: RunSpec, children: Children, result: RunResult) -> None:
    spec.work_dir.parent.mkdir(parents=True, exist_ok=True)
    cmd, _env = drive_command(spec)
    events_file = spec.work_dir.parent / f"{spec.work_dir.name}.events.jsonl"
    code, stderr = _run_child(spec, children, cmd, events_file)
    events = _events(events_file)
    finished = next((e for e in events if e.get("event") == "drive-finished"), None)
    result.model_time_s = round(
        sum(float(e.get("latency_s") or 0) for e in events if e.get("event") == "model-answered"),
        3,
    )
    if finished is None:
        result.stop_reason = "error"
        result.error = drive_error(stderr, code)
        return
    commits = finished.get("commits") or []
    result.cycles = int(finished.get("cycles") or 0)
    result.commits = len(commits)
    result.cycles_landed = sum(1 for c in commits if c.get("role") == "implementor")
    # what the answers cost, cached or not: a replayed bench reports the same figures
    result.tokens = {
        role: {
            "tokens": int(t.get("prompt_tokens", 0))
            + int(t.get("completion_tokens", 0))
            + int(t.get("saved_tokens", 0)),
            "calls": int(t.get("calls", 0)),
        }
        for role, t in (finished.get("tokens") or {}).items()
    }
    result.calls = sum(t["calls"] for t in result.tokens.values())
    result.stop_reason = str(finished.get("stop_reason") or "")
    if result.stop_reason == "error":
        result.error = stopped_with(stderr, str(finished.get("stop_detail") or ""))


# what an attempt came to when its answer was taken (drive/kinds.py AttemptOutcome)
LANDED = frozenset({"handed-over", "done", "committed", "empty"})
_CHECK = re.compile(r"^\[check: ([\w.-]+)\]")


def refusals(root: Path) -> dict[str, int]:
    """The answers a drive did not take, from its step logs (`.tdd/logs/step-*.json`): by the id
    of the check that refused one (its failure starts `[check: ID]`), else by the attempt's
    outcome (`red`, `invalid-answer`, …). A log that cannot be read is skipped."""
    from tddhooks.vocabulary import SCRATCH

    counts: dict[str, int] = {}
    for path in sorted((root / SCRATCH / "logs").glob("step-*.json")):
        try:
            attempts = json.loads(path.read_text(encoding="utf-8")).get("attempts") or []
        except (OSError, ValueError, AttributeError):
            continue
        for attempt in attempts:
            outcome = str(attempt.get("outcome") or "") if isinstance(attempt, dict) else ""
            if not outcome or outcome in LANDED:
                continue
            named = _CHECK.match(str(attempt.get("failure") or ""))
            key = named.group(1) if named else outcome
            counts[key] = counts.get(key, 0) + 1
    return dict(sorted(counts.items()))


def run_profile(spec: RunSpec) -> str:
    """The check profile a run's drive used: the bench's --profile, else the run's tdd.yaml
    `drive.profile`; "" when neither says."""
    if spec.profile:
        return spec.profile
    import yaml

    try:
        data = yaml.safe_load((spec.work_dir / "tdd.yaml").read_text(encoding="utf-8"))
    except (OSError, ValueError, yaml.YAMLError):
        return ""
    drive = data.get("drive") if isinstance(data, dict) else None
    profile = drive.get("profile") if isinstance(drive, dict) else None
    return profile if isinstance(profile, str) else ""


def _scaffold_only(root: Path) -> bool:
    """The repository holds no commit but the scaffold (or none at all)."""
    from tddhooks import git

    roots = git.run_git(["rev-list", "--max-parents=0", "HEAD"], root, check=False).stdout.split()
    return not roots or git.head(root) == roots[0]


def _audit(spec: RunSpec, children: Children, result: RunResult) -> None:
    """Re-gate every commit since the scaffold (no cached verdicts) and check the rules."""
    from tddhooks import git

    root = spec.work_dir
    scaffold = git.out(["rev-list", "--max-parents=0", "HEAD"], root).split()[0]
    if git.head(root) == scaffold:
        result.audit_clean = True
        return
    cmd = _tddhooks("audit", f"{scaffold}..HEAD", "-C", str(root), "--json")
    log = root.parent / f"{root.name}.audit.json"
    code, _stderr = _run_child(spec, children, cmd, log)
    try:
        report = json.loads(log.read_text(encoding="utf-8"))
    except ValueError:
        result.error = result.error or f"audit exited with {code} without a report"
        return
    result.audit_clean = bool(report.get("ok"))
    result.red_commits = red_commits(report)


def red_commits(report: dict[str, Any]) -> int:
    """The distinct commits an audit's --json report found red (it names each by `commit`)."""
    violations = report.get("violations") or []
    return len({v.get("commit") for v in violations if v.get("rule") == "green"})


def run_one(spec: RunSpec, children: Children) -> RunResult:
    """Drive, audit and score one run; a failure is reported in the result, not raised."""
    from tddhooks.bench.acceptance import score

    result = RunResult(model=spec.model, kata=spec.kata.name, language=spec.language, run=spec.run,
                       profile=spec.profile or "")  # fmt: skip
    start = time.monotonic()
    try:
        _drive(spec, children, result)
        result.profile = run_profile(spec)
        result.refusals = refusals(spec.work_dir)
        if (spec.work_dir / ".git").exists() and not children.stopping.is_set():
            _audit(spec, children, result)
        if (
            (spec.work_dir / ".git").exists()
            and not children.stopping.is_set()
            and not (result.stop_reason == "error" and _scaffold_only(spec.work_dir))
        ):  # a drive that errored before its first commit left the scaffold: nothing to score
            log = spec.work_dir.parent / f"{spec.work_dir.name}.acceptance.txt"
            found = score(spec.work_dir, spec.kata.suite(spec.language), spec.language, log)
            result.acceptance_passed, result.acceptance_total = found.passed, found.total
    finally:
        result.wall_time_s = round(time.monotonic() - start, 2)
    return result
