"""`char` slips rustc explains but does not fix, rewritten before the gate (check
`compiler-fixes`, small-model; drive/rustfixes.py, docs/runners.md "Fixes before the gate"):

- a `char` method that takes a radix passed by name where a one-argument predicate is expected
  (`chars().any(char::is_digit)`, E0593) becomes the closure that fits; only rustc's own span,
  and only when its text is exactly the method's path;
- a reference to a char literal given as a pattern (`contains(&'0')`, E0277) becomes the char;
- a string in single quotes (E0762) takes rustc's own "use double quotes" suggestion: exactly its
  two spans."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from pathlib import Path

# the path rustc points at -> the closure that takes one `char` (`any`, `all`, `contains`,
# `find`, `split`, `trim_matches`… accept it)
CLOSURES = {b"char::is_digit": b"|c: char| c.is_ascii_digit()"}
# `&'0'`, `&'\''`, `& '\u{41}'`: a reference to one char literal, nothing else
_CHAR_REFERENCE = re.compile(
    rb"&\s*(?P<char>'(?:\\(?:u\{[0-9A-Fa-f_]{1,6}\}|x[0-9A-Fa-f]{2}|.)|[^\\'\n\x80-\xff]"
    rb"|[\xc0-\xff][\x80-\xbf]{1,3})')"
)


def predicate_replacements(
    output: str, own_paths: Collection[str]
) -> Iterator[tuple[str, int, int]]:
    """(path, byte start, byte end) of each E0593 primary span in `own_paths`, from cargo's JSON
    messages (drive/rustfixes.py `compiler_messages`)."""
    from tddhooks.drive.rustfixes import compiler_messages

    for message in compiler_messages(output, "E0593"):
        yield from _primary_spans(message, own_paths)


def reference_replacements(
    output: str, own_paths: Collection[str]
) -> Iterator[tuple[str, int, int]]:
    """(path, byte start, byte end) of each primary span of an E0277 whose trait bound is
    `&char: Pattern` (a reference to a char given as a pattern), in `own_paths`."""
    from tddhooks.drive.rustfixes import compiler_messages

    for message in compiler_messages(output, "E0277"):
        text = message.get("message")
        if isinstance(text, str) and re.search(r"`&char: (?:[\w:]*::)?Pattern", text):
            yield from _primary_spans(message, own_paths)


_DOUBLE_QUOTES = "if you meant to write a string literal, use double quotes"


def quote_replacements(output: str, own_paths: Collection[str]) -> Iterator[tuple[str, int, int]]:
    """(path, byte start, byte end) of each single quote rustc suggests replacing with a double
    one (its "use double quotes" help, of any message), in `own_paths`."""
    from tddhooks.drive.rustfixes import all_compiler_messages, span_place

    for message in all_compiler_messages(output):
        children = message.get("children")
        for child in children if isinstance(children, list) else []:
            if not isinstance(child, dict) or child.get("message") != _DOUBLE_QUOTES:
                continue
            spans = child.get("spans")
            spans = spans if isinstance(spans, list) else []
            places = [span_place(span, own_paths) for span in spans]
            if len(places) == 2 and all(
                place and place[2] - place[1] == 1 and span.get("suggested_replacement") == '"'
                for place, span in zip(places, spans, strict=True)
            ):
                yield from (place for place in places if place)


def apply_quotes(root: Path, spans: Collection[tuple[str, int, int]]) -> list[str]:
    """Write `"` over each span that is exactly a `'`; the paths changed."""
    from tddhooks.drive.rustfixes import replace_spans

    return replace_spans(root, spans, lambda data, start, end: (
        b'"' if data[start:end] == b"'" else None))  # fmt: skip


def _primary_spans(
    message: dict[str, object], own_paths: Collection[str]
) -> Iterator[tuple[str, int, int]]:
    """(path, byte start, byte end) of each primary span of `message` in `own_paths`."""
    from tddhooks.drive.rustfixes import span_place

    spans = message.get("spans")
    for span in spans if isinstance(spans, list) else []:
        place = span_place(span, own_paths)
        if place is not None and span.get("is_primary") and place[1] < place[2]:
            yield place


def apply_replacements(root: Path, spans: Collection[tuple[str, int, int]]) -> list[str]:
    """Rewrite each span whose bytes are a path in CLOSURES as its closure, or a reference to a
    char literal as the char; the paths changed."""
    from tddhooks.drive.rustfixes import replace_spans

    return replace_spans(root, spans, _replacement)


def _replacement(data: bytes, start: int, end: int) -> bytes | None:
    """What the span's bytes become, None when they are neither shape (then left as they are)."""
    text = data[start:end]
    closure = CLOSURES.get(text)
    if closure is not None:
        return None if data[end:].lstrip().startswith(b"(") else closure
    reference = _CHAR_REFERENCE.fullmatch(text)
    return None if reference is None else reference["char"]
