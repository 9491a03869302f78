"""The kata's own examples, and a new test that contradicts one (docs/kata-checks.md, "A test that
contradicts the kata"; check `example-contradicted`, docs/checks.md).

A requirement that gives an example (`1 gives "1"`, `"abc" gives "a", "b"`, `0 panics`) fixes
what its input gives. A new test that calls the kata's function with that very input and expects
something else is refused before anything is written. A kata without such examples, a call with
another input or any value this module cannot read is left alone: only a plain disagreement is
refused."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from tddhooks.agents.expectations import (
    bound_literal,
    closing_paren,
    emptiness,
    expected_value,
    imported_names,
    split_args,
)
from tddhooks.kata.examples import Example as Example
from tddhooks.kata.examples import Value as Value
from tddhooks.kata.examples import kata_examples as kata_examples
from tddhooks.kata.examples import read_value

# a test that expects the failure: `pytest.raises(…)`, `self.assertRaises(…)`
_RAISES = re.compile(r"raises(?:regex)?\s*\(", re.IGNORECASE)
_PY_LEN = re.compile(r"(?<![\w.])len\s*\(\s*\Z")
_CLOSE = re.compile(r"\s*\)")
_PY_ASSERT = re.compile(r"^[ \t]*assert[ \t]+(?P<negated>not[ \t]+)?\Z", re.MULTILINE)
_PY_END = re.compile(r"[ \t]*(?:[,#]|$)", re.MULTILINE)
# the call the whole of a Rust assertion: `assert!(is_leap(1996))`, `assert!(!is_leap(1900), …)`
_RUST_ASSERT = re.compile(r"\b(?:debug_)?assert!\s*\(\s*(?P<negated>!\s*)?\Z")
_RUST_END = re.compile(r"\s*[,)]")
# a comparison negated or grouped before it is asserted: `not (…)`, `!(…)`, `(…) is False`; the
# `(` of `assert_eq!(`, `assert!(` or `f(` is no group
_NEGATED = re.compile(r"(?:\bnot\s+|(?<![\w!])!\s*\(\s*|(?<![\w!])\(\s*)\(?\s*\Z")
_TEST_LIBRARY = re.compile(
    r"^[ \t]*from[ \t]+(?:pytest|unittest|hypothesis|typing|__future__)\b.*$", re.MULTILINE
)
# what a test puts after the call before it compares
_SUFFIX = re.compile(r"\s*\.\s*(?P<name>len|unwrap|expect|to_string|as_str)\s*\(")

_EMPTY_LIST = re.compile(r"(?:Vec(?:::<.*>)?::new|list)\(\s*\)|vec!\[\s*\]|\[\s*\]")


def _values(text: str) -> tuple[Value, ...] | None:
    """A list literal (`vec!["a"]`, `["a"]`, `&["a"]`, `Vec::new()`) as its items; None when it
    is not one or an item is no plain literal."""
    text = text.strip()
    if _EMPTY_LIST.fullmatch(text):
        return ()
    for opening in ("vec![", "&[", "["):
        if text.startswith(opening) and text.endswith("]"):
            items = [read_value(item) for item in split_args(text[len(opening) : -1])]
            return None if None in items else tuple(item for item in items if item)
    return None


def _show(example: Example, language: str) -> str:
    """What the kata's example expects, written as the test should compare it."""
    if example.values is None:
        return ("a refusal (`#[should_panic]` on the test, no value compared)" if language == "rust"
                else "a refusal (`with pytest.raises(...)`, no value compared)")  # fmt: skip
    items = [literal(value, language) for value in example.values]
    if example.whole or not items:
        listed = ", ".join(items)
        return f"`vec![{listed}]`" if language == "rust" else f"`[{listed}]`"
    return f"`{items[0]}`"


@dataclass(frozen=True)
class _Claim:
    call: str
    length: int | None = None  # `.len() == 3`
    empty: bool | None = None  # `.is_empty()` asserted, or its negation
    truth: bool | None = None  # the call itself asserted (`assert!(f(x))`), or its negation
    scalar: Value | None = None
    items: tuple[Value, ...] | None = None  # a list compared whole


