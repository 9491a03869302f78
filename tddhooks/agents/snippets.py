"""A snippet answer merged into its file item by item (docs/agents.md, "Snippets").

The protocol asks for whole files (`upsert`), but a small model often sends only the function it
changed, as `"action": "insert"` (or `add`, `replace`, …): measured, 14 of Qwen2.5-Coder 1.5B's
46 implementor attempts on the bowling kata. When such a snippet is made of whole top-level items
(Rust `fn`, `struct`, `impl`, `use`, …; Python `def`, `class`, imports, `NAME = …`) and its file
exists, each item replaces the file's item of the same name, or is added (a `use`/import after
the file's last one, anything else before a Rust file's `#[cfg(test)]` module or at the end). A
block (Rust `impl`, `trait`, `mod`; Python `class`) found in both is merged member by member the
same way (the file's header, attributes and decorators stay): `impl Game { fn score }` changes
`score` and keeps the other methods. The result is an
ordinary whole-file upsert: the sandbox, the item rules and the gate judge it as any other. A
snippet of loose statements, or one whose item names more than one of the file's (overloads,
`#[cfg(…)]` variants), is not merged: the answer stays invalid and says why.
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass

# the actions a small model sends instead of upsert; `delete` and `upsert` are the protocol's
SNIPPET_ACTIONS = frozenset(
    {"insert", "add", "append", "replace", "update", "modify", "edit", "patch", "merge"}
)
MAX_SNIPPET = 200_000  # characters: the protocol's file limit; a longer snippet is not read
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


Change = tuple[int, int, str]  # where, up to where it replaces, the text
_RUST_ITEM = re.compile(
    r"^(?:pub(?:\s*\([^)]*\))?\s+)?(?:(?:default|const|async|unsafe|extern(?:\s+\"[^\"]*\")?)\s+)*"
    r"(?P<kind>fn|struct|enum|union|trait|type|const|static|mod|macro_rules\s*!)\s*"
    r"(?:r#)?(?P<name>[^\W\d]\w*)"
)
_RUST_IMPL = re.compile(r"^(?:unsafe\s+)?impl\b\s*(?P<rest>.*)$", re.DOTALL)
_RUST_USE = re.compile(r"^(?:pub(?:\s*\([^)]*\))?\s+)?use\b")
_RUST_ATTR = re.compile(r"#!?\s*\[")
_RUST_BLOCKS = ("impl ", "trait ", "mod ", "#cfg(test) mod ")
_OPEN = {"{": "}", "(": ")", "[": "]"}
_INDENT = re.compile(r"[ \t]*")
_DOC = re.compile(r"///(?!/)")


def merge_snippet(path: str, before: str, snippet: str) -> str | None:
    """`before` with the snippet's items put in by name; None when the snippet is not made of
    whole items of the file's language, or cannot be read."""
    snippet = textwrap.dedent(snippet.replace("\r\n", "\n")).strip("\n")
    if not snippet.strip() or len(snippet) > MAX_SNIPPET:
        return None
    if path.endswith(".rs"):
        return _merge(before, snippet, _rust_items, python=False)
    if path.endswith(".py"):
        return _merge(before, snippet, _python_items, python=True)
    return None


def _merge(
    before: str, snippet: str, read: Callable[[str, bool], list[Item] | None], *, python: bool
) -> str | None:
    old, new = read(before, False), read(snippet, True)
    if old is None or not new:
        return None
    end = len(before.rstrip("\n"))
    changes = _changes(before, snippet, old, new, (0, end), python=python, top=True)
    if changes is None:
        return None
    # in one pass (not a copy of the file per change); at one place, what is put in before
    # what replaces, and the snippet's order otherwise
    pieces: list[str] = []
    position = 0
    for _number, (where, stop, text) in sorted(
        enumerate(changes), key=lambda pair: (pair[1][0], pair[1][1] > pair[1][0], pair[0])
    ):
        pieces += [before[position:where], text]
        position = max(position, stop)
    return ("".join(pieces) + before[position:]).rstrip("\n") + "\n"


def _changes(
    before: str,
    snippet: str,
    old: Sequence[Item],
    new: Sequence[Item],
    scope: tuple[int, int],
    *,
    python: bool,
    top: bool,
) -> list[Change] | None:
    """The changes that put `new` (the snippet's items of one scope) among `old` (the file's);
    None when two of the snippet's items would take one place, or an item names two of the
    file's (overloads, `#[cfg(…)]` variants): no guess."""
    if len({item.key for item in new}) < len(new):
        return None
    found: dict[str, list[Item]] = {}
    for item in old:
        found.setdefault(item.key, []).append(item)
    uses = [item.end for item in old if item.key.startswith("use ")]
    # with none, a use goes before the first item: after the inner attributes, `//!` lines and
    # the docstring, which must come first
    head = next((item for item in old if not item.key.startswith(("#inner", "#doc"))), None)
    # new items go before the test module (clippy) or Python's `if __name__ == "__main__":`
    last = ("#cfg(test)", "#main")
    tests = [_line_start(before, item.lead) for item in old if item.key.startswith(last)]
    tests = tests if top else []
    indent = _indent(before, old[0].start) if old else ""
    changes: list[Change] = []
    for item in new:
        same = found.get(item.key, [])
        if len(same) > 1:
            return None
        if same:
            replaced = _replace(before, snippet, same[0], item, python=python)
            if replaced is None:
                return None
            changes += replaced
            continue
        text = _text(snippet, item, indent if python else None)
        if item.key.startswith("use ") and uses:
            changes.append((uses[-1], uses[-1], "\n" + text))
        elif item.key.startswith("use ") and head is not None:
            at = _line_start(before, head.lead)
            changes.append((at, at, text + "\n\n"))
        elif tests:
            changes.append((tests[0], tests[0], text.lstrip() + "\n\n"))
        else:
            changes.append((scope[1], scope[1], "\n\n" + text))
    return changes


