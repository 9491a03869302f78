"""kill_all_running and a command another thread is starting (between reaper.starting() and
reaper.started()): it is killed as soon as it has started, and waited for, so a process that
exits right after a signal leaves nothing running."""

from __future__ import annotations

import signal
import subprocess
import threading
import time
from pathlib import Path

from tddhooks import proc, reaper


def _start_sleeper(token: int) -> subprocess.Popen[bytes]:
    child = subprocess.Popen(["sleep", "60"], start_new_session=True)
    reaper.started(token, child.pid)
    return child


def test_a_command_another_thread_is_starting_is_killed_once_it_started() -> None:
    holding, release = threading.Event(), threading.Event()
    children: list[subprocess.Popen[bytes]] = []

    def start() -> None:
        token = reaper.starting()
        holding.set()
        release.wait(10)  # as long as a Popen on a loaded machine
        children.append(_start_sleeper(token))

    starter = threading.Thread(target=start)
    starter.start()
    holding.wait(10)
    killer = threading.Thread(target=reaper.kill_all_running)
    killer.start()
    time.sleep(0.3)
    try:
        assert killer.is_alive(), "kill_all_running returned before the command was registered"
    finally:
        release.set()
        starter.join(10)
    killer.join(10)
    assert not killer.is_alive()
    (child,) = children
    try:
        assert child.wait(timeout=5) == -signal.SIGKILL
    finally:
        child.kill()
        reaper.finished(child.pid)


def test_a_command_of_the_killing_thread_itself_does_not_make_it_wait() -> None:
    # a signal's handler runs in the thread that may be starting a command just then
    token = reaper.starting()
    began = time.monotonic()
    reaper.kill_all_running()
    assert time.monotonic() - began < 1.0
    child = _start_sleeper(token)
    try:
        assert child.wait(timeout=5) == -signal.SIGKILL
    finally:
        child.kill()
        reaper.finished(child.pid)


def test_a_command_started_after_the_kill_is_left_alone() -> None:
    reaper.kill_all_running()
    child = _start_sleeper(reaper.starting())
    try:
        time.sleep(0.2)
        assert child.poll() is None
    finally:
        child.kill()
        child.wait()
        reaper.finished(child.pid)


def test_an_orphan_that_ended_by_itself_is_not_left_a_zombie() -> None:
    # a test that daemonizes a short helper: it ends before the command does, re-parented to us
    # (a subreaper); nothing is left to kill, but its exit status must still be collected or a
    # long drive gathers one zombie per gate run
    result = proc.run(["sh", "-c", "(sleep 0 & echo $!); sleep 1"], timeout_s=30)

    orphan = int(result.stdout.strip())
    assert result.returncode == 0, result.stderr
    assert not Path(f"/proc/{orphan}").exists(), "the orphan was left a zombie"
