"""Which lines of a Rust file are tests, and the tests' module-qualified names (pure).

Unit tests live beside the code (`#[cfg(test)] mod tests { #[test] fn … }`), so a file is not
simply "a test file" or "a code file": the rules judge its test items and its code items apart.
This reads the item structure (attributes, `mod` nesting, braces) of a file whose comments and
literals are blanked first; it is not a Rust parser, but it follows what libtest collects.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from functools import lru_cache

from tddhooks.records import NamedTuple
from tddhooks.runners.rust_lexer import NOISE, block_comment_end

_TOKEN = re.compile(
    r"(?P<attr>\#(?P<inner>!)?\s*\[)"
    r"|(?P<mod>\bmod\s+(?:r\#)?(?P<modname>[^\W\d]\w*)\s*(?P<modend>[{;]))"
    r"|(?P<fn>\bfn\s+(?:r\#)?(?P<fnname>[^\W\d]\w*))"
    r"|(?P<open>\{)|(?P<close>\})|(?P<semi>;)"
)
# `#[test]`, `#[tokio::test]`, `#[async_std::test(...)]`: an attribute whose path ends in `test`
_TEST_ATTR = re.compile(r"^(?:\w+\s*::\s*)*test\s*(?:\(.*\))?$", re.DOTALL)
_CFG_TEST = re.compile(r"^cfg\s*\((?P<body>.*)\)$", re.DOTALL)
_NOT_TEST = re.compile(r"\bnot\s*\(\s*test\s*\)")


def blank(text: str) -> str:
    """The text with comments and string/char literals replaced by spaces; lines are kept."""
    parts: list[str] = []
    position = 0
    while match := NOISE.search(text, position):
        parts.append(text[position : match.start()])
        end = match.end()
        if match.group(0) == "/*":
            end = block_comment_end(text, end)
        parts.append(re.sub(r"[^\n]", " ", text[match.start() : end]))
        position = end
    parts.append(text[position:])
    return "".join(parts)


def is_test_attr(content: str) -> bool:
    """Whether an attribute's content (between `#[` and `]`) marks a test function."""
    return bool(_TEST_ATTR.match(" ".join(content.split())))


def is_cfg_test(content: str) -> bool:
    """`cfg(test)`, `cfg(all(test, …))`: compiled only for tests (`cfg(not(test))` is not)."""
    match = _CFG_TEST.match(content.strip())
    if match is None:
        return False
    body = _NOT_TEST.sub("", re.sub(r'"(?:\\.|[^"\\])*"', '""', match["body"]))
    return bool(re.search(r"\btest\b", body))


def is_cfg_not_test(content: str) -> bool:
    """`cfg(not(test))`: never compiled into the test binary, so no test in it ever runs."""
    match = _CFG_TEST.match(content.strip())
    return match is not None and bool(_NOT_TEST.search(match["body"]))


class RustTest(NamedTuple):
    """A `#[test]` function: its name qualified by the modules of its file, and its lines.
    (NamedTuples here, not dataclasses: this runs in the commit-msg hook, see proc.ProcResult.)"""

    name: str
    start: int
    end: int


class RustItems(NamedTuple):
    """The tests of one file, the line spans that are test-only code (1-based, inclusive), and
    the out-of-line modules it declares test-only (`#[cfg(test)] mod tests;`)."""

    tests: tuple[RustTest, ...] = ()
    item_spans: tuple[tuple[int, int], ...] = ()
    test_modules: tuple[str, ...] = ()
    whole_file_test: bool = False

    def in_test(self, line: int) -> bool:
        """Whether a line number (1-based) lies inside test-only code."""
        return self.whole_file_test or any(a <= line <= b for a, b in self.item_spans)


class _Frame(NamedTuple):
    kind: str  # "mod", "fn" or "block"
    name: str
    test: bool
    start: int
    test_fn: bool = False
    dead: bool = False  # inside `#[cfg(not(test))]`: no test here ever runs


class _Pending:
    """The attributes and `fn` header read since the last item: they belong to the next one."""

    __slots__ = ("attrs", "fn", "start")

    def __init__(self) -> None:
        self.attrs: list[str] = []
        self.start: int | None = None
        self.fn: tuple[str, bool, bool, int] | None = None  # name, #[test], cfg(test), first line

    def clear(self) -> None:
        self.attrs, self.start, self.fn = [], None, None


def _attribute_end(text: str, start: int) -> int:
    """Index just past the `]` closing the attribute whose `[` is at start - 1."""
    depth, index = 1, start
    while depth and index < len(text):
        depth += {"[": 1, "]": -1}.get(text[index], 0)
        index += 1
    return index


