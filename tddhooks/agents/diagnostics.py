"""rustc's diagnostics in a stable order, for prompts (docs/prompts.md, "What an agent sees"): each
run of diagnostics is put in the order of the places they point at (path, line, column), so a
prompt quoting them is the same in a drive and its replay, whatever order parallel builds
finished in."""

from __future__ import annotations

import re

_START = re.compile(r"^(?:error|warning)(?:\[\w+\])?: ")
_LOCATION = re.compile(r"^\s*--> (?P<path>[^:\s]+):(?P<line>\d+):(?P<col>\d+)")
# what belongs to the diagnostic above: rustc's indented lines, notes, helps and numbered source
_CONTINUES = re.compile(r"^(?:\s|$|note: |help: |= |\d+\s*\|)")


def _key(block: list[str]) -> tuple[int, str, int, int, str]:
    for line in block:
        found = _LOCATION.match(line)
        if found:
            return 0, found["path"], int(found["line"]), int(found["col"]), "\n".join(block)
    return 1, "", 0, 0, "\n".join(block)


def in_location_order(lines: list[str]) -> list[str]:
    """`lines` with each run of consecutive diagnostics sorted by the place each points at; any
    other line ends a run and stays where it is."""
    out: list[str] = []
    run: list[list[str]] = []

    def flush() -> None:
        for block in sorted(run, key=_key):
            out.extend(block)
        run.clear()

    for line in lines:
        if _START.match(line):
            run.append([line])
        elif run and _CONTINUES.match(line):
            run[-1].append(line)
        else:
            flush()
            out.append(line)
    flush()
    return out
