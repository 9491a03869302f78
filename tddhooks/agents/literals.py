"""A character literal the JSON string turned into a raw control character, written back as its
escape (docs/agents.md, "Rules of an answer").

Code travels inside a JSON string, so Rust's `'\\n'` must be sent as `'\\\\n'`. A small model sends
`'\\n'`, which JSON reads as a real line end: the file then holds a quote, a line end and a quote,
which rustc refuses ("character constant must be escaped: `\\n`"). Measured: Qwen2.5-Coder 1.5B on
the String Calculator's newline requirement, 2 of 5 attempts of a turn. In Rust such a literal
is never valid, so it is written back as `'\\n'` (`'\\t'`, `'\\r'`), unless the file already had
the same three characters (then they are the person's, inside a string or a comment). Python code
is repaired only when it does not parse as sent and does after the repair.
"""

from __future__ import annotations

import ast
import re

_RAW_CHAR = re.compile("'([\\n\\t\\r])'")
_ESCAPES = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def escape_raw_char_literals(path: str, content: str, before: str | None) -> str:
    """`content` with each raw control character between two single quotes written as its escape,
    for a Rust or Python file (see the module's docstring); any other content as it is."""
    if not may_need_escaping(path, content):
        return content
    if before is not None and _RAW_CHAR.search(before):
        return content
    repaired = _RAW_CHAR.sub(lambda match: "'" + _ESCAPES[match.group(1)] + "'", content)
    if path.endswith(".py") and (_parses(content) or not _parses(repaired)):
        return content
    return repaired


def may_need_escaping(path: str, content: str) -> bool:
    """Whether `content` holds a raw control character between single quotes in a Rust or Python
    file: only then is the file's earlier text worth reading."""
    return path.endswith((".rs", ".py")) and _RAW_CHAR.search(content) is not None


def _parses(code: str) -> bool:
    try:
        ast.parse(code)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False  # MemoryError: ast's answer to 100 kB of `-----1`
    return True
