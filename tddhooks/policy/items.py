"""Test items and code items of a diff: which changed source files changed their tests, their
code, or both (pure).

A path matched by the test globs is a test file as a whole. Any other source file may still hold
tests (Rust `#[cfg(test)]` modules and `#[test]` functions; Python test functions in modules
pytest collects): its changed lines are judged one by one against the test items of the old text
(removed lines) and of the new text (added lines). Blank lines count for neither.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

Hunk = tuple[int, int, int, int]  # old start, old count, new start, new count (git -U0)
Spans = tuple[tuple[int, int], ...]
_HUNK_RE = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def parse_hunks(patch: str) -> dict[str, list[Hunk]]:
    """path -> its hunks' line ranges, from a `git diff -U0 -p` (pure)."""
    from tddhooks.policy.facts import diff_header_path

    hunks: dict[str, list[Hunk]] = {}
    old_path = new_path = ""
    old_left = new_left = 0
    for line in patch.split("\n"):
        if old_left or new_left:
            if line.startswith("-") and old_left:
                old_left -= 1
            elif line.startswith("+") and new_left:
                new_left -= 1
            continue
        if line.startswith("--- "):
            old_path = new_path = diff_header_path(line[4:], "a/")
        elif line.startswith("+++ "):
            new_path = diff_header_path(line[4:], "b/") or old_path
        elif match := _HUNK_RE.match(line):
            old_count = int(match[2]) if match[2] is not None else 1
            new_count = int(match[4]) if match[4] is not None else 1
            old_left, new_left = old_count, new_count
            hunks.setdefault(new_path or old_path, []).append(
                (int(match[1]), old_count, int(match[3]), new_count)
            )
    return hunks


def _spans_rust(text: str, whole: bool) -> Spans | None:
    from tddhooks.runners.rust_items import read_items

    items = read_items(text)
    if whole or items.whole_file_test:
        return None
    return items.item_spans


def source_spans(language: str, files: Mapping[str, str]) -> Callable[[str, str], Spans | None]:
    """A function (path, text) -> the test spans of that text, or None when the whole file is a
    test (a Rust module declared `#[cfg(test)] mod x;`). `files` is the tree's source files,
    which say which modules are test-only and which modules pytest collects."""
    if language == "rust":
        from tddhooks.runners.rust_items import cfg_test_module_files

        test_files = cfg_test_module_files(files)
        return lambda path, text: _spans_rust(text, path in test_files)
    if language == "python":
        from tddhooks.runners.python_items import collected, item_spans_lenient, python_files

        patterns = python_files(files)
        return lambda path, text: item_spans_lenient(text) if collected(path, patterns) else ()
    return lambda path, text: ()


def _kinds(lines: range, text: str, spans: Spans | None) -> set[bool]:
    """For the given line numbers of text: True for a test line, False for a code line."""
    if not lines:
        return set()
    rows = text.split("\n")
    found: set[bool] = set()
    for number in lines:
        if number - 1 < len(rows) and not rows[number - 1].strip():
            continue
        found.add(spans is None or any(a <= number <= b for a, b in spans))
    return found


def classify(
    hunks: Mapping[str, Sequence[Hunk]],
    paths: Sequence[str],
    old: Mapping[str, str],
    new: Mapping[str, str],
    spans_old: Callable[[str, str], Spans | None],
    spans_new: Callable[[str, str], Spans | None],
) -> tuple[frozenset[str], frozenset[str]]:
    """(paths whose test items changed, paths whose code items changed) among `paths`, the
    changed source files that are not test files as a whole."""
    tests: set[str] = set()
    code: set[str] = set()
    for path in paths:
        before, after = old.get(path, ""), new.get(path, "")
        kinds_old = spans_old(path, before) if before else ()
        kinds_new = spans_new(path, after) if after else ()
        found: set[bool] = set()
        for old_start, old_count, new_start, new_count in hunks.get(path, ()):
            found |= _kinds(range(old_start, old_start + old_count), before, kinds_old)
            found |= _kinds(range(new_start, new_start + new_count), after, kinds_new)
        if True in found:
            tests.add(path)
        if False in found:
            code.add(path)
    return frozenset(tests), frozenset(code)
