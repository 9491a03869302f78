"""What the staged test expects of the code, read from the test itself: the items it imports, the
calls it makes, the values it compares them with, and a signature that would fit (types guessed
from the literals). Small models fail less on the format than on guessing the API; this section
of the implementor's prompt spares them the guess (docs/agents.md)."""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Iterator, Mapping

MAX_LINES = 8
_RUST_USE = re.compile(r"^\s*use\s+(\w+)::(\{[^}]*\}|\w+)\s*;", re.MULTILINE)
_PY_IMPORT = re.compile(r"^[ \t]*from[ \t]+([\w.]+)[ \t]+import[ \t]+\(?([\w \t,]+)", re.MULTILINE)
_ASSERT_EQ = re.compile(r"assert_eq!\s*\(|assertEquals?\s*\(")  # Rust, unittest
_INT = re.compile(r"-?\d[\d_]*(?:[iu](?:8|16|32|64|128|size))?")
_FLOAT = re.compile(r"-?\d[\d_]*\.\d+")
# an emptiness check that is the whole assertion, `!` or `not` before the call negating it
# (`assert_eq!(validate("abc").is_empty(), false)`, `let ok = …; assert!(!ok)`: no claim)
_EMPTY_BEFORE = {
    "rust": re.compile(r"\b(?:debug_)?assert!\s*\(\s*(?P<negated>!\s*)?\Z"),
    "python": re.compile(r"^[ \t]*assert[ \t]+(?P<negated>not[ \t]+)?\Z", re.MULTILINE),
}
_EMPTY_AFTER = {
    "rust": re.compile(r"\s*\.\s*is_empty\s*\(\s*\)\s*[,)]"),
    "python": re.compile(r"[ \t]*\.[ \t]*is_empty[ \t]*\([ \t]*\)[ \t]*(?:[,#]|$)", re.MULTILINE),
}


def _code_chars(text: str, start: int = 0) -> Iterator[tuple[int, str]]:
    """Each index and character of `text` from `start` that is code: outside string and char
    literals, their quotes included. The one scanner the three readers below share."""
    quote = ""
    for index in range(start, len(text)):
        char, opened = text[index], quote
        quote = _quote(quote, char, text[index - 1] if index else "")
        if not opened and not quote:
            yield index, char


def _quote(quote: str, char: str, before: str) -> str:
    """The quote character a string literal is open with after `char` ("" outside one)."""
    if quote:
        return "" if char == quote and before != "\\" else quote
    return char if char in "\"'" else ""


def closing_paren(text: str, start: int) -> int:
    """The index just past the parenthesis that closes the one before `start`."""
    depth = 1
    for index, char in _code_chars(text, start):
        depth += (char in "([{") - (char in ")]}")
        if not depth:
            return index + 1
    return len(text)


def split_args(text: str) -> list[str]:
    """Top-level comma-separated parts of an argument list."""
    parts, depth, begin = [], 0, 0
    for index, char in _code_chars(text):
        depth += (char in "([{") - (char in ")]}")
        if char == "," and depth == 0:
            parts.append(text[begin:index])
            begin = index + 1
    return [part.strip() for part in [*parts, text[begin:]] if part.strip()]


def rust_type(literal: str) -> str:
    """A Rust type that fits a literal; `_` when it cannot tell."""
    text = literal.strip()
    if text.startswith('"'):
        return "&str"
    if text.startswith("'"):
        return "char"
    if text in ("true", "false"):
        return "bool"
    if _FLOAT.fullmatch(text):
        return "f64"
    if _INT.fullmatch(text):
        suffix = re.search(r"[iu](?:8|16|32|64|128|size)$", text)
        return suffix.group(0) if suffix else "i32"
    for wrapper, shape in (("Some(", "Option<{}>"), ("Ok(", "Result<{}, _>"), ("vec![", "Vec<{}>")):
        if text.startswith(wrapper) and text.endswith((")", "]")):
            inner = split_args(text[len(wrapper) : -1])
            return shape.format(rust_type(inner[0]) if inner else "_")
    if text == "None":
        return "Option<_>"
    if text.startswith("&[") and text.endswith("]"):
        inner = split_args(text[2:-1])
        return f"&[{rust_type(inner[0]) if inner else '_'}]"
    return "_"


def python_type(literal: str) -> str:
    text = literal.strip()
    if text[:1] in ("'", '"'):
        return "str"
    if text in ("True", "False"):
        return "bool"
    if _FLOAT.fullmatch(text):
        return "float"
    if _INT.fullmatch(text):
        return "int"
    if text.startswith("["):
        return "list"
    return "object"


def imported_names(text: str, language: str, package: str | None) -> list[str]:
    names: list[str] = []
    if language == "rust":
        for crate, items in _RUST_USE.findall(text):
            if package is None or crate == package:
                names += [item.strip() for item in items.strip("{}").split(",") if item.strip()]
    elif language == "python":
        for _module, items in _PY_IMPORT.findall(text):
            names += [item.strip() for item in items.split(",") if item.strip()]
    return [name for name in dict.fromkeys(names) if name.isidentifier()]


