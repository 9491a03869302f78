from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tddhooks import proc


def test_captures_output_and_exit_code() -> None:
    code = "import sys; print('out'); print('err', file=sys.stderr); sys.exit(3)"
    result = proc.run([sys.executable, "-c", code])
    assert result.returncode == 3
    assert result.stdout == "out\n"
    assert result.stderr == "err\n"
    assert not result.ok
    assert result.output == "out\nerr\n"


def test_missing_executable_is_a_clear_return_code_not_an_exception() -> None:
    result = proc.run(["definitely-not-a-tool-xyz", "--version"])
    assert result.returncode == proc.MISSING_EXECUTABLE
    assert "definitely-not-a-tool-xyz: command not found" in result.stderr


def test_timeout_kills_the_whole_process_group(tmp_path: Path) -> None:
    pid_file = tmp_path / "grandchild.pid"
    script = (
        "import subprocess, sys, time\n"
        f"child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        f"open({str(pid_file)!r}, 'w').write(str(child.pid))\n"
        "time.sleep(60)\n"
    )
    start = time.monotonic()
    result = proc.run([sys.executable, "-c", script], timeout_s=1.5)
    assert time.monotonic() - start < 20
    assert result.timed_out
    assert result.returncode == proc.TIMED_OUT
    assert "killed after 1.5s timeout" in result.stderr
    # killed means gone or a zombie (re-parented to this long-lived test process, which may
    # not reap it while other commands run): either way it no longer runs
    grandchild = int(pid_file.read_text())
    for _ in range(50):
        try:
            os.kill(grandchild, 0)
            state = Path(f"/proc/{grandchild}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (ProcessLookupError, FileNotFoundError):
            break
        if state == "Z":
            break
        time.sleep(0.05)
    else:
        raise AssertionError("the grandchild process survived the timeout")


def test_long_output_keeps_head_and_tail() -> None:
    text = "".join(f"line {i}\n" for i in range(10_000))
    capped = proc.cap_text(text, limit=200)
    assert capped.startswith("line 0\n")
    assert capped.endswith("line 9999\n")
    assert "characters cut" in capped
    assert proc.cap_text("short", limit=200) == "short"


def test_stdin_and_env_and_cwd(tmp_path: Path) -> None:
    result = proc.run(
        [sys.executable, "-c", "import os,sys; print(os.getcwd(), os.environ['X'], input())"],
        cwd=tmp_path,
        env={**os.environ, "X": "ünïcode"},
        stdin="piped",
    )
    assert result.stdout.split() == [str(tmp_path), "ünïcode", "piped"]


def test_a_command_with_a_timeout_is_not_polled_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """Popen.wait(timeout) sleeps up to 50 ms between looks, so a gate step was seen to end up to
    50 ms late; proc.run waits on a pidfd instead (Linux), and the timeout still cuts."""
    naps: list[float] = []
    real_sleep = time.sleep

    def sleep(seconds: float) -> None:
        naps.append(seconds)
        real_sleep(seconds)

    monkeypatch.setattr(time, "sleep", sleep)
    done = proc.run([sys.executable, "-c", "import time; time.sleep(0.3)"], timeout_s=30)
    cut = proc.run([sys.executable, "-c", "import time; time.sleep(30)"], timeout_s=0.5)

    assert done.ok
    assert not done.timed_out
    assert cut.timed_out
    assert cut.returncode == proc.TIMED_OUT
    assert naps == []


CTRL_C_IN_ANOTHER_THREAD = """
import signal, sys, threading
from tddhooks import proc
signal.signal(signal.SIGINT, signal.default_int_handler)  # a background job starts with it ignored
ready = threading.Event()
threading.Thread(target=lambda: (ready.set(), threading.Event().wait(60)), daemon=True).start()
ready.wait()
# only the helper thread may take SIGINT now: the waiting thread must still see it
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
try:
    up = "import pathlib, sys, time; pathlib.Path(sys.argv[1]).touch(); time.sleep(30)"
    proc.run([sys.executable, "-c", up, sys.argv[1]], timeout_s=60)
except KeyboardInterrupt:
    sys.exit(42)
sys.exit(0)
"""


def test_ctrl_c_taken_by_another_thread_stops_the_wait(tmp_path: Path) -> None:
    """A signal may be delivered to any thread; the thread waiting for a command must raise it
    all the same, not when the command ends (proc.py waits on a pidfd in short slices)."""
    started = tmp_path / "started"
    waiting = subprocess.Popen([sys.executable, "-c", CTRL_C_IN_ANOTHER_THREAD, str(started)])
    deadline = time.monotonic() + 20
    while not started.exists():
        assert time.monotonic() < deadline, "the command never started"
        time.sleep(0.05)
    waiting.send_signal(signal.SIGINT)

    assert waiting.wait(timeout=20) == 42
