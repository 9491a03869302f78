"""A `vec![…]` of string literals copied with `.to_vec()` (or `.to_owned()`) where a `Vec<String>`
is expected, made the plain `vec![…]` before the gate, so that rustc's `.to_string()` for each
literal applies next (check `compiler-fixes`, small-model; drive/rustfixes.py, docs/runners.md
"Fixes before the gate"). Only rustc's own span is rewritten, and only when its text is exactly
such a copy: any other expression is left to the gate."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from functools import cache
from pathlib import Path

LABEL = "expected `Vec<String>`, found `Vec<&str>`"
# `vec![` … `]` `.to_vec()`, on text whose literals and comments are blanked (runners/rust_lexer.py)
_COPIED = re.compile(rb"vec!\s*\[(?P<items>.*)\]\s*\.\s*to_(?:vec|owned)\s*\(\s*\)", re.DOTALL)


def copied_vecs(output: str, own_paths: Collection[str]) -> Iterator[tuple[str, int, int]]:
    """(path, byte start, byte end) of each E0308 primary span labelled LABEL in `own_paths`,
    from cargo's JSON messages."""
    from tddhooks.drive.rustfixes import compiler_messages, span_place

    for message in compiler_messages(output, "E0308"):
        spans = message.get("spans")
        for span in spans if isinstance(spans, list) else []:
            place = span_place(span, own_paths)
            if place is not None and span.get("is_primary") and span.get("label") == LABEL:
                yield place


def drop_copies(root: Path, spans: Collection[tuple[str, int, int]]) -> list[str]:
    """Rewrite each span that is exactly a copied `vec![…]` as the `vec![…]`; the paths changed."""
    from tddhooks.agents.snippet_items import balanced_all
    from tddhooks.drive.rustfixes import replace_spans
    from tddhooks.runners.rust_lexer import blanked

    blank = cache(blanked)  # a file's spans share one blanking

    def plain(data: bytes, start: int, end: int) -> bytes | None:
        found = _COPIED.fullmatch(blank(data)[start:end])
        # the `]` before the copy closes the `vec![` the span starts with, not one inside it
        if found is None or not balanced_all(found["items"].decode("latin-1")):
            return None
        return data[start : start + found.end("items") + 1]

    return replace_spans(root, spans, plain)
