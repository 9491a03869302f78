"""Unit tests handed over inside a source file (a failing `#[cfg(test)]` test staged in
`src/lib.rs`, a test function beside Python code): the implementor edits the code beside them,
never them. The item-level half of the handed-over tests; whole test files are protected by
path (handlers.protected_paths)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tddhooks.agenthooks.refusal import HANDED_OVER, Refusal
from tddhooks.agenthooks.repo_view import RepoView

_OLD_KEYS = ("old_string", "old_str")
_NEW_KEYS = ("new_string", "new_str")
_CONTENT_KEYS = ("content", "file_text")


def _tool_input(payload: dict[str, Any]) -> dict[str, Any]:
    tool_input = payload.get("tool_input")
    if isinstance(tool_input, str):
        try:
            tool_input = json.loads(tool_input)
        except ValueError:
            return {}
    return tool_input if isinstance(tool_input, dict) else {}


def _first(edit: dict[str, Any], keys: tuple[str, ...]) -> str | None:
    return next((edit[key] for key in keys if isinstance(edit.get(key), str)), None)


def edited_text(payload: dict[str, Any], current: str) -> str | None:
    """The file's text after the edit the hook input describes (a whole new content, or
    replacements of `old_string` by `new_string`); None when the input does not say (pure)."""
    tool_input = _tool_input(payload)
    content = _first(tool_input, _CONTENT_KEYS)
    if content is not None:
        return content
    edits = tool_input.get("edits")
    steps = edits if isinstance(edits, list) else [tool_input]
    text = current
    for step in steps:
        old = _first(step, _OLD_KEYS) if isinstance(step, dict) else None
        new = _first(step, _NEW_KEYS) if isinstance(step, dict) else None
        if old is None or new is None or old not in text:
            return None
        text = text.replace(old, new) if step.get("replace_all") else text.replace(old, new, 1)
    return text


def pinned_sources(view: RepoView) -> tuple[str, ...]:
    """The source files (relative to the root) whose test items are handed over: those of the
    live handoff note, else the staged tests inside source files while only tests are staged
    and the staged tree is not known to be green (the phase model's reading, policy/phase.py)."""
    from tddhooks import git
    from tddhooks.agenthooks.status_json import cached_verdict, live_handoff
    from tddhooks.policy.testitems import ITEMS_PREFIX

    note = live_handoff(view.state, view.head) if view.head else None
    if note is not None and isinstance(note.get("test_blobs"), dict):
        blobs = note["test_blobs"]
        return tuple(path for path, blob in blobs.items() if str(blob).startswith(ITEMS_PREFIX))
    if not view.staged or view.head is None:
        return ()
    from tddhooks.policy.facts import staged_facts
    from tddhooks.policy.phase import split_staged
    from tddhooks.policy.rules import is_test_path
    from tddhooks.policy.settings import load_settings

    settings = load_settings(view.root, view.state)
    tests, code, _deleted = split_staged(staged_facts(view.root, settings), settings)
    beside = tuple(path for path in tests if not is_test_path(path, settings))
    if not beside or code:
        return ()
    cached = cached_verdict(view.root, git.write_tree(view.root), settings, view.state)
    return () if cached is not None and cached[0] == "green" else beside


def test_items_edit(
    view: RepoView, paths: list[str], payload: dict[str, Any], cwd: str
) -> Refusal | None:
    """A refusal when the edit (of `paths`, relative to the agent's `cwd`) changes the test items
    of a source file whose tests were handed over; None for an edit of the code beside them, or
    one whose result the hook input does not say."""
    root = view.root
    # a handed-over unit test is a staged one: an edit of another file needs no diff read
    edited = {_relative(root, Path(cwd) / path) for path in paths} & set(view.staged)
    if not edited:
        return None
    pinned = [path for path in pinned_sources(view) if path in edited]
    if not pinned:
        return None
    from tddhooks.policy.facts import index_code_files
    from tddhooks.policy.settings import load_settings
    from tddhooks.policy.testitems import split

    language = load_settings(root, view.state).language
    files = index_code_files(root, language)
    for path in pinned:
        try:
            current = (root / path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        after = edited_text(payload, current)
        if after is None:
            continue
        before_items = split(language, path, current, {**files, path: current})[0]
        after_items = split(language, path, after, {**files, path: after})[0]
        if before_items != after_items:
            return Refusal(
                "handed-over-test",
                f"this edit changes the tests handed over in {path}",
                f"change the code beside them; {HANDED_OVER}",
            )
    return None


def _relative(root: Path, path: Path) -> str | None:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except (OSError, ValueError):
        return None
