"""The journal of files an agent's plan created (path -> content digest): the undo's licence to
delete a file that was never staged, and nothing else (drive/workspace.py)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

CREATED_JOURNAL = "agent-created.json"


def created_by_agent(root: Path) -> dict[str, str]:
    """path -> sha256 of the content of the files the last plans created (the undo's licence to
    delete a file that was never staged)."""
    from tddhooks import git

    try:
        data = json.loads((git.tddhooks_dir(root) / CREATED_JOURNAL).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def forget_created(root: Path, paths: Sequence[str]) -> None:
    """Drop paths from the journal of created files (they were removed or committed)."""
    journal = created_by_agent(root)
    kept = {path: digest for path, digest in journal.items() if path not in set(paths)}
    if kept != journal:
        save_journal(root, kept)


def remember_created(root: Path, journal: dict[str, str]) -> None:
    from tddhooks import git

    (git.tddhooks_dir(root) / CREATED_JOURNAL).write_text(json.dumps(journal), encoding="utf-8")


MAX_JOURNAL = 1000  # entries: a plan creates a handful of files; the oldest go first


def save_journal(root: Path, journal: dict[str, str]) -> None:
    """Write the journal without the entries that licence nothing any more: a file that is gone
    or holds other content (the undo deletes only an exact match), or one HEAD tracks (the undo
    restores it instead), and no more than MAX_JOURNAL entries."""
    from tddhooks import git

    base = root.resolve()
    kept = {}
    for path, digest in journal.items():
        try:
            if (base / path).is_symlink() or content_digest((base / path).read_bytes()) != digest:
                continue
        except OSError:
            continue
        kept[path] = digest
    if kept and git.head(root) is not None:
        listed = git.run_git(["ls-tree", "-r", "-z", "--name-only", "HEAD", "--", *kept], root)
        for path in listed.stdout.split("\0"):
            kept.pop(path, None)
    remember_created(root, dict(list(kept.items())[-MAX_JOURNAL:]))


def content_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
