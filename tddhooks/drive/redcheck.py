"""Judging verdicts beyond green or red. Is the tester's red the right red (it comes from the new
test: a failing assertion in it, or a compile error in its file, and no test that passed before
fails now)? Does a green refactor keep behaviour (the same tests, none of them lost)?"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from tddhooks.drive import gather
from tddhooks.policy.settings import PolicySettings
from tddhooks.policy.verdicts import Verdict

if TYPE_CHECKING:
    from tddhooks.drive.ports import Workspace

_LOCATED = re.compile(r"^(?P<path>[^\s:]+):\d+(?::\d+)?: ")
# rustc: `use calc::add;` when no crate `calc` exists (a model copying an example's crate name)
_UNRESOLVED_CRATE = re.compile(r"unresolved import `(?P<name>\w+)`")
_BUILTIN_CRATES = ("std", "core", "alloc", "crate", "self", "super")
# a test that does not parse is not "red": no implementation can ever make it pass
_SYNTAX_ERROR = re.compile(
    r": error: (expected|unexpected|unterminated|mismatched closing|this file contains an unclosed)"
    r"|SyntaxError|IndentationError"
)


_CASE_ID = re.compile(r"\[[^\]]*\]$")  # pytest's id of one parametrized case


def same_test(failing: str, new: str) -> bool:
    """True when a failing test's name is the new test's (`tests/a.rs::m::t` ~ `tests/a.rs::t`,
    and a parametrized case `tests/test_a.py::test_t[case]` ~ `tests/test_a.py::test_t`)."""
    # libtest may qualify a test by its module path; the file and the function decide
    from tddhooks.runners.rust_items import libtest_name

    failing = _CASE_ID.sub("", failing)
    return failing in (new, libtest_name(new)) or (
        failing.split("::", 1)[0] == new.split("::", 1)[0]
        and failing.rsplit("::", 1)[-1] == new.rsplit("::", 1)[-1]
    )


def misplaced_red(
    verdict: Verdict, new_tests: Sequence[str], paths: Sequence[str], crate: str | None = None
) -> str | None:
    """Why a red verdict is not the red the tester's new test should cause; None when it is.

    `crate` (Rust) names the kata's crate: a test importing another crate can never turn green.
    """
    report = verdict.report
    if report.timed_out or verdict.timed_out:
        return "the test suite timed out with the new test: " + verdict.failure_excerpt(8)
    if not new_tests:
        return "the new file defines no test: write one test function (in Rust `#[test] fn name()`)"
    if len(new_tests) > 1:
        # one failing test per cycle: the implementor gets one thing to make pass
        names = ", ".join(name.rsplit("::", 1)[-1] for name in new_tests[:5])
        return f"the attempt adds {len(new_tests)} tests ({names}): hand over exactly one"
    unparsable = [
        error
        for error in report.compile_errors
        if _SYNTAX_ERROR.search(error)
        and (match := _LOCATED.match(error))
        and match["path"] in paths
    ]
    if unparsable:
        return "the new test does not parse (fix the syntax): " + "; ".join(unparsable[:3])
    for error in report.compile_errors:
        unresolved = _UNRESOLVED_CRATE.search(error)
        if crate and unresolved and unresolved["name"] not in (crate, *_BUILTIN_CRATES):
            return (
                f"the new test imports `{unresolved['name']}`, which is not a crate here; this "
                f"kata's crate is `{crate}`: write `use {crate}::...;`"
            )
    elsewhere = [
        error
        for error in report.compile_errors
        if (match := _LOCATED.match(error)) and match["path"] not in paths
    ]
    if elsewhere:
        what = "import errors" if report.error_kind == "import" else "compile errors"
        return f"{what} outside the new test file: " + "; ".join(elsewhere[:3])
    old = [
        name for name in report.failing_tests if not any(same_test(name, new) for new in new_tests)
    ]
    if old:
        return "tests that passed before now fail: " + ", ".join(old[:5])
    if not report.failing_tests and not report.compile_errors:
        return "the gate is red but no test fails: " + verdict.failure_excerpt(8)
    return None


def new_test_names(
    root: Path, settings: PolicySettings, paths: Sequence[str], workspace: Workspace | None = None
) -> list[str]:
    """Tests defined in the working-tree copies of `paths` that HEAD's copies do not define."""
    ws = gather.workspace_or_git(workspace)
    before = {path: ws.read_blob(root, "HEAD", path) or "" for path in paths}
    after = gather.read_texts(root, paths)
    return sorted(
        set(gather.test_names(settings, after)) - set(gather.test_names(settings, before))
    )


