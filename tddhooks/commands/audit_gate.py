"""The gate side of `tddhooks audit`: every distinct (tree, policy) judged once, `jobs` trees at a
time, and the verdicts kept in audit's own store for the next audit.

Lanes: each worker gates in a snapshot folder and a cargo target folder of its own (lane 0 is the
"audit" folder, the others "audit-2", "audit-3", ...; policy/snapshot.py), so two lanes never wait
on one cargo lock, and each lane's build stays incremental from one tree to the next. A verdict is
computed by the same `tree_verdict` the hooks use, whatever lane computes it, so a concurrent
audit judges every commit as a sequential one does.

The store: `<private folder>/audit-verdicts/` (the 0700 folder outside the repository that holds
the snapshots), written only by audit, never by the hooks, a drive or an agent; keyed by the tree
id plus a fresh hash of the commands, the toolchain's version (asked, not remembered in .git) and
its stat fingerprint. The hooks' own cache (`.git/tddhooks/verdicts`, which anything that can
write the repository can write) is never read. `--fresh` ignores the store and re-gates every tree.
"""

from __future__ import annotations

import hashlib
import json
import os
import queue
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tddhooks.policy.settings import PolicySettings
    from tddhooks.policy.verdicts import Verdict, VerdictStore

STORE = "audit-verdicts"
MAX_JOBS = 8


def default_jobs() -> int:
    """One lane per core this process may use (its CPU affinity, not the host's count), at most
    4: a kata's build is mostly one rustc at a time, so a second lane uses the second core;
    beyond the cores, lanes only contend."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(4, cores or 1))


def lane_name(number: int) -> str:
    from tddhooks.policy.snapshot import AUDIT_TREE

    return AUDIT_TREE if number == 0 else f"{AUDIT_TREE}-{number + 1}"


class AuditGate:
    """Verdicts for (tree, policy) pairs, gated `jobs` at a time; use as a context manager."""

    def __init__(self, root: Path, *, jobs: int, reuse: bool) -> None:
        """Each lane builds in a snapshot and cargo target folder of its own (policy/snapshot.py
        `gate_dirs`), whatever CARGO_TARGET_DIR says (runners/rust.py `env`)."""
        self.root = root
        self.jobs = jobs
        self._pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="tddhooks-audit")
        self._lanes: queue.SimpleQueue[str] = queue.SimpleQueue()
        for number in range(jobs):
            self._lanes.put(lane_name(number))
        self._futures: dict[tuple[str, PolicySettings], Future[Verdict]] = {}
        self._keys: dict[PolicySettings, str] = {}
        self._store: VerdictStore | None = _store(root) if reuse else None
        self._same: dict[str, str] = {}  # tree -> the tree whose verdict is its own
        self.stored = 0  # verdicts read from audit's store instead of gated

    def __enter__(self) -> AuditGate:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if error is not None:  # Ctrl-C, a signal or a failure: stop the lanes' commands now
            from tddhooks import proc

            self._pool.shutdown(wait=False, cancel_futures=True)
            proc.kill_running()
        self._pool.shutdown(wait=True, cancel_futures=True)

    @property
    def judged(self) -> int:
        """Distinct (tree, policy) pairs asked for."""
        return len(self._futures)

    def known(self, tree: str, settings: PolicySettings) -> bool:
        return (tree, settings) in self._futures

    def same_as(self, tree: str, other: str) -> None:
        """tree's verdict is other's: they differ only in documentation nothing reads
        (policy/inert.py), so tree is never gated on its own."""
        if tree != other:
            self._same[tree] = self._same.get(other, other)

    def submit(self, tree: str, settings: PolicySettings) -> None:
        """Start judging tree under settings (once per pair; later calls do nothing)."""
        tree = self._same.get(tree, tree)
        if (tree, settings) in self._futures:
            return
        key = self._key(settings) if self._store is not None else ""
        stored = self._store.get(tree, key) if self._store is not None else None
        if stored is not None:
            self.stored += 1
            done: Future[Verdict] = Future()
            done.set_result(stored)
            self._futures[tree, settings] = done
            return
        self._futures[tree, settings] = self._pool.submit(self._gate, tree, settings, key)

    def verdict(self, tree: str, settings: PolicySettings) -> Verdict:
        """The verdict for tree under settings, waiting for its lane when it is not done yet."""
        self.submit(tree, settings)
        from tddhooks import waits

        return waits.result(self._futures[self._same.get(tree, tree), settings])

    def _gate(self, tree: str, settings: PolicySettings, key: str) -> Verdict:
        from tddhooks.policy.gate import tree_verdict

        lane = self._lanes.get()
        try:
            if settings.language == "rust":
                seed_target(self.root, lane)
            verdict = tree_verdict(self.root, tree, settings, use_cache=False, snapshot_kind=lane)
        finally:
            self._lanes.put(lane)
        if self._store is not None:
            self._store.put(verdict.model_copy(update={"key": key}))
        return verdict

    def _key(self, settings: PolicySettings) -> str:
        """Commands + asked toolchain version + the toolchain's stat fingerprint, per policy."""
        if settings not in self._keys:
            from tddhooks.policy.gate import toolchain_stamp
            from tddhooks.policy.verdicts import verdict_key
            from tddhooks.runners import get_runner

            runner = get_runner(settings.language)
            stamp = toolchain_stamp(self.root, settings, list(runner.tool_names))
            material = json.dumps([verdict_key(settings, runner), stamp], sort_keys=True)
            self._keys[settings] = hashlib.sha256(material.encode("utf-8")).hexdigest()[:24]
        return self._keys[settings]


def seed_target(root: Path, lane: str) -> bool:
    """A lane's first build starts from a copy of the hooks' warm cargo target folder instead
    of from nothing: the dependencies (the slow part of a cold build) are reused, and the
    kata's own crate is rebuilt, since every file of the lane's fresh snapshot is newer than
    the copied fingerprints. Only a lane with neither a snapshot nor a target folder yet is
    seeded; True when it was."""
    from tddhooks import proc
    from tddhooks.policy.snapshot import GATE_TREE, gate_dirs

    warm = gate_dirs(root, GATE_TREE)[1]
    snapshot, target = gate_dirs(root, lane)
    # a lane snapshot kept from before could hold files older than the copied fingerprints:
    # cargo would then take the hooks' build of another tree for this one
    if target.exists() or snapshot.exists() or not warm.is_dir():
        return False
    partial = target.with_name(target.name + ".seeding")
    copied = proc.run(["cp", "-a", "--reflink=auto", str(warm), str(partial)], timeout_s=600)
    if not copied.ok:
        proc.run(["rm", "-rf", str(partial)], timeout_s=600)
        return False
    partial.rename(target)
    return True


def _store(root: Path) -> VerdictStore:
    from tddhooks.policy.snapshot import private_dir
    from tddhooks.policy.verdicts import VerdictStore

    folder = private_dir(root) / STORE
    folder.mkdir(mode=0o700, exist_ok=True)
    return VerdictStore(folder)
