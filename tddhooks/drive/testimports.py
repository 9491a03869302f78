"""The tester's Rust integration test, repaired where it reaches the kata's crate by a wrong name.

A file under `tests/` is a crate of its own: `crate::` and `super::` there are the test itself,
and the kata's library is reached only by its crate name (`use run_1::execute;`). A small model
writes `use crate::execute;`, `use mars_rover::execute;` (the kata's title, not the crate) or no
import at all (measured: Qwen2.5-Coder 1.5B lost two of six Mars Rover cycles that way before it
followed the hint). Such a test can never compile, whatever the implementor writes, so the drive
rewrites the path to the crate before the test is judged, the way it merges snippets
(docs/agents.md, "The tester's red"). The repaired test is then judged like any other.

Only what cannot be meant otherwise is touched: paths to one of the kata's Interface functions
(or a glob) from `crate`, `super`, or a root that is neither the crate, the standard library, a
dependency of the manifest, nor a module of the test file; and a call of an Interface function
that nothing in the file brings into scope.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Collection
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tddhooks.agents.edits import AgentAnswer

_STD = frozenset({"std", "core", "alloc", "proc_macro", "test"})
_DEPENDENCY_TABLES = ("dependencies", "dev-dependencies", "build-dependencies")
_USE = re.compile(r"^(?P<indent>[ \t]*)(?P<pub>pub\s+)?use\s+(?P<root>\w+)::(?P<rest>[^;]+);", re.M)
# the leading comment and inner-attribute lines of a file, which an added import goes after
_LEADING = re.compile(r"\A(?:(?:[ \t]*\n)*[ \t]*(?://[^\n]*|#!\[[^\n]*\])\n)*")
# what a `use root::…;` imports: a `{group}`, one name (perhaps renamed), or a glob
_IMPORTED = re.compile(r"\{(?P<group>[^}]*)\}|(?P<name>\w+)(?:\s+as\s+\w+)?|\*")


def dependencies(manifest: str) -> set[str]:
    """The crate names a Cargo manifest's dependency tables bring in ('-' read as '_')."""
    try:
        data = tomllib.loads(manifest)
    except tomllib.TOMLDecodeError:
        return set()
    found: set[str] = set()
    for table in _DEPENDENCY_TABLES:
        entries = data.get(table, {})
        found.update(name.replace("-", "_") for name in entries if isinstance(entries, dict))
    return found


def is_integration_test(path: str) -> bool:
    return path.startswith("tests/") and path.endswith(".rs")


def repaired_test(
    content: str, crate: str, functions: Collection[str], known: Collection[str] = ()
) -> str:
    """`content` with every wrong path to the crate's Interface `functions` rewritten to `crate`,
    and a `use crate::name;` added for each one called but not in scope. `known`: the manifest's
    dependencies, whose paths stay."""
    if not functions:
        return content
    local = set(re.findall(r"^\s*(?:pub\s+)?mod\s+(\w+)", content, re.M))
    keep = {crate, "self", *_STD, *known, *local}

    def wrong(root: str) -> bool:
        return root not in keep

    def use_line(match: re.Match[str]) -> str:
        rest = match["rest"].strip()
        head = _IMPORTED.fullmatch(rest)
        named = set()
        if head is not None:
            group = head["group"] or head["name"] or ""
            named = {item.split(" as ")[0].strip() for item in group.split(",")}
        if not wrong(match["root"]) or not (named & set(functions) or rest == "*"):
            return match[0]
        return f"{match['indent']}{match['pub'] or ''}use {crate}::{rest};"

    text = _USE.sub(use_line, content)
    names = "|".join(re.escape(name) for name in sorted(functions))
    path = re.compile(rf"(?<![\w:])(?P<root>\w+)::(?P<name>{names})\b(?!\s*::)")
    lines = [
        line if _USE.match(line) else path.sub(
            lambda m: f"{crate}::{m['name']}" if wrong(m["root"]) else m[0], line
        )
        for line in text.split("\n")
    ]  # fmt: skip
    text = "\n".join(lines)
    return _with_missing_imports(text, crate, functions)


def _with_missing_imports(text: str, crate: str, functions: Collection[str]) -> str:
    """`use crate::name;` for each Interface function the file calls bare without importing it,
    defining it, or a glob import of the crate."""
    if re.search(rf"^\s*use\s+{re.escape(crate)}::\*\s*;", text, re.M):
        return text
    missing = []
    for name in sorted(functions):
        called = re.search(rf"(?<![\w.:]){re.escape(name)}\s*\(", text)
        defined = re.search(rf"\bfn\s+{re.escape(name)}\b", text)
        imported = re.search(rf"^\s*(?:pub\s+)?use\s+[^;]*\b{re.escape(name)}\b[^;]*;", text, re.M)
        if called and not defined and not imported:
            missing.append(f"use {crate}::{name};\n")
    if not missing:
        return text
    leading = _LEADING.match(text)
    at = leading.end() if leading else 0
    blank = "" if text[at:].startswith(("use", "\n")) else "\n"
    return text[:at] + "".join(missing) + blank + text[at:]


def repaired_answer(
    answer: AgentAnswer, kata: str, manifest: str | None
) -> tuple[AgentAnswer, list[str]]:
    """The tester's answer with each integration test repaired (`repaired_test`), and the paths
    that changed. Unchanged unless the kata names Rust Interface functions and the manifest
    names the crate."""
    from tddhooks.agents.context import crate_name
    from tddhooks.drive.interface import interface_functions

    crate = crate_name(manifest) if manifest is not None else None
    functions = interface_functions(kata)
    if crate is None or not functions:
        return answer, []
    known = dependencies(manifest or "")
    edits, changed = [], []
    for edit in answer.edits:
        if edit.content is not None and is_integration_test(edit.path.strip().lstrip("./")):
            text = repaired_test(edit.content, crate, functions, known)
            if text != edit.content:
                changed.append(edit.path)
                edit = edit.model_copy(update={"content": text})
        edits.append(edit)
    return (answer.model_copy(update={"edits": edits}) if changed else answer), changed
