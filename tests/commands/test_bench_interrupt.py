"""`tddhooks bench` and Ctrl-C, with the real CLI in a subprocess against the fake server: the first
run finishes (its tester says the kata is done), then the bench gets SIGINT while the second run
waits for its model, or while the second run's hidden acceptance suite runs. It exits 130 at once,
keeps the finished run in its JSON file, and leaves no process and no scratch directory behind."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from support.fake_openai import Answer, Delay, FakeOpenAI, Reply, fake_openai  # noqa: F401

pytestmark = pytest.mark.e2e  # whole benches in a subprocess (real drives, real pytest)

# no requirements list: the tester's done is taken at once (with a requirement open a done is
# refused and asked again, and the second request is held: run 1 never finished)
KATA = "# Adder\n\nAdd numbers: add() of nothing is 0.\n"
# the second run's suite hangs while it is collected (the package is named after the run's
# directory: run_2), with DETACH also leaving a process in a session of its own; run 1's fails
# to import `add` (nothing was implemented): 0 of 2
ACCEPTANCE = (
    "import subprocess\nimport time\n\nif '{package}' == 'run_2' and HANG:\n"
    "    if DETACH:\n        subprocess.Popen(['sleep', '300'], start_new_session=True)\n"
    "    time.sleep(300)\n\n"
    "from {package} import add\n\n\ndef test_add_of_nothing():\n    assert add() == 0\n\n\n"
    "def test_add_of_one():\n    assert add(1) == 1\n"
)
DONE = {"plan": "nothing to test", "edits": [], "done": True, "reason": "the kata is complete"}
HOLD_S = 300.0  # far longer than the test: only the interrupt (or stop()) ends the wait


class FirstRunDone:
    """The first request (run 1's tester) ends its drive at once; later ones are held, or not."""

    def __init__(self, *, hold: bool) -> None:
        self.count = 0
        self.hold = hold

    def __call__(self, body: dict[str, Any]) -> Answer:
        self.count += 1
        if self.count == 1 or not self.hold:
            return Reply(json.dumps(DONE))
        return Delay(HOLD_S, Reply(json.dumps(DONE)))


def _wait_for(condition: Callable[[], bool], what: str, timeout_s: float = 240.0) -> None:
    """Poll until `condition` holds. Generous: a whole first run (drive, gates, suite, audit)
    comes first, and a loaded 2-core CI machine once took longer than 120 s."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def _processes_mentioning(text: str) -> list[str]:
    """Command lines of live processes whose argv or working directory names `text`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            cwd = os.readlink(entry / "cwd")
        except OSError:
            continue
        if text in argv or cwd.startswith(text):
            found.append(f"{entry.name}: {argv}")
    return found


def _runs_in(run_dir: Path, *words: bytes) -> bool:
    """A process runs in `run_dir` with all of `words` in its argv."""
    for entry in Path("/proc").iterdir():
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            cwd = os.readlink(entry / "cwd")
        except (OSError, ValueError):
            continue
        if cwd == str(run_dir) and all(word in argv for word in words):
            return True
    return False


def _suite_hangs(run_dir: Path) -> bool:
    """The acceptance suite runs (`python -m pytest -q …` in the run's directory)."""
    return _runs_in(run_dir, b"pytest", b"-q")


def _left_behind(tmp_path: Path) -> list[str]:
    """What still runs in the test's directories after a grace period; killed before returning."""
    deadline = time.monotonic() + 10
    while (found := _processes_mentioning(str(tmp_path))) and time.monotonic() < deadline:
        time.sleep(0.1)
    for line in found:
        with contextlib.suppress(OSError):
            os.kill(int(line.split(":")[0]), signal.SIGKILL)
    return found


def _kata(tmp_path: Path, *, hang: bool = False, detach: bool = False) -> Path:
    """The adder kata with its acceptance suite (hanging in run 2 when `hang`)."""
    kata = tmp_path / "adder"
    (kata / "acceptance").mkdir(parents=True)
    (kata / "kata.md").write_text(KATA, encoding="utf-8")
    suite = ACCEPTANCE.replace("HANG", str(hang)).replace("DETACH", str(detach))
    (kata / "acceptance" / "test_adder.py").write_text(suite, encoding="utf-8")
    return kata


def _start_bench(
    tmp_path: Path,
    kata: Path,
    base_url: str,
    *,
    runs: int,
    jobs: int,
    extra: tuple[str, ...] = (),
    env: dict[str, str] | None = None,
) -> tuple[subprocess.Popen[str], Path, Path]:
    """`tddhooks bench` on `kata` in a session of its own: (the process, work root, JSON file)."""
    work, out = tmp_path / "runs", tmp_path / "bench.json"
    args = [
        sys.executable,
        "-m",
        "tddhooks",
        "bench",
        "--kata",
        str(kata),
        "--language",
        "python",
        "--runs",
        str(runs),
        "--jobs",
        str(jobs),
        "--steps",
        "2",
        "--work-root",
        str(work),
        "--json",
        str(out),
        "--model",
        "custom:fake-model",
        "--base-url",
        base_url,
        *extra,
        "--no-cache",
    ]
    bench = subprocess.Popen(
        args,
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    return bench, work, out


@contextlib.contextmanager
def _running(bench: subprocess.Popen[str], tmp_path: Path) -> Iterator[None]:
    """A bench that is still running when the block ends (a failed wait) is killed, and so is
    whatever it left in the test's directories; a bench that ended is left for the test to
    check what it left behind."""
    try:
        yield
    finally:
        if bench.poll() is None:
            os.killpg(bench.pid, signal.SIGKILL)
            bench.wait()
            for line in _processes_mentioning(str(tmp_path)):
                with contextlib.suppress(OSError):
                    os.kill(int(line.split(":")[0]), signal.SIGKILL)


def _interrupt(bench: subprocess.Popen[str], send: Callable[[], None]) -> str:
    """Send the signal; the bench must end within 60 s (nothing waits for a held answer or a
    hanging suite, 300 s each). Its output."""
    assert bench.poll() is None, bench.communicate()[0]
    sent_at = time.monotonic()
    send()
    output, _ = bench.communicate(timeout=120)
    assert time.monotonic() - sent_at < 60, output
    return output


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="the orphan check reads /proc")
@pytest.mark.parametrize("moment", ["model", "acceptance", "acceptance-detached"])
def test_ctrl_c_stops_the_bench_and_keeps_the_finished_run(
    fake_openai: FakeOpenAI,  # noqa: F811
    tmp_path: Path,
    moment: str,
) -> None:
    fake_openai.responder = responder = FirstRunDone(hold=moment == "model")
    kata = _kata(tmp_path, hang=moment != "model", detach=moment == "acceptance-detached")
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    bench, work, out = _start_bench(
        tmp_path, kata, fake_openai.base_url, runs=2, jobs=1,
        extra=("--api-key", "sk-bench-7Hq2xW9d-0001"), env={**os.environ, "TMPDIR": str(scratch)},
    )  # fmt: skip
    with _running(bench, tmp_path):
        # run 1 is scored; run 2's drive waits for its model, or run 2's suite hangs
        run_2 = work / "custom_fake-model" / "adder" / "run-2"
        if moment == "model":
            _wait_for(lambda: responder.count >= 2 or bench.poll() is not None, "run 2's request")
        else:
            _wait_for(lambda: _suite_hangs(run_2) or bench.poll() is not None, "run 2's suite")
            if moment == "acceptance-detached":
                _wait_for(lambda: _runs_in(run_2, b"sleep"), "the suite's detached process")
        # what a terminal's Ctrl-C sends: the whole group
        output = _interrupt(bench, lambda: os.killpg(bench.pid, signal.SIGINT))

    assert bench.returncode == 130, output
    assert "interrupted" in output
    data = json.loads(out.read_text("utf-8"))
    assert data["complete"] is False
    (run,) = data["runs"]
    assert (run["run"], run["stop_reason"], run["error"]) == (1, "done", "")
    assert (run["acceptance_passed"], run["acceptance_total"]) == (0, 2)
    assert run["audit_clean"] is True
    # no drive, gate or test run outlives the bench, not even one in a session of its own
    assert _left_behind(tmp_path) == []
    assert not list(scratch.iterdir())


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="the orphan check reads /proc")
@pytest.mark.parametrize(
    ("signum", "runs", "jobs"),
    [(signal.SIGTERM, 3, 1), (signal.SIGHUP, 4, 2)],
    ids=["sigterm-one-job", "sighup-two-jobs"],
)
def test_a_termination_signal_stops_the_bench_and_starts_no_other_run(
    fake_openai: FakeOpenAI,  # noqa: F811
    tmp_path: Path,
    signum: int,
    runs: int,
    jobs: int,
) -> None:
    """`kill PID` (what `timeout`, a cancelled CI job or pkill send) or a closed terminal
    (SIGHUP) reaches the bench alone: run 1 has finished, `jobs` runs wait for their model, one
    is queued. The bench stops like Ctrl-C (the cancelled queued run does not hold the sweep),
    keeps the finished run, starts none, and exits 128+N. SIGTERM used to kill the running drive
    and go on with the next runs."""
    fake_openai.responder = responder = FirstRunDone(hold=True)
    bench, work, out = _start_bench(
        tmp_path, _kata(tmp_path), fake_openai.base_url, runs=runs, jobs=jobs
    )
    with _running(bench, tmp_path):
        # the first request ends run 1; the next `jobs` are held
        _wait_for(lambda: responder.count >= 1 + jobs or bench.poll() is not None, "held requests")
        # the bench's process only, not its group
        output = _interrupt(bench, lambda: bench.send_signal(signum))

    assert bench.returncode == 128 + signum, output
    assert "interrupted" in output
    data = json.loads(out.read_text("utf-8"))
    assert data["complete"] is False
    (run,) = data["runs"]  # with two jobs, run 1 or run 2 took the first answer
    assert (run["stop_reason"], run["error"]) == ("done", "")
    queued = work / "custom_fake-model" / "adder" / f"run-{runs}"
    assert not queued.exists() or not any(queued.iterdir())
    assert responder.count == 1 + jobs  # the queued run's tester was never asked
    assert _left_behind(tmp_path) == []
