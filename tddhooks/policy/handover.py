"""Recording a hand-over: the staged tests become the handed-over tests the moment any of our
surfaces sees them staged alone and not green (the pre-commit hook refusing them as red, an agent
hook, the drive), whoever staged them.

The note (`.git/tddhooks/handoff.json`, policy/handoff.py) is the lock: from then on the commit
that lands on this HEAD must carry those tests exactly as recorded (the `handoff` rule compares
content at commit time), whatever else is staged and whatever tool edited them on the way. A
live note is never replaced here; the lock is released only by that commit (HEAD moves on) or
by an explicit hand-back (deleting the note; docs/policy.md, "The handed-over test"). Standard
library only (agent hooks call it), no pydantic.
"""

from __future__ import annotations

import time
from pathlib import Path

from tddhooks import git
from tddhooks.headstate import read_record, write_record
from tddhooks.policy.facts import HANDOFF_FILE, index_code_files

TYPE_CHECKING = False  # not typing's: the hook path does not import typing (tddhooks/records.py)
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from tddhooks.policy.settings import PolicySettings


def carried_note(root: Path, state: Path, head: str | None) -> dict[str, object] | None:
    """The handoff note for a commit on `head`: the one written on head, or one written on an
    ancestor of head whose tests no commit since has carried as recorded (a `docs:` commit in
    between does not release the lock). A note whose tests landed is deleted (released)."""
    note = state / HANDOFF_FILE
    live = read_record(note, head)
    if live is not None or head is None:
        return live
    record = read_record(note, _written_on(note))
    written = record.get("head") if record else None
    if not isinstance(written, str) or not record:
        return None
    if not git.run_git(["merge-base", "--is-ancestor", written, head], root, check=False).ok:
        return None  # HEAD went elsewhere (a reset, another branch): the hand-over is over
    tokens = record.get("test_blobs")
    files = {
        str(path): str(blob)
        for path, blob in (tokens.items() if isinstance(tokens, dict) else ())
        if not str(blob).startswith("items:")
    }
    commits = git.out(["rev-list", "--reverse", f"{written}..{head}", "--"], root).split()
    for commit in commits:
        listing = git.out(["ls-tree", "-z", commit, "--", *files], root)
        found = {
            row.split("\t", 1)[1]: row.split()[2] for row in listing.split("\0") if "\t" in row
        }
        if all(found.get(path) == blob for path, blob in files.items()):
            note.unlink(missing_ok=True)  # landed: the lock is released
            return None
    return record


def _written_on(note: Path) -> str | None:
    import json

    try:
        data = json.loads(note.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    head = data.get("head") if isinstance(data, dict) else None
    return head if isinstance(head, str) else None


def record_handover(
    root: Path,
    state: Path,
    head: str | None,
    settings: PolicySettings,
    staged: Sequence[str],
    *,
    by: str,
    red_output: str = "",
    index_file: str | None = None,
) -> dict[str, str] | None:
    """Record the staged paths as handed over when HEAD exists, every staged path is a test
    path and no live note exists; the recorded path -> token map, or None when nothing was
    recorded. The caller has seen that the staged tree is not green."""
    from tddhooks.policy.rules import is_test_path

    if head is None or not staged or not all(is_test_path(p, settings) for p in staged):
        return None
    note = state / HANDOFF_FILE
    if read_record(note, head) is not None:
        return None
    listing = git.out(
        ["ls-files", "-s", "-z", "--", *staged], root, env_extra=git.index_env(index_file)
    )
    blobs = {row.split("\t", 1)[1]: row.split()[1] for row in listing.split("\0") if "\t" in row}
    if not blobs:
        return None  # staged deletions only: nothing to hold on to
    tokens = handoff_tokens(settings, blobs, lambda: index_code_files(root, settings.language))
    fields = {
        "intent": "",
        "test_names": [],
        "red_output": red_output,
        "test_blobs": tokens,
        "by": by,
        "created_at": round(time.time(), 3),
    }
    state.mkdir(parents=True, exist_ok=True)
    write_record(note, head, fields)
    return tokens


def handoff_tokens(
    settings: PolicySettings, blobs: dict[str, str], index_files: Callable[[], dict[str, str]]
) -> dict[str, str]:
    """What a handoff records for the staged paths (`blobs`: path -> index blob id): a test
    file's blob id; for a source file with tests beside its code, the token of its test items
    (policy/testitems.py), so the implementor may change the code around them but not them.
    `index_files` reads the index's source and test-configuration files (index_code_files)."""
    from tddhooks.policy.rules import is_test_path
    from tddhooks.policy.testitems import items_token

    beside = [path for path in blobs if not is_test_path(path, settings)]
    if not beside:
        return dict(blobs)
    files = index_files()
    tokens = dict(blobs)
    for path in beside:
        tokens[path] = items_token(settings.language, path, files.get(path, ""), files)
    return tokens
