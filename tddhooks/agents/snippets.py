"""A snippet answer merged into its file item by item (docs/agents.md, "Snippets").

The protocol asks for whole files (`upsert`), but a small model often sends only the function it
changed, as `"action": "insert"` (or `add`, `replace`, …): measured, 14 of Qwen2.5-Coder 1.5B's
46 implementor attempts on the bowling kata. When such a snippet is made of whole top-level items
(Rust `fn`, `struct`, `impl`, `use`, …; Python `def`, `class`, imports, `NAME = …`) and its file
exists, each item replaces the file's item of the same name, or is added (a `use`/import after
the file's last one, anything else before a Rust file's `#[cfg(test)]` module or at the end). The
result is an ordinary whole-file upsert: the sandbox, the item rules and the gate judge it as any
other. A snippet of loose statements is not merged: the answer stays invalid and says why.
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Callable, Sequence

# the actions a small model sends instead of upsert; `delete` and `upsert` are the protocol's
SNIPPET_ACTIONS = frozenset(
    {"insert", "add", "append", "replace", "update", "modify", "edit", "patch", "merge"}
)
Item = tuple[int, int, str]  # start offset, end offset, key (kind and name)

_RUST_ITEM = re.compile(
    r"^(?:pub(?:\s*\([^)]*\))?\s+)?(?:(?:default|const|async|unsafe|extern(?:\s+\"[^\"]*\")?)\s+)*"
    r"(?P<kind>fn|struct|enum|union|trait|type|const|static|mod|crate|macro_rules\s*!)\s*"
    r"(?:r#)?(?P<name>[^\W\d]\w*)"
)
_RUST_IMPL = re.compile(r"^(?:unsafe\s+)?impl\b\s*(?P<rest>.*)$", re.DOTALL)
_RUST_USE = re.compile(r"^(?:pub(?:\s*\([^)]*\))?\s+)?use\b")
_RUST_ATTR = re.compile(r"#!?\s*\[")
# a line that starts an item, or an attribute (in a dedented snippet, at its first column)
_RUST_ITEM_LINE = re.compile(
    r"^(?:#|(?:pub\b.*|(?:(?:const|async|unsafe|extern)\s+)*)"
    r"(?:fn|struct|enum|union|trait|type|const|static|mod|use|impl|extern|macro_rules)\b)"
)
# how a snippet of statements begins: sent as a whole-file upsert, it still means "insert this"
_RUST_STATEMENT = re.compile(r"^(?:if|let|for|while|match|return|loop)\b")
_OPEN = {"{": "}", "(": ")", "[": "]"}


def merge_snippet(path: str, before: str, snippet: str) -> str | None:
    """`before` with the snippet's items put in by name; None when the snippet is not made of
    whole items of the file's language, or cannot be read."""
    snippet = textwrap.dedent(snippet.replace("\r\n", "\n")).strip("\n")
    if not snippet.strip():
        return None
    if path.endswith(".rs"):
        return _merge(before, snippet, _rust_items) or _rust_statements(before, snippet)
    if path.endswith(".py"):
        return _merge(before, snippet, _python_items)
    return None


def _merge(before: str, snippet: str, read: Callable[[str, bool], list[Item] | None]) -> str | None:
    old, new = read(before, False), read(snippet, True)
    if old is None or not new or len({key for _s, _e, key in new}) < len(new):
        return None  # not items, or two of the snippet's items would take one place: no guess
    index = {key: (start, end) for start, end, key in reversed(old)}
    uses = [end for _start, end, key in old if key.startswith("use ")]
    tests = [start for start, _end, key in old if key == "#cfg(test)"]
    # (where, how much of `before` it replaces, the text), applied from the end
    changes: list[tuple[int, int, str]] = []
    for start, end, key in new:
        text = snippet[start:end]
        if key in index:
            where, stop = index[key]
            changes.append((where, stop, text))
        elif key.startswith("use "):
            at = uses[-1] if uses else 0
            changes.append((at, at, ("\n" if at else "") + text + ("" if at else "\n")))
        elif tests:
            changes.append((tests[0], tests[0], text + "\n\n"))
        else:
            changes.append((len(before.rstrip("\n")), len(before.rstrip("\n")), "\n\n" + text))
    merged = before
    for where, stop, text in sorted(changes, key=lambda change: change[0], reverse=True):
        merged = merged[:where] + text + merged[stop:]
    return merged.rstrip("\n") + "\n"


def _rust_statements(before: str, snippet: str) -> str | None:
    """`before` with a snippet of statements put at the start of a function's body: the file's
    only function, or the only one whose parameters the snippet names. Measured: the 1.5B
    implementor's snippets on the String Calculator were guard clauses for the top of `add`
    (`if text.contains('\\n') { … return sum; }`). None when the snippet is not balanced, when
    `before` cannot be read, or when no single function is meant."""
    from tddhooks.runners.rust_items import blank

    code = blank(snippet)
    if _rust_items(snippet, True) is not None or not _balanced_all(code):
        return None
    if any(_RUST_ITEM_LINE.match(line) for line in code.splitlines()):
        return None  # items among the statements (a whole file with a macro call): no guess
    old = _rust_items(before, False)
    if old is None:
        return None
    named = set(re.findall(r"[A-Za-z_]\w*", code))
    functions = [(start, end) for start, end, key in old if key.startswith("fn ")]
    if len(functions) > 1:
        blanked = blank(before)
        functions = [span for span in functions if _parameters(blanked[span[0] : span[1]]) & named]
    if len(functions) != 1:
        return None
    start, end = functions[0]
    body = _body_start(blank(before), start, end)
    if body is None:
        return None
    inserted = "\n" + textwrap.indent(snippet, "    ") + "\n"
    return before[:body] + inserted + before[body:]


