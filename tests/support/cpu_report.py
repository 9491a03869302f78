"""CPU seconds per test, for deciding what to cut on a CPU-bound machine: `--durations` gives wall
time, which on a loaded machine says more about the neighbours than about the test. With
TDDHOOKS_TEST_CPU=<folder>, each pytest process (every xdist worker) writes `cpu-<worker>.tsv`
there: user+sys of the process and of every child it waited for (git, hooks, gates, cargo), and
the test's node id, one line a test (docs/dev/testing.md)."""

from __future__ import annotations

import resource
from collections.abc import Iterator
from pathlib import Path

import pytest


def cpu_seconds() -> float:
    """user+sys of this process and of its children that have been waited for."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


class CpuRecorder:
    """A pytest plugin: the CPU each test's setup, call and teardown took, written at the end."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.rows: list[tuple[float, str]] = []

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Iterator[None]:
        before = cpu_seconds()
        try:
            return (yield)
        finally:
            self.rows.append((cpu_seconds() - before, item.nodeid))

    def pytest_sessionfinish(self) -> None:
        if not self.rows:  # xdist's controller runs no test
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        lines = [f"{seconds:.3f}\t{nodeid}\n" for seconds, nodeid in self.rows]
        self.path.write_text("".join(lines), encoding="utf-8")
