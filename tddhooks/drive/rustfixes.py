"""rustc's `.to_string()` for a string literal where a `String` is expected, applied to the agent's
files before the gate (docs/runners.md, "Fixes before the gate").

rustc suggests it for `"Fizz"` returned from a `-> String` function, `Ok("0:0:N")` for a
`Result<String, String>`, and `errors.push("…")` into the `Vec<String>` a function returns, but
marks it MaybeIncorrect, so `cargo clippy --fix` leaves it. Measured: the 1.5B implementor sent
that mismatch back in four Mars Rover attempts of five and three FizzBuzz attempts of five, with
rustc's suggestion and our hint in its prompt. Only this one suggestion is taken: an insertion of
exactly `.to_string()` right after the closing quote of a literal, for error E0308, in a file the
agent wrote, outside a `const`/`static` item or `const fn` (there it is error E0015); everything
else rustc says is left to the gate's verdict.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterator, Sequence
from pathlib import Path

from tddhooks import proc

CHECK = ("cargo", "check", "--message-format=json", "--quiet")
SUGGESTION = ".to_string()"
MAX_ROUNDS = 8  # one literal per `Vec<String>` push is suggested at a time
OUTPUT_CAP = 4_000_000  # JSON diagnostics carry each error's whole explanation


def _dicts(value: object) -> list[dict[str, object]]:
    """The objects of a JSON list; anything else, none (a proc macro's stdout reaches cargo's)."""
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def literal_insertions(output: str, own_paths: Collection[str]) -> Iterator[tuple[str, int]]:
    """(path, byte offset) of each `.to_string()` rustc suggests for E0308 in `own_paths`. A line
    of another shape is passed over: a proc macro's own stdout is in cargo's."""
    for line in output.splitlines():
        try:
            data = json.loads(line)
        except ValueError:
            continue
        if not isinstance(data, dict) or data.get("reason") != "compiler-message":
            continue
        message = data.get("message")
        if not isinstance(message, dict):
            continue
        code = message.get("code")
        if not isinstance(code, dict) or code.get("code") != "E0308":
            continue
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


# an item whose value is evaluated at compile time, where `.to_string()` is error E0015
_CONST_ITEM_RE = re.compile(
    rb"^\s*(?:#!?\[[^\]]*\]\s*)*(?:pub(?:\s*\([^)]*\))?\s+)?(?:const|static)\s"
    rb"(?:\s*mut\s)?\s*(?!fn\b)[A-Za-z_]"
)
_CONST_FN_RE = re.compile(rb"(?:^|\s)const\s+(?:unsafe\s+)?fn\s")


def _open_quote(data: bytes, closing: int) -> int:
    """Where the literal that closes at `closing` opens (an escaped quote is part of it)."""
    i = closing - 1
    while i >= 0 and not (data[i : i + 1] == b'"' and data[i - 1 : i] != b"\\"):
        i -= 1
    return i


def _open_brace(data: bytes, closing: int) -> int:
    """The `{` that the `}` at `closing` closes (-1 when there is none)."""
    depth, i = 0, closing
    while i >= 0:
        depth += {b"}": 1, b"{": -1}.get(data[i : i + 1], 0)
        if depth == 0:
            return i
        i -= 1
    return -1


def _const_segment(segment: bytes, header: bool) -> bool | None:
    """True: the text starts a const item (or, as a block's header, a `const fn`); False: it is a
    block header of another fn; None: it says nothing, read on outward."""
    if _CONST_ITEM_RE.match(segment) or (header and _CONST_FN_RE.search(segment)):
        return True
    return False if header and re.search(rb"\bfn\b", segment) else None


def in_const_context(data: bytes, at: int) -> bool:
    """The literal closed at `at` is part of a `const`/`static` item's value, or is in the body of
    a `const fn`: rustc suggests `.to_string()` there too, and there it is error E0015. Read
    outward from the literal: its statement, then the header of each block around it."""
    i = _open_quote(data, at - 1) - 1
    end, depth, header, skipping = i + 1, 0, False, False
    while i >= -1:
        char = data[i : i + 1] if i >= 0 else b"{"  # the file's start closes the last segment
        if char in (b")", b"]"):
            depth += 1
        elif char in (b"(", b"["):
            depth = max(depth - 1, 0)
        elif char == b"}":
            i = _open_brace(data, i)
        elif char == b"{" or (char == b";" and depth == 0):
            if not skipping:
                verdict = _const_segment(data[i + 1 : end], header)
                if verdict is not None:
                    return verdict
            if i < 0:
                return False
            # a `;`: the statements before ours say nothing; a `{`: its header comes next
            skipping, header, end, depth = char == b";", char == b"{", i, 0
        i -= 1
    return False


def apply_insertions(root: Path, insertions: Collection[tuple[str, int]]) -> list[str]:
    """Insert `.to_string()` at each offset that closes a plain string literal (not a raw one)
    outside a const context; the paths changed."""
    changed = []
    for path in sorted({path for path, _ in insertions}):
        target = root / path
        if target.is_symlink() or not target.is_file():
            continue
        data = target.read_bytes()
        offsets = sorted({at for p, at in insertions if p == path}, reverse=True)
        fixed = data
        for at in offsets:
            if (
                0 < at <= len(fixed)
                and fixed[at - 1 : at] == b'"'
                and not in_const_context(fixed, at)
            ):
                fixed = fixed[:at] + SUGGESTION.encode() + fixed[at:]
        if fixed != data:
            target.write_bytes(fixed)
            changed.append(path)
    return changed


def takes_rustc_fixes(lint_fix: Sequence[str]) -> bool:
    """The fix command is `cargo clippy --fix` (the default): rustc's fixes are wanted."""
    return len(lint_fix) > 2 and Path(lint_fix[0]).name == "cargo" and "--fix" in lint_fix


def to_string_literals(
    root: Path, own_paths: Collection[str], env: dict[str, str], timeout_s: float
) -> list[str]:
    """Apply rustc's `.to_string()` suggestions until none is left (at most MAX_ROUNDS checks);
    the paths changed."""
    changed: set[str] = set()
    for _ in range(MAX_ROUNDS):
        result = proc.run(
            list(CHECK), cwd=root, env=env, timeout_s=timeout_s, output_cap=OUTPUT_CAP
        )
        found = list(literal_insertions(result.stdout, own_paths))
        done = apply_insertions(root, found) if found else []
        if not done:
            break
        changed.update(done)
    return sorted(changed)
