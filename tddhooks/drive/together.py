"""A refactor that spreads the kata's messages over more functions (docs/agents.md, "A refactor
that changes what the kata says").

Measured (r53, Password Validation at ff1bcfc): cycles 1–4 landed one `if … { errors.push(…) }`
per rule in `validate`. The cycle-4 refactorer then moved the uppercase rule into a helper
`fn validate_rules(password: &str, errors: &mut Vec<String>)`, and cycles 5 and 6 failed: the
1.5B implementor's whole-file edits lost the helper or wrote it twice in all ten attempts.

Read only for a kata whose results are lists of messages in a set order (an example it gives
whole as two or more strings: "abc" gives the length, digit, uppercase and special-character
messages, in the order of the rules): there, one function with one check per rule is what the
kata asks for, and the order stays visible. A refactor that leaves the kata's messages in as many
functions as before (or fewer) is not read, nor any other kata's.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TypeVar

from tddhooks.agents.examples import Example
from tddhooks.runners.rust_lexer import blanked_text, spans

_RUST_FN = re.compile(r"\bfn\s+(?P<name>\w+)")
_BRACE = re.compile(r"[{}]")
_HEADER_MARK = re.compile(r"[()\[\]{;]")
_PY_DEF = re.compile(r"^(?P<indent>[ \t]*)(?:async\s+)?def\s+(?P<name>\w+)", re.MULTILINE)
MODULE = "(the module)"
Place = tuple[int, int]  # a line (from 1) and a column
P = TypeVar("P", int, Place)


def ordered_messages(examples: Iterable[Example]) -> frozenset[str]:
    """The strings the kata gives as whole lists of messages, when one of its examples lists two
    or more in a set order; empty for any other kata."""
    lists = [said for said in (example.messages for example in examples) if said is not None]
    if not any(len(said) >= 2 for said in lists):
        return frozenset()
    return frozenset(message for said in lists for message in said)


def _body(blank: str, start: int) -> int | None:
    """The index of the `{` opening the body of the item whose header starts at `start`; None
    for a declaration without one (a trait's `fn check(&self) -> bool;`). A `;` inside brackets
    (`-> [&str; 4]`) ends no header."""
    depth = 0
    for mark in _HEADER_MARK.finditer(blank, start):
        char = mark[0]
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif depth <= 0:
            return mark.start() if char == "{" else None
    return None


def _rust_holders(text: str, messages: frozenset[str]) -> dict[str, list[str]]:
    found = list(spans(text))
    blank = blanked_text(text, found)
    closing, open_at = {}, []  # each `{` by index -> the index of its `}` (the end if none)
    for mark in _BRACE.finditer(blank):
        if mark[0] == "{":
            open_at.append(mark.start())
        elif open_at:
            closing[open_at.pop()] = mark.start()
    ranges: list[tuple[int, int, str]] = []  # each fn with a body, by where it starts
    for item in _RUST_FN.finditer(blank):
        brace = _body(blank, item.end())
        if brace is not None:
            ranges.append((item.start(), closing.get(brace, len(blank)), item["name"]))
    said = [(span.start, text[span.start : span.end]) for span in found if not span.comment]
    return _held(ranges, [(start, content) for start, content in said if content in messages])


def _held(
    ranges: Sequence[tuple[P, P, str]], said: Iterable[tuple[P, str]]
) -> dict[str, list[str]]:
    """The messages `said` (where each starts, in order) by the innermost of the function
    bodies `ranges` (start, end and name, by start) they are in; `MODULE` for none."""
    holders: dict[str, list[str]] = {}
    inside: list[tuple[P, P, str]] = []  # the bodies around the message, the innermost last
    following = iter(ranges)
    upcoming = next(following, None)
    for start, content in said:
        # the bodies nest (their braces pair up), so the bodies around a message are a stack
        while upcoming is not None and upcoming[0] <= start:
            inside.append(upcoming)
            upcoming = next(following, None)
            while len(inside) > 1 and inside[-2][1] < inside[-1][0]:
                del inside[-2]
        while inside and inside[-1][1] < start:
            inside.pop()
        holders.setdefault(inside[-1][2] if inside else MODULE, []).append(content)
    return holders


def _python_holders(text: str, messages: frozenset[str]) -> dict[str, list[str]]:
    """Read from the syntax tree: a docstring or a comment that quotes a message holds none, and
    a def's signature over several lines, or a string's line at column 0, ends no body (the
    lines read below took them for the module); a method is its class's (`Rules.check`), so two
    classes' `check` are two functions."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return _python_lines(text, messages)  # not Python: read line by line
    prefix: dict[int, str] = {}  # a class's defs and classes by id -> "Class."
    ranges: list[tuple[Place, Place, str]] = []  # each def's body
    said: list[tuple[Place, str]] = []
    dropped: set[int] = set()  # docstrings, strings said and dropped
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str) and node.value in messages and id(node) not in dropped:
                said.append(((node.lineno, node.col_offset), node.value))
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            dropped.add(id(node.value))
        elif isinstance(node, ast.ClassDef):
            for child in node.body:
                prefix[id(child)] = f"{prefix.get(id(node), '')}{node.name}."
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0]
            end = (node.end_lineno or node.lineno, node.end_col_offset or 0)
            name = prefix.get(id(node), "") + node.name
            ranges.append(((first.lineno, first.col_offset), end, name))
    return _held(sorted(ranges), sorted(said))


