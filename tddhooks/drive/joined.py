"""A test that expects the kata's words joined where the code gives one (docs/agents.md, "Hints on
a red attempt").

Measured (r65, FizzBuzz cycle 4 at 66828da, and r49 before it): for "21 gives "FizzWhizz"" the
1.5B implementor kept the code's chain of early returns (`if n % 3 == 0 { return "Fizz" }`) in
ten attempts of two turns, told only the gate's `left: "Fizz"`, `right: "FizzWhizz"`; the
requirement was set aside twice and the run ended at 3 of 6 cycles. The words are the kata's own,
so drive/strays.py and drive/extras.py say nothing.

Read per failed comparison of one string with one string: the expected string (the right side,
as `assert_eq!(say(21), "FizzWhizz")` and pytest's `assert say(21) == "FizzWhizz"` put it)
splits into two or more of the kata's quoted words of three letters or more, in order, and the
code's string is another. The hint shows the shape that builds such an answer: one check per
word, each adding its word.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from tddhooks.drive.strays import Comparison, comparisons, literals

_QUOTED = re.compile(r'"([^"\n]{1,40})"')
# a failing test's line of the gate's pytest excerpt (runners/pytest_output.py): `… failed at
# tests/t.py:5: AssertionError: assert 'Fizz' == 'FizzWhizz'`, no `E` line
_STRING = r"""(?:'[^'\n]*'|"[^"\n]*")"""
_PYTEST_LINE = re.compile(
    rf"AssertionError: assert (?P<left>{_STRING}) == (?P<right>{_STRING})\s*$", re.MULTILINE
)
_OPEN = {"rust": "let mut said = String::new();", "python": 'said = ""'}
_CHECK = {
    "rust": 'if … {{\n    said.push_str("{}");\n}}',
    "python": 'if …:\n    said += "{}"',
}


def joined_words(failure: str, language: str, kata: str) -> str:
    """One hint line (ending in a line break; "" when none) for the first failed comparison whose
    expected string is two or more of the kata's words joined and whose given string differs."""
    words = _kata_words(kata)
    if len(words) < 2:
        return ""
    for left, right, cut, _empty in [*comparisons(failure), *_pytest_lines(failure)]:
        if cut or len(left) != 1 or len(right) != 1:
            continue
        got, wanted = left[0], right[0]  # `assert_eq!(say(21), "FizzWhizz")`, pytest's too
        parts = _split(wanted, words - {wanted})
        if parts is None or len(parts) < 2 or got == wanted:
            continue
        listed = " and ".join(f'"{part}"' for part in parts)
        hint = (
            f'Hint: the test expects "{wanted}", the kata\'s words {listed} joined in that order, '
            f'and the code gives "{got}": do not return at the first word that fits; build the '
            "answer word by word, one check per word adding its word, and give it when a word "
            "was added"
        )
        if language not in _OPEN:
            return hint + ".\n"
        checks = [_CHECK[language].format(part) for part in dict.fromkeys(parts)]
        code = "\n".join([_OPEN[language], *checks])
        return f"{hint}:\n```{language}\n{code}\n```\n"
    return ""


def _kata_words(kata: str) -> set[str]:
    """The kata's quoted words of three letters or more: Roman numerals' "X" and "IV" are no
    words to join."""
    return {word for word in _QUOTED.findall(kata) if word.isalpha() and len(word) >= 3}


def _pytest_lines(failure: str) -> list[Comparison]:
    return [(literals(found["left"]), literals(found["right"]), False, False)
            for found in _PYTEST_LINE.finditer(failure)]  # fmt: skip


def _split(text: str, words: set[str]) -> list[str] | None:
    """`text` as a sequence of `words`, the shortest word first at each place ("FizzBuzzWhizz"
    as "Fizz", "Buzz", "Whizz", though the kata quotes "FizzBuzz" too); None when it is not
    one."""
    if not text:
        return []
    for word in sorted((w for w in words if text.startswith(w)), key=len):
        rest = _split(text[len(word) :], words)
        if rest is not None:
            return [word, *rest]
    return None


def joined_shape(tests: Collection[str], code: Collection[str], kata: str, language: str) -> str:
    """The preparatory refactor's hint (ending in a line break; "" when none) when the stuck
    tests (`tests`, their texts) expect the kata's words joined: build the answer word by word
    with the words the `code` says already, so the implementor's next try adds one check.
    Measured (r71, FizzBuzz at 8054b40): asked only to "restructure the source so that change
    becomes easy" for `say(21) == "FizzWhizz"`, the 1.5B refactorer gave back the chain of early
    returns unchanged, and the implementor kept that chain in five attempts more."""
    words = _kata_words(kata)
    splits: list[list[str]] = [
        parts
        for text in tests
        for wanted in _QUOTED.findall(text)
        if (parts := _split(wanted, words - {wanted})) is not None and len(parts) >= 2
    ]
    if not splits or len(words) < 2:
        return ""
    said = {word for text in code for word in _QUOTED.findall(text)}
    order = [word for parts in sorted(splits, key=len, reverse=True) for word in parts]
    kept = [word for word in dict.fromkeys(order) if word in said]
    if not kept or any(_adds(text, word) for text in code for word in kept):
        return ""  # no word said, or the code builds word by word already
    longest: list[str] = max(splits, key=len)
    wanted = "".join(longest)
    hint = (
        f'The test expects the kata\'s words joined ("{wanted}"). Restructure the code to build '
        "the answer word by word, one check per word it says now adding that word, giving the "
        "answer built when a word was added and what it gives now otherwise; add no new word yet"
    )
    if language not in _OPEN:
        return hint + ".\n"
    checks = [_CHECK[language].format(word) for word in kept]
    return f"{hint}:\n```{language}\n" + "\n".join([_OPEN[language], *checks]) + "\n```\n"


def _adds(code: str, word: str) -> bool:
    return f'push_str("{word}")' in code or re.search(rf'\+=\s*"{word}"', code) is not None
