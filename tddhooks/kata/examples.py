"""The kata's example grammar: `INPUT gives …` (and the arrows people write for it) and `INPUT
panics` in its requirements, read as the input and what it gives (pure). agents/examples.py holds a
new test against these examples (docs/kata-checks.md, "A test that contradicts the kata")."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

# a literal as a kata writes one: a double-quoted string or a whole number (from its first digit:
# a long run of digits is not tried from each of them; not the "000" of "1,000")
_LITERAL = r'"(?:[^"\\\n]|\\.)*"|(?<![\w.-])(?<!\d,)-?\d+'
_SUBJECT = re.compile(r'(?P<given>"(?:[^"\\\n]|\\.)*"|(?<![\w.])(?<!\d,)-?\d+)\s*\Z')
_ITEM = re.compile(r'(?P<literal>"(?:[^"\\\n]|\\.)*"|-?\d+(?!\w|\.\d)|[Tt]rue\b|[Ff]alse\b)')
_SEPARATOR = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+")
_THAT_ONE = re.compile(r"(?:exactly\s+|just\s+|only\s+)?that\s+one\s+\w+")
# "no errors" (or "no error"), not "no Fizz": a count of nothing is plural
_NONE = re.compile(
    r"no\s+(?:\w+s|error|item|element|value|result|output|message|problem|warning|violation)\b"
    r"|nothing\b|an\s+empty\s+(?:list|string)\b"
)
_REFUSED = re.compile(
    rf"(?P<given>{_LITERAL})\s+(?:panics|raises|fails|errors|is\s+(?:refused|rejected))\b"
)
# `1 gives "1"`, and the arrows people write for it: `1996 -> true`, `3 → "Fizz"`, `5 => "Buzz"`
_ANY_GIVES = re.compile(r"\bgives\s+|(?:(?<![-=<])(?:->|=>)(?!>)|→)\s*")
# after a literal: its own refusal, no item of the list before it (`2 gives "2", 0 panics`)
_REFUSES = re.compile(r"\s+(?:panics|raises|fails|is\s+(?:refused|rejected))\b")
_REACH = 300  # the longest subject literal read before a `gives`
# a literal after one of these words is a bound, not an example: "a number above 3999 is
# rejected", "larger than 1000 gives 0", "a multiple of 3 but not 5 gives \"Fizz\""; a number
# after "of" or "by" names a class: "a multiple of both 3 and 5 gives \"FizzBuzz\"" (not 5),
# "divisible by 100 but not by 400 gives 365" (not 400)
_BOUND = re.compile(
    r"(?:\b(?:above|below|over|under|than|before|after|beyond|exceeding|past|least|most|except"
    r"|not|nor|neither|to)|[<>]=?)\s*\Z",
    re.IGNORECASE,
)
# an arrow after one of these words spans a range, it gives nothing: "for n in 0 -> 20", "the
# numbers 1 → 100", "from 1 => 10", "between 1 -> 3999"
_RANGE = re.compile(r"\b(?:in|from|between|range|numbers)\s*\Z", re.IGNORECASE)
_CLASS = re.compile(r"\b(?:of|by)\s+(?:both\s+|either\s+)?(?:-?\d+\s*(?:,|and|or|nor)\s*)*\Z", re.I)
# `(?<!\s)`: a long run of spaces is not tried from each of them
_CONVERTED = re.compile(r"(?<!\s)\s*\.\s*(?:to_string|to_owned|into|as_str)\s*\(\s*\)$")
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'')
Value = tuple[str, str]  # ("str", content), ("int", digits) or ("bool", "true"/"false")


@dataclass(frozen=True)
class Example:
    """One input the kata gives a result for. `values` None: the input is refused (panics,
    raises, fails). `whole`: `values` is the whole list (a count the kata states), not only the
    value of a function that may return one item."""

    requirement: int
    said: str
    given: Value
    values: tuple[Value, ...] | None
    whole: bool

    @property
    def messages(self) -> list[str] | None:
        """The strings of an example the kata gives whole as a non-empty list of strings (its
        messages, drive/misplaced.py); None for any other (a number among them, a refusal)."""
        if not self.whole or not self.values:
            return None
        said = [value[1] for value in self.values if value[0] == "str"]
        return said if len(said) == len(self.values) else None


def read_value(literal: str) -> Value | None:
    """A kata's or a test's literal as a comparable value; None when it is no plain literal."""
    text = literal.strip()
    for wrapper in ("Ok(", "Some("):
        if text.startswith(wrapper) and text.endswith(")"):
            return read_value(text[len(wrapper) : -1])
    for prefix, suffix in (("String::from(", ")"), ("str(", ")")):
        if text.startswith(prefix) and text.endswith(suffix):
            text = text[len(prefix) : -len(suffix)].strip()
    text = _CONVERTED.sub("", text)
    if _STRING.fullmatch(text):  # one literal: not `"Fizz" + "Buzz"`, `"""…"""` or `"1" and …`
        return ("str", text[1:-1].replace('\\"', '"').replace("\\'", "'"))  # 'a"b' is "a\"b"
    if text in ("true", "false", "True", "False"):  # a Leap Year kata's 1996 gives true
        return ("bool", text.lower())
    number = re.fullmatch(r"(-?\d[\d_]*?)_?(?:[iu](?:8|16|32|64|128|size))?", text)
    if number:
        return ("int", str(int(number.group(1).replace("_", ""))))
    return None


# a literal in backticks reads as the literal: `5` gives `"Buzz"`
_TICKED = re.compile(r'`(-?\d+(?:\.\d+)?|"(?:[^"\\`]|\\.)*"|[Tt]rue|[Ff]alse)`')


def kata_examples(requirements: Sequence[str]) -> list[Example]:
    """Every `INPUT gives …` and `INPUT panics` of the kata's requirements (`whole` text)."""
    found: list[Example] = []
    for number, text in enumerate(requirements, start=1):
        flat = _TICKED.sub(r"\1", " ".join(text.split()))
        last: tuple[Value, ...] = ()
        for match in _ANY_GIVES.finditer(flat):
            parsed, end = _given_values(flat, match.end())
            # the literal just before `gives`, looked for in the text just before it (not from the
            # requirement's start at each `gives`: quadratic on a long line)
            before = flat[max(0, match.start() - 2) : match.start()].rstrip()[-1:]
            subject = (
                _SUBJECT.search(flat, max(0, match.start() - _REACH), match.start())
                if before == '"' or before.isdigit()  # a literal ends there: else none is read
                else None
            )
            if subject and _bound(flat, subject.start(), arrow=not match[0].startswith("gives")):
                subject = None
            given = read_value(subject["given"]) if subject else None
            if given is None or subject is None:
                last = parsed or last
                continue
            if parsed:
                said = flat[subject.start() : end]
                found.append(Example(number, said, given, parsed, len(parsed) > 1))
            elif (one := _THAT_ONE.match(flat, match.end())) and last:
                said = flat[subject.start() : one.end()]
                found.append(Example(number, said, given, last[:1], True))
            elif none := _NONE.match(flat, match.end()):
                said = flat[subject.start() : none.end()]
                found.append(Example(number, said, given, (), True))
        for refused in _REFUSED.finditer(flat):
            if _bound(flat, refused.start()):
                continue
            given = read_value(refused["given"])
            if given is not None and not (given[0] == "int" and refused[0].endswith("errors")):
                found.append(Example(number, refused[0], given, None, False))  # not "4 errors"
    return found