def _contradiction(example: Example, claim: _Claim) -> str | None:
    """What the claim says that the example does not, or None."""
    values = example.values
    if values is None:
        compared = claim.scalar or claim.items is not None or claim.length is not None
        return f"expects `{claim.call}` to give a value" if compared else None
    if claim.truth is not None and len(values) == 1 and values[0][0] == "bool":
        said = ("bool", "true" if claim.truth else "false")
        return None if said == values[0] else f"expects `{claim.call}` to give `{literal(said)}`"
    if claim.items is not None:
        agrees = claim.items == values if example.whole or len(values) > 1 else (
            len(claim.items) != 1 or claim.items[0] == values[0]
        )  # fmt: skip
        return None if agrees else f"expects `{claim.call}` to give `{_listed(claim.items)}`"
    if claim.scalar is not None and len(values) == 1 and claim.scalar != values[0]:
        if claim.scalar[0] != values[0][0]:
            return None  # `count("abc") == 3` where "abc" gives "ABC": another function's value
        return f"expects `{claim.call}` to give `{literal(claim.scalar)}`"
    if claim.length is not None and example.whole and claim.length != len(values):
        return f"expects `{claim.call}` to have {claim.length} items"
    falsy = (("str", ""), ("int", "0"), ("bool", "false"))  # `assert not add("0")`: "0" gives 0
    if claim.empty is True and values and (example.whole or values[0] not in falsy):
        return f"expects `{claim.call}` to be empty"
    if claim.empty is False and example.whole and not values:
        return f"expects `{claim.call}` not to be empty"
    return None


def literal(value: Value, language: str = "rust", *, code: bool = False) -> str:
    """A value as a test writes it: `"Fizz"`, `7`, `true` (Python's `True`). `code`: as code
    (drive/probe.py), a string's own quotes escaped; its other escapes are the kata's (`"1\\n2"`
    is a newline in both)."""
    if value[0] == "bool" and language == "python":
        return value[1].capitalize()
    if value[0] != "str":
        return value[1]
    return '"' + (value[1].replace('"', '\\"') if code else value[1]) + '"'


def _listed(items: tuple[Value, ...]) -> str:
    return "[" + ", ".join(map(literal, items)) + "]"


def _claims(text: str, name: str, language: str) -> list[tuple[Value, _Claim]]:
    """Each one-argument call of `name` with a literal argument, and what the test expects of it,
    directly or through the variable it is bound to (`let errors = validate("Abc1!");` then
    `assert_eq!(errors.len(), 2)`). An argument that is a name bound to a literal (`let password =
    "Abc1!";`) is that literal."""
    found = []
    for match in re.finditer(rf"(?<![\w.:]){re.escape(name)}\s*\(", text):
        end = closing_paren(text, match.end())
        args = split_args(text[match.end() : end - 1])
        given = args[0] if len(args) == 1 else None
        if given is not None and given.isidentifier():  # `let password = "Abc1!";` before it
            given = bound_literal(text, given, match.start(), language)
        argument = read_value(given) if given is not None else None
        if argument is None or _expects_failure(text, match.start(), language):
            continue
        claim = _claim_at(text, match.start(), end, language)
        if claim is not None:
            found.append((argument, claim))
        for start, stop in _uses_of_binding(text, match.start(), end, language):
            claim = _claim_at(text, start, stop, language)
            if claim is not None:
                found.append((argument, claim))
    return found


_BINDING = {
    "rust": re.compile(r"\blet\s+(?P<name>[a-z_]\w*)\s*(?::[^=;]+)?=\s*\Z"),
    "python": re.compile(r"^[ \t]*(?P<name>[a-z_]\w*)[ \t]*(?::[^=\n]+)?=[ \t]*\Z", re.MULTILINE),
}
_BINDING_END = {"rust": re.compile(r"\s*;"), "python": re.compile(r"[ \t]*(?:#.*)?$", re.MULTILINE)}
_SCOPE_END = {
    "rust": re.compile(r"\bfn\s"),
    "python": re.compile(r"^[ \t]*(?:async\s+)?def\s", re.M),
}


