"""Rust source with its comments blanked, for the plain-text reading of signatures
(drive/interface.py): a comment inside a signature (`password: &str, // the input`) is no part of
it, and commented-out code at the start of a line (`/* pub fn validate(…) -> Vec<&str> */`) is not
the library's function. String and char literals are kept as they are, so a `"/*"` opens nothing.
"""

from __future__ import annotations

import re

_RAW = re.compile(r'(?<!\w)[bc]?r(?P<hashes>#*)"')
_PLAIN = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_CHAR = re.compile(r"'(?:\\.[^'\n]*|[^'\\\n])'")


def _block_end(text: str, start: int) -> int:
    """The index after the `*/` closing the block comment at `start` (they nest in Rust)."""
    depth, index = 0, start
    while index < len(text):
        if text.startswith("/*", index):
            depth, index = depth + 1, index + 2
        elif text.startswith("*/", index):
            depth, index = depth - 1, index + 2
            if depth == 0:
                return index
        else:
            index += 1
    return len(text)


def _literal_end(text: str, index: int) -> int | None:
    """The index after the string or char literal at `index`, None when none starts there."""
    raw = _RAW.match(text, index)
    if raw is not None:
        closing = text.find('"' + raw["hashes"], raw.end())
        return len(text) if closing < 0 else closing + 1 + len(raw["hashes"])
    for pattern in (_PLAIN, _CHAR):  # a lifetime (`'a`) matches neither
        literal = pattern.match(text, index)
        if literal is not None:
            return literal.end()
    return None


def without_comments(text: str) -> str:
    """`text` with each comment replaced by a space and the line breaks it spanned."""
    out, index, start = [], 0, 0
    while index < len(text):
        if text.startswith("//", index):
            end = text.find("\n", index)
            end = len(text) if end < 0 else end
        elif text.startswith("/*", index):
            end = _block_end(text, index)
        else:
            literal = _literal_end(text, index) if text[index] in "\"'bcr" else None
            index = literal if literal is not None else index + 1
            continue
        out += [text[start:index], " ", "\n" * text.count("\n", index, end)]
        index = start = end
    return "".join([*out, text[start:]])
