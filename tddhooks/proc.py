"""The only place that starts processes: timeout, own process group (killed whole), output cap."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

DEFAULT_OUTPUT_CAP = 256_000
MISSING_EXECUTABLE = 127
TIMED_OUT = 124


@dataclass(frozen=True)
class ProcResult:
    """What a finished (or killed) command left behind."""

    cmd: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str
    duration_s: float
    timed_out: bool = False

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out

    @property
    def output(self) -> str:
        """stdout then stderr, as a person reading a terminal would see them."""
        if self.stdout and self.stderr:
            return self.stdout.rstrip("\n") + "\n" + self.stderr
        return self.stdout or self.stderr


def cap_text(text: str, limit: int = DEFAULT_OUTPUT_CAP) -> str:
    """Keep the head and the tail of long output; the middle is what nobody reads."""
    if len(text) <= limit:
        return text
    half = limit // 2
    dropped = len(text) - 2 * half
    return f"{text[:half]}\n… [{dropped} characters cut] …\n{text[-half:]}"


def _kill_group(process: subprocess.Popen[str]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


def run(
    cmd: Sequence[str],
    *,
    cwd: Path | str | None = None,
    env: Mapping[str, str] | None = None,
    timeout_s: float | None = None,
    stdin: str | None = None,
    output_cap: int = DEFAULT_OUTPUT_CAP,
) -> ProcResult:
    """Run `cmd` in its own process group; on timeout or Ctrl-C the whole group is killed."""
    start = time.monotonic()
    argv = tuple(str(part) for part in cmd)
    try:
        process = subprocess.Popen(
            argv,
            cwd=cwd,
            env=dict(env) if env is not None else None,
            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
            start_new_session=True,
        )
    except FileNotFoundError:
        message = f"{argv[0]}: command not found (is it installed and on PATH?)\n"
        return ProcResult(argv, MISSING_EXECUTABLE, "", message, time.monotonic() - start)
    except PermissionError:
        message = f"{argv[0]}: permission denied (is it executable?)\n"
        return ProcResult(argv, MISSING_EXECUTABLE, "", message, time.monotonic() - start)
    timed_out = False
    try:
        stdout, stderr = process.communicate(input=stdin, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill_group(process)
        stdout, stderr = process.communicate()
        stderr += f"\n[tddhooks] killed after {timeout_s:g}s timeout: {' '.join(argv)}\n"
    except BaseException:
        _kill_group(process)
        process.communicate()
        raise
    returncode = TIMED_OUT if timed_out else process.returncode
    return ProcResult(
        argv,
        returncode,
        cap_text(stdout, output_cap),
        cap_text(stderr, output_cap),
        time.monotonic() - start,
        timed_out,
    )
