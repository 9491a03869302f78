"""Read `cargo test` output: libtest results of several test binaries plus rustc errors (pure).

Works on stdout and stderr merged in time order and on stdout followed by stderr (what
proc.ProcResult.output gives): binaries are matched to their "running N tests" blocks by order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tddhooks.runners.common import finish_report

if TYPE_CHECKING:
    from tddhooks.runners.base import TestReport

_TARGET = re.compile(r"^\s+(?:Running (?:unittests )?(?P<path>\S+)|Doc-tests (?P<doc>\S+))")
_BLOCK = re.compile(r"^running \d+ tests?$")
_TEST = re.compile(
    r"^test (?P<name>.+?)(?: - should panic)? \.\.\. (?P<outcome>ok|FAILED|ignored)\b"
)
_RESULT = re.compile(r"^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored")
_FAILURE_HEADER = re.compile(r"^---- (?P<name>.+) std(?:out|err) ----$")
_PANIC_NEW = re.compile(r"^thread '[^']*'(?: \(\d+\))? panicked at (?P<loc>\S+:\d+:\d+):$")
_PANIC_OLD = re.compile(r"^thread '[^']*'(?: \(\d+\))? panicked at '(?P<msg>.*)', (?P<loc>\S+)$")
_ERROR = re.compile(r"^error(?:\[E\d+\])?: (?P<text>.+)$")
_LOCATION = re.compile(r"^\s*--> (?P<loc>\S+)$")
# cargo's own summaries of failing test binaries: not compile errors
_NOT_COMPILE = re.compile(
    r"^error: (?:(?:doc)?test failed|\d+ targets? failed|could not compile|aborting due to)"
)
_CRASH = "process didn't exit successfully"
_MESSAGE_LINES = 4


@dataclass
class _Block:
    """One test binary's run: the tests it reported and its own summary line."""

    target: str | None
    kind: str  # "unit", "integration", "doc" or "unknown"
    counts: list[int] = field(default_factory=lambda: [0, 0, 0])
    summary: tuple[int, int, int] | None = None

    def qualify(self, name: str) -> str:
        if self.kind == "integration" and self.target:
            return f"{self.target}::{name}"
        return name


def _targets(lines: list[str]) -> list[tuple[str | None, str]]:
    found: list[tuple[str | None, str]] = []
    for line in lines:
        match = _TARGET.match(line)
        if not match:
            continue
        if match["doc"]:
            found.append((None, "doc"))
        elif line.lstrip().startswith("Running unittests"):
            found.append((match["path"], "unit"))
        elif match["path"].startswith("tests/"):
            found.append((match["path"], "integration"))
        else:
            found.append((match["path"], "unknown"))
    return found


def _failure_lines(name: str, body: list[str]) -> list[str]:
    """The panic location and the first lines of its message, e.g. assertion left/right."""
    content = [line for line in body if line.strip() and not line.startswith("note: run with")]
    for index, line in enumerate(content):
        old = _PANIC_OLD.match(line)
        if old:
            return [f"{name}: panicked at {old['loc']}: {old['msg']}"]
        new = _PANIC_NEW.match(line)
        if new:
            message = content[index + 1 : index + 1 + _MESSAGE_LINES]
            head = f"{name}: panicked at {new['loc']}"
            if not message:
                return [head]
            return [f"{head}: {message[0].strip()}", *(f"  {m.strip()}" for m in message[1:])]
    return [f"{name}: failed", *(f"  {line.strip()}" for line in content[:_MESSAGE_LINES])]


def _compile_errors(lines: list[str], inside: list[bool]) -> tuple[list[str], list[str]]:
    errors: list[str] = []
    shown: list[str] = []
    for index, line in enumerate(lines):
        match = _ERROR.match(line)
        if not match or inside[index] or _NOT_COMPILE.match(line):
            continue
        location = next(
            (m["loc"] for m in map(_LOCATION.match, lines[index + 1 : index + 4]) if m), None
        )
        text = line.strip()
        entry = f"{location}: {text}" if location else text
        if entry not in errors:
            errors.append(entry)
            shown.extend([text] + ([f" --> {location}"] if location else []))
    if not errors:
        # only cargo's summary survived (e.g. output cut): still a build failure
        errors = [line.strip() for line in lines if line.startswith("error: could not compile")]
        shown = list(errors)
    return errors, shown


def parse_cargo_test(output: str, exit_code: int) -> TestReport:
    """Turn `cargo test` output into a TestReport; integration tests become 'tests/x.rs::name'."""

    lines = output.splitlines()
    targets = _targets(lines)
    blocks: list[_Block] = []
    inside = [False] * len(lines)
    passing: list[str] = []
    failing: list[str] = []
    ignored_names: list[str] = []
    failures: dict[str, list[str]] = {}
    current: _Block | None = None
    failure_name: str | None = None
    for index, line in enumerate(lines):
        if _BLOCK.match(line):
            target, kind = targets[len(blocks)] if len(blocks) < len(targets) else (None, "?")
            current = _Block(target, kind)
            blocks.append(current)
            failure_name = None
        if current is None:
            continue
        inside[index] = True
        test = _TEST.match(line)
        result = _RESULT.match(line)
        header = _FAILURE_HEADER.match(line)
        if test:
            name = current.qualify(test["name"])
            outcome = ("ok", "FAILED", "ignored").index(test["outcome"])
            current.counts[outcome] += 1
            if outcome == 0:
                passing.append(name)
            elif outcome == 1:
                failing.append(name)
            else:
                ignored_names.append(name)
        elif result:
            current.summary = (int(result[1]), int(result[2]), int(result[3]))
            current = None
            failure_name = None
        elif header:
            failure_name = current.qualify(header["name"])
            failures[failure_name] = []
        elif line == "failures:":
            failure_name = None
        elif failure_name is not None:
            failures[failure_name].append(line)
    passed, failed, ignored = (
        sum((block.summary or tuple(block.counts))[i] for block in blocks) for i in range(3)
    )
    compile_errors, error_lines = _compile_errors(lines, inside)
    for name in failing:
        error_lines.extend(_failure_lines(name, failures.get(name, [])))
    error_lines.extend(line.strip() for line in lines if _CRASH in line)
    unfinished = [b.target for b in blocks if b.summary is None and b.target]
    return finish_report(
        output,
        exit_code,
        counts=(passed, failed, ignored),
        passing=passing,
        failing=failing,
        compile_errors=compile_errors,
        error_lines=error_lines,
        timeout_details=[f"{target}: still running when it was killed" for target in unfinished],
        ignored_names=ignored_names,
    )
