"""Check `stray-values` (small-model hint, docs/checks.md): a value the failing test got that only
the code says, i.e. a string literal in the code that no test and no line of the kata asks for,
named in a red attempt's failure with where it is (docs/answers.md, "Hints on a red attempt").
When the other side of the same comparison holds one string a test asks for in its place, the
hint names that string too."""

from __future__ import annotations

import re
from collections.abc import Mapping
from difflib import SequenceMatcher

# the sides of a failed comparison: Rust's `left:`/`right:` lines, pytest's `assert … == …`
_SIDES = re.compile(r"^\s*(?:left|right):.*$|^E\s+(?:AssertionError: )?assert .*$", re.MULTILINE)
# every string literal, however short, read from the left: a short one skipped would shift the
# places of the others, and the text between two short ones would be read as one
_LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"' + r"|'((?:[^'\\\n]|\\.)*)'")
MIN_STRAY = 4
_EQUALS = re.compile(r"\s==\s")
MAX_STRAYS = 2
# the kata's quoted strings, and how alike a stray and one of them must be to name it (0.85:
# "must contain at least one special character" and "must contain a special character")
_KATA_STRING = re.compile(r'"([^"\n]{4,200})"')
_JOINS = re.compile(r"\s+(?:and|or)\s+|\s*[,;]\s*")
NEAR = 0.8


def literals(text: str) -> list[str]:
    """The string literals of `text`, their escaped quotes read as the quotes (pytest writes
    "it's" as `'it\\'s'` when the string holds both kinds)."""
    return [_plain(match.group(1) or match.group(2) or "") for match in _LITERAL.finditer(text)]


def _plain(text: str) -> str:
    """`text` with its escaped quotes as plain quotes: a value is looked for in code, tests and
    the kata whichever quotes each writes it in."""
    return text.replace("\\'", "'").replace('\\"', '"')


def _halves(line: str) -> tuple[str, str]:
    """pytest's `assert A == B` at its first `==` outside a string literal; (line, "") without."""
    spans = [match.span() for match in _LITERAL.finditer(line)]
    for equals in _EQUALS.finditer(line):
        if not any(start <= equals.start() < end for start, end in spans):
            return line[: equals.start()], line[equals.end() :]
    return line, ""


# a side that is an empty list, as libtest (`right: []`) and pytest (`… == []`) print one
_EMPTY_SIDE = re.compile(r"^(?:left:|right:|E\s+(?:AssertionError: )?assert)?\s*\[\s*\]\s*$")
Comparison = tuple[list[str], list[str], bool, bool]


def _comparison(first: str, second: str, cut: bool) -> Comparison:
    """The literals of both sides, whether one may be cut short, whether one is an empty list."""
    empty = any(_EMPTY_SIDE.match(side.strip()) for side in (first, second) if side)
    return literals(first), literals(second), cut, empty


def comparisons(failure: str) -> list[Comparison]:
    """The string literals of each failed comparison's two sides, in the order they appear,
    whether a side may have been cut short (pytest writes `'Password mu...oo'`: a literal's place
    after the cut is not its place in the value), and whether a side is an empty list."""
    found: list[Comparison] = []
    left: str | None = None
    for match in _SIDES.finditer(failure):
        side = match.group().strip()
        if side.startswith("left:"):
            if left is not None:
                found.append(_comparison(left, "", "..." in left))
            left = side
        elif side.startswith("right:"):
            found.append(_comparison(left or "", side, "..." in (left or "") + side))
            left = None
        else:
            first, second = _halves(side)
            found.append(_comparison(first, second, "..." in side))
    if left is not None:
        found.append(_comparison(left, "", "..." in left))
    return found


def _counterpart(index: int, side: list[str], other: list[str]) -> str | None:
    """The other side's string at the stray's place, when both sides hold as many strings: of
    lists of two lengths, nothing tells which string took another's place. Not when the stray's
    side holds that string elsewhere (a map or a set in another order)."""
    if len(side) != len(other) or other[index] in side:
        return None
    return other[index]


def _asked(value: str, tests: Mapping[str, str]) -> bool:
    """Whether a test file holds `value` as a whole string literal (a short one such as "" or
    "ab" is in any text)."""
    return any(f'"{value}"' in text or f"'{value}'" in text for text in tests.values())


