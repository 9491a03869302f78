"""Check `crate-path` (small-model repair, docs/checks.md): the tester's Rust integration test,
repaired where it reaches the kata's crate by a wrong name.

A file under `tests/` is a crate of its own: the kata's library is reached only by its crate name
(`use run_1::execute;`). A test that writes `use crate::execute;`, the kata's title as a crate,
or no import at all can never compile, so the drive rewrites the path to the crate before the
test is judged (docs/agents.md, "The tester's red").

Only what cannot be meant otherwise is touched: paths to one of the kata's Interface functions
(or a glob) from `crate`, `super` (outside a module of the test), or a root that is neither the
crate, the standard library, a primitive or other type, a dependency of the manifest, nor a module
of the test file; and a call of an Interface function that nothing in the file brings into scope.
Comments and literals are never read: only code is."""

from __future__ import annotations

import bisect
import re
import tomllib
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tddhooks.agents.edits import AgentAnswer

_STD = frozenset({"std", "core", "alloc", "proc_macro", "test"})
# a primitive type's associated function (`u32::max`, `char::from`) is no path to a crate
_PRIMITIVES = frozenset({
    "bool", "char", "str", "f32", "f64", "i8", "i16", "i32", "i64", "i128", "isize",
    "u8", "u16", "u32", "u64", "u128", "usize",
})  # fmt: skip
_DEPENDENCY_TABLES = ("dependencies", "dev-dependencies", "build-dependencies")
# a `use` declaration's start, `use root::` (not `r#use`); `::root` is an extern crate's path
_USE = re.compile(r"(?<![\w:$#])use\s+(?P<lead>::\s*)?(?P<root>\w+)\s*::")
# what a `use root::…;` imports: a `{group}`, one name (perhaps renamed), or a glob
_IMPORTED = re.compile(r"\{(?P<group>[^{}]*)\}|(?P<name>\w+)(?:\s+as\s+\w+)?|\*")
_RAW_STRING = re.compile(r'b?r(#*)"')


def _comment_end(text: str, at: int) -> int:
    """The end of the (nestable) block comment that starts at `at`."""
    depth, index = 1, at + 2
    while index < len(text) and depth:
        if text.startswith("/*", index):
            depth, index = depth + 1, index + 2
        elif text.startswith("*/", index):
            depth, index = depth - 1, index + 2
        else:
            index += 1
    return index


def masked(text: str) -> str:
    """`text` with the inside of every comment, string and char literal blanked (same length,
    line breaks kept), so that only code is read."""
    out = list(text)
    at, size = 0, len(text)

    def blank(start: int, stop: int) -> None:
        for index in range(start, min(stop, size)):
            if out[index] not in "\r\n":
                out[index] = " "

    while at < size:
        char = text[at]
        if text.startswith("//", at):
            stop = text.find("\n", at)
            stop = size if stop < 0 else stop
            blank(at, stop)
            at = stop
        elif text.startswith("/*", at):
            stop = _comment_end(text, at)
            blank(at, stop)
            at = stop
        elif char in "rb" and (at == 0 or not (text[at - 1].isalnum() or text[at - 1] == "_")):
            raw = _RAW_STRING.match(text, at)
            if raw is None:
                at += 1
                continue
            stop = text.find('"' + raw[1], raw.end())
            stop = size if stop < 0 else stop + 1 + len(raw[1])
            blank(raw.end(), stop - 1 - len(raw[1]))
            at = stop
        elif char == '"':
            index = at + 1
            while index < size and text[index] != '"':
                index += 2 if text[index] == "\\" else 1
            blank(at + 1, index)
            at = index + 1
        elif char == "'":
            # a char literal ('x', '\n', '\u{1F600}'), not a lifetime ('a)
            if text.startswith("\\", at + 1):
                stop = text.find("'", at + 3, at + 13)
            else:
                stop = at + 2 if at + 2 < size and text[at + 2] == "'" else -1
            if 0 < stop <= at + 12:
                blank(at + 1, stop)
                at = stop + 1
            else:
                at += 1
        else:
            at += 1
    return "".join(out)


def _module_spans(code: str) -> list[tuple[int, int]]:
    """(start, end) of each outermost inline `mod name { … }` of the (masked) code."""
    openers = {match.end() - 1 for match in re.finditer(r"\bmod\s+\w+\s*\{", code)}
    spans: list[tuple[int, int]] = []
    stack: list[int | None] = []
    for match in re.finditer(r"[{}]", code):
        at = match.start()
        if match[0] == "{":
            stack.append(at if at in openers else None)
        elif stack:
            opened = stack.pop()
            if opened is not None and not any(s is not None for s in stack):
                spans.append((opened, at + 1))
    return spans


