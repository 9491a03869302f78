"""Red team, a command without timeout or stdin (every git call): proc._collect reads its pipes
in the calling thread. A descendant holding a pipe, a closed stdout, both pipes full at once,
bytes that are not UTF-8, and a signal while it reads."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tddhooks import proc

from .test_processes import _gone, _spawner


def _kill(pid_file: Path) -> None:
    with contextlib.suppress(ValueError, OSError, ProcessLookupError):
        os.kill(int(pid_file.read_text()), signal.SIGKILL)


def test_a_descendant_holding_the_pipe_is_given_up_after_the_drain_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(proc, "_DRAIN_S", 1.0)
    pid_file = tmp_path / "holder.pid"
    script = f"echo before; (sleep 60; echo late) & echo $! > {pid_file}"
    try:
        start = time.monotonic()
        result = proc.run(["sh", "-c", script])
        took = time.monotonic() - start
    finally:
        _kill(pid_file)
    assert (result.returncode, result.stdout, result.stderr) == (0, "before\n", "")
    assert 1.0 <= took < 5.0, f"returned after {took:.1f}s, not after the 1 s drain time"


def test_a_descendant_that_keeps_writing_does_not_hold_the_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a chatty holder: the pipe is always ready, the drain deadline must still be looked at
    monkeypatch.setattr(proc, "_DRAIN_S", 1.0)
    pid_file = tmp_path / "spammer.pid"
    script = f"echo before; (while :; do echo spam; done) & echo $! > {pid_file}"
    try:
        start = time.monotonic()
        result = proc.run(["sh", "-c", script], output_cap=1000)
        took = time.monotonic() - start
    finally:
        _kill(pid_file)
    assert result.returncode == 0
    assert result.stdout.startswith("before\n")
    assert "characters cut] …" in result.stdout
    assert len(result.stdout) < 1100
    assert took < 5.0, f"returned after {took:.1f}s"
    # the pipe was closed behind it: the spammer dies of SIGPIPE instead of filling memory
    assert _gone(int(pid_file.read_text()), within_s=5), "the writer outlived the closed pipe"


def test_stdout_closed_early_while_stderr_goes_on() -> None:
    script = (
        "import os, sys, time\n"
        "sys.stdout.write('out'); sys.stdout.flush(); os.close(1)\n"
        "for _ in range(50):\n"
        "    sys.stderr.write('e' * 10_000); sys.stderr.flush(); time.sleep(0.002)\n"
        "sys.exit(3)\n"
    )
    result = proc.run([sys.executable, "-c", script], output_cap=1_000_000)
    assert (result.returncode, result.stdout, result.stderr) == (3, "out", "e" * 500_000)


def test_stderr_closed_early_while_stdout_goes_on() -> None:
    script = "import os, sys\nos.close(2)\nfor _ in range(50): sys.stdout.write('o' * 10_000)\n"
    result = proc.run([sys.executable, "-c", script], output_cap=1_000_000)
    assert (result.returncode, result.stdout, result.stderr) == (0, "o" * 500_000, "")


def test_both_pipes_full_at_once_do_not_deadlock() -> None:
    # each pipe gets far more than a pipe buffer, interleaved: reading one pipe to its end
    # before the other would leave the command blocked on the other for ever
    script = (
        "import sys\n"
        "for _ in range(200):\n"
        "    sys.stdout.write('o' * 50_000); sys.stdout.flush()\n"
        "    sys.stderr.write('e' * 50_000); sys.stderr.flush()\n"
    )
    result = proc.run([sys.executable, "-c", script], output_cap=20_000_000)
    assert result.returncode == 0
    assert result.stdout == "o" * 10_000_000
    assert result.stderr == "e" * 10_000_000


def test_bytes_that_are_not_utf8_are_replaced_not_raised() -> None:
    script = "import sys\nsys.stdout.buffer.write(b'\\xff\\xfeabc\\xe2\\x82')\n"
    result = proc.run([sys.executable, "-c", script])
    assert result.stdout == "\ufffd\ufffdabc\ufffd"


def test_a_character_split_between_reads_is_decoded_whole() -> None:
    # 3-byte characters over 64 KiB reads: a chunk boundary falls inside one of them
    script = "import sys\nsys.stdout.write('€' * 100_000)\n"
    result = proc.run([sys.executable, "-c", script], output_cap=1_000_000)
    assert result.stdout == "€" * 100_000


def test_a_cut_inside_a_multibyte_character_keeps_head_and_tail_readable() -> None:
    script = "import sys\nsys.stdout.write('H' + '€' * 300_000 + 'T')\n"
    result = proc.run([sys.executable, "-c", script], output_cap=1001)
    head, _, tail = result.stdout.partition("characters cut] …\n")
    assert head.startswith("H€€")
    assert tail.endswith("€€T")
    assert "\ufffd" not in tail


def _hook_running_git_forever(pid_file: Path, *, through_git: bool) -> subprocess.Popen[bytes]:
    """A tddhooks process (error_handler) blocked in a call without timeout: a real git call
    whose alias sleeps, or a command whose setsid'd child sleeps (found by its mark)."""
    if through_git:
        alias = f"!echo $$ > {pid_file}; exec sleep 300"
        call = (
            "from tddhooks import git\n"
            f"    git.run_git(['-c', {'alias.hang=' + alias!r}, 'hang'], Path('.'))\n"
        )
    else:
        call = (
            "from tddhooks import proc\n"
            f"    proc.run([sys.executable, '-c', {_spawner(pid_file, 'setsid')!r}])\n"
        )
    script = (
        "import sys\nfrom pathlib import Path\n"
        "from tddhooks.errors import error_handler\n"
        "with error_handler(lambda e: print(e, file=sys.stderr)) as result:\n"
        f"    {call}"
        "sys.exit(result[0])\n"
    )
    return subprocess.Popen([sys.executable, "-c", script], cwd=pid_file.parent,
                            stderr=subprocess.PIPE)  # fmt: skip