def _bound(flat: str, start: int, arrow: bool = False) -> bool:
    """Whether the literal at `start` is a bound or a class, not an example (`_BOUND`), or, before
    an `arrow`, the start of a range (`_RANGE`)."""
    if _BOUND.search(flat, max(0, start - 12), start):
        return True
    if arrow and _RANGE.search(flat, max(0, start - 12), start):
        return True
    return flat[start] != '"' and _CLASS.search(flat, max(0, start - 60), start) is not None


def _after_spaces(text: str, start: int) -> int:
    """Where the next non-space character of `text` from `start` is."""
    while start < len(text) and text[start].isspace():
        start += 1
    return start


def _given_values(flat: str, start: int) -> tuple[tuple[Value, ...], int]:
    """The literals a `gives` gives, from `start`, and where they end: `"a", "b" and "c"`; a
    literal followed by its own `gives` (`1 gives "1", 2 gives "2"`) or refusal (`0 panics`) starts
    the next example."""
    values: list[Value] = []
    position = end = start
    while item := _ITEM.match(flat, position):
        if (
            _ANY_GIVES.match(flat, _after_spaces(flat, item.end()))
            or _REFUSES.match(flat, item.end())
            or (value := read_value(item["literal"])) is None
        ):
            break
        values.append(value)
        position = end = item.end()
        separator = _SEPARATOR.match(flat, position)
        if separator is None:
            break
        position = separator.end()
    return tuple(values), end
