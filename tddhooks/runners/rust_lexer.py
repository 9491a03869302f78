"""The one lexer module for Rust's comments and string and char literals, the two things that make
a plain-text reading of Rust code go wrong, and the ways it is used:

- `without_comments`, for the reading of signatures (drive/interface.py): a comment inside a
  signature (`password: &str, // the input`) is no part of it, and commented-out code at the start
  of a line (`/* pub fn validate(…) -> Vec<&str> */`) is not the library's function. Literals are
  kept as they are (an `extern "C"` stays), so a `"/*"` opens nothing.
- `blanked` (`blanked_text`), for the reading of const contexts (drive/rustfixes.py): comments
  and the insides of literals made spaces, the same length, so that no brace, quote, `;` or
  `const` there is read as code.

- `NOISE` and `block_comment_end`, for the token readers (runners/rust_items.py, the runner's
  `code_only`, agents/snippet_items.py).

`spans` works on text; bytes are read as Latin-1, one character a byte, so its offsets are byte
offsets there (a UTF-8 character is then two to four characters, none of them a quote).
"""

from __future__ import annotations

import re
from collections import namedtuple
from collections.abc import Iterable, Iterator

TYPE_CHECKING = False  # not typing's: the hook path reads Rust items without importing typing
if TYPE_CHECKING:
    from typing import NamedTuple

_RAW = re.compile(r'(?<!\w)[bc]?r(?P<hashes>#*)"')
# where a comment or a literal may open; the code between is skipped in one search (a 1 MB file
# read a character at a time took a second): an `r"` inside a word opens no raw string
_OPEN = re.compile(r"//|/\*|[\"']|(?<!\w)[bc]?r#*\"")
# an escape, one character, or one UTF-8 character read as Latin-1; a lifetime (`'a`) is none
_CHAR = re.compile(
    r"'(?:\\(?:u\{[0-9A-Fa-f_]{1,8}\}|x[0-9A-Fa-f]{2}|[^\n])|[^\\'\n\r\t]|[\xc0-\xff][\x80-\xbf]{1,3})'"
)
_BLOCK_MARK = re.compile(r"/\*|\*/")
_STRING_BODY = re.compile(r'[^"\\]*(?:\\.[^"\\]*)*', re.DOTALL)

# comments, strings and char literals in one pattern (a block comment's opening only: they nest,
# `block_comment_end` finds the close), for the token readers (runners/rust_items.py,
# agents/snippet_items.py): text in them is inert.
# A string never closed runs to the end, as rustc reads it (and as a block comment does): else
# each of its escaped quotes began a new scan to the end, and 100 kB of `\"` took minutes
NOISE = re.compile(
    r"""//[^\n]*
      | /\*
      | (?<!\w)b?r(?P<hashes>\#*)".*?(?:"(?P=hashes)|\Z)
      | (?<!\w)b?"(?:\\.|[^"\\])*(?:"|\Z)
      | (?<!\w)b?'(?:\\(?:x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]{1,6}\}|.)|[^\\'\n])'
    """,
    re.VERBOSE | re.DOTALL,
)


def block_comment_end(text: str, start: int) -> int:
    """Index just past the block comment opened before `start`; Rust block comments nest."""
    depth, index = 1, start
    while depth and index < len(text):
        pair = text[index : index + 2]
        if pair == "/*":
            depth, index = depth + 1, index + 2
        elif pair == "*/":
            depth, index = depth - 1, index + 2
        else:
            index += 1
    return index


if TYPE_CHECKING:

    class Span(NamedTuple):
        """A comment (the whole of it), or the inside of a literal (between its quotes)."""

        start: int
        end: int
        comment: bool

else:
    Span = namedtuple("Span", "start end comment")


def _block_end(text: str, start: int) -> int:
    """The index after the `*/` closing the block comment at `start` (they nest in Rust)."""
    depth = 0
    for mark in _BLOCK_MARK.finditer(text, start):
        depth += 1 if mark[0] == "/*" else -1
        if depth == 0:
            return mark.end()
    return len(text)


def _string_end(text: str, index: int) -> int:
    """The index of the quote closing the string opened at `index` (the text's end if none)."""
    body = _STRING_BODY.match(text, index + 1)
    assert body is not None  # it matches an empty string too
    end = body.end()
    return end if end < len(text) and text[end] == '"' else len(text)


def spans(text: str) -> Iterator[Span]:
    """Each comment and each literal's inside in `text`, in order; an unclosed one runs to the
    end, as rustc reads it."""
    index = 0
    while (opening := _OPEN.search(text, index)) is not None:
        index = opening.start()
        char = text[index]
        if text.startswith("//", index):
            end = text.find("\n", index)
            end = len(text) if end < 0 else end
            yield Span(index, end, True)
        elif text.startswith("/*", index):
            end = _block_end(text, index)
            yield Span(index, end, True)
        elif char == '"':
            close = _string_end(text, index)
            yield Span(index + 1, close, False)
            end = close + 1
        elif char == "'":
            literal = _CHAR.match(text, index)
            end = index + 1 if literal is None else literal.end()
            if literal is not None:
                yield Span(index + 1, end - 1, False)
        else:
            raw = _RAW.match(text, index)
            assert raw is not None  # _OPEN matched it here
            close = text.find('"' + raw["hashes"], raw.end())
            close = len(text) if close < 0 else close
            yield Span(raw.end(), close, False)
            end = close + 1 + len(raw["hashes"])
        index = end


def without_comments(text: str) -> str:
    """`text` with each comment replaced by a space and the line breaks it spanned."""
    out, start = [], 0
    for span in spans(text):
        if span.comment:
            out += [text[start : span.start], " ", "\n" * text.count("\n", span.start, span.end)]
            start = span.end
    return "".join([*out, text[start:]])


def blanked_text(text: str, found: Iterable[Span] | None = None) -> str:
    """`text` with its comments and the insides of its string and char literals made spaces (the
    same length); `found`, when given, is `spans(text)` read already."""
    out, start = [], 0
    for span in spans(text) if found is None else found:
        out += [text[start : span.start], " " * (span.end - span.start)]
        start = span.end
    return "".join([*out, text[start:]])


def blanked(data: bytes) -> bytes:
    """blanked_text of bytes read as Latin-1, so every byte offset stays where it was."""
    return blanked_text(data.decode("latin-1")).encode("latin-1")
