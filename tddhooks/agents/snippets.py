"""A snippet answer merged into its file item by item (check `snippet-merge`, small-model,
docs/checks.md; docs/answers.md, "Rules of an answer").

The protocol asks for whole files (`upsert`); an answer may send only the items it changed, as
`"action": "insert"` (or `add`, `replace`, …). When such a snippet is made of whole top-level
items (Rust `fn`, `struct`, `impl`, `use`, …; Python `def`, `class`, imports, `NAME = …`; read by
agents/snippet_items.py) and its file exists, each item replaces the file's item of the same
name, or is added (a `use`/import after the file's last one, anything else before a Rust file's
`#[cfg(test)]` module or at the end). A block (Rust `impl`, `trait`, `mod`; Python `class`)
found in both is merged member by member the same way. The result is an ordinary whole-file
upsert: the sandbox, the item rules and the gate judge it as any other. A snippet of loose
statements, or one whose item names more than one of the file's, is not merged: the answer
stays invalid and says why."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Sequence

from tddhooks.agents.snippet_items import (
    Item,
    balanced_all,
    fn_body,
    line_start,
    python_items,
    rust_items,
    rust_tokens,
)

# the actions an answer may send instead of upsert; `delete` and `upsert` are the protocol's
SNIPPET_ACTIONS = frozenset(
    {"insert", "add", "append", "replace", "update", "modify", "edit", "patch", "merge"}
)
MAX_SNIPPET = 200_000  # characters: the protocol's file limit; a longer snippet is not read
Change = tuple[int, int, str]  # where, up to where it replaces, the text
# a line that starts an item, or an attribute (in a dedented snippet, at its first column)
_RUST_ITEM_LINE = re.compile(
    r"^(?:#|(?:pub\b.*|(?:(?:const|async|unsafe|extern)\s+)*)"
    r"(?:fn|struct|enum|union|trait|type|const|static|mod|use|impl|extern|macro_rules)\b)"
)
# how a snippet of statements begins: sent as a whole-file upsert, it still means "insert this"
_RUST_STATEMENT = re.compile(r"^(?:if|let|for|while|match|return|loop)\b")


def merge_snippet(path: str, before: str, snippet: str) -> str | None:
    """`before` with the snippet's items put in by name; None when the snippet is not made of
    whole items of the file's language, or cannot be read."""
    snippet = textwrap.dedent(snippet.replace("\r\n", "\n")).strip("\n")
    if not snippet.strip() or len(snippet) > MAX_SNIPPET:
        return None
    if path.endswith(".rs") and not _closed(snippet):
        return None
    if path.endswith(".rs"):
        return _merge(before, snippet, rust_items, python=False) or _rust_statements(
            before, snippet
        )
    if path.endswith(".py"):
        return _merge(before, snippet, python_items, python=True)
    return None


def _closed(snippet: str) -> bool:
    """Every string, char and comment the Rust snippet opens is closed: an open one would run on
    into the file's code after it (its tests, read as the string's text)."""
    from tddhooks.runners.rust_items import blank

    code = blank(snippet + "\n;")  # a closed literal is blanked whole, quotes included
    return code.endswith(";") and '"' not in code


def _rust_statements(before: str, snippet: str) -> str | None:
    """`before` with a snippet of statements put at the start of a function's body: the file's
    only function, or the only one whose parameters the snippet names (a guard clause for the top
    of the function). None when the snippet is not balanced, when
    `before` cannot be read, or when no single function is meant."""
    from tddhooks.runners.rust_items import blank

    code = blank(snippet)
    if rust_items(snippet, True) is not None or not balanced_all(code):
        return None
    if any(_RUST_ITEM_LINE.match(line) for line in code.splitlines()):
        return None  # items among the statements (a whole file with a macro call): no guess
    old = rust_items(before, False)
    if old is None:
        return None
    named = set(re.findall(r"[A-Za-z_]\w*", code))
    blanked = blank(before)
    functions = [
        fn_body(blanked, item.start, item.end) for item in old if item.key.startswith("fn ")
    ]
    if len(functions) > 1:
        functions = [found for found in functions if found is not None and found[1] & named]
    if len(functions) != 1 or functions[0] is None:
        return None
    body = functions[0][0]
    inserted = "\n" + textwrap.indent(snippet, "    ") + "\n"
    return before[:body] + inserted + before[body:]


def statements_only(path: str, content: str) -> bool:
    """Whether a whole-file upsert of `path` holds only Rust statements (it begins with `if`,
    `let`, `for`, …): never a valid file, and what a snippet of statements means."""
    if not path.endswith(".rs"):
        return False
    from tddhooks.runners.rust_items import blank

    lines = [line for line in blank(textwrap.dedent(content)).splitlines() if line.strip()]
    return bool(lines) and bool(_RUST_STATEMENT.match(lines[0]))


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
    tests = [line_start(before, item.lead) for item in old if item.key.startswith(last)]
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
            at = line_start(before, head.lead)
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
        return [(line_start(before, old.lead), old.end, text)]
    return [(old.start, old.end, _shifted(snippet, new, before, old, python))]


def _inline(text: str, item: Item) -> bool:
    return not text[item.start : item.end].rstrip().endswith(";")


def _same(before: str, old: Item, snippet: str, new: Item, python: bool) -> bool:
    """The snippet's item is the file's but for blanks between tokens (Rust; a string's own
    blanks count) or but for the indentation of the whole item (Python, where it is the code);
    comments count when the snippet has some."""
    has = new.lead < new.start
    ours = before[line_start(before, old.lead if has else old.start) : old.end]
    theirs = snippet[line_start(snippet, new.lead if has else new.start) : new.end]
    if not python:
        return rust_tokens(ours) == rust_tokens(theirs)
    return textwrap.dedent(ours) == textwrap.dedent(theirs)


def _text(snippet: str, item: Item, indent: str | None) -> str:
    """The snippet's item with its comments, from the start of its line; re-indented to
    `indent` (Python, where the indentation is the code) unless that is None."""
    text = snippet[line_start(snippet, item.lead) : item.end]
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


def _indent(text: str, offset: int) -> str:
    start = line_start(text, offset)
    return text[start:offset] if start < offset else ""
