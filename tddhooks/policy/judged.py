"""Sealed records of commits the policy accepted, keyed by what makes the commit: its tree, its
parents and its message.

commit-msg writes one when it accepts a commit (the commit does not exist yet, so the record
names the tree, the parent the hooks judged against and the message); the reference-transaction
hook writes one for each commit it judges and accepts. A record whose seal does not verify is
absent (tddhooks/seal.py). Standard library only: the reference-transaction hook reads these on
every branch move. See docs/security.md.
"""

from __future__ import annotations

import contextlib
import os

TYPE_CHECKING = False  # not typing's: the reference-transaction hook runs on every branch move
if TYPE_CHECKING:
    from pathlib import Path

RECORDS = "judged"
BASELINE_PREFIX = "refs/tddhooks/baseline/"  # keeps the baseline's commits through `git gc`
BASELINE_TAKEN = "baseline-taken"  # the sealed list of the branch tips at install


def normal_message(text: str) -> str:
    """The message as compared: each line's trailing whitespace and trailing blank lines dropped
    (git's own cleanup does the same, so the stored text and the judged one agree)."""
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


def record_key(tree: str, parents: tuple[str, ...] | list[str], message: str) -> str:
    """The key of a commit made of tree, parents (in order) and message."""
    from tddhooks.seal import sha256

    digest = sha256(normal_message(message).encode("utf-8", "surrogateescape")).hexdigest()
    material = f"tree {tree}\nparents {' '.join(parents)}\nmessage {digest}\n"
    return str(sha256(material.encode("ascii")).hexdigest())


def _payload(key: str) -> bytes:
    return f"tddhooks judged commit {key}".encode("ascii")


def write_record(state: Path | str, key: str) -> None:
    """Record that the policy accepted the commit with this key (atomic, sealed)."""
    from tddhooks.seal import seal

    folder = os.path.join(state, RECORDS)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, key)
    temporary = os.path.join(folder, f".{key}.{os.getpid()}")
    try:
        with open(temporary, "w", encoding="ascii") as stream:
            stream.write(seal(_payload(key)))
        os.replace(temporary, path)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)


def is_recorded(state: Path | str, key: str) -> bool:
    """Whether a record with a valid seal says the policy accepted this commit."""
    try:
        with open(os.path.join(state, RECORDS, key), encoding="ascii") as stream:
            tag = stream.read(256).strip()
    except (OSError, ValueError):
        return False
    from tddhooks.seal import verify

    return verify(_payload(key), tag)


def _baseline_payload(tips: list[str]) -> bytes:
    return ("tddhooks baseline " + " ".join(tips)).encode("ascii")


def write_baseline(state: Path | str, tips: list[str]) -> None:
    """Seal the branch tips at install: their history is never judged (a ref alone could be
    written by anyone: `git update-ref refs/tddhooks/baseline/x <commit>`)."""
    import json

    from tddhooks.seal import seal

    text = json.dumps({"tips": tips, "seal": seal(_baseline_payload(tips))})
    with open(os.path.join(state, BASELINE_TAKEN), "w", encoding="utf-8") as stream:
        stream.write(text + "\n")


def baseline(state: Path | str) -> list[str]:
    """The sealed branch tips at install; none when absent, unreadable or not sealed by us."""
    import json

    try:
        with open(os.path.join(state, BASELINE_TAKEN), encoding="utf-8") as stream:
            data = json.loads(stream.read(1_000_000))
    except (OSError, ValueError):
        return []
    tips = data.get("tips") if isinstance(data, dict) else None
    if not isinstance(tips, list) or not all(isinstance(t, str) and t.isalnum() for t in tips):
        return []
    from tddhooks.seal import verify

    return tips if verify(_baseline_payload(tips), str(data.get("seal", ""))) else []
