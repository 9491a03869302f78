"""The items of a Rust or Python text, for a snippet merged into its file (agents/snippets.py):
where each begins and ends, its key (kind and name: `fn score`, `impl Game`, `def add`, `use …`),
the comment lines just above it, and a block's members (Rust `impl`, `trait`, `mod`; Python
`class`). Rust is read over its text with comments and literals blanked (runners/rust_items.py),
Python with ast; neither is a full parser, and what they cannot read is None, never a guess.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from dataclasses import dataclass

_DEPTH = 4  # blocks nested deeper than this are replaced whole, not merged member by member


@dataclass(frozen=True)
class Item:
    """One item of a text: where it starts (its attributes or decorators) and ends, its key
    (kind and name), where the comment lines just above it begin, and for a block (impl, trait,
    mod, class) its members and where they are (`body`: after the opening, the insertion point)."""

    start: int
    end: int
    key: str
    lead: int
    members: tuple[Item, ...] | None = None
    body: tuple[int, int] = (0, 0)


_RUST_ITEM = re.compile(
    r"^(?:pub(?:\s*\([^)]*\))?\s+)?(?:(?:default|const|async|unsafe|extern(?:\s+\"[^\"]*\")?)\s+)*"
    r"(?P<kind>fn|struct|enum|union|trait|type|const|static|mod|crate|macro_rules\s*!)\s*"
    r"(?:r#)?(?P<name>[^\W\d]\w*)"
)
_RUST_IMPL = re.compile(r"^(?:unsafe\s+)?impl\b\s*(?P<rest>.*)$", re.DOTALL)
_RUST_USE = re.compile(r"^(?:pub(?:\s*\([^)]*\))?\s+)?use\b")
_RUST_ATTR = re.compile(r"#!?\s*\[")
_RUST_BLOCKS = ("impl ", "trait ", "mod ", "#cfg(test) mod ")
_OPEN = {"{": "}", "(": ")", "[": "]"}
_INDENT = re.compile(r"[ \t]*")
_DOC = re.compile(r"///(?!/)")
_FN_NAME = re.compile(r"\bfn\s+(?:r#)?[^\W\d]\w*\s*")


def line_start(text: str, offset: int) -> int:
    """The start of `offset`'s line when only blanks come before it there, else `offset`."""
    start = text.rfind("\n", 0, offset) + 1
    return start if not text[start:offset].strip() else offset


def rust_items(text: str, snippet: bool) -> list[Item] | None:
    from tddhooks.runners.rust_items import blank

    return _rust_scope(text, blank(text), 0, len(text), snippet, 0)


def _rust_scope(
    text: str, code: str, position: int, size: int, snippet: bool, depth: int
) -> list[Item] | None:
    """The items of a Rust text between `position` and `size` with their attributes and the
    comment lines just above them (None when it cannot be read: an unbalanced brace; or, for a
    snippet, when something in it is not an item), a block's members read `_DEPTH` deep."""
    items: list[Item] = []
    while True:
        while position < size and code[position].isspace():
            position += 1
        if position >= size:
            return items
        start, lead = position, _leading_comments(text, code, position, docs=not snippet)
        if code.startswith("#!", position) and _RUST_ATTR.match(code, position):
            close = balanced(code, code.index("[", position))
            if close is None or snippet:  # an inner attribute belongs to no item
                return None
            items.append(Item(start, close, f"#inner {position}", lead))
            position = close
            continue
        attrs: list[str] = []
        while _RUST_ATTR.match(code, position) and not code.startswith("#!", position):
            close = balanced(code, code.index("[", position))
            if close is None:
                return None
            attrs.append(" ".join(code[position + 1 : close].split()).strip("[] "))
            position = close
            while position < size and code[position].isspace():
                position += 1
        found = _item_end(code, position, size)
        if found is None:
            return None
        end, brace = found
        key = _rust_key(code[position:end], attrs)
        if key is None and snippet:  # a snippet is whole items or nothing
            return None
        key = key or f"#other {position}"  # the file's own macro call and the like stays as is
        members, body = None, (0, 0)
        if brace is not None and key.startswith(_RUST_BLOCKS) and depth < _DEPTH:
            inside = balanced(code, brace)
            assert inside is not None  # _item_end found it
            last = inside - 1
            while last > brace + 1 and code[last - 1].isspace():
                last -= 1
            body = (brace + 1, last)
            read = _rust_scope(text, code, brace + 1, inside - 1, snippet, depth + 1)
            if read is None:
                return None
            members = tuple(read)
        items.append(Item(start, end, key, lead, members, body))
        position = end


def _leading_comments(text: str, code: str, position: int, docs: bool) -> int:
    """Where an item's comments begin: the comment lines just above it (blanked in code); with
    `docs`, its `///` lines only (a file's licence or note above them is no part of the item).
    An item that does not begin its line has none (those above belong to what begins it)."""
    line_start = code.rfind("\n", 0, position) + 1
    if code[line_start:position].strip():
        return position
    start = line_start
    while start > 0:
        previous = code.rfind("\n", 0, start - 1) + 1
        line = text[previous : start - 1].strip()
        if code[previous : start - 1].strip() or not line or (docs and not _DOC.match(line)):
            break
        start = previous
    return start if start < line_start else position


def balanced(code: str, opening: int) -> int | None:
    """The offset just past the bracket that closes the one at `opening`."""
    stack: list[str] = []
    for offset in range(opening, len(code)):
        char = code[offset]
        if char in _OPEN:
            stack.append(_OPEN[char])
        elif char in ")]}":
            if not stack or stack.pop() != char:
                return None
            if not stack:
                return offset + 1
    return None


