"""A character literal the JSON string turned into a raw control character, written back as its
escape (checks `raw-char-literals` and `double-escaped-file`, small-model, docs/checks.md;
docs/answers.md, "Rules of an answer").

Code travels inside a JSON string, so Rust's `'\\n'` must be sent as `'\\\\n'`. Sent as
`'\\n'`, JSON reads it as a real line end: the file then holds a quote, a line end and a quote,
which rustc refuses ("character constant must be escaped: `\\n`"). In Rust such a literal
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


_JSON_ESCAPE = re.compile(r'\\([nrt"\\])')
_UNESCAPES = {"n": "\n", "r": "\r", "t": "\t", '"': '"', "\\": "\\"}


def unescaped_flat_file(path: str, content: str) -> str:
    """A Rust or Python file sent escaped twice (on one line, with `\\n` where each line end
    should be: the JSON string decoded to `{\\n    if n % 15 == 0 {\\n        \\"FizzBuzz\\"…`),
    decoded once more; any other content as it is. rustc reads such a file as "unknown start of
    token: \\". Rust is
    decoded only when a backslash stands outside every literal and comment (never valid Rust;
    `const S: &str = "a\\nb\\n";` stays), Python only when it does not parse as sent and does
    after."""
    flat = content.rstrip()
    if "\n" in flat or flat.count("\\n") < 2 or not path.endswith((".rs", ".py")):
        return content
    if path.endswith(".rs") and not _backslash_in_code(flat):
        return content
    decoded = _JSON_ESCAPE.sub(lambda match: _UNESCAPES[match[1]], flat)
    if path.endswith(".py") and (_parses(content) or not _parses(decoded)):
        return content
    return decoded + content[len(flat) :]


def _backslash_in_code(code: str) -> bool:
    """A `\\` outside every comment and string or char literal of the Rust `code`."""
    from tddhooks.runners.rust_lexer import blanked_text

    return "\\" in blanked_text(code)
