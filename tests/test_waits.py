"""tddhooks.waits: a signal the kernel hands to another thread still raises in a main thread
that waits on a thread or a future (a bare join() or Future.result() was never woken)."""

from __future__ import annotations

import ast
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tddhooks import waits

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

    done: Future[int] = Future()
    done.set_result(7)
    assert waits.result(done) == 7
    failed: Future[int] = Future()
    failed.set_exception(TimeoutError("the future's own"))
    with pytest.raises(TimeoutError, match="the future's own"):
        waits.result(failed)
    assert list(waits.completed([done, failed])) in ([done, failed], [failed, done])


def _blocking_waits(tree: ast.AST) -> list[tuple[int, str]]:
    """Calls that wait on another thread on a lock with no timeout: `x.join()`, `x.result()`
    (str.join and the like take an argument), and as_completed or wait of concurrent.futures
    without a timeout."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        timed = len(node.args) > 1 or any(k.arg == "timeout" for k in node.keywords)
        if name in ("join", "result") and not node.args and not node.keywords:
            found.append((node.lineno, f"{name}()"))
        elif name == "as_completed" and not timed:
            found.append((node.lineno, "as_completed without a timeout"))
    return found


def test_no_wait_of_the_product_on_another_thread_is_deaf_to_signals() -> None:
    """Every wait on another thread goes through tddhooks.waits (or gives a timeout and loops)."""
    root = Path(waits.__file__).parent
    offenders = [
        f"{path.relative_to(root.parent)}:{line}: {what}"
        for path in sorted(root.rglob("*.py"))
        if path != Path(waits.__file__)  # the waits themselves, in slices
        for line, what in _blocking_waits(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert offenders == [], "wait with tddhooks.waits instead:\n" + "\n".join(offenders)


def test_the_check_sees_each_blocking_wait() -> None:
    source = (
        "thread.join()\nfuture.result()\nfor f in as_completed(fs): pass\n"
        "', '.join(parts)\nthread.join(0.05)\nfuture.result(timeout=1)\nas_completed(fs, 5)\n"
    )
    assert [line for line, _ in _blocking_waits(ast.parse(source))] == [1, 2, 3]
