"""kill_all_running and a command another thread is starting (between reaper.starting() and
reaper.started()): it is killed as soon as it has started, and waited for, so a process that
exits right after a signal leaves nothing running."""

from __future__ import annotations

import signal
import subprocess
import threading
import time

from tddhooks import reaper


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
