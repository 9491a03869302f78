"""A closing brace that rustc finds misplaced, removed before the gate (check `compiler-fixes`,
small-model; drive/rustfixes.py, docs/runners.md "Fixes before the gate").

rustc names the brace it matched to a block while their indentation differs ("...as it matches
this but it has different indentation"). Where that brace ends a line after code (a brace that
begins its line is layout), it is removed; rustc suggests nothing, and the gate judges the
result."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from pathlib import Path

UNEXPECTED = "unexpected closing delimiter: `}`"
MISMATCHED = "...as it matches this but it has different indentation"


def stray_braces(output: str, own_paths: Collection[str]) -> Iterator[tuple[str, int, int]]:
    """(path, byte start, byte end) of each brace rustc matched with another indentation, in the
    messages of an unexpected closing brace in `own_paths` (cargo's JSON output)."""
    from tddhooks.drive.rustfixes import all_compiler_messages, span_place

    for message in all_compiler_messages(output):
        spans = message.get("spans")
        if message.get("message") != UNEXPECTED or not isinstance(spans, list):
            continue
        for span in spans:
            place = span_place(span, own_paths)
            # rustc marks the brace with an empty span at it (byte_end == byte_start)
            if place is not None and span.get("label") == MISMATCHED and place[2] - place[1] <= 1:
                yield place[0], place[1], place[1] + 1


def _ends_a_line_of_code(data: bytes, start: int) -> bool:
    """The byte at `start` is a `}` with code before it on its line and nothing after it."""
    line_start = data.rfind(b"\n", 0, start) + 1
    line_end = data.find(b"\n", start)
    rest = data[start + 1 :] if line_end < 0 else data[start + 1 : line_end]
    return (
        data[start : start + 1] == b"}"
        and bool(data[line_start:start].strip())
        and not rest.strip()
    )


def remove_stray_braces(root: Path, spans: Collection[tuple[str, int, int]]) -> list[str]:
    """Remove each brace of `spans` that ends a line after code; the paths changed."""
    from tddhooks.drive.rustfixes import replace_spans

    def removed(data: bytes, start: int, _end: int) -> bytes | None:
        return b"" if _ends_a_line_of_code(data, start) else None

    return replace_spans(root, spans, removed)