def _wait_pid(pid_file: Path, hook: subprocess.Popen[bytes]) -> int:
    deadline = time.monotonic() + 20
    while not pid_file.exists() or not pid_file.read_text().strip():
        assert hook.poll() is None, hook.stderr.read() if hook.stderr else b""
        assert time.monotonic() < deadline, "the command never started"
        time.sleep(0.05)
    return int(pid_file.read_text())


@pytest.mark.parametrize(
    ("through_git", "signum"),
    [(True, signal.SIGINT), (True, signal.SIGTERM), (True, signal.SIGHUP),
     (False, signal.SIGINT), (False, signal.SIGTERM)],
    ids=["git-sigint", "git-sigterm", "git-sighup", "detached-sigint", "detached-sigterm"],
)  # fmt: skip
def test_a_signal_while_a_call_is_read_kills_it(
    tmp_path: Path, through_git: bool, signum: int
) -> None:
    """A signal to a hook while `_collect` reads a call: git's child dies (through_git), or the
    command's setsid'd child does."""
    if through_git:
        subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    pid_file = tmp_path / ("git-child.pid" if through_git else "grandchild.pid")
    hook = _hook_running_git_forever(pid_file, through_git=through_git)
    try:
        victim = _wait_pid(pid_file, hook)
        hook.send_signal(signum)
        code = hook.wait(timeout=20)
    finally:
        hook.kill()
    assert code == (130 if signum == signal.SIGINT else 128 + signum)
    assert _gone(victim), "the call's child outlived the signal to the hook"


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_kills_a_git_call_read_in_another_thread(tmp_path: Path, signum: int) -> None:
    """git.prefetch runs a hook's read-only git calls in threads while the main thread waits for
    them. The kernel hands a process's signal to any thread that does not block it; CPython runs
    the handler in the main thread only, and a main thread blocked in a bare join() was never
    woken (the hook hung under load). Here the main thread blocks the signal, so another thread
    always takes it: the worst case, every time. The hook exits 128+N and the call's child is
    dead, even when the signal came before the call's thread registered it (started())."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    pid_file = tmp_path / "git-child.pid"
    alias = f"alias.hang=!echo $$ > {pid_file}; exec sleep 300"
    script = (
        "import signal, sys, threading\nfrom pathlib import Path\n"
        "from tddhooks import git\n"
        "from tddhooks.errors import error_handler\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)  # a background job's ignore\n"
        "taker = threading.Thread(target=threading.Event().wait, args=(300,), daemon=True)\n"
        "taker.start()  # started before the mask: it takes the signal\n"
        f"signal.pthread_sigmask(signal.SIG_BLOCK, {{{int(signum)}}})\n"
        "with error_handler(lambda e: print(e, file=sys.stderr)) as result:\n"
        "    with git.held_still():\n"
        f"        git.prefetch(Path('.'), [(['-c', {alias!r}, 'hang'], None)])\n"
        "sys.exit(result[0])\n"
    )
    hook = subprocess.Popen([sys.executable, "-c", script], cwd=tmp_path, stderr=subprocess.PIPE)
    try:
        victim = _wait_pid(pid_file, hook)
        hook.send_signal(signum)
        code = hook.wait(timeout=20)
    finally:
        hook.kill()
    assert code == (130 if signum == signal.SIGINT else 128 + signum)
    assert _gone(victim), "the git call in the other thread outlived the signal"
