"""Red team, `tddhooks bench` stopped by a signal (commands/bench.py, execute): a second signal
while the bench cleans up (a second Ctrl-C, SIGTERM after SIGHUP) neither hangs it nor loses the
finished runs, with more runs queued than --jobs. execute() runs in a subprocess (the signals
go to it, not to pytest) with run_one replaced by runs that take a second to stop; the e2e
tests with real drives are in tests/commands/test_bench_interrupt.py."""

from __future__ import annotations

import json
import signal
import subprocess
import sys

import pytest

PROBE = """
import json, os, signal, sys, threading, time
from tddhooks.bench import run as bench_run
from tddhooks.commands import bench
from tddhooks.errors import error_handler

first, second, moment = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
waiting = threading.Semaphore(0)
stopping_seen = threading.Event()

def run_one(spec, children):
    if spec == 0:
        return "run 0"
    waiting.release()
    children.stopping.wait()
    stopping_seen.set()
    time.sleep(1.0)  # a drive undoing its turn
    return f"run {spec}, cut short"

def signals():
    waiting.acquire(); waiting.acquire()  # runs 1 and 2 hold both jobs; run 3 is queued
    time.sleep(0.2)  # execute() waits for the runs by now
    os.kill(os.getpid(), first)
    stopping_seen.wait()
    if second:
        os.kill(os.getpid(), second)  # during the cleanup

class Pool(bench.ThreadPoolExecutor):
    submitted = 0

    def submit(self, *args, **kwargs):
        Pool.submitted += 1
        if Pool.submitted == 4:  # runs 1 and 2 hold both jobs: signalled while queueing run 3
            waiting.acquire(); waiting.acquire()
            os.kill(os.getpid(), first)
        return super().submit(*args, **kwargs)

bench_run.run_one = run_one
bench._progress = lambda spec, result: None
if moment == "queueing":
    bench.ThreadPoolExecutor = Pool
else:
    threading.Thread(target=signals, daemon=True).start()
start = time.monotonic()
outcome = None
with error_handler(lambda e: print(e, file=sys.stderr)) as code:
    results, interrupted = bench.execute([0, 1, 2, 3], 2)
    outcome = {"results": results, "interrupted": interrupted}
print(json.dumps({"outcome": outcome, "code": code[0], "took": time.monotonic() - start}))
"""


def _probe(first: int, second: int, moment: str = "running") -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(first), str(second), moment],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


@pytest.mark.parametrize("first", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_one_signal_keeps_the_finished_run_and_cancels_the_queued_one(first: int) -> None:
    found = _probe(first, 0)
    code = 130 if first == signal.SIGINT else 128 + first
    assert found["outcome"] == {"results": ["run 0"], "interrupted": code}
    assert isinstance(found["took"], float)
    assert found["took"] < 10


@pytest.mark.parametrize(
    ("first", "second"),
    [(signal.SIGINT, signal.SIGINT), (signal.SIGHUP, signal.SIGTERM),
     (signal.SIGTERM, signal.SIGINT)],
    ids=["ctrl-c-twice", "hup-then-term", "term-then-ctrl-c"],
)  # fmt: skip
def test_a_second_signal_during_the_cleanup_still_keeps_the_finished_run(
    first: int, second: int
) -> None:
    found = _probe(first, second)
    # the first signal's code; the finished run is reported, not lost with the cleanup
    code = 130 if first == signal.SIGINT else 128 + first
    assert found["outcome"] == {"results": ["run 0"], "interrupted": code}
    assert isinstance(found["took"], float)
    assert found["took"] < 10


@pytest.mark.parametrize("first", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_while_the_runs_are_queued_stops_them_too(first: int) -> None:
    # it used to escape execute(): the running runs were never told to stop, and the bench
    # waited for them at exit (for ever, here)
    found = _probe(first, 0, "queueing")
    code = 130 if first == signal.SIGINT else 128 + first
    # run 0 ended before anything read it: only runs seen finished before the signal count
    assert found["outcome"] == {"results": [], "interrupted": code}
    assert isinstance(found["took"], float)
    assert found["took"] < 10
