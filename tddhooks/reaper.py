"""Finding and killing every process a command left behind, however it detached.

A command runs in its own process group, which a test can leave with `setsid`. Two more nets:
each child carries a mark in its environment (inherited by all its descendants unless they wipe
their environment), and on Linux this process becomes a child subreaper
(prctl(PR_SET_CHILD_SUBREAPER)), so orphaned descendants are re-parented to us instead of init.
After the command ends (or times out, or a signal arrives) the group, the marked processes, the
command's remaining descendants and our unknown orphans are killed. Elsewhere only the group is.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Collection
from pathlib import Path

MARK_ENV = "TDDHOOKS_PROC_MARK"
_PR_SET_CHILD_SUBREAPER = 36
_PROC = Path("/proc")
# reentrant: a signal's handler (kill_all_running) may run in a thread that holds it
_lock = threading.RLock()
_started = threading.Condition(_lock)
_running: set[int] = set()
# commands between starting() and started(), their children not yet registered: token -> the
# thread starting it. A doomed one is killed as soon as it has started (kill_all_running)
_starting: dict[int, int] = {}
_doomed: set[int] = set()
_tokens: list[int] = [0]
_START_WAIT_S = 5.0  # kill_all_running waits this long at most for another thread's start
_subreaper: list[bool] = []


def become_subreaper() -> None:
    """Ask Linux to re-parent our orphaned descendants to us (once; silently not elsewhere)."""
    if _subreaper:
        return
    _subreaper.append(False)
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        _subreaper[0] = libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        pass


def new_mark() -> str:
    """A fresh mark, appended to the one this process inherited (nested runs stay findable)."""
    inherited = os.environ.get(MARK_ENV, "")
    token = os.urandom(8).hex()
    return f"{inherited}:{token}" if inherited else token


def starting() -> int:
    """A command is about to start (its child must not pass for an orphan meanwhile, nor escape
    a kill_all_running that comes before it is registered). Returns the token for started()."""
    with _lock:
        _tokens[0] += 1
        _starting[_tokens[0]] = threading.get_ident()
        return _tokens[0]


def started(token: int, pid: int | None) -> None:
    """The command of `token` started as `pid` (None: it could not start). One that a
    kill_all_running doomed while it was starting is killed at once."""
    with _lock:
        del _starting[token]
        doomed = token in _doomed
        _doomed.discard(token)
        if pid is not None:
            _running.add(pid)
        _started.notify_all()
    if doomed and pid is not None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)


def _busy(pid: int) -> bool:
    """Whether another command is in flight (a pid that no longer exists does not count: a
    thread that died without finishing must not switch reaping off for good)."""
    with _lock:
        gone = {other for other in _running if not (_PROC / str(other)).exists()}
        if _PROC.is_dir():
            _running.difference_update(gone)
        return bool(_running - {pid}) or bool(_starting)


def finished(pid: int) -> None:
    with _lock:
        _running.discard(pid)


def _table() -> dict[int, tuple[int, int]]:
    """pid -> (parent pid, start time in clock ticks after boot) of every visible process that is
    not a zombie (empty where there is no /proc)."""
    table: dict[int, tuple[int, int]] = {}
    with contextlib.suppress(OSError):
        for entry in os.scandir(_PROC):
            if not entry.name.isdigit():
                continue
            try:
                stat = (_PROC / entry.name / "stat").read_bytes()
                # after the command name: state, ppid, ... starttime (field 22 of stat(5))
                fields = stat[stat.rindex(b")") + 2 :].split()
                if fields[0] != b"Z":
                    table[int(entry.name)] = (int(fields[1]), int(fields[19]))
            except (OSError, ValueError, IndexError):
                continue
    return table


def _started_at(pid: int) -> int:
    """The process's start time in clock ticks after boot (0 when unknown: every process is as
    young). The command is not yet waited for when it is read, so its entry is still there."""
    try:
        stat = (_PROC / str(pid) / "stat").read_bytes()
        return int(stat[stat.rindex(b")") + 2 :].split()[19])
    except (OSError, ValueError, IndexError):
        return 0


def _marked(pid: int, mark: str) -> bool:
    try:
        environ = (_PROC / str(pid) / "environ").read_bytes()
    except OSError:
        return False
    prefix = f"{MARK_ENV}=".encode()
    for item in environ.split(b"\0"):
        if item.startswith(prefix):
            return mark.encode() in item[len(prefix) :].split(b":")
    return False


def _descendants(table: dict[int, tuple[int, int]], roots: set[int]) -> set[int]:
    found = set(roots)
    changed = True
    while changed:
        changed = False
        for pid, (parent, _start) in table.items():
            if parent in found and pid not in found:
                found.add(pid)
                changed = True
    return found - roots


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signal.SIGKILL)


def kill_tree(pid: int, mark: str) -> set[int]:
    """Kill the command's group, its descendants, the processes carrying its mark and (when we
    are a subreaper and no other command is running) any orphan re-parented to us. Returns the
    pids killed (for settle)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
    if not _PROC.is_dir():
        return set()
    me = os.getpid()
    born = _started_at(pid)  # what the command started started no earlier: only those may carry
    killed: set[int] = set()  # its mark, and the others' environments are never read
    for _round in range(3):
        table = _table()
        with _lock:
            others = set(_running - {pid})
        victims = _descendants(table, {pid}) - {pid}
        victims |= {
            p for p, (_parent, start) in table.items()
            if start >= born and p not in (me, pid) and _marked(p, mark)
        }  # fmt: skip
        if _subreaper and _subreaper[0] and not _busy(pid):
            victims |= {p for p, (parent, _start) in table.items() if parent == me and p != pid}
        victims -= _descendants(table, others) | others | {me}
        if not victims:
            break
        for victim in victims:
            _kill(victim)
        killed |= victims
    return killed


