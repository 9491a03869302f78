"""The drive's Workspace and Gate without git (drive/ports.py), for millisecond loop scenarios.

MemoryWorkspace keeps the working tree on disk under `root` (a temp dir: agents' files are real
files) and the two git layers in dicts: the staging area and the commits. It keeps the contract
of docs/dev/contracts.md ("Drive ports"), which tests/drive/test_workspace_contract.py checks on
it and on the real GitWorkspace alike, so it cannot drift from git. MemoryGate judges a layer by
`# needs:` markers (support/fake_drive.py). Scripted turns for loop scenarios are in
support/scripted_turns.py.
"""

from __future__ import annotations

import difflib
import hashlib
import subprocess
from collections import deque
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

from support.fake_drive import marker_verdict
from tddhooks.agents.edits import FileEdit, PathPolicy, check_edits, matches_any, write_edits
from tddhooks.drive.ports import Gate
from tddhooks.drive.workspace import SCRATCH, CommitOutcome
from tddhooks.policy.handoff import Handoff
from tddhooks.policy.history import count_cycles
from tddhooks.policy.phase import SCRATCH_DIR, PhaseInfo, RepoFacts, decide_phase, head_type
from tddhooks.policy.settings import PolicySettings
from tddhooks.policy.verdicts import Verdict
from tddhooks.vocabulary import LANGUAGE_FILES


@contextmanager
def no_processes() -> Iterator[None]:
    """A tripwire for scenarios on the in-memory workspace: a process started meanwhile (git, a
    suite, a formatter) fails the test, so "no git" is checked, not assumed."""

    def tripwire(args: object, *_args: object, **_kwargs: object) -> NoReturn:
        raise AssertionError(f"an in-memory scenario started a process: {args!r}")

    real = subprocess.Popen
    subprocess.Popen = tripwire  # type: ignore[assignment, misc]
    try:
        yield
    finally:
        subprocess.Popen = real  # type: ignore[misc]