def _use_declarations(code: str) -> list[tuple[re.Match[str], int]]:
    """Each `use root::…;` of the (masked) code, with the offset of its `;`."""
    found: list[tuple[re.Match[str], int]] = []
    stop = -1
    for match in _USE.finditer(code):
        if stop < match.end():
            stop = code.find(";", match.end())
            if stop < 0:
                break  # no declaration ends past here
        found.append((match, stop))
    return found


def dependencies(manifest: str) -> set[str]:
    """The crate names a Cargo manifest's dependency tables bring in ('-' read as '_')."""
    try:
        data = tomllib.loads(manifest)
    except tomllib.TOMLDecodeError:
        return set()
    found: set[str] = set()
    targets = data.get("target")  # [target.'cfg(unix)'.dependencies]
    scopes = [data, *(targets.values() if isinstance(targets, dict) else ())]
    for scope in scopes:
        for table in _DEPENDENCY_TABLES:
            entries = scope.get(table, {}) if isinstance(scope, dict) else {}
            if isinstance(entries, dict):
                found.update(name.replace("-", "_") for name in entries)
    return found


def is_integration_test(path: str) -> bool:
    return path.startswith("tests/") and path.endswith(".rs")


def is_test_crate_root(path: str) -> bool:
    """`tests/name.rs` or `tests/name/main.rs`: where `super::` has no parent to mean."""
    parts = path.split("/")
    return len(parts) == 2 or (len(parts) == 3 and parts[2] == "main.rs")


def repaired_test(
    content: str,
    crate: str,
    functions: Collection[str],
    known: Collection[str] = (),
    *,
    root: bool = True,
) -> str:
    """`content` with every wrong path to the crate's Interface `functions` rewritten to `crate`,
    and a `use crate::name;` added for each one called but not in scope. `known`: the manifest's
    dependencies, whose paths stay. `root`: the file is the test crate's root, not a module of
    it (then `super::` outside an inline module has nothing to mean). Comments and literals are
    never read or changed; a root that starts upper-case is a type (`Self::`, an enum), not a
    crate."""
    if not functions:
        return content
    code = masked(content)
    local = set(re.findall(r"\bmod\s+(\w+)", code))
    aliases = set(re.findall(r"\bextern\s+crate\s+\w+\s+as\s+(\w+)", code))
    keep = {crate, "self", *_STD, *_PRIMITIVES, *known, *local, *aliases}
    # a function of the test's own: `crate::name` and `super::name` are that one
    own = {name for name in functions if re.search(rf"\bfn\s+{re.escape(name)}\b", code)}
    items = set(re.findall(r"\b(?:fn|struct|enum|const|static|type|trait|union)\s+(\w+)", code))
    items |= local | set(re.findall(r"\bmacro_rules!\s*(\w+)", code))
    modules = _module_spans(code)
    starts = [start for start, _ in modules]

    def wrong(name: str, at: int) -> bool:
        if name in keep or name[:1].isupper():
            return False
        if name == "super":
            index = bisect.bisect_right(starts, at) - 1
            return root and not (index >= 0 and at < modules[index][1])
        return True

    edits: list[tuple[int, int]] = []  # spans of wrong roots, rewritten to `crate`
    uses = _use_declarations(code)
    for match, stop in uses:
        rest = code[match.end() : stop].strip()
        head = _IMPORTED.fullmatch(rest)
        named = set()
        if head is not None:
            group = head["group"] or head["name"] or ""
            named = {re.split(r"\s+as\s+", item)[0].strip() for item in group.split(",")}
        if match["lead"] or not wrong(match["root"], match.start()):
            continue
        hits = named & set(functions)
        if hits and match["root"] in ("crate", "super") and hits <= own:
            continue
        if match["root"] in ("crate", "super") and (named - hits) & items:
            continue  # `use crate::{execute, helper};` names the test's own `helper` too
        if hits or rest == "*":
            edits.append(match.span("root"))
    names = "|".join(re.escape(name) for name in sorted(functions))
    path = re.compile(rf"(?<![\w:$#])(?P<root>\w+)\s*::\s*(?P<name>{names})\b(?!\s*::)")
    outside = [(match.start(), stop) for match, stop in uses]
    index = 0
    for match in path.finditer(code):
        while index < len(outside) and outside[index][1] < match.start():
            index += 1
        if index < len(outside) and outside[index][0] <= match.start():
            continue  # inside a `use` declaration: read above
        if match["root"] in ("crate", "super") and match["name"] in own:
            continue
        if wrong(match["root"], match.start()):
            edits.append(match.span("root"))
    pieces, done = [], 0
    for start, end in sorted(set(edits)):
        pieces += [content[done:start], crate]
        done = end
    text = "".join([*pieces, content[done:]])
    code = masked(text) if edits else code
    # a glob from a module of the test or a dependency may be what brings the name in
    if any(
        code[match.end() : stop].strip().endswith("*")
        and match["root"] in {*known, *local, *aliases} - {crate}
        for match, stop in _use_declarations(code)
    ):
        return text
    return _with_missing_imports(text, code, crate, functions)