def expected_value(text: str, call_start: int, call_end: int) -> str | None:
    """The other side of `assert_eq!(call, value)` or `assert call == value`."""
    for opening, end in _asserts(text):
        if opening > call_start:
            break
        if call_end <= end:
            parts = split_args(text[opening : end - 1])
            if len(parts) >= 2 and text[opening : end - 1].strip().startswith(parts[0]):
                call = text[call_start:call_end]
                return parts[1] if parts[0] == call else parts[0] if parts[1] == call else None
    tail = text[call_end:].split("\n", 1)[0]
    equals = re.match(r"\s*==\s*", tail)
    return (_operand(tail[equals.end() :]) or None) if equals else None


@functools.lru_cache(maxsize=16)
def _asserts(text: str) -> tuple[tuple[int, int], ...]:
    """Where each `assert_eq!(` of `text` opens and where it closes, read once per text (a test
    of many assertions is not scanned again for each call)."""
    return tuple((m.end(), closing_paren(text, m.end())) for m in _ASSERT_EQ.finditer(text))


def _operand(text: str) -> str:
    """The expression `text` starts with: up to a top-level `,`, `;` or `#`, or a bracket it did
    not open (`["short"], "message"` -> `["short"]`; `vec![1]);` -> `vec![1]`)."""
    depth = 0
    for index, char in _code_chars(text):
        if char in "([{":
            depth += 1
        elif char in ")]}" and depth:
            depth -= 1
        elif char in ")]},;#" and not depth:
            return text[:index].strip()
    return text.strip()


def expectations(
    test_texts: Mapping[str, str],
    language: str,
    package: str | None = None,
    interface: Mapping[str, str] | None = None,
    limit: int | None = MAX_LINES,
) -> list[str]:
    """Lines for the prompt: each imported function's calls, expected values and a signature:
    the one `interface` (name -> signature, the kata's Interface section) gives, else one guessed
    from the literals (the kata's, when it gives one, wins over a guess). The prompt
    shows the first `limit`; None keeps every line, for a reader that must see each call (the
    empty start, drive/startlines.py)."""
    interface = interface or {}
    lines: list[str] = []
    for text in test_texts.values():
        for name in imported_names(text, language, package):
            if name[:1].isupper():
                lines.append(
                    f"The test uses the type `{name}`: make it `pub` with the items it calls."
                )
                continue
            signature = None
            for match in re.finditer(rf"(?<![\w.:]){re.escape(name)}\s*\(", text):
                end = closing_paren(text, match.end())
                call = with_bound_literals(text, match.start(), end, language)
                expected = expected_value(text, match.start(), end)
                shown = f"`{call}`" + (f" and expects `{expected}`" if expected else "")
                empty = emptiness(text, match.start(), end, language)
                if expected is None and empty is not None:
                    # `assert!(validate("Abcdef1!").is_empty(), "…")`: the message is not the
                    # answer
                    shown += f" and expects it {'' if empty else 'not '}to be empty"
                lines.append(f"The test calls {shown}.")
                if signature is None:
                    args = split_args(call[call.index("(") + 1 : -1])
                    signature = _signature(name, args, expected, language)
            if name in interface:
                fixed = interface[name]
                lines.append(f"The kata's Interface section fixes its signature: `{fixed}`")
            elif signature:
                lines.append(f"A signature that fits (types guessed from the test): `{signature}`")
    return list(dict.fromkeys(lines))[:limit]


# `let password = "Abc1!";` (not `mut`), Python's `password = "Abc1!"`: a name bound to a literal
_LITERAL_VALUE = r"""(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|-?\d[\w.]*|true|false|True|False)"""
_BOUND = {
    "rust": r"\blet\s+{name}\s*(?::[^=;]+)?=\s*(?P<value>{literal})\s*;",
    "python": r"^[ \t]*{name}[ \t]*(?::[^=\n]+)?=[ \t]*(?P<value>{literal})[ \t]*(?:#.*)?$",
}
_FUNCTION_START = {
    "rust": re.compile(r"\bfn\s"),
    "python": re.compile(r"^[ \t]*(?:async\s+)?def\s", re.M),
}


# what binds the name anew after its literal, the call then seeing another value: an assignment
# (`password += "x"`), a pattern (`let (password, n) = …`, `let password: String = …`, `if let`,
# `for password in …`, a closure's `|password|`; Python's `for … in`, `with … as`, `p, q = …`,
# `p: str = …`, `:=`, `lambda`, `del`); found in the text after the binding up to the call (Python:
# to the end of the call's line, where a comprehension's `for` stands)
_AGAIN = r"(?<![\w.]){name}\s*(?:[-+*/%|&^]|<<|>>)?=(?!=)"
_REBOUND = {
    "rust": (
        r"\blet\b[^;=]*?(?<![\w.]){name}\b|\bfor\b[^;{{]*?(?<![\w.]){name}\b[^;{{]*?\bin\b"
        r"|\|[^|;{{}}]*?(?<![\w.]){name}\b[^|;{{}}]*\|"
    ),
    "python": (
        r"\bfor\b[^\n:]*?(?<![\w.]){name}\b[^\n:]*?\bin\b|\bas\s+{name}\b|{name}\s*:="
        r"|\b(?:lambda|del|global|nonlocal)\b[^:\n]*?(?<![\w.]){name}\b"
        r"|^[ \t]*(?:[\w.*]+[ \t]*,[ \t]*)*{name}[ \t]*(?:,[ \t]*[\w.*]+[ \t]*)*,?[ \t]*"
        r"(?::[^=\n]+)?=(?!=)"
    ),
}


