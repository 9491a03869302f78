"""rustc's `.to_string()` for a string literal where a `String` is expected, applied to the agent's
files before the gate (docs/runners.md, "Fixes before the gate"), and under check
`compiler-fixes` (small-model) the span fixes of drive/bracefixes.py, drive/charfixes.py and
drive/vecfixes.py.

rustc marks the `.to_string()` suggestion MaybeIncorrect, so `cargo clippy --fix` leaves it. Only
this one suggestion is taken: an insertion of exactly `.to_string()` right after the closing
quote of a literal, for error E0308, in a file the agent wrote, outside a `const`/`static` item,
`const { }` block or `const fn`; everything else rustc says is left to the gate's verdict."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Iterator, Sequence
from pathlib import Path

from tddhooks import proc
from tddhooks.runners.rust_lexer import blanked

CHECK = ("cargo", "check", "--message-format=json", "--quiet")
SUGGESTION = ".to_string()"
MAX_ROUNDS = 8  # one literal per `Vec<String>` push is suggested at a time
OUTPUT_CAP = 4_000_000  # JSON diagnostics carry each error's whole explanation


def _dicts(value: object) -> list[dict[str, object]]:
    """The objects of a JSON list; anything else, none (a proc macro's stdout reaches cargo's)."""
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def all_compiler_messages(output: str) -> Iterator[dict[str, object]]:
    """The `message` object of each compiler message in cargo's JSON output. A line of another
    shape is passed over: a proc macro's own stdout is in cargo's."""
    for line in output.splitlines():
        try:
            data = json.loads(line)
        except ValueError:
            continue
        if not isinstance(data, dict) or data.get("reason") != "compiler-message":
            continue
        message = data.get("message")
        if isinstance(message, dict):
            yield message


def compiler_messages(output: str, code: str) -> Iterator[dict[str, object]]:
    """The compiler messages (all_compiler_messages) with error `code`."""
    for message in all_compiler_messages(output):
        found = message.get("code")
        if isinstance(found, dict) and found.get("code") == code:
            yield message


def literal_insertions(output: str, own_paths: Collection[str]) -> Iterator[tuple[str, int]]:
    """(path, byte offset) of each `.to_string()` rustc suggests for E0308 in `own_paths`."""
    for message in compiler_messages(output, "E0308"):
        for child in _dicts(message.get("children")):
            for span in _dicts(child.get("spans")):
                start, path = span.get("byte_start"), span.get("file_name")
                if (
                    span.get("suggested_replacement") == SUGGESTION
                    and type(start) is int
                    and start == span.get("byte_end")
                    and isinstance(path, str)
                    and path in own_paths
                ):
                    yield path, start


# an item whose value is evaluated at compile time, where `.to_string()` is error E0015; matched
# where a statement starts, in text whose comments and literals are blanked (an attribute holds
# no `;`, `{` or `}`, so no match reads past the statement)
_CONST_ITEM_RE = re.compile(
    rb"\s*(?:#!?\[[^\];{}]*\]\s*)*(?:pub(?:\s*\([^);{}]*\))?\s+)?(?:const|static)\s"
    rb"(?:\s*mut\s)?\s*(?!fn\b)[A-Za-z_]"
)
_CONST_FN_RE = re.compile(rb'(?:^|\s)const\s+(?:unsafe\s+)?(?:extern\s*(?:"\s*"\s*)?)?fn\s')
# the statics of these macros are made at run time, on first use
_LAZY_MACRO_RE = re.compile(rb"\b(?:thread_local|lazy_static)\s*!\s*$")
_FN_RE = re.compile(rb"\bfn\b")
_CONST_BLOCK_RE = re.compile(rb"(?:^|[^\w])const\s*$")
_WORD = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_CODE_RE = re.compile(rb"[(){}\[\];,|]")
_AFTER_CLOSURE = frozenset(b"=(,[{;:>")  # a `|` after one of these (or `move`) opens a closure


class _Frame:
    """A `{ }` block or a `( )`/`[ ]` group open around the literal: whether its code runs at
    compile time, and its current statement (or argument)."""

    def __init__(self, brace: bool, const: bool, start: int, stmt_const: bool) -> None:
        self.brace, self.const, self.start, self.stmt_const = brace, const, start, stmt_const
        self.closure = False  # a closure opened in this statement: its body runs at run time
        self.lazy = False  # `thread_local! { }`, `lazy_static! { }`: no static here is const

    def const_item(self, code: bytes, at: int) -> bool:
        """A `const`/`static` item starts at `at`, in this block."""
        return not self.lazy and bool(_CONST_ITEM_RE.match(code, at))

    def compile_time(self) -> bool:
        return (self.const or self.stmt_const) and not self.closure


def in_const_context(data: bytes, at: int) -> bool:
    """The literal closed at `at` is part of a `const`/`static` item's value, in a `const { }`
    block, or in the body of a `const fn`: rustc suggests `.to_string()` there too, and there it
    is error E0015. Read forward to the literal, comments and literals blanked, keeping each open
    block and statement. Where the literal is not one to this reading, it is left alone."""
    return _const_at(blanked(data), at)


def _const_at(code: bytes, at: int) -> bool:
    """in_const_context on text already blanked (`blanked`), so a file is blanked once for all of
    its literals."""
    if not 0 < at <= len(code) or code[at - 1 : at] != b'"':
        return True
    opening = code.rfind(b'"', 0, at - 1)
    if opening < 0:
        return True
    frames = [_Frame(True, False, 0, bool(_CONST_ITEM_RE.match(code)))]
    for found in _CODE_RE.finditer(code, 0, opening):
        i, char, top = found.start(), found.group(), frames[-1]
        if char in (b"(", b"["):
            frames.append(_Frame(False, top.compile_time(), i + 1, False))
        elif char in (b")", b"]"):
            if not top.brace:
                frames.pop()
        elif char == b"{":
            header = code[top.start : i]
            if _FN_RE.search(header):
                const = bool(_CONST_FN_RE.search(header))  # a fn's body is its own
            else:
                const = bool(_CONST_BLOCK_RE.search(header)) or top.compile_time()
            frames.append(_Frame(True, const, i + 1, False))
            frames[-1].lazy = bool(_LAZY_MACRO_RE.search(header))
            frames[-1].stmt_const = frames[-1].const_item(code, i + 1)
        elif char == b"}":
            while len(frames) > 1 and not frames.pop().brace:
                pass  # an unclosed group closes with its block
            top = frames[-1]
            top.start = i + 1  # an item ending here, or a block inside the statement
            top.stmt_const = top.stmt_const or top.const_item(code, i + 1)
        elif char == b";" and top.brace:
            top.start, top.closure = i + 1, False
            top.stmt_const = top.const_item(code, i + 1)
        elif char == b",":  # the next argument, field or arm: a closure ends before it
            top.closure = False
            if not top.brace:
                top.start = i + 1
        elif char == b"|":
            j = i - 1
            while j >= top.start and code[j] in b" \t\r\n":
                j -= 1
            word = code[max(j - 4, 0) : j + 1]
            if (
                j < top.start
                or code[j] in _AFTER_CLOSURE
                or (word[-4:] == b"move" and (len(word) < 5 or word[0] not in _WORD))
            ):
                top.closure = True
    return frames[-1].compile_time()


def rewrite_files(
    root: Path, paths: Collection[str], fix: Callable[[str, bytes], bytes]
) -> list[str]:
    """Write `fix(path, data)` over each regular file of `paths` it changes (a symlink is never
    followed); the paths changed, in order."""
    changed = []
    for path in sorted(set(paths)):
        target = root / path
        if target.is_symlink() or not target.is_file():
            continue
        data = target.read_bytes()
        fixed = fix(path, data)
        if fixed != data:
            target.write_bytes(fixed)
            changed.append(path)
    return changed


def replace_spans(
    root: Path,
    spans: Collection[tuple[str, int, int]],
    replacement: Callable[[bytes, int, int], bytes | None],
) -> list[str]:
    """Write over each (path, byte start, byte end) of `spans` what `replacement(data, start,
    end)` gives, a None leaving it as it is (rewrite_files); the paths changed."""

    def fix(path: str, data: bytes) -> bytes:
        fixed = data
        # from the last span back: the bytes before each one are still the file's own
        for _, start, end in sorted({s for s in spans if s[0] == path}, reverse=True):
            found = replacement(data, start, end)
            if found is not None:
                fixed = fixed[:start] + found + fixed[end:]
        return fixed

    return rewrite_files(root, [path for path, _, _ in spans], fix)


def span_place(span: object, own_paths: Collection[str]) -> tuple[str, int, int] | None:
    """(path, byte start, byte end) of a span of cargo's JSON in one of `own_paths` (an empty
    span included), None for any other span or shape."""
    if not isinstance(span, dict):
        return None
    start, end, path = span.get("byte_start"), span.get("byte_end"), span.get("file_name")
    if type(start) is int and type(end) is int and isinstance(path, str) and path in own_paths:
        return (path, start, end) if 0 <= start <= end else None
    return None


def apply_insertions(root: Path, insertions: Collection[tuple[str, int]]) -> list[str]:
    """Insert `.to_string()` at each offset that closes a plain string literal (not a raw one)
    outside a const context; the paths changed."""

    def insert(path: str, data: bytes) -> bytes:
        # from the last offset back: the bytes before each one are still the file's own
        offsets = sorted({at for p, at in insertions if p == path}, reverse=True)
        code, fixed = blanked(data), data
        for at in offsets:
            if 0 < at <= len(data) and data[at - 1 : at] == b'"' and not _const_at(code, at):
                fixed = fixed[:at] + SUGGESTION.encode() + fixed[at:]
        return fixed

    return rewrite_files(root, [path for path, _ in insertions], insert)


def takes_rustc_fixes(lint_fix: Sequence[str]) -> bool:
    """The fix command is `cargo clippy --fix` (the default): rustc's fixes are wanted."""
    return len(lint_fix) > 2 and Path(lint_fix[0]).name == "cargo" and "--fix" in lint_fix