def changed_behaviour(baseline: Verdict, verdict: Verdict) -> str | None:
    """Why a green refactor does not keep behaviour (tests renamed, added, removed, or fewer
    passing than on HEAD); None when it does."""
    before, after = set(baseline.test_names), set(verdict.test_names)
    if before != after:
        changed = ", ".join(sorted(before ^ after)[:5])
        return f"a refactor keeps the set of tests; changed: {changed}"
    if verdict.report.passed < baseline.report.passed:
        return (
            f"fewer tests pass ({verdict.report.passed}, before: {baseline.report.passed}): "
            "behaviour must stay the same"
        )
    return None


# clippy: `error: used `assert_eq!` with a literal bool` then ` --> tests/a.rs:5:5` (no rustc
# code: a compile error is not a lint); ruff and the like: `tests/test_a.py:3:1: F401 …`
_LINT_BLOCK = re.compile(
    r"^(?:error|warning): (?P<message>[^\n]+)\n\s*--> (?P<where>(?P<path>[^\s:]+):\d+:\d+)",
    re.MULTILINE,
)
_LINT_LINE = re.compile(r"^(?P<where>(?P<path>[^\s:]+):\d+:\d+): (?P<message>[^\n]+)", re.MULTILINE)
_LINT_HELP = re.compile(r"^help: (?P<help>[^\n]+)", re.MULTILINE)


def lints_in_test(verdict: Verdict, paths: Sequence[str]) -> str | None:
    """Why the new test is red for the linter too, where only the tester can fix it (the
    implementor may not edit tests), or None."""
    step = verdict.step("lint")
    if step is None or step.ok:
        return None
    text = step.output_tail
    found = [match for pattern in (_LINT_BLOCK, _LINT_LINE) for match in pattern.finditer(text)
             if match["path"] in paths]  # fmt: skip
    if not found:
        return None
    first = min(found, key=lambda match: match.start())
    helped = _LINT_HELP.search(text, first.end())
    following = _LINT_BLOCK.search(text, first.end())
    own = helped is not None and (following is None or helped.start() < following.start())
    hint = helped["help"] if helped is not None and own else ""
    return (
        f"the linter rejects the new test, and only the tester may change tests: "
        f"{first['message']} ({first['where']})"
        + (f"; {hint}" if hint else "")
        + ". Write the test so the lint step passes"
    )


MAX_CHECKS = 4  # a kata requirement gives three examples at most; the hidden suites two a test
_RUST_CHECK = re.compile(r"\b(?:debug_)?assert(?:_eq|_ne)?!")
_PYTHON_CHECK = re.compile(r"^[ \t]*assert\b|\bself\.assert\w*\(|\bpytest\.raises\(", re.MULTILINE)


def checks(path: str, text: str) -> int:
    """How many assertions a Rust or Python test file makes (Rust comments aside)."""
    if path.endswith(".rs"):
        from tddhooks.runners.rust_lexer import without_comments

        return len(_RUST_CHECK.findall(without_comments(text)))
    return len(_PYTHON_CHECK.findall(text)) if path.endswith(".py") else 0


def too_many_checks(files: Sequence[tuple[str, str | None, str]]) -> str | None:
    """Why the tester's new test checks too much at once, None when it does not: the assertions
    its files (path, text before, text after) gain, over MAX_CHECKS (check `assertion-count`,
    small-model)."""
    added = sum(
        max(0, checks(path, after) - checks(path, before or "")) for path, before, after in files
    )
    if added <= MAX_CHECKS:
        return None
    return (
        f"edits refused, nothing was written: the new test makes {added} assertions, checking "
        "several requirements at once. A test is one step of the kata: keep at most "
        f"{MAX_CHECKS} assertions, all about the Next requirement and its examples; the other "
        "requirements get their own tests in later cycles"
    )
