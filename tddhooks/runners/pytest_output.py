"""Read `pytest -v -rfEsxXp` output: summary lines, counts, failures, collection errors (pure).

The per-test lines of `-v` (`tests/test_x.py::test_a SKIPPED (reason)`) are the only place pytest
names a skipped test: its short summary folds skips into `path:line` locations."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from tddhooks.runners.common import finish_report

if TYPE_CHECKING:
    from tddhooks.runners.base import TestReport

NO_TESTS_COLLECTED = 5
_SECTION = re.compile(r"^=+ (?P<title>.+?) =+$")
_SUBSECTION = re.compile(r"^_{3,} (?P<title>.+?) _{3,}$")
_SUMMARY = re.compile(r"^(?P<kind>PASSED|FAILED|ERROR|XPASS|XFAIL) (?P<rest>\S.*)$")
_COUNTS = re.compile(r"^=*\s*(?P<body>(?:\d+ [a-z]+,? ?)+|no tests ran) in \d[\d.]*s\b")
_VERBOSE = re.compile(r"^(?P<node>[^\s:]+::\S.*?) (?P<kind>SKIPPED|XFAIL)\b")
_COUNT = re.compile(r"(\d+) ([a-z]+)")
_E_LINE = re.compile(r"^E\s+(?P<text>\S.*)$")
_EXCEPTION = re.compile(r"^[\w.]*(?:Error|Exception|Exit|Interrupt|Warning)\b")
_CALL_SITE = re.compile(r"^(?P<loc>[^\s/<][^:\s]*\.py:\d+): in ")
_RAISED_AT = re.compile(r"^(?P<loc>[^\s<][^:\s]*\.py:\d+): \w+$")
_FILE_LINE = re.compile(r'File "(?P<file>[^"]+)", line (?P<line>\d+)')
_SETUP_PREFIX = re.compile(r"^ERROR at (?:setup|teardown) of ")
_MISSING_MODULE = re.compile(r"No module named '?(?P<module>pytest|ruff)'?")
_DETAIL_LINES = 3


def _sections(lines: list[str]) -> dict[str, list[str]]:
    """Bodies of the '____ name ____' blocks under FAILURES and ERRORS, keyed by their title."""
    blocks: dict[str, list[str]] = {}
    region = ""
    current: list[str] | None = None
    for line in lines:
        section = _SECTION.match(line)
        if section:
            region, current = section["title"], None
            continue
        sub = _SUBSECTION.match(line)
        if region in ("FAILURES", "ERRORS") and sub:
            current = blocks.setdefault(_SETUP_PREFIX.sub("", sub["title"]), [])
        elif current is not None:
            current.append(line)
    return blocks


def _messages(body: list[str]) -> list[str]:
    return [m["text"] for m in map(_E_LINE.match, body) if m]


def _collection_error(path: str, body: list[str]) -> str:
    """'tests/test_x.py:1: ImportError: …' for a module pytest could not import."""
    messages = _messages(body)
    message = next((m for m in reversed(messages) if _EXCEPTION.match(m)), None)
    message = message or (messages[-1] if messages else "could not be collected")
    sites = [m["loc"] for m in map(_CALL_SITE.match, body) if m]
    location = sites[-1] if sites else path
    for text in messages:
        where = _FILE_LINE.search(text)
        if where is None:
            continue
        if where["file"] == path or where["file"].endswith("/" + path):
            return f"{path}:{where['line']}: {message}"
        return f"{location}: {message} (in {where['file']}:{where['line']})"
    return f"{location}: {message}"


def _failure_lines(node: str, body: list[str], summary: str) -> list[str]:
    """The raising location and the first assertion lines of one failing test."""
    messages = _messages(body)
    raised = [m["loc"] for m in map(_RAISED_AT.match, body) if m]
    head = f"{node}: failed at {raised[-1]}" if raised else f"{node}: failed"
    first = messages[0] if messages else summary
    lines = [f"{head}: {first}" if first else head]
    return lines + [f"  {text}" for text in messages[1 : 1 + _DETAIL_LINES]]


def _summary_lines(lines: list[str]) -> list[tuple[str, str, str]]:
    """(kind, node id, message) for each line of the short test summary."""
    found: list[tuple[str, str, str]] = []
    region = ""
    for line in lines:
        section = _SECTION.match(line)
        if section:
            region = section["title"]
            continue
        match = _SUMMARY.match(line)
        if match and region == "short test summary info":
            node, _, message = match["rest"].partition(" - ")
            found.append((match["kind"], node.strip(), message.strip()))
    return found


def _counts(lines: list[str]) -> dict[str, int] | None:
    for line in reversed(lines):
        match = _COUNTS.match(line.strip())
        if match:
            counts: dict[str, int] = {}
            for number, word in _COUNT.findall(match["body"]):
                key = {"error": "errors", "warning": "warnings"}.get(word, word)
                counts[key] = counts.get(key, 0) + int(number)
            return counts
    return None


def parse_pytest(output: str, exit_code: int) -> TestReport:
    """Turn pytest output into a TestReport; 'no tests ran' (exit 5) counts as green."""

    lines = output.splitlines()
    summary = _summary_lines(lines)
    blocks = _sections(lines)
    passing = [node for kind, node, _ in summary if kind in ("PASSED", "XPASS")]
    failing: list[str] = []
    compile_errors: list[str] = []
    error_lines: list[str] = []
    for kind, node, message in summary:
        if kind == "ERROR" and "::" not in node:
            entry = _collection_error(node, blocks.get(f"ERROR collecting {node}", []))
            compile_errors.append(entry)
            error_lines.append(entry)
        elif kind in ("FAILED", "ERROR") and node not in failing:
            failing.append(node)
            title = node.split("::", 1)[-1].replace("::", ".")
            error_lines.extend(_failure_lines(node, blocks.get(title, []), message))
    ignored_names = [m["node"] for m in map(_VERBOSE.match, lines) if m]
    ignored_names += [node for kind, node, _ in summary if kind == "XFAIL"]
    counts = _counts(lines)
    if counts is None:
        counts = {"passed": len(passing), "failed": len(failing)}
        counts["skipped"] = sum(1 for kind, _, _ in summary if kind == "XFAIL")
    per_test_errors = max(0, counts.get("errors", 0) - len(compile_errors))
    passed = counts.get("passed", 0) + counts.get("xpassed", 0)
    failed = max(counts.get("failed", 0) + per_test_errors, len(failing))
    ignored = counts.get("skipped", 0) + counts.get("xfailed", 0)
    missing = next(filter(None, map(_MISSING_MODULE.search, lines)), None)
    if missing:
        error_lines.append(
            f"{missing.string.strip()} (install {missing['module']} for that Python, "
            "or set the command in tdd.yaml `ci:`)"
        )
    report = finish_report(
        output,
        exit_code,
        counts=(passed, failed, ignored),
        passing=passing,
        failing=failing,
        compile_errors=compile_errors,
        error_lines=error_lines,
        green_when_empty=exit_code == NO_TESTS_COLLECTED,
        ignored_names=ignored_names,
    )
    return report.model_copy(update={"error_kind": "import"})
