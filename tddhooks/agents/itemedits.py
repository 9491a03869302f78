"""The sandbox's item-aware half: in a source file that holds tests beside its code (a Rust
`#[cfg(test)]` module, Python test functions in a module pytest collects), the tester may change
only the test items and the implementor and refactorer only the code items.

Each edit is compared with the file as the index holds it (the staged, handed-over test included)
through policy/testitems.py: the tester's new content must keep every code line, the others' must
keep every test line. A file that is a test as a whole (Rust `#[cfg(test)] mod x;`) is all test.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from tddhooks.policy.globs import matches_any
from tddhooks.vocabulary import CODE_SUFFIXES

if TYPE_CHECKING:
    from tddhooks.agents.edits import FileEdit, PathPolicy


def item_refusals(
    root: Path,
    edits: Sequence[FileEdit],
    policy: PathPolicy,
    index_files: Callable[[], dict[str, str]] | None = None,
) -> dict[str, str]:
    """path -> why the edit is refused, for the edits that change the wrong kind of item.
    `index_files` reads the index's source and test-configuration files (default: git's,
    policy/handoff.py `index_code_files`; a test's in-memory workspace gives its own)."""
    from tddhooks.agents.edits import normalize_path

    suffixes = CODE_SUFFIXES.get(policy.language, ())
    tester = [e for e in edits if _items_only(normalize_path(e.path), policy)]
    keeper = [
        e
        for e in edits
        if policy.keep_test_items and suffixes and normalize_path(e.path).endswith(suffixes)
    ]
    if not tester and not keeper:
        return {}
    from tddhooks.policy.handoff import index_code_files
    from tddhooks.policy.testitems import split

    files = index_files() if index_files else index_code_files(root, policy.language)
    reasons: dict[str, str] = {}
    for edit in tester:
        path = normalize_path(edit.path)
        before = files.get(path)
        if before is None or edit.action == "delete":
            reasons[path] = (
                f"{policy.owner} may not create or delete a source file; write a new test in "
                f"{', '.join(policy.writable)} or inside the test module of an existing file"
            )
            continue
        after = _as_written(edit.content or "")
        if split(policy.language, path, before, files)[1] != _code(policy, path, after, files):
            reasons[path] = (
                f"it changes code in {path}: {policy.owner} may change only its test items "
                "(the #[cfg(test)] module and #[test] functions, or the test functions); "
                "send the whole file with every line outside the tests exactly as it is"
            )
    for edit in keeper:
        path = normalize_path(edit.path)
        before = files.get(path) or ""  # a new module may not bring tests of its own either
        tests_before = split(policy.language, path, before, files)[0] if before else ""
        after = "" if edit.action == "delete" else _as_written(edit.content or "")
        if split(policy.language, path, after, {**files, path: after})[0] == tests_before:
            continue
        if tests_before:
            reasons[path] = (
                f"it changes the tests in {path} (its test module or test functions): they "
                "are the tester's and stay exactly as they are; change only the code around them"
            )
        else:
            # a test of its own appended beside the code is the tester's work
            reasons[path] = (
                f"it adds a test to {path}: tests are the tester's, and the staged test is the "
                "specification; send the code only, without any #[test] or test function"
            )
    return reasons


def items_writable(path: str, policy: PathPolicy) -> bool:
    """A source file of the language where the role may change test items only."""
    suffixes = CODE_SUFFIXES.get(policy.language, ())
    return bool(suffixes) and path.endswith(suffixes) and matches_any(path, policy.items_only)


def _items_only(path: str, policy: PathPolicy) -> bool:
    return items_writable(path, policy) and not matches_any(path, policy.writable)


def _code(policy: PathPolicy, path: str, text: str, files: dict[str, str]) -> str:
    from tddhooks.policy.testitems import split

    return split(policy.language, path, text, {**files, path: text})[1]


def _as_written(content: str) -> str:
    """The content as apply_edits writes it (a trailing newline added)."""
    return content + "\n" if content and not content.endswith("\n") else content
