"""Take out of `.pre-commit-config.yaml` exactly what precommit_config.add_hooks put in (pure).

Our block goes line by line between its markers (or, unmarked, by the entry's node span); lines
ending in our mark go whole; a flow list extended by tddhooks loses the items its
`# tddhooks added:` comment names. See docs/commands.md (uninstall).
"""

from __future__ import annotations

from pathlib import Path

from tddhooks.commands import yaml_positions as yp
from tddhooks.commands.precommit_config import (
    ADDED_MARK,
    BLOCK_END,
    BLOCK_START,
    CREATED_HEADER,
    HOOK_IDS,
    HOOK_TYPES,
    MARK,
    REPOS_LINE,
    check_kept,
    load,
    parse_root,
)


def remove_hooks(text: str, path: Path) -> str | None:
    """The config without what `add_hooks` added; None when tddhooks created the file and
    nothing else is left in it (the caller deletes it)."""
    before = load(text, path)
    result = remove_block(text, path)
    result = _remove_marked(result, path)
    check_kept(before, result, path)
    if result.startswith(CREATED_HEADER) and not load(result, path).get("repos"):
        leftover = [ln for ln in result.splitlines()[1:] if ln.strip() and ln.strip() != "repos:"]
        if not leftover:
            return None
    return result


def remove_block(text: str, path: Path) -> str:
    """Our marked `repo: local` entry (markers included), or the bare entry when unmarked."""
    start = text.find(BLOCK_START)
    end_marker = text.find(BLOCK_END, max(start, 0))
    if start >= 0 and end_marker >= 0:
        text = yp.delete_lines(text, yp.line_start(text, start), yp.line_end(text, end_marker))
        return remove_block(text, path) if BLOCK_START in text else text
    root = parse_root(text, path)
    repos = root.get("repos") if root else None
    if repos is None or repos.kind != "sequence":
        return text
    for index, item in enumerate(repos.items):
        if not _is_our_entry(item):
            continue
        if not repos.flow:
            start = yp.line_start(text, item.start)
            return yp.delete_lines(text, start, yp.after_line(text, item.end))
        if index + 1 < len(repos.items):
            return text[: item.start] + text[repos.items[index + 1].start :]
        begin = repos.items[index - 1].end if index else repos.start + 1
        return text[:begin] + text[item.end :]
    return text


def _is_our_entry(item: yp.Node) -> bool:
    repo, hooks = item.get("repo"), item.get("hooks")
    if repo is None or repo.value != "local" or hooks is None or not hooks.items:
        return False
    ids = [hook.get("id") for hook in hooks.items]
    return all(node is not None and node.value in HOOK_IDS.values() for node in ids)


def _remove_marked(text: str, path: Path) -> str:
    """Lines ending in our mark, and the items of a flow list marked as added by tddhooks."""
    while (at := text.find(ADDED_MARK)) >= 0:
        text = _remove_added_items(text, at, path)
    while True:
        marked = [m for m in _marked_lines(text) if text[m[0] : m[1]].rstrip("\r\n") != REPOS_LINE]
        if not marked:
            break
        text = yp.delete_lines(text, *marked[0])
    root = parse_root(text, path)
    repos_key = root.key_node("repos") if root else None
    repos = root.get("repos") if root else None
    if repos_key is not None and repos is not None and repos.kind == "scalar":
        start = yp.line_start(text, repos_key.start)
        end = yp.line_end(text, start)
        if text[start:end].rstrip("\r\n") == REPOS_LINE:
            text = yp.delete_lines(text, start, end)
    return text


def _marked_lines(text: str) -> list[tuple[int, int]]:
    spans, at = [], 0
    for line in text.splitlines(keepends=True):
        if line.rstrip("\r\n").endswith(MARK):
            spans.append((at, at + len(line)))
        at += len(line)
    return spans


def _remove_added_items(text: str, at: int, path: Path) -> str:
    end = at + len(ADDED_MARK)
    added: list[str] = []
    while True:
        word = next((t for t in HOOK_TYPES if text.startswith(f" {t}", end)), None)
        if word is None or (end + len(word) + 1 < len(text) and text[end + len(word) + 1] == "-"):
            break
        added.append(word)
        end += len(word) + 1
    text = text[:at] + text[end:]
    root = parse_root(text, path)
    node = root.get("default_install_hook_types") if root else None
    values = node.scalars() if node else None
    if not added or node is None or values is None or values[-len(added) :] != added:
        return text  # changed by hand since: leave the list as it is
    keep = len(values) - len(added)
    begin = node.items[keep - 1].end if keep else node.start + 1
    return text[:begin] + text[node.items[-1].end :]