@functools.lru_cache(maxsize=16)
def _function_starts(text: str, language: str) -> tuple[int, ...]:
    """Where each function of `text` starts, read once per text (a call of thousands is not a
    scan from the file's start each)."""
    return tuple(match.start() for match in _FUNCTION_START[language].finditer(text))


def _closed(text: str, start: int, stop: int) -> bool:
    """Whether the `{ … }` block holding `start` closes before `stop` (Rust: a `let` inside it is
    gone there)."""
    depth = 0
    for index, char in _code_chars(text, start):
        if index >= stop:
            return False
        depth += (char == "{") - (char == "}")
        if depth < 0:
            return True
    return False


@functools.lru_cache(maxsize=64)
def _bindings(text: str, name: str, language: str) -> tuple[tuple[int, int, str], ...]:
    """Where each binding of `name` to a literal starts and ends, and the literal, read once per
    text and name."""
    bound = re.compile(_BOUND[language].format(name=re.escape(name), literal=_LITERAL_VALUE), re.M)
    return tuple((match.start(), match.end(), match["value"]) for match in bound.finditer(text))


def bound_literal(text: str, name: str, before: int, language: str) -> str | None:
    """The literal `name` holds at `before`: its last binding to one in the same function (not in a
    comment, Rust: not in a block closed before it), and nothing binding the name anew after it;
    None when it holds no plain literal there."""
    pattern, function = _BOUND.get(language), _FUNCTION_START.get(language)
    if pattern is None or function is None or not name.isidentifier():
        return None
    starts = _function_starts(text, language)
    at = bisect.bisect_left(starts, before)
    scope = starts[at - 1] if at else 0
    bindings = _bindings(text, name, language)
    last = bisect.bisect_left(bindings, (before,)) - 1
    while last >= 0 and bindings[last][1] > before:
        last -= 1
    if last < 0 or bindings[last][0] < scope:
        return None
    begin, end, value = bindings[last]
    line = text[text.rfind("\n", 0, begin) + 1 : begin]
    if ("//" if language == "rust" else "#") in line:
        return None  # `// let password = "a";`: a comment
    if language == "rust" and _closed(text, end, before):
        return None  # `{ let password = "b"; }` before the call: its block is closed
    stop = before if language == "rust" else (text.find("\n", before) % (len(text) + 1))
    again = re.compile(
        _AGAIN.format(name=re.escape(name)) + "|" + _REBOUND[language].format(name=re.escape(name)),
        re.M,
    )
    if again.search(text, end, stop):
        return None  # assigned or bound anew (`password += "x"`, `for password in …`) before it
    return value


def with_bound_literals(text: str, start: int, end: int, language: str) -> str:
    """The call at `text[start:end]` with each argument that is a name bound to a literal written
    as that literal: `validate(password)` after `let password = "Abc1!";` is
    `validate("Abc1!")`."""
    call = text[start:end]
    opening = call.find("(")
    if opening < 0 or not call.endswith(")"):
        return call
    args = split_args(call[opening + 1 : -1])
    values = [bound_literal(text, arg, start, language) if arg.isidentifier() else None
              for arg in args]  # fmt: skip
    if not any(values):
        return call
    written = (value or arg for arg, value in zip(args, values, strict=True))
    return f"{call[:opening]}({', '.join(written)})"


def emptiness(text: str, start: int, end: int, language: str) -> bool | None:
    """True when the call at `text[start:end]` is asserted empty (`assert!(f(x).is_empty())`),
    False when asserted not empty (`!` or `not` before it), None when no such whole assertion."""
    before, after = _EMPTY_BEFORE.get(language), _EMPTY_AFTER.get(language)
    # the assertion opens just before the call: not searched for from the start of the file
    asserted = before.search(text, max(0, start - 80), start) if before and after else None
    if asserted is None or after is None or not after.match(text, end):
        return None
    return asserted["negated"] is None


def _signature(name: str, args: list[str], expected: str | None, language: str) -> str:
    if language == "python":
        params = ", ".join(f"arg{i}: {python_type(a)}" for i, a in enumerate(args))
        result = f" -> {python_type(expected)}" if expected else ""
        return f"def {name}({params}){result}: ..."
    params = ", ".join(f"arg{i}: {rust_type(a)}" for i, a in enumerate(args))
    result = f" -> {rust_type(expected)}" if expected else ""
    return f"pub fn {name}({params}){result}"
