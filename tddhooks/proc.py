"""The only place that starts processes: timeout, own process group (killed whole, with every
descendant that left it), output capped while it is read, and no API key in any child's
environment (see tddhooks/keys.py and docs/llm.md, "API keys")."""

from __future__ import annotations

import contextlib
import os
import select
import selectors
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from tddhooks import keys, reaper
from tddhooks.records import NamedTuple

TYPE_CHECKING = False  # not typing's: the hook path does not import typing (tddhooks/records.py)
if TYPE_CHECKING:
    from typing import IO

DEFAULT_OUTPUT_CAP = 256_000
MISSING_EXECUTABLE = 127
TIMED_OUT = 124
_CHUNK = 65_536
_SIGNAL_LOOK_S = 0.05  # a wait on a command returns to Python this often (signals)
_DRAIN_S = 10.0  # a pipe a descendant holds open is read this long after the command ended


# The value types the hooks build are NamedTuples, not dataclasses: importing dataclasses (with
# inspect) and generating each class's methods cost a commit-msg hook ~20 ms of its ~100
# (tests/hooks/test_hook_imports.py keeps dataclasses off the hook path). Copy one with
# `._replace(...)`.
class ProcResult(NamedTuple):
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


def _cut_marker(dropped: int) -> str:
    return f"\n… [{dropped} characters cut] …\n"


def cap_text(text: str, limit: int = DEFAULT_OUTPUT_CAP) -> str:
    """Keep the head and the tail of long output; the middle is what nobody reads."""
    if len(text) <= limit:
        return text
    half = limit // 2
    dropped = len(text) - 2 * half
    return f"{text[:half]}{_cut_marker(dropped)}{text[-half:]}"


class _Capture:
    """Reads one pipe to its end keeping a bounded head and a rolling tail. The cap counts
    characters (as cap_text does); 4 bytes a character is the most UTF-8 needs, so 4 x limit
    bytes always hold enough of both ends. A reader thread of its own, or `_collect` reads it."""

    def __init__(self, stream: IO[bytes], limit: int, *, threaded: bool = True) -> None:
        self._stream = stream
        self.fd = stream.fileno()
        self._half = max(2 * limit, 2)  # bytes kept at each end
        self._head = bytearray()
        self._tail = bytearray()
        self._total = 0
        self.thread: threading.Thread | None = None
        if threaded:
            self.thread = threading.Thread(target=self._read, daemon=True)
            self.thread.start()

    def _read(self) -> None:
        with contextlib.suppress(OSError):
            while chunk := os.read(self.fd, _CHUNK):
                self.add(chunk)

    def add(self, chunk: bytes) -> None:
        self._total += len(chunk)
        room = self._half - len(self._head)
        if room > 0:
            self._head += chunk[:room]
            chunk = chunk[room:]
        if chunk:
            self._tail += chunk
            if len(self._tail) > 2 * self._half:
                del self._tail[: len(self._tail) - self._half]

    def text(self, limit: int) -> str:
        if self.thread is not None:
            self.thread.join(timeout=_DRAIN_S)  # a descendant we could not kill may hold the pipe
        if self.thread is None or not self.thread.is_alive():
            self._stream.close()
        kept = len(self._head) + min(len(self._tail), self._half)
        if self._total <= len(self._head) + len(self._tail):  # nothing was dropped
            return cap_text((self._head + self._tail).decode("utf-8", errors="replace"), limit)
        half = limit // 2
        head = self._head.decode("utf-8", errors="replace")[:half]
        tail = bytes(self._tail[-self._half :]).decode("utf-8", errors="replace")[-half:]
        dropped = max(self._total - kept, 1)  # in bytes: the characters were never decoded
        return f"{head}{_cut_marker(dropped)}{tail}"


def _collect(process: subprocess.Popen[bytes], captures: tuple[_Capture, ...]) -> None:
    """Read the pipes of a command without timeout or stdin (git) to their ends in this thread:
    a hook makes ~7 git calls, and two reader threads each cost about as much as a small git
    call's own work. Like a reader thread's join, a pipe still held open by a descendant once the
    command has ended is given up after _DRAIN_S. A signal raises here, in the calling thread."""
    with selectors.DefaultSelector() as selector:
        for capture in captures:
            selector.register(capture.fd, selectors.EVENT_READ, capture)
        given_up_at: float | None = None
        while selector.get_map():
            ready = selector.select(_SIGNAL_LOOK_S)
            for key, _events in ready:
                try:
                    chunk = os.read(key.fd, _CHUNK)
                except OSError:
                    chunk = b""
                if chunk:
                    key.data.add(chunk)
                else:
                    selector.unregister(key.fd)
            if given_up_at is None:
                if process.poll() is not None:
                    given_up_at = time.monotonic() + _DRAIN_S
            elif time.monotonic() >= given_up_at:
                return