def _replace(
    before: str, snippet: str, old: Item, new: Item, *, python: bool
) -> list[Change] | None:
    """The file's item `old` replaced by the snippet's `new`: a block member by member (the
    file's header, attributes and decorators stay: a `@dataclass` the snippet left out is kept),
    anything else whole (with the snippet's comments above it, if any, in place of the file's)."""
    if old.members is not None and new.members is not None:
        return _changes(before, snippet, old.members, new.members, old.body,
                        python=python, top=False)  # fmt: skip
    if old.key.startswith(("mod ", "#cfg(test) mod ")) and _inline(before, old) != _inline(
        snippet, new
    ):
        return None  # `mod x;` made `mod x { … }` (or back): x.rs, its tests with it, would go
    if _same(before, old, snippet, new, python):
        return []  # sent back as it was, re-indented at most: the file's text stays
    if new.lead < new.start:
        text = _text(snippet, new, _indent(before, old.start) if python else None)
        return [(_line_start(before, old.lead), old.end, text)]
    return [(old.start, old.end, _shifted(snippet, new, before, old, python))]


def _inline(text: str, item: Item) -> bool:
    return not text[item.start : item.end].rstrip().endswith(";")


def _same(before: str, old: Item, snippet: str, new: Item, python: bool) -> bool:
    """The snippet's item is the file's but for blanks (Python: but for the indentation of the
    whole item, which is the code); comments count when the snippet has some."""
    has = new.lead < new.start
    ours = before[_line_start(before, old.lead if has else old.start) : old.end]
    theirs = snippet[_line_start(snippet, new.lead if has else new.start) : new.end]
    if not python:
        return ours.split() == theirs.split()
    lines = [[line.rstrip() for line in textwrap.dedent(text).split("\n") if line.strip()]
             for text in (ours, theirs)]  # fmt: skip
    return lines[0] == lines[1]


def _text(snippet: str, item: Item, indent: str | None) -> str:
    """The snippet's item with its comments, from the start of its line; re-indented to
    `indent` (Python, where the indentation is the code) unless that is None."""
    text = snippet[_line_start(snippet, item.lead) : item.end]
    if indent is None:
        return text
    own = _indent(snippet, item.start)
    return "\n".join(indent + line[len(own) :] if line.startswith(own) else line
                     for line in text.split("\n"))  # fmt: skip


def _shifted(snippet: str, new: Item, before: str, old: Item, python: bool) -> str:
    """The snippet's item; a Python one's lines after the first moved to the file's indentation."""
    text = snippet[new.start : new.end]
    own, indent = _indent(snippet, new.start), _indent(before, old.start)
    if not python or own == indent:
        return text
    lines = text.split("\n")
    return "\n".join([lines[0], *(indent + line[len(own) :] if line.startswith(own) else line
                                  for line in lines[1:])])  # fmt: skip


def _line_start(text: str, offset: int) -> int:
    """The start of `offset`'s line when only blanks come before it there, else `offset`."""
    start = text.rfind("\n", 0, offset) + 1
    return start if not text[start:offset].strip() else offset


def _indent(text: str, offset: int) -> str:
    start = _line_start(text, offset)
    return text[start:offset] if start < offset else ""


def _rust_items(text: str, snippet: bool) -> list[Item] | None:
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
            close = _balanced(code, code.index("[", position))
            if close is None or snippet:  # an inner attribute belongs to no item
                return None
            items.append(Item(start, close, f"#inner {position}", lead))
            position = close
            continue
        attrs: list[str] = []
        while _RUST_ATTR.match(code, position) and not code.startswith("#!", position):
            close = _balanced(code, code.index("[", position))
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
            inside = _balanced(code, brace)
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


def _balanced(code: str, opening: int) -> int | None:
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


def _item_end(code: str, position: int, size: int) -> tuple[int, int | None] | None:
    """The end of the item starting at `position` (its body's closing brace or its `;`) and
    where its body's brace is (None for an item without a body)."""
    offset = position
    while offset < size:
        char = code[offset]
        if char == ";":
            return offset + 1, None
        if char == "{":
            close = _balanced(code, offset)
            if close is None or close > size:
                return None
            return (close + 1 if code.startswith(";", close) else close), offset
        if char in "([":
            close = _balanced(code, offset)
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


def _python_items(text: str, snippet: bool) -> list[Item] | None:
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
            body = (_line_start(text, read[0].start) if read else end, end)
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