def _import_position(text: str, code: str) -> int:
    """Where an added import goes: after the file's leading comments and inner attributes
    (`#![…]`, `//!`), at the start of a line."""
    start = at = index = 1 if text.startswith("\ufeff") else 0
    while True:
        blank = re.compile(r"[ \t\r\n]*").match(text, index)
        index = blank.end() if blank else index
        if text.startswith("//", index):
            stop = text.find("\n", index)
            index = at = len(text) if stop < 0 else stop
        elif text.startswith("/*", index):
            index = at = _comment_end(text, index)
        elif code.startswith("#![", index):
            depth, stop = 0, index + 2
            for stop in range(index + 2, len(code)):
                depth += {"[": 1, "]": -1}.get(code[stop], 0)
                if depth == 0:
                    break
            index = at = stop + 1
        else:
            break
    line_end = re.compile(r"[ \t]*(?://[^\n]*)?\r?\n").match(text, at)
    return line_end.end() if line_end and at > start else at


def _with_missing_imports(text: str, code: str, crate: str, functions: Collection[str]) -> str:
    """`use crate::name;` for each Interface function the file calls bare without importing it,
    defining it, or a glob import of the crate. `code`: `text` masked (`masked`)."""
    if re.search(rf"(?<![\w:$#])use\s+{re.escape(crate)}\s*::\s*\*\s*;", code):
        return text
    imports = [code[match.start() : stop] for match, stop in _use_declarations(code)]
    missing = []
    for name in sorted(functions):
        called = re.search(rf"(?<![\w.:$#]){re.escape(name)}\s*\(", code)
        # a function, a variable (a closure) or a parameter of that name: an import would be
        # unused, and the gate's clippy denies warnings
        bound = rf"\b(?:fn|let(?:\s+mut)?)\s+{re.escape(name)}\b|[(,]\s*{re.escape(name)}\s*:(?!:)"
        defined = re.search(bound, code)
        imported = any(re.search(rf"\b{re.escape(name)}\b", line) for line in imports)
        if called and not defined and not imported:
            missing.append(name)
    if not missing:
        return text
    newline = "\r\n" if "\r\n" in text else "\n"
    at = _import_position(text, code)
    before = newline if text[:at].lstrip("\ufeff") and text[at - 1] != "\n" else ""
    added = before + "".join(f"use {crate}::{name};{newline}" for name in missing)
    blank = "" if text[at:].startswith(("use", "\n", "\r\n")) else newline
    return text[:at] + added + blank + text[at:]


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

    def repair(path: str, content: str) -> str:
        path = "/".join(part for part in path.strip().split("/") if part not in ("", "."))
        if not is_integration_test(path):
            return content
        return repaired_test(content, crate, functions, known, root=is_test_crate_root(path))

    return rewritten_contents(answer, repair)


def rewritten_contents(
    answer: AgentAnswer, rewrite: Callable[[str, str], str]
) -> tuple[AgentAnswer, list[str]]:
    """`answer` with each edit's content replaced by `rewrite(path, content)`, and the paths
    (as the answer spells them) whose content changed; the answer itself when none did."""
    edits, changed = [], []
    for edit in answer.edits:
        if edit.content is not None:
            text = rewrite(edit.path, edit.content)
            if text != edit.content:
                changed.append(edit.path)
                edit = edit.model_copy(update={"content": text})
        edits.append(edit)
    return (answer.model_copy(update={"edits": edits}) if changed else answer), changed
