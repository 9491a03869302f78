"""tddhooks.waits: a signal the kernel hands to another thread still raises in a main thread
that waits on a thread or a future (a bare join() or Future.result() was never woken)."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest

WAITING = """
import signal, sys, threading, time
from concurrent.futures import ThreadPoolExecutor
from tddhooks import waits
signal.signal(signal.SIGINT, signal.default_int_handler)  # a background job starts with it ignored
taker = threading.Thread(target=threading.Event().wait, args=(60,), daemon=True)
taker.start()
# only the taker may take SIGINT now (threads started below inherit the mask)
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
pool = ThreadPoolExecutor(1)
slow = pool.submit(time.sleep, 60)
sleeper = threading.Thread(target=time.sleep, args=(60,), daemon=True)
sleeper.start()
try:
    print("waiting", flush=True)  # the signal may come as soon as this is out
    if sys.argv[1] == "join":
        waits.join(sleeper)
    elif sys.argv[1] == "result":
        waits.result(slow)
    else:
        list(waits.completed([slow]))
except KeyboardInterrupt:
    import os
    os._exit(42)  # not the pool's join at exit
os._exit(0)
"""


@pytest.mark.parametrize("how", ["join", "result", "completed"])
def test_ctrl_c_taken_by_another_thread_ends_the_wait(how: str) -> None:
    waiting = subprocess.Popen(
        [sys.executable, "-c", WAITING, how], stdout=subprocess.PIPE, text=True
    )
    try:
        assert waiting.stdout is not None
        assert waiting.stdout.readline() == "waiting\n"
        waiting.send_signal(signal.SIGINT)
        assert waiting.wait(timeout=20) == 42
    finally:
        waiting.kill()
        waiting.wait()


def test_a_result_is_returned_and_an_error_raised() -> None:
    from concurrent.futures import Future

    from tddhooks import waits

    done: Future[int] = Future()
    done.set_result(7)
    assert waits.result(done) == 7
    failed: Future[int] = Future()
    failed.set_exception(TimeoutError("the future's own"))
    with pytest.raises(TimeoutError, match="the future's own"):
        waits.result(failed)
    assert list(waits.completed([done, failed])) in ([done, failed], [failed, done])
