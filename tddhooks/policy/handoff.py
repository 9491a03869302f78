"""The handoff note: what the tester (or the person) staged as red, for the next committer.

It lives in `.git/tddhooks/handoff.json`, never committed, and is only valid while HEAD is the
commit it was written on: any commit in between makes it stale.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from tddhooks import git
from tddhooks.headstate import read_record, write_record
from tddhooks.policy.facts import HANDOFF_FILE
from tddhooks.policy.facts import index_code_files as index_code_files  # re-exported
from tddhooks.policy.handover import handoff_tokens as handoff_tokens  # re-exported


class Handoff(BaseModel):
    """The staged red test handed over: intent, test names, red output and test blob ids."""

    model_config = ConfigDict(extra="forbid")

    head: str | None
    intent: str
    test_names: list[str]
    red_output: str
    # test path -> blob id; a source file with tests beside its code -> `items:<digest>`
    test_blobs: dict[str, str]
    by: str
    created_at: float


def handoff_path(root: Path) -> Path:
    return git.tddhooks_dir(root) / HANDOFF_FILE


def read_handoff(root: Path) -> Handoff | None:
    """The live handoff note; None when there is none, it is unreadable, or HEAD has moved on."""
    record = read_record(handoff_path(root), git.head(root))
    try:
        return Handoff.model_validate(record) if record is not None else None
    except ValidationError:
        return None


def write_handoff(root: Path, handoff: Handoff) -> None:
    """Store the note atomically (replacing any earlier one)."""
    fields = handoff.model_dump(mode="json")
    write_record(handoff_path(root), fields.pop("head"), fields)


def clear_handoff(root: Path) -> None:
    """Forget the note (after the commit that consumed it, or when the test is set aside)."""
    handoff_path(root).unlink(missing_ok=True)