def _uses_of_binding(text: str, start: int, end: int, language: str) -> list[tuple[int, int]]:
    """The spans of the later uses of the variable the call at `text[start:end]` is bound to
    (`let errors = …;`, Python's `errors = …`), up to the next function or a new binding of the
    name; none when the call is not a whole binding or the variable is `mut`."""
    bound, bound_end = _BINDING.get(language), _BINDING_END.get(language)
    line_start = text.rfind("\n", 0, start) + 1
    found = bound.search(text, line_start, start) if bound and bound_end else None
    if found is None or bound_end is None or not bound_end.match(text, end):
        return []
    variable = found["name"]
    scope = _SCOPE_END[language].search(text, end)
    limit = scope.start() if scope else len(text)
    uses = []
    for use in re.finditer(rf"(?<![\w.]){re.escape(variable)}\b", text[:limit]):
        if use.start() < end:
            continue
        if re.match(r"\s*=(?!=)", text[use.end() :]) or text[: use.start()].endswith("let "):
            break  # a new value or a new binding of the name: not the call's any more
        uses.append((use.start(), use.end()))
    return uses


def _claim_at(text: str, start: int, end: int, language: str) -> _Claim | None:
    """What the test expects of the expression at `text[start:end]` (a call or its variable):
    its value, its length, or its emptiness; None when it compares nothing this can read."""
    length = False
    wrapped = _PY_LEN.search(text, max(0, start - 12), start) if language == "python" else None
    if wrapped and (closed := _CLOSE.match(text, end)):  # `len(validate("Abc1!"))`
        start, end, length = wrapped.start(), closed.end(), True
    while suffix := _SUFFIX.match(text, end):
        length = length or suffix["name"] == "len"
        end = closing_paren(text, suffix.end())
    call = text[start:end]
    compared = expected_value(text, start, end)
    if compared is not None and _NEGATED.search(text, max(0, start - 12), start):
        return None  # `assert not say(3) == "Buzz"`, `assert (say(3) == "Buzz") is False`
    shown = " ".join(call.split())
    if compared is not None:
        value, items = read_value(compared), _values(compared)
        if length and value and value[0] == "int":
            return _Claim(shown, length=int(value[1]))
        if not length and items is not None:
            return _Claim(shown, items=items)
        if not length and value is not None:
            return _Claim(shown, scalar=value)
        return None
    if length:
        return None
    truth = _asserted(text, start, end, language)
    # Python's `assert not validate("…")` is also a list asserted empty
    empty = emptiness(text, start, end, language)
    if empty is None and language == "python" and truth is not None:
        empty = not truth
    return _Claim(shown, empty=empty, truth=truth) if (empty, truth) != (None, None) else None


def _asserted(text: str, start: int, end: int, language: str) -> bool | None:
    """Whether the call at `text[start:end]` is the whole assertion: True for
    `assert!(is_leap(1996))` and `assert is_leap(1996)`, False for `assert!(!…)` and
    `assert not …`; None: it is not."""
    if language == "python":
        asserted = _PY_ASSERT.search(text, max(0, text.rfind("\n", 0, start)), start)
        closed = _PY_END.match(text, end)
    else:
        asserted = _RUST_ASSERT.search(text, max(0, start - 80), start)
        closed = _RUST_END.match(text, end)
    if asserted is None or not closed:
        return None
    return asserted["negated"] is None


def _expects_failure(text: str, start: int, language: str) -> bool:
    """Whether the call at `start` is in a test that expects a failure: a `#[should_panic]` test
    function, a `pytest.raises` block (the value it compares is never reached)."""
    if language == "python":
        return _RAISES.search(text, max(0, text.rfind("def ", 0, start)), start) is not None
    function = text.rfind("fn ", 0, start)
    return function >= 0 and "should_panic" in text[text.rfind("}", 0, function) + 1 : function]


