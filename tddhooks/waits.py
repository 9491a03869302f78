"""Waits on other threads that a signal can cut short. CPython runs a signal's handler in the
main thread only, while the kernel hands a process's signal to whichever of its threads takes it
first: a main thread blocked on a lock (a bare `join()`, `Future.result()`, `as_completed`) is
then never woken, and Ctrl-C or SIGTERM waited for whatever the other thread waited for (a
hanging acceptance suite: ten minutes). These waits return to Python every LOOK_S at the most,
so the handler runs, and raises, within that time. Imported on the hook path: standard library
only."""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: the hook path does not import typing (tddhooks/records.py)
if TYPE_CHECKING:
    import threading
    from collections.abc import Iterable, Iterator
    from concurrent.futures import Future
    from typing import TypeVar

    T = TypeVar("T")

LOOK_S = 0.05


def join(thread: threading.Thread) -> None:
    """Wait for `thread` to end."""
    while thread.is_alive():
        thread.join(LOOK_S)


def result(future: Future[T]) -> T:
    """The future's result (or its exception, raised), once it is done."""
    from concurrent.futures import wait

    while not wait((future,), timeout=LOOK_S).done:
        pass
    return future.result()


def completed(futures: Iterable[Future[T]]) -> Iterator[Future[T]]:
    """Each future as it is done, like `concurrent.futures.as_completed` without a timeout."""
    from concurrent.futures import FIRST_COMPLETED, wait

    pending = set(futures)
    while pending:
        done, pending = wait(pending, timeout=LOOK_S, return_when=FIRST_COMPLETED)
        yield from done