@lru_cache(maxsize=4096)
def read_items(text: str) -> RustItems:
    """The test structure of one Rust source file; a pure function of the text, so it is read
    once per process (an audit meets the same unchanged files in every commit's tree)."""
    code = blank(text)
    line_starts = [0]
    newline = code.find("\n")
    while newline >= 0:
        line_starts.append(newline + 1)
        newline = code.find("\n", newline + 1)

    def line_of(index: int) -> int:
        low, high = 0, len(line_starts)
        while low + 1 < high:
            middle = (low + high) // 2
            low, high = (middle, high) if line_starts[middle] <= index else (low, middle)
        return low + 1

    stack: list[_Frame] = []
    pending = _Pending()
    tests: list[RustTest] = []
    spans: list[tuple[int, int]] = []
    modules: list[str] = []
    whole = False
    position = 0

    def inside_test() -> bool:
        return bool(stack) and stack[-1].test

    def inside_dead() -> bool:
        return bool(stack) and stack[-1].dead

    def mod_path() -> list[str]:
        return [frame.name for frame in stack if frame.kind == "mod"]

    while match := _TOKEN.search(code, position):
        position = match.end()
        line = line_of(match.start())
        if match["attr"]:
            position = _attribute_end(code, position)
            content = code[match.end() : position - 1]
            if match["inner"]:
                whole = whole or (not stack and is_cfg_test(content))
                continue
            pending.attrs.append(content)
            pending.start = pending.start or line
            continue
        cfg_test = any(is_cfg_test(attr) for attr in pending.attrs)
        dead = inside_dead() or any(is_cfg_not_test(attr) for attr in pending.attrs)
        start = pending.start or line
        if match["mod"]:
            test = (inside_test() or cfg_test) and not dead
            if match["modend"] == "{":
                stack.append(_Frame("mod", match["modname"], test, start, dead=dead))
            elif test:
                modules.append("::".join([*mod_path(), match["modname"]]))
                if not inside_test():
                    spans.append((start, line))
            pending.clear()
        elif match["fn"]:
            is_test = any(is_test_attr(attr) for attr in pending.attrs) and not dead
            pending.fn = (match["fnname"], is_test, cfg_test and not dead, start)
            pending.attrs, pending.start = [], None
        elif match["open"]:
            if pending.fn is not None:
                name, is_test, fn_cfg, fn_start = pending.fn
                test = inside_test() or is_test or fn_cfg
                stack.append(_Frame("fn", name, test, fn_start, test_fn=is_test, dead=dead))
            else:
                test = (inside_test() or cfg_test) and not dead
                stack.append(_Frame("block", "", test, start, dead=dead))
            pending.clear()
        elif match["close"]:
            if not stack:
                continue  # unbalanced text (a half-written file): ignore the stray brace
            frame = stack.pop()
            if frame.test_fn:
                qualified = "::".join([*mod_path(), frame.name])
                tests.append(RustTest(qualified, frame.start, line))
            if frame.test and not inside_test():
                spans.append((frame.start, line))
            pending.clear()
        elif match["semi"]:
            if cfg_test and not inside_test():
                spans.append((start, line))  # `#[cfg(test)] use super::*;`
            pending.clear()
    # a file cut short (red, half written): whatever test item is still open runs to the end
    last = len(line_starts)
    for frame in stack:
        if frame.test:
            spans.append((frame.start, last))
            break
    return RustItems(tuple(tests), tuple(spans), tuple(modules), whole)


def module_path(path: str) -> list[str]:
    """The crate module a file is (its path within its crate): src/lib.rs -> [], src/a/b.rs ->
    [a, b], src/a/mod.rs -> [a]; integration tests and binaries are their own crate roots."""
    parts = path.split("/")
    if "src" not in parts:
        return []
    rest = parts[len(parts) - parts[::-1].index("src") :]
    if not rest or rest[0] == "bin" or rest == ["lib.rs"] or rest == ["main.rs"]:
        return []
    stem = rest[-1].removesuffix(".rs")
    return rest[:-1] if stem == "mod" else [*rest[:-1], stem]


def module_files(path: str, module: str) -> tuple[str, str]:
    """The two files an out-of-line `mod x;` (module path x or a::x) declared in path may be."""
    directory = posixpath.dirname(path)
    name = posixpath.basename(path)
    if name not in ("lib.rs", "main.rs", "mod.rs"):
        directory = posixpath.join(directory, name.removesuffix(".rs"))
    relative = module.replace("::", "/")
    base = posixpath.join(directory, relative) if directory else relative
    return f"{base}.rs", f"{base}/mod.rs"


def cfg_test_module_files(files: Mapping[str, str]) -> set[str]:
    """Files that are test-only because a `#[cfg(test)] mod x;` elsewhere declares them."""
    found: set[str] = set()
    for path, text in files.items():
        if path.endswith(".rs"):
            for module in read_items(text).test_modules:
                found.update(candidate for candidate in module_files(path, module))
    return found & set(files)


def libtest_name(static_name: str) -> str | None:
    """The name libtest prints for a unit test named statically `src/a.rs::tests::t`
    (`a::tests::t`); None for a name that is not a Rust file's test."""
    path, separator, qualified = static_name.partition("::")
    if not separator or not path.endswith(".rs"):
        return None
    return "::".join([*module_path(path), qualified])