def _feed(process: subprocess.Popen[bytes], text: str) -> None:
    assert process.stdin is not None
    with contextlib.suppress(BrokenPipeError, OSError):
        process.stdin.write(text.encode("utf-8"))
    with contextlib.suppress(BrokenPipeError, OSError):
        process.stdin.close()


def _ended_within(process: subprocess.Popen[bytes], timeout_s: float | None) -> bool:
    """Wait for the process to end, at most timeout_s; False when it is still running.

    Popen.wait(timeout) polls, sleeping up to 50 ms between looks, so a command with a timeout
    (each gate step) was seen to end up to 50 ms late. A pidfd (Linux 5.3+) wakes as it ends;
    elsewhere Popen.wait polls as before. Either way the wait returns to Python every 50 ms at
    the most: a signal (Ctrl-C) may be delivered to another thread, and only then does this one
    raise it."""
    if timeout_s is None:
        process.wait()
        return True
    try:
        pidfd = os.pidfd_open(process.pid)
    except (AttributeError, OSError):  # not Linux, an old kernel, or already collected
        try:
            process.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            return False
        return True
    deadline = time.monotonic() + timeout_s
    try:
        poller = select.poll()
        poller.register(pidfd, select.POLLIN)
        while not poller.poll(min(max(deadline - time.monotonic(), 0.0), _SIGNAL_LOOK_S) * 1000):
            if time.monotonic() >= deadline:
                return False
    finally:
        os.close(pidfd)
    process.wait()
    return True


def child_env(env: Mapping[str, str] | None) -> dict[str, str]:
    """What a child sees: `env` (or ours) without any variable that holds an API key, plus the
    mark that lets the reaper find its descendants however they detach."""
    scrubbed = keys.scrub_env(os.environ if env is None else env)
    scrubbed[reaper.MARK_ENV] = reaper.new_mark()
    return scrubbed


def run(
    cmd: Sequence[str],
    *,
    cwd: Path | str | None = None,
    env: Mapping[str, str] | None = None,
    timeout_s: float | None = None,
    stdin: str | None = None,
    output_cap: int = DEFAULT_OUTPUT_CAP,
) -> ProcResult:
    """Run `cmd` in its own process group; on timeout, Ctrl-C or a termination signal the whole
    group and every descendant that left it are killed. Output is capped while it is read."""
    start = time.monotonic()
    argv = tuple(str(part) for part in cmd)
    environment = child_env(env)
    mark = environment[reaper.MARK_ENV]
    if timeout_s is not None:  # a command that may run someone's code (git alone needs none)
        reaper.become_subreaper()
    token = reaper.starting()
    process: subprocess.Popen[bytes] | None = None
    try:
        process = subprocess.Popen(
            argv,
            cwd=cwd,
            env=environment,
            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
    except FileNotFoundError:
        message = f"{argv[0]}: command not found (is it installed and on PATH?)\n"
        return ProcResult(argv, MISSING_EXECUTABLE, "", message, time.monotonic() - start)
    except PermissionError:
        message = f"{argv[0]}: permission denied (is it executable?)\n"
        return ProcResult(argv, MISSING_EXECUTABLE, "", message, time.monotonic() - start)
    finally:  # a signal raised here too: the command is registered (or known never to start)
        reaper.started(token, None if process is None else process.pid)
    assert process.stdout is not None
    assert process.stderr is not None
    threaded = timeout_s is not None or stdin is not None
    out = _Capture(process.stdout, output_cap, threaded=threaded)
    err = _Capture(process.stderr, output_cap, threaded=threaded)
    if stdin is not None:
        threading.Thread(target=_feed, args=(process, stdin), daemon=True).start()
    killed: set[int] = set()
    try:
        if not threaded:
            _collect(process, (out, err))
        timed_out = not _ended_within(process, timeout_s)
        if timed_out or timeout_s is not None:  # a command that may run someone's code
            killed = reaper.kill_tree(process.pid, mark)
        process.wait()
        reaper.settle(process.pid, killed)
        stdout, stderr = out.text(output_cap), err.text(output_cap)
    except BaseException:
        killed = reaper.kill_tree(process.pid, mark)
        with contextlib.suppress(ChildProcessError, OSError):
            process.wait(timeout=5)
        reaper.settle(process.pid, killed, within_s=0.5)
        raise
    finally:
        reaper.finished(process.pid)
    if timed_out:
        stderr += f"\n[tddhooks] killed after {timeout_s:g}s timeout: {' '.join(argv)}\n"
    returncode = TIMED_OUT if timed_out else process.returncode
    return ProcResult(argv, returncode, stdout, stderr, time.monotonic() - start, timed_out)


def kill_running() -> None:
    """Kill every command proc.run has in flight (a termination signal reached us)."""
    reaper.kill_all_running()
