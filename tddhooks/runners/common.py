"""What the language runners share: scaffold writing, name cleaning, output tails, timeouts.

Kept free of pydantic and of process starts so the hook path can import a runner cheaply.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from tddhooks.errors import EnvironmentProblem

TYPE_CHECKING = False  # not typing's: importing typing costs the hook path ~10 ms; mypy reads it
if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

    from tddhooks.runners.base import TestReport

TAIL_LINES = 40
TIMED_OUT_EXIT = 124  # proc.TIMED_OUT, repeated here so parsing never imports the process edge
TIMEOUT_MARKER = "[tddhooks] killed after"
FALLBACK_NAME = "kata"


def output_tail(output: str, lines: int = TAIL_LINES) -> str:
    """The last `lines` lines of output, trailing blank lines dropped."""
    return "\n".join(output.rstrip().splitlines()[-lines:])


def tail_chars(output: str, limit: int) -> str:
    """At most the last `limit` characters of output, from the start of a line: an excerpt
    never begins mid-word."""
    if len(output) <= limit:
        return output
    tail = output[-limit:]
    newline = tail.find("\n")
    return tail[newline + 1 :] if newline >= 0 else tail


def was_killed(output: str, exit_code: int) -> bool:
    """Whether proc.run killed the command for running past its timeout."""
    return exit_code == TIMED_OUT_EXIT or TIMEOUT_MARKER in output


def timeout_line(output: str) -> str:
    """The proc layer's own timeout note, or a generic one."""
    for line in reversed(output.splitlines()):
        if TIMEOUT_MARKER in line:
            return line.strip()
    return "[tddhooks] the test command timed out"


def last_lines(output: str, count: int = 5) -> list[str]:
    """The last non-blank lines, for failures no parser rule recognised."""
    return [line for line in output.splitlines() if line.strip()][-count:]


def finish_report(
    output: str,
    exit_code: int,
    *,
    counts: tuple[int, int, int],
    passing: list[str],
    failing: list[str],
    compile_errors: list[str],
    error_lines: list[str],
    green_when_empty: bool = False,
    timeout_details: Sequence[str] = (),
    ignored_names: Sequence[str] = (),
) -> TestReport:
    """The TestReport both parsers end with: timeout notes, a fallback excerpt, the tail.

    counts is (passed, failed, ignored); green_when_empty turns "no tests collected" into a
    green start (pytest exit 5 on a fresh scaffold); timeout_details follow the timeout note."""
    from tddhooks.runners.base import TestReport

    passed, failed, ignored = counts
    timed_out = was_killed(output, exit_code)
    if timed_out:
        error_lines.extend([timeout_line(output), *timeout_details])
    if green_when_empty and not failed and not compile_errors and not timed_out:
        exit_code = 0
    if exit_code != 0 and not error_lines:
        error_lines = last_lines(output)
    return TestReport(
        passed=passed,
        failed=failed,
        ignored=ignored,
        passing_tests=passing,
        failing_tests=failing,
        ignored_tests=list(dict.fromkeys(ignored_names)),
        compile_errors=compile_errors,
        error_lines=error_lines,
        output_tail=output_tail(output),
        timed_out=timed_out,
        exit_code=exit_code,
        no_tests=exit_code == 0 and not timed_out and not compile_errors and not any(counts),
    )


def name_words(project_name: str) -> list[str]:
    """Lower-case ASCII words of a name: accents dropped ("Café" -> "cafe"), rest split off."""
    decomposed = unicodedata.normalize("NFKD", project_name.casefold())
    ascii_text = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return [word for word in re.split(r"[^a-z0-9]+", ascii_text.lower()) if word]


TEMPLATE_SUFFIX = ".tmpl"  # `x.py.tmpl` is written as `x.py`: pip never byte-compiles a template


def _walk(node: Traversable, prefix: str = "") -> Iterator[tuple[str, Traversable]]:
    """(relative target path, template) pairs; byte-code pip or Python left beside them skipped."""
    for child in sorted(node.iterdir(), key=lambda item: item.name):
        if child.name == "__pycache__" or child.name.endswith((".pyc", ".pyo")):
            continue
        relative = f"{prefix}{child.name}"
        if child.is_dir():
            yield from _walk(child, relative + "/")
        elif child.is_file():
            yield relative.removesuffix(TEMPLATE_SUFFIX), child


def _substitute(text: str, replacements: Mapping[str, str]) -> str:
    for placeholder, value in replacements.items():
        text = text.replace("{" + placeholder + "}", value)
    return text


def write_scaffold(language: str, dest: Path, replacements: Mapping[str, str]) -> list[str]:
    """Copy templates/scaffolds/<language>/ into dest with placeholders filled in.

    Existing files are never touched; returns the '/'-separated relative paths written.
    """
    from tddhooks.resources import templates  # importlib.resources is slow to import: not on hooks

    written: list[str] = []
    for relative, source in _walk(templates() / "scaffolds" / language):
        target_relative = _substitute(relative, replacements)
        target = dest / target_relative
        if target.exists() or target.is_symlink():
            continue
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(
                _substitute(source.read_text(encoding="utf-8"), replacements), encoding="utf-8"
            )
        except OSError as error:
            raise EnvironmentProblem(
                f"cannot write scaffold file {target}: {error.strerror or error}",
                fix=f"make {dest} writable, or move the file that blocks {target_relative}",
            ) from error
        written.append(target_relative)
    return written