def contradicted_example(
    tests: Mapping[str, str],
    requirements: Sequence[str],
    language: str,
    package: str | None = None,
    before: Mapping[str, str] | None = None,
    functions: Collection[str] = (),
) -> str | None:
    """The refusal for the first test in `tests` (path -> new text) that expects, of an input
    the kata gives an example for, something the kata does not say; None when every such test
    agrees or none is one. A claim the file already made (`before`: path -> committed text) is
    not the new test's: a person's own older tests are never what is refused. `functions`: the
    ones the kata's Interface section names, whose examples these are (empty: any imported)."""
    examples = kata_examples(requirements)
    if not examples:
        return None
    for path, text in tests.items():
        committed = (before or {}).get(path) or ""
        old = {
            (name, claim) for name in imported_names(committed, language, package)
            for _argument, claim in _claims(committed, name, language)
        }  # fmt: skip
        imported = imported_names(text, language, package)
        # a kata of several functions (the Interface's, else the ones the test imports that are
        # not a test library's): an example is one function's only where its requirement names
        # it (`to_roman`: 4 gives "IV")
        kata_names = imported_names(_TEST_LIBRARY.sub("", text), language, package)
        several = len(set(functions) or {n for n in kata_names if not n[:1].isupper()}) > 1
        for name in (name for name in imported if name in functions or not functions):
            word = re.compile(rf"\b{re.escape(name)}\b")
            for argument, claim in _claims(text, name, language):
                if (name, claim) in old:
                    continue
                # a kata may give one input two results (two functions, a later stage): a claim
                # that agrees with any of them is left alone
                said = [
                    e for e in examples if e.given == argument
                    and (not several or word.search(requirements[e.requirement - 1]))
                ]  # fmt: skip
                wrongs = [(e, w) for e in said if (w := _contradiction(e, claim)) is not None]
                if wrongs and len(wrongs) == len(said):
                    example, wrong = wrongs[0]
                    return (
                        f"edits refused, nothing was written: the test in {path} {wrong}, "
                        f"but requirement {example.requirement} of the kata says "
                        f"{example.said}; expect {_show(example, language)} there"
                    )
    return None


def kata_values(
    tests: Mapping[str, str],
    requirements: Sequence[str],
    language: str,
    package: str | None = None,
    functions: Collection[str] = (),
) -> list[str]:
    """Lines for the implementor's prompt: what the kata says a call of the staged test gives,
    where the test compares less than the value (its length, its emptiness, nothing) and the kata
    gives one result for that input."""
    examples = kata_examples(requirements)
    lines: list[str] = []
    if not examples:
        return lines
    for text in tests.values():
        for name in imported_names(text, language, package):
            if functions and name not in functions:
                continue
            word = re.compile(rf"\b{re.escape(name)}\b")
            claims = _claims(text, name, language)
            whole = {argument for argument, claim in claims
                     if claim.items is not None or claim.scalar is not None}  # fmt: skip
            for argument, claim in claims:
                said = [
                    e
                    for e in examples
                    if e.given == argument
                    and e.values is not None
                    and (len(functions) < 2 or word.search(requirements[e.requirement - 1]))
                ]
                if argument in whole or not said or len({e.values for e in said}) > 1:
                    continue
                if claim.empty is True and not said[0].values:
                    continue  # `assert!(validate("Abcdef1!").is_empty())` says it all
                example, call = said[0], f"{name}({literal(argument, language)})"
                lines.append(
                    f"The kata says `{call}` gives {_show(example, language)} "
                    f"(requirement {example.requirement})."
                )
    return list(dict.fromkeys(lines))


def agreed_requirements(
    tests: Mapping[str, str],
    requirements: Sequence[str],
    language: str,
    package: str | None = None,
    functions: Collection[str] = (),
) -> set[int]:
    """The requirements (numbered from 1) whose examples a test in `tests` calls and compares
    with what the kata says: the ones the test pins by its inputs and values, whatever its name
    or the tester's plan says (drive/intent.py)."""
    examples = kata_examples(requirements)
    found: set[int] = set()
    for text in tests.values():
        for name in imported_names(text, language, package):
            if functions and name not in functions:
                continue
            word = re.compile(rf"\b{re.escape(name)}\b")
            for argument, claim in _claims(text, name, language):
                compared = claim.scalar is not None or claim.items is not None
                found |= {
                    e.requirement for e in examples
                    if e.given == argument and compared and _contradiction(e, claim) is None
                    and (len(functions) < 2 or word.search(requirements[e.requirement - 1]))
                }  # fmt: skip
    return found