def to_string_literals(
    root: Path,
    own_paths: Collection[str],
    env: dict[str, str],
    timeout_s: float,
    *,
    repairs: bool = True,
) -> list[str]:
    """Apply rustc's `.to_string()` suggestions, then the closures for `char` methods passed by
    name, chars for references to them and double quotes for a string in single ones
    (drive/charfixes.py), the removal of a brace rustc finds misplaced (drive/bracefixes.py)
    and of a `.to_vec()` copy of string literals (drive/vecfixes.py), until none is left (at
    most MAX_ROUNDS checks); the paths changed. Without `repairs` (check `compiler-fixes` off)
    only rustc's own `.to_string()` suggestions."""
    from tddhooks.drive.testimports import is_integration_test

    # a tester's integration test is only checked with the test targets (`--tests`)
    tests = ["--tests"] if any(is_integration_test(path) for path in own_paths) else []
    changed: set[str] = set()
    for _ in range(MAX_ROUNDS):
        result = proc.run(
            [*CHECK, *tests], cwd=root, env=env, timeout_s=timeout_s, output_cap=OUTPUT_CAP
        )
        found = list(literal_insertions(result.stdout, own_paths))
        done = apply_insertions(root, found) if found else []
        if not done and repairs:  # their offsets are this check's: one kind of fix a round
            done = _spans_fixed(root, result.stdout, own_paths)
        if not done:
            break
        changed.update(done)
    return sorted(changed)


def _spans_fixed(root: Path, output: str, own_paths: Collection[str]) -> list[str]:
    """The first kind of span fix that changes a file, applied; the paths changed."""
    from tddhooks.drive import bracefixes, charfixes, vecfixes

    kinds = (
        (bracefixes.stray_braces, bracefixes.remove_stray_braces),
        (vecfixes.copied_vecs, vecfixes.drop_copies),
        (charfixes.predicate_replacements, charfixes.apply_replacements),
        (charfixes.reference_replacements, charfixes.apply_replacements),
        (charfixes.quote_replacements, charfixes.apply_quotes),
    )
    for find, apply in kinds:
        spans = list(find(output, own_paths))
        done = apply(root, spans) if spans else []
        if done:
            return done
    return []