def rust_tokens(text: str) -> list[str]:
    """The text's words between blanks, each string and char literal one word as it is (`" "`
    is not `"  "`), each comment with its blanks squeezed."""
    from tddhooks.runners.rust_lexer import NOISE, block_comment_end

    tokens: list[str] = []
    position = 0
    while match := NOISE.search(text, position):
        tokens += text[position : match.start()].split()
        end = match.end() if match.group(0) != "/*" else block_comment_end(text, match.end())
        noise = text[match.start() : end]
        tokens.append(" ".join(noise.split()) if noise.startswith("/") else noise)
        position = end
    return tokens + text[position:].split()


def balanced_all(code: str) -> bool:
    """Every bracket of `code` closes, in order, and none closes what it did not open."""
    stack: list[str] = []
    for char in code:
        if char in _OPEN:
            stack.append(_OPEN[char])
        elif char in ")]}" and (not stack or stack.pop() != char):
            return False
    return not stack


def fn_body(code: str, start: int, end: int) -> tuple[int, set[str]] | None:
    """For the function at code[start:end] (blanked): the offset just past the `{` that opens
    its body, and its parameter names (`text` of `fn add(text: &str)`). Read after `fn name`
    and its generics, not at the first `(`: that may be an attribute's (`#[allow(x)]`) or a
    bound's (`F: Fn(u32)`)."""
    found = _FN_NAME.search(code, start, end)
    if found is None:
        return None
    offset, depth = found.end(), 0
    while offset < end and (depth or code[offset] != "("):
        char = code[offset]
        depth += (char == "<") - (char == ">" and code[offset - 1] != "-")
        offset += 1
    close = balanced(code, offset) if offset < end else None
    brace = code.find("{", close, end) if close is not None else -1
    if close is None or brace < 0:
        return None
    names = re.findall(r"(?:^|[(,])\s*(?:mut\s+)?([A-Za-z_]\w*)\s*:", code[offset:close])
    return brace + 1, set(names)


def _item_end(code: str, position: int, size: int) -> tuple[int, int | None] | None:
    """The end of the item starting at `position` (its body's closing brace or its `;`) and
    where its body's brace is (None for an item without a body)."""
    offset = position
    while offset < size:
        char = code[offset]
        if char == ";":
            return offset + 1, None
        if char == "{":
            close = balanced(code, offset)
            if close is None or close > size:
                return None
            return (close + 1 if code.startswith(";", close) else close), offset
        if char in "([":
            close = balanced(code, offset)
            if close is None or close > size:
                return None
            offset = close
            continue
        if char in ")]}":
            return None
        offset += 1
    return None


def _rust_key(header: str, attrs: Sequence[str]) -> str | None:
    from tddhooks.runners.rust_items import is_cfg_test

    header = " ".join(header.split())
    key = _rust_name(header)
    if key is not None and any(is_cfg_test(attr) for attr in attrs):
        return "#cfg(test) " + key  # `#[cfg(test)] mod tests` is not `#[cfg(test)] fn helper`
    return key


def _rust_name(header: str) -> str | None:
    if _RUST_USE.match(header):
        return "use " + header.replace(" ", "")
    if match := _RUST_IMPL.match(header):
        return "impl " + match["rest"].split("{")[0].replace(" ", "")
    if match := _RUST_ITEM.match(header):
        return f"{match['kind'].replace(' ', '')} {match['name']}"
    return None


def python_items(text: str, snippet: bool) -> list[Item] | None:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None  # MemoryError: ast's answer to 100 kB of `-----1`
    # the line starts as ast counts lines (str.splitlines also splits at \f, \x85, \u2028 …)
    starts = [0, *(match.end() for match in re.finditer(r"\r\n|\r|\n", text))]
    return _python_scope(text, tree.body, starts, snippet)


def _python_scope(
    text: str, nodes: Sequence[ast.stmt], starts: Sequence[int], snippet: bool
) -> list[Item] | None:
    items: list[Item] = []
    last = 0
    for node in nodes:
        key = _python_key(node)
        first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))])
        if node.end_lineno is None or (key is None and snippet) or first <= last:
            return None  # a snippet is whole items or nothing; `a = 1; b = 2` is one line
        last = node.end_lineno
        if key is None and _is_main(node):
            key = f"#main {node.lineno}"
        key = key or f"#other {node.lineno}"  # a loop, a call, `try:` and such stay as they are
        start = _INDENT.match(text, starts[first - 1]).end()  # type: ignore[union-attr]
        end = starts[node.end_lineno] if node.end_lineno < len(starts) else len(text)
        end -= 2 if text.endswith("\r\n", 0, end) else int(text.endswith(("\n", "\r"), 0, end))
        members, body = None, (0, 0)
        if isinstance(node, ast.ClassDef) and node.body and node.body[0].lineno > node.lineno:
            read = _python_scope(text, node.body, starts, snippet)
            if read is None:
                return None
            members = tuple(read)
            body = (line_start(text, read[0].start) if read else end, end)
        items.append(Item(start, end, key, start, members, body))
    return items


def _is_main(node: ast.stmt) -> bool:
    return isinstance(node, ast.If) and ast.unparse(node.test) == "__name__ == '__main__'"


def _python_key(node: ast.stmt) -> str | None:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return f"def {node.name}"
    if isinstance(node, ast.Import | ast.ImportFrom):
        return "use " + ast.unparse(node)
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
        return "#doc" if isinstance(node.value.value, str) else None
    targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
    if isinstance(node, ast.Assign | ast.AnnAssign) and len(targets) == 1:
        target = targets[0]
        if isinstance(target, ast.Name):
            return f"= {target.id}"
    return None
