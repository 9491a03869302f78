"""Find the one JSON object in a model's answer: plain, fenced in Markdown, or wrapped in prose;
with the repairs the caller allows, also one whose code strings broke the JSON."""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from itertools import chain
from typing import Any

from tddhooks.errors import LLMAnswerError

# reasoning models (deepseek-reasoner, qwen3) may think aloud first, braces included
_THINKING = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
# a fence is a whole line; JSON strings cannot hold raw newlines, so such a line is never inside one
_FENCE = re.compile(r"^[ \t]*```[\w+-]*[ \t]*\n(.*?)^[ \t]*```[ \t]*$", re.DOTALL | re.MULTILINE)
_EXCERPT = 160
# what follows a string's real closing quote: a key's colon, the end of its object or array, or a
# comma and the next key or element; any other quote inside a string is the code's own
_CLOSES = re.compile(r'\s*(?:[}:]|,\s*["{\[]|$)')  # a key or a value of an object
_CLOSES_IN_ARRAY = re.compile(r'\s*(?:\]|,\s*["{\[]|$)')

# The answer repairs, named by the ids of the drive's check registry (docs/checks.md); the
# caller passes the ones in effect (llm imports nothing above it).
WRAPPED = "json-wrapped"  # a fence, prose or a <think> block around the object
TRIPLE_QUOTES = "json-triple-quotes"  # Python's """…""" read as a JSON string
CODE_QUOTES = "json-code-quotes"  # the code's own quotes escaped, an unclosed content closed
REPAIRS = frozenset({WRAPPED, TRIPLE_QUOTES, CODE_QUOTES})


def _candidates(text: str) -> list[str]:
    found = [text]
    found.extend(match.group(1) for match in _FENCE.finditer(text))
    first, last = text.find("{"), text.rfind("}")
    if 0 <= first < last:
        found.append(text[first : last + 1])
    return found