def content_id(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Commit:
    sha: str
    message: str
    files: dict[str, str]

    @property
    def subject(self) -> str:
        return self.message.splitlines()[0] if self.message else ""


class MemoryWorkspace:
    """Staging area and commits in dicts, the working tree on disk, the notes in attributes."""

    def __init__(self, root: Path, files: dict[str, str], message: str) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        for path, text in files.items():
            self._write(path, text)
        self.commits = [Commit(content_id(message + repr(sorted(files.items()))), message, files)]
        self.index = dict(files)
        self.handoff: dict[str, object] | None = None
        self.done: tuple[str, str] | None = None  # (head, reason)
        self.refactor_mark: str | None = None  # the head it was written on
        self.head_green: bool | None = None  # HEAD's stored verdict (None: not judged)
        self.reject: deque[str] = deque()  # hook rejections to serve to the next commits
        self.trees: dict[str, dict[str, str]] = {}  # tree_with_file's, by their ids

    # the layers
    def _write(self, path: str, text: str) -> None:
        target = self.root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")

    def _remove(self, path: str) -> None:
        target = self.root / path
        target.unlink(missing_ok=True)
        parent = target.parent
        while parent != self.root and parent.is_dir() and not any(parent.iterdir()):
            parent.rmdir()
            parent = parent.parent

    def _disk(self) -> dict[str, str]:
        found = {}
        for path in self.root.rglob("*"):
            relative = path.relative_to(self.root).as_posix()
            if path.is_file() and not relative.startswith(SCRATCH_DIR):
                found[relative] = path.read_text(encoding="utf-8")
        return found

    @property
    def committed(self) -> dict[str, str]:
        return self.commits[-1].files

    def layer(self, rev: str) -> dict[str, str]:
        if rev == ":":
            return self.index
        if rev in self.trees:
            return self.trees[rev]
        return next(c.files for c in reversed(self.commits) if rev in (c.sha, "HEAD"))

    # Workspace
    def phase(
        self, root: Path, settings: PolicySettings, gate: Gate
    ) -> tuple[PhaseInfo, Verdict | None]:
        disk = self._disk()
        dirty = sorted(
            {p for p, text in disk.items() if self.index.get(p) != text}
            | {p for p in self.index if p not in disk}
        )
        staged = self.staged_paths(root)
        tests = tuple(p for p in staged if matches_any(p, settings.test_paths))
        others = tuple(p for p in staged if p not in tests)
        verdict = gate.staged(root, settings) if tests and not others and not dirty else None
        head = self.head(root)
        manifests = LANGUAGE_FILES.get(settings.language, ())
        facts = RepoFacts(
            is_repo=True, has_commit=True,
            has_scaffold=any(name in self.committed for name in manifests),
            dirty_paths=tuple(dirty), staged_test_paths=tests, staged_other_paths=others,
            staged_green=verdict.green if verdict is not None else None,
            head_type=head_type(self.commits[-1].subject),
            done_reason=self.done[1] if self.done and self.done[0] == head else None,
            refactor_taken=self.refactor_mark == head, head_green=self.head_green,
        )  # fmt: skip
        cycle = count_cycles([commit.subject for commit in self.commits])
        return decide_phase(facts, cycle), verdict

    def head(self, root: Path) -> str | None:
        return self.commits[-1].sha

    def staged_paths(self, root: Path) -> list[str]:
        paths = set(self.index) | set(self.committed)
        return sorted(p for p in paths if self.index.get(p) != self.committed.get(p))

    def blob_ids(self, root: Path, rev: str, paths: Collection[str]) -> dict[str, str]:
        layer = self.layer(rev)
        return {p: content_id(layer[p]) for p in sorted(paths) if p in layer}

    def read_blob(self, root: Path, rev: str, path: str) -> str | None:
        return self.layer(rev).get(path)

    def listed(self, root: Path) -> list[str]:
        return sorted(self.index)

    def last_commit(self, root: Path) -> tuple[str, str]:
        head = self.commits[-1]
        before = self.commits[-2].files if len(self.commits) > 1 else {}
        lines: list[str] = []
        for path in sorted(set(before) | set(head.files)):
            old, new = before.get(path), head.files.get(path)
            if old != new:
                lines += difflib.unified_diff(
                    (old or "").splitlines(), (new or "").splitlines(),
                    f"a/{path}", f"b/{path}", n=2, lineterm="",
                )  # fmt: skip
        return head.message.strip(), "\n".join(lines) + ("\n" if lines else "")

    def numstat_staged(self, root: Path) -> dict[str, tuple[int, int]]:
        stats = {}
        for path in self.staged_paths(root):
            old = (self.committed.get(path) or "").splitlines()
            new = (self.index.get(path) or "").splitlines()
            diff = list(difflib.unified_diff(old, new, lineterm="", n=0))[2:]
            added = sum(1 for line in diff if line.startswith("+"))
            removed = sum(1 for line in diff if line.startswith("-"))
            stats[path] = (added, removed)
        return stats

    def head_tree(self, root: Path) -> str:
        return self.commits[-1].sha  # MemoryGate.tree judges a commit's files

    def tree_with_file(self, root: Path, base: str, path: str, text: str) -> str:
        files = {**self.layer(base), path: text}
        tree = "tree-" + content_id(repr(sorted(files.items())))
        self.trees[tree] = files
        return tree

    def not_committed(self, root: Path, paths: Sequence[str]) -> dict[str, str]:
        """agents/edits.py `not_committed` without git (no ignore rules: nothing is ignored)."""
        reasons = {}
        for path in paths:
            if path in self.committed:
                continue
            if (root / path).exists() or (root / path).is_symlink():
                reasons[path] = "it is a file of yours that is not committed"
            elif path in self.index:
                reasons[path] = "it is staged but not committed (someone else's work)"
        return reasons

    def check_edits(self, root: Path, edits: Sequence[FileEdit], policy: PathPolicy) -> None:
        check_edits(root, edits, policy, foreign=self.not_committed,
                    index_files=lambda: dict(self.index))  # fmt: skip

    def apply_edits(self, root: Path, edits: Sequence[FileEdit], policy: PathPolicy) -> list[str]:
        self.check_edits(root, edits, policy)
        return write_edits(root, edits)

    def format_files(
        self, root: Path, settings: PolicySettings, paths: Collection[str], *, repairs: bool = True
    ) -> None:
        return None

    def stage(self, root: Path, paths: Collection[str]) -> None:
        for path in paths:
            target = root / path
            if target.is_file():
                self.index[path] = target.read_text(encoding="utf-8")
            else:
                self.index.pop(path, None)

    def restore_to_head(self, root: Path, paths: Collection[str]) -> None:
        for path in paths:
            if path in self.committed:
                self.index[path] = self.committed[path]
                self._write(path, self.committed[path])
            elif self.index.pop(path, None) is not None:
                self._remove(path)  # staged by the turn; an untracked file is nobody's to take

    def commit(self, root: Path, message: str, settings: PolicySettings) -> CommitOutcome:
        if self.reject:
            return CommitOutcome(False, None, self.reject.popleft())
        if self.index == self.committed:
            return CommitOutcome(False, None, "nothing to commit")
        sha = content_id(self.commits[-1].sha + message + repr(sorted(self.index.items())))
        self.commits.append(Commit(sha, message, dict(self.index)))
        return CommitOutcome(True, sha, "")

    def set_aside(self, root: Path, cycle: int, paths: Sequence[str]) -> Path:
        directory = root / SCRATCH / "set-aside" / str(cycle)
        for path in paths:
            target = directory / path
            target.parent.mkdir(parents=True, exist_ok=True)
            if path in self.index:
                target.write_text(self.index[path], encoding="utf-8")
            else:
                target.with_name(target.name + ".deleted").write_text("", encoding="utf-8")
        self.restore_to_head(root, paths)
        return directory

    def bring_back(self, root: Path, directory: Path, paths: Sequence[str]) -> None:
        for path in paths:
            source = directory / path
            if source.exists():
                self._write(path, source.read_text(encoding="utf-8"))
            elif source.with_name(source.name + ".deleted").exists():
                (root / path).unlink(missing_ok=True)
        self.stage(root, paths)

    def read_handoff(self, root: Path) -> Handoff | None:
        record = self.handoff
        if record is None or record["head"] != self.head(root):
            return None
        return Handoff.model_validate(record)

    def write_handoff(self, root: Path, handoff: Handoff) -> None:
        self.handoff = handoff.model_dump(mode="json")

    def clear_handoff(self, root: Path) -> None:
        self.handoff = None

    def mark_done(self, root: Path, reason: str) -> None:
        self.done = (self.commits[-1].sha, reason)

    def mark_refactor_turn(self, root: Path) -> None:
        self.refactor_mark = self.head(root)

    def refactor_turn_taken(self, root: Path) -> bool:
        return self.refactor_mark == self.head(root)


class MemoryGate:
    """The staged layer's (or a commit's) verdict by `# needs:` markers; no suite runs."""

    def __init__(self, workspace: MemoryWorkspace) -> None:
        self.workspace = workspace
        self.judged = 0

    def staged(self, root: Path, settings: PolicySettings) -> Verdict:
        self.judged += 1
        return marker_verdict(dict(self.workspace.index), settings, ":")

    def tree(self, root: Path, tree: str, settings: PolicySettings) -> Verdict:
        self.judged += 1
        return marker_verdict(dict(self.workspace.layer(tree)), settings, tree)