def _python_lines(text: str, messages: frozenset[str]) -> dict[str, list[str]]:
    lines = text.splitlines()
    holders: dict[str, list[str]] = {}
    stack: list[tuple[int, str]] = []  # (indent, name) of the defs the line is inside
    for line in lines:
        stripped = line.lstrip()
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(line) - len(stripped)
        while stack and indent <= stack[-1][0]:
            stack.pop()
        definition = _PY_DEF.match(line)
        for quote in ('"', "'"):
            for message in messages:
                if f"{quote}{message}{quote}" in line:
                    holders.setdefault(stack[-1][1] if stack else MODULE, []).append(message)
        if definition is not None:
            stack.append((indent, definition["name"]))
    return holders


def holders(text: str, messages: frozenset[str], language: str) -> dict[str, list[str]]:
    """The functions of a source file that hold one of `messages` as a string literal (a nested
    function by its own name, a Python method by its class's, `Rules.check`; outside any,
    `MODULE`), with what each holds."""
    if language == "python":
        return _python_holders(text, messages)
    return _rust_holders(text, messages)


def spread_messages(
    before: Mapping[str, str],
    after: Mapping[str, str],
    examples: Sequence[Example],
    language: str,
) -> str | None:
    """Why a refactor of the source files `before` (path -> text at HEAD) into `after` (the
    files it wrote) spreads the kata's messages over more functions; None when it does not, or
    when the kata's results are no ordered lists of messages."""
    messages = ordered_messages(examples)
    if not messages:
        return None

    def held(texts: Mapping[str, str]) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for text in texts.values():
            for name, held_here in holders(text, messages, language).items():
                found.setdefault(name, []).extend(held_here)
        return found

    was = held(before)
    now = held({**before, **after})
    if len(now) <= max(len(was), 1):
        return None
    home = max(was, key=lambda name: len(was[name])) if was else None
    new = [name for name in now if name not in was]
    if home is not None and home not in now and len(new) > 1:
        # `validate` renamed as well: its successor is the new place holding the most (the first
        # of equals), and the helper beside it is the spread
        new.remove(max(new, key=lambda name: len(now[name])))
    new = new or list(now)
    moved = now[new[0]][0]
    where = "`" + new[0] + "`" if new[0] != MODULE else "the module, outside any function"
    source = f" out of `{home}`" if home and home != MODULE else ""
    return (
        f'the refactor moves the kata\'s message "{moved}"{source} into {where}: the kata lists '
        "every broken rule in a set order, which stays right when each check and its message "
        "sit in one function, one check after another in the order of the rules. Keep the "
        'checks where they are: make another small change, or send "edits": [] and say why in '
        '"plan"'
    )
