"""A value the failing test got that only the code says: a string literal in the code that no test
and no line of the kata asks for, named in a red attempt's failure (docs/agents.md, "Hints on a
red attempt").

Measured (r41, Password Validation): the 1.5B implementor's first code returned one invented
sentence for every broken rule ("Password must be at least 8 characters long and contain at least
one uppercase, lowercase, and digit."); the first test only wanted an empty list, so it landed.
In the next turn all five attempts kept that sentence, the gate saying only `left: ["Password
must …"]`, `right: ["must contain a lowercase letter"]`. The hint names the literal and where it
is; what to write instead stays the test's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

# the sides of a failed comparison: Rust's `left:`/`right:` lines, pytest's `assert … == …`
_SIDES = re.compile(r"^\s*(?:left|right):.*$|^E\s+(?:AssertionError: )?assert .*$", re.MULTILINE)
_LITERAL = re.compile(r'"((?:[^"\\\n]|\\.){4,})"' + r"|'((?:[^'\\\n]|\\.){4,})'")
MAX_STRAYS = 2


def stray_values(
    failure: str, sources: Mapping[str, str], tests: Mapping[str, str], kata: str
) -> str:
    """Hint lines (each ending in a line break; "" when none) for each string of at least four
    characters in the failed comparison that a source file of `sources` (path -> text) holds and
    no test file nor the kata does."""
    found: dict[str, str] = {}
    for side in _SIDES.finditer(failure):
        for literal in _LITERAL.finditer(side.group()):
            value = literal.group(1) or literal.group(2) or ""
            if value in found or any(value in text for text in (*tests.values(), kata)):
                continue
            place = next((path for path, text in sources.items() if value in text), None)
            if place is not None:
                found[value] = place
    lines = [
        f'Hint: "{value}" comes from {place}, and no test and no line of the kata asks for it: '
        "give the value the test expects instead, or remove the code that gives it.\n"
        for value, place in list(found.items())[:MAX_STRAYS]
    ]
    return "".join(lines)