def stray_values(
    failure: str, sources: Mapping[str, str], tests: Mapping[str, str], kata: str
) -> str:
    """Hint lines (each ending in a line break; "" when none) for each string of at least four
    characters in the failed comparison that a source file of `sources` (path -> text) holds and
    no test file nor the kata does; with the string a test expects in its place, when one is."""
    sources = {path: _plain(text) for path, text in sources.items()}
    tests = {path: _plain(text) for path, text in tests.items()}
    kata = _plain(kata)
    found: dict[str, tuple[str, str | None]] = {}
    unwanted: dict[str, str] = {}  # strays where the test expects an empty list: value -> place
    for left, right, cut, empty in comparisons(failure):
        for side, other in ((left, right), (right, left)):
            for index, value in enumerate(side):
                if len(value) < MIN_STRAY or value in found:
                    continue
                if any(value in text for text in (*tests.values(), kata)):
                    continue
                place = next((path for path, text in sources.items() if value in text), None)
                place = place or _formatted(value, sources)
                if place is None:
                    continue
                if empty and not other:
                    unwanted[value] = place
                    continue
                wanted = None if cut else _counterpart(index, side, other)
                asked = wanted is not None and _asked(wanted, tests)
                found[value] = (place, wanted if asked else None)
    if unwanted:
        return _empty_advice(unwanted)
    if not found:
        return ""
    flat = " ".join(kata.split())  # a quoted message may be broken over two lines
    messages = list(dict.fromkeys(match[1] for match in _KATA_STRING.finditer(flat)))
    lines = []
    for value, (place, wanted) in list(found.items())[:MAX_STRAYS]:
        lines.append(
            f'Hint: "{value}" comes from {place}, and no test and no line of the kata asks for '
            f"it: {_advice(value, wanted, messages)}\n"
        )
    return "".join(lines)


def _empty_advice(unwanted: Mapping[str, str]) -> str:
    """One hint for the messages the code gives where the test expects an empty list: it names
    the empty body the test asks for (not "remove the code", which reads as a delete)."""
    first, *more = unwanted
    places = ", ".join(dict.fromkeys(unwanted.values()))
    others = f" and {len(more)} more" if more else ""
    return (
        f'Hint: the test expects an empty list, and the code gives "{first}"{others} from '
        f"{places}, which no test and no line of the kata asks for: give an empty list for that "
        "input instead. A message comes with the test that asks for it, in a later cycle; while "
        "no test asks for one, the whole body can be the empty list (Rust `Vec::new()`, Python "
        "`return []`).\n"
    )


# a placeholder of a format string: Rust's `{}`, `{n}`, `{:>3}`, Python's `{}` and `{n!r}` (not an
# escaped `{{`)
_PLACEHOLDER = re.compile(r"(?<!\{)\{[\w.!:<>^+#0-9 -]{0,20}\}(?!\})")
_CODE_STRING = re.compile(r'"((?:[^"\\\n]|\\.){0,300})"')


def _formatted(value: str, sources: Mapping[str, str]) -> str | None:
    """The code file whose format string gives `value` (`format!("{} is a multiple of neither 3,
    5, nor 7", n)` gives "5 is a multiple of …"), as `where ("template")`; None when none does.
    A template of fewer
    than MIN_STRAY fixed characters (`"{}"`, `"{}{}"`) fits anything and names nothing."""
    for path, text in sources.items():
        for match in _CODE_STRING.finditer(text):
            template = match.group(1)
            parts = _PLACEHOLDER.split(template)
            if len(parts) >= 2 and len("".join(parts).strip()) >= MIN_STRAY and _fits(parts, value):
                return f'{path} ("{template}")'
    return None


def _fits(parts: list[str], value: str) -> bool:
    """Whether `value` is `parts` with something (one character or more) between each two: each
    middle part placed as early as it fits, which leaves the most room for the rest (no regex: a
    lazy `.+?` per placeholder backtracks for seconds on a long value)."""
    first, *middle, last = parts
    if not value.startswith(first):
        return False
    position = len(first)
    for part in middle:
        found = value.find(part, position + 1)
        if found < 0:
            return False
        position = found + len(part)
    return value.endswith(last) and len(value) - len(last) >= position + 1


def _advice(value: str, wanted: str | None, messages: list[str]) -> str:
    """What to do about the stray `value`, from what it is: two of the kata's messages joined
    ("must be at least 8 characters and contain a digit"), the expected one with words around it
    ("Password must be at least 8 characters long"), or the kata's message reworded ("must
    contain at least one special character") and perhaps given where another was expected."""
    joined = _joined(value, messages)
    if joined:
        quoted = " and ".join(f'"{message}"' for message in joined)
        return f"it joins the kata's messages {quoted}: each comes from a check of its own."
    if wanted is not None and wanted.lower() in value.lower():
        return f'the test expects "{wanted}" there: write exactly "{wanted}" instead.'
    near = max(messages, key=lambda message: _likeness(value, message), default=None)
    if near is not None and _likeness(value, near) >= NEAR:
        advice = f'the kata\'s message is "{near}": write exactly that.'
        if wanted is not None and wanted != near:
            advice += (
                f' Where it appears the test expects "{wanted}": the check that gives it must '
                "not fire for that input."
            )
        return advice
    if wanted is not None:
        return f'the test expects "{wanted}" there: give that value instead.'
    return "give the value the test expects instead."


def _likeness(value: str, message: str) -> float:
    return SequenceMatcher(None, value.lower(), message.lower()).ratio()


def _joined(value: str, messages: list[str]) -> list[str]:
    """The kata's messages that the parts of `value` (split at "and", "or", commas) each quote or
    lie within, when there are two or more."""
    found: list[str] = []
    for part in _JOINS.split(value):
        part = part.strip().lower()
        if len(part) < MIN_STRAY:
            continue
        message = next((m for m in messages if part in m.lower() or m.lower() in part), None)
        if message is not None and message not in found:
            found.append(message)
    return found if len(found) > 1 else []