def _excerpt(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= _EXCERPT else flat[:_EXCERPT] + "…"


def escape_inner_quotes(text: str) -> str:
    """`text` with each unescaped quote inside a string escaped unless what follows it can only
    end the string (see _CLOSES): in an object a `}`, a `:` or a `,` before the next item, in an
    array a `]` or such a `,` (a plan that quotes `vec!["…"]` does not end at its `"]`). Valid
    JSON comes back unchanged; a guess that still does not parse is dropped by the caller."""
    out: list[str] = []
    inside = False
    containers: list[str] = []  # the open `{` and `[` outside strings
    index = 0
    while index < len(text):
        char = text[index]
        if inside and char == "\\":
            out.append(text[index : index + 2])
            index += 2
            continue
        if char == '"':
            closes = _CLOSES_IN_ARRAY if containers[-1:] == ["["] else _CLOSES
            if not inside:
                inside = True
            elif closes.match(text, index + 1):
                inside = False
            else:
                char = '\\"'
        elif not inside and char in "{[":
            containers.append(char)
        elif not inside and char in "}]" and containers:
            containers.pop()
        out.append(char)
        index += 1
    return "".join(out)


# a file's content is the string most often broken by the code's own quotes; its real end is
# where the edit object ends (`"}]`, `"}, {` for the next edit) or its next key begins
_CONTENT_OPEN = re.compile(r'"content"\s*:\s*"')
_CONTENT_CLOSE = re.compile(
    r'"(?=\s*(?:\}\s*(?:\]|,\s*\{)|,\s*"(?:path|action|content|old|new)"\s*:|(?P<unclosed>\]\s*,)))'
)
# a content string never closed at all: the file's last line, then a line that opens with the
# edits' own `]` followed by `,` or `}` (`}\n],\n"commit": …`); the last such line is its end
_UNTERMINATED = re.compile(r"\n[ \t]*\](?=[ \t]*(?:,|\}|\n|$))")


def escape_content_quotes(text: str) -> str:
    """`text` with every unescaped quote inside each `"content": "…"` string escaped, the string
    ending where its edit object ends (see _CONTENT_CLOSE) rather than at the first quote that
    might end it: code's `""` followed by a line end and `}` does not end the content. A content
    string with no closing quote at all ends before the edits' own `]` (_UNTERMINATED)."""
    out: list[str] = []
    index = 0
    for opening in _CONTENT_OPEN.finditer(text):
        if opening.start() < index:
            continue  # inside a content string already repaired
        closing = _CONTENT_CLOSE.search(text, opening.end())
        if closing is None:
            unterminated = _last(_UNTERMINATED, text, opening.end())
            if unterminated is None:
                break
            out.append(text[index : opening.end()])
            inner = text[opening.end() : unterminated]
            own = _own_brace(inner)
            if own is None:
                out.append(_escaped(inner) + '"}')
            else:  # the edit object's `}` was written, only the quote before it left out
                out.append(_escaped(inner[:own]) + '"' + inner[own:])
            index = unterminated
            continue
        out.append(text[index : opening.end()])
        out.append(_escaped(text[opening.end() : closing.start()]))
        if closing.group("unclosed"):  # `…"\n  ],`: the edit object's own `}` left out
            out.append('"}')
            index = closing.start() + 1
        else:
            index = closing.start()
    out.append(text[index:])
    return "".join(out)


def _escaped(inner: str) -> str:
    """`inner` with every quote not already escaped escaped."""
    out: list[str] = []
    at = 0
    while at < len(inner):
        if inner[at] == "\\":
            out.append(inner[at : at + 2])
            at += 2
            continue
        out.append('\\"' if inner[at] == '"' else inner[at])
        at += 1
    return "".join(out)


def _own_brace(inner: str) -> int | None:
    """Where the line end before a last line of a lone `}` is, when that brace is one too many
    for the code before it (comments and literals not counted): the edit object's own `}`, not
    the code's; None otherwise."""
    from tddhooks.runners.rust_lexer import blanked_text

    line = inner.rfind("\n")
    if line < 0 or inner[line:].strip() != "}":
        return None
    code = blanked_text(inner[:line])
    return line if code.count("}") == code.count("{") else None


def _last(pattern: re.Pattern[str], text: str, start: int) -> int | None:
    """Where the last match of `pattern` in `text` after `start` begins, None without one."""
    starts = [match.start() for match in pattern.finditer(text, start)]
    return starts[-1] if starts else None


_TRIPLE = re.compile(r'"""(.*?)"""', re.DOTALL)


def triple_quoted(text: str) -> str:
    """`text` with each Python-style `\"\"\"…\"\"\"` string written as a JSON string: its
    lines dedented (the model indents them with the JSON around them), the first and last blank
    line dropped. Text without one comes back unchanged."""
    import textwrap

    def as_json(match: re.Match[str]) -> str:
        code = textwrap.dedent(match.group(1)).strip("\n")
        return json.dumps(code + "\n" if code.strip() else "")

    return _TRIPLE.sub(as_json, text)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """The object of `pairs`; a ValueError when a key is in it twice."""
    value = dict(pairs)
    if len(value) < len(pairs):
        raise ValueError("a key twice in one object")
    return value


def extract_json_object(text: str, repairs: Collection[str] = REPAIRS) -> dict[str, Any]:
    """The JSON object in `text`; raises LLMAnswerError saying what is wrong with the answer.
    `repairs`: the ids above in effect; without `WRAPPED` only the answer as a whole is read."""
    cleaned = text.strip().lstrip("\ufeff")
    if WRAPPED in repairs:
        cleaned = _THINKING.sub("", cleaned).strip()
    if not cleaned:
        raise LLMAnswerError(
            "the model's answer is empty",
            fix="ask again; if it keeps happening, try another model",
        )
    not_object: str | None = None
    candidates = _candidates(cleaned) if WRAPPED in repairs else [cleaned]
    # as written first; then with Python's triple quotes read as the file between them (the quote
    # escaping below would read `"""` as an empty string and a quote); last, with the code's own
    # quotes escaped
    repaired = [triple_quoted(candidate) for candidate in candidates
                if TRIPLE_QUOTES in repairs and '"""' in candidate]  # fmt: skip
    escaping = CODE_QUOTES in repairs
    contents = [escape_content_quotes(candidate) for candidate in candidates] if escaping else []
    inner = map(escape_inner_quotes, candidates) if escaping else iter(())
    guesses = chain(repaired, inner, contents, map(escape_inner_quotes, contents))
    # a repair that leaves an object with one key twice read one edit into another (a content
    # string never closed ran into the next edit's `"content"`): refused, never the last key's
    # value kept
    hooks = chain(((c, None) for c in candidates), ((g, _unique_keys) for g in guesses))
    for candidate, hook in hooks:
        try:
            value = json.loads(candidate, strict=False, object_pairs_hook=hook)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
        not_object = f"expected a JSON object, got a JSON {type(value).__name__}"
    start = cleaned.find("{")
    reason = not_object or "there is no '{' in it"
    if start >= 0 and WRAPPED not in repairs:
        try:
            json.loads(cleaned, strict=False)
        except ValueError as error:
            reason = not_object or f"invalid JSON: {error}"
    elif start >= 0:
        try:
            # the first object, followed by more prose or a second object
            value, _end = json.JSONDecoder().raw_decode(cleaned, start)
        except ValueError as error:
            reason = not_object or f"invalid JSON: {error}"
        else:
            if isinstance(value, dict):
                return value
    raise LLMAnswerError(
        f"the model's answer is not one JSON object ({reason}): {_excerpt(cleaned)!r}",
        fix="answer with exactly one JSON object, optionally in a ```json fence",
    )