def statements_only(path: str, content: str) -> bool:
    """Whether a whole-file upsert of `path` holds only Rust statements (it begins with `if`,
    `let`, `for`, …): never a valid file, and what a snippet of statements means (measured: the
    1.5B implementor sent `if text.chars().last()… {` as the whole of `src/lib.rs`)."""
    if not path.endswith(".rs"):
        return False
    from tddhooks.runners.rust_items import blank

    lines = [line for line in blank(textwrap.dedent(content)).splitlines() if line.strip()]
    return bool(lines) and bool(_RUST_STATEMENT.match(lines[0]))


def _balanced_all(code: str) -> bool:
    stack: list[str] = []
    for char in code:
        if char in _OPEN:
            stack.append(_OPEN[char])
        elif char in ")]}" and (not stack or stack.pop() != char):
            return False
    return not stack


def _parameters(header: str) -> set[str]:
    """The parameter names of a function's text (`text` of `fn add(text: &str)`)."""
    opening = header.find("(")
    close = _balanced(header, opening) if opening >= 0 else None
    if close is None:
        return set()
    return set(re.findall(r"(?:^|[(,])\s*(?:mut\s+)?([A-Za-z_]\w*)\s*:", header[opening:close]))


def _body_start(code: str, start: int, end: int) -> int | None:
    """The offset just past the `{` that opens the body of the function at code[start:end]."""
    offset = code.find("(", start, end)
    close = _balanced(code, offset) if offset >= 0 else None
    if close is None:
        return None
    brace = code.find("{", close, end)
    return brace + 1 if brace >= 0 else None


def _rust_items(text: str, snippet: bool) -> list[Item] | None:
    """The top-level items of a Rust text with their attributes (a snippet's with the comment
    lines just above them: its doc comments come along, the file's stay), or None when it cannot
    be read (an unbalanced brace) or, for a snippet, when something in it is not an item."""
    from tddhooks.runners.rust_items import blank

    code = blank(text)
    items: list[Item] = []
    position, size = 0, len(code)
    while True:
        while position < size and code[position].isspace():
            position += 1
        if position >= size:
            return items
        start = _leading_comments(text, code, position) if snippet else position
        attrs: list[str] = []
        while _RUST_ATTR.match(code, position):
            close = _balanced(code, code.index("[", position))
            if close is None:
                return None
            attrs.append(" ".join(code[position:close].split()))
            position = close
            while position < size and code[position].isspace():
                position += 1
        end = _item_end(code, position)
        if end is None:
            return None
        key = _rust_key(code[position:end], attrs)
        if key is None and snippet:  # a snippet is whole items or nothing
            return None
        key = key or f"#other {position}"  # the file's own macro call and the like stays as is
        items.append((start, end, key))
        position = end


def _leading_comments(text: str, code: str, position: int) -> int:
    """Where an item's doc comments begin: the comment lines just above it (blanked in code)."""
    line_start = code.rfind("\n", 0, position) + 1
    start = line_start
    while start > 0:
        previous = code.rfind("\n", 0, start - 1) + 1
        line = text[previous : start - 1]
        if code[previous : start - 1].strip() or not line.strip():
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


def _item_end(code: str, position: int) -> int | None:
    """The end of the item starting at `position`: its body's closing brace or its `;`."""
    offset = position
    while offset < len(code):
        char = code[offset]
        if char == ";":
            return offset + 1
        if char == "{":
            close = _balanced(code, offset)
            if close is None:
                return None
            return close + 1 if code.startswith(";", close) else close
        if char in "([":
            close = _balanced(code, offset)
            if close is None:
                return None
            offset = close
            continue
        if char in ")]}":
            return None
        offset += 1
    return None


def _rust_key(header: str, attrs: Sequence[str]) -> str | None:
    header = " ".join(header.split())
    if any(re.fullmatch(r"#\s*\[\s*cfg\s*\(\s*test\s*\)\s*\]", attr) for attr in attrs):
        return "#cfg(test)"
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
    except (SyntaxError, ValueError):
        return None
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    items: list[Item] = []
    for node in tree.body:
        key = _python_key(node)
        if node.end_lineno is None or (key is None and snippet):
            return None  # a snippet is whole items or nothing
        key = key or f"#other {node.lineno}"  # the file's docstring, `if __name__ …` and such
        first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))])
        items.append((starts[first - 1], starts[node.end_lineno], key))
    return [(start, end - (1 if text[end - 1 : end] == "\n" else 0), key)
            for start, end, key in items]  # fmt: skip


def _python_key(node: ast.stmt) -> str | None:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return f"def {node.name}"
    if isinstance(node, ast.Import | ast.ImportFrom):
        return "use " + ast.unparse(node)
    targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
    if isinstance(node, ast.Assign | ast.AnnAssign) and len(targets) == 1:
        target = targets[0]
        if isinstance(target, ast.Name):
            return f"= {target.id}"
    return None