def settle(pid: int, killed: set[int], within_s: float = 1.0) -> None:
    """After the command itself was waited for: collect the exit status of the killed
    processes, and of those that ended by themselves, that were re-parented to us, so none is
    left a zombie (subreaper only). /proc is scanned only when something was killed or a child
    of ours has ended (one waitid that reaps nothing tells): not after every git call."""
    if not (_subreaper and _subreaper[0]) or not (killed or _an_ended_child()):
        return
    if _busy(pid) or not _PROC.is_dir():
        return
    me = os.getpid()
    deadline = time.monotonic() + within_s
    while True:
        for zombie in _zombie_children(me, pid):
            with contextlib.suppress(ChildProcessError, OSError):
                os.waitpid(zombie, os.WNOHANG)
        if all(not (_PROC / str(p)).exists() for p in killed) or time.monotonic() > deadline:
            return
        time.sleep(0.01)


def _an_ended_child() -> bool:
    """Whether a child of ours has ended and waits to be collected (it is left so)."""
    try:
        return os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except (ChildProcessError, OSError, AttributeError):  # no children; no waitid here
        return False


def _zombie_children(me: int, skip: int) -> list[int]:
    zombies: list[int] = []
    with contextlib.suppress(OSError):
        for entry in os.scandir(_PROC):
            if not entry.name.isdigit() or int(entry.name) == skip:
                continue
            try:
                stat = (_PROC / entry.name / "stat").read_bytes()
                fields = stat[stat.rindex(b")") + 2 :].split()
            except (OSError, ValueError):
                continue
            if fields[0] == b"Z" and int(fields[1]) == me:
                zombies.append(int(entry.name))
    return zombies


def kill_all_running(spare: Collection[int] = ()) -> None:
    """Kill the group of every command in flight (a termination signal reached us), but those
    in `spare` (children that are told to stop some other way). A command another thread is
    starting is killed as soon as it has started, and waited for (at most _START_WAIT_S): a
    process that exits right after this call would otherwise leave it running."""
    me = threading.get_ident()
    with _lock:
        _doomed.update(_starting)
        deadline = time.monotonic() + _START_WAIT_S
        while any(thread != me for thread in _starting.values()):
            left = deadline - time.monotonic()
            if left <= 0:
                break
            _started.wait(left)
        pids = [pid for pid in _running if pid not in spare]
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)
