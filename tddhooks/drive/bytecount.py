"""A Rust implementor change or refactor that measures a string parameter with `.len()` (bytes)
in a kata that counts characters, not bytes (docs/agents.md, "What the staged test expects").

Measured (r53 at ff1bcfc, r55 at 21925d2, Password Validation): the length check landed as
`password.len() < 8` both times, and the hidden test of "Äbc1!xy" (7 characters, 8 bytes)
failed. In r55 the implementor's prompt said how Rust counts characters (drive/gather.py
`COUNT_CHARACTERS`), and the 1.5B model wrote `.len()` all the same. So a change that adds such
a `.len()` is sent back naming its own expression, at most twice in a turn (drive/misplaced.py
`Tells`); the attempt that keeps it after that lands. A refactor is sent back every time (it
keeps behaviour, and `.len()` for `.chars().count()` changes it for "Äbc1!xy"): measured (r57 at
d6398a2) the implementor landed `password.chars().count() < 8`, and the cycle's refactorer made it
`password.len() < 8`, which no test and no example of the kata tells apart.

Only a parameter declared `&str`, `&mut str`, `&'a str`, `String` or `&String` counts; a
comment or a string literal is never read; a `.len()` HEAD had already is not this change's.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping

from tddhooks.drive.gather import NOT_BYTES
from tddhooks.drive.misplaced import BYTES
from tddhooks.runners.rust_lexer import blanked_text

_STRING_PARAMETER = re.compile(
    r"(?<![\w.])(?P<name>[a-z_]\w*)\s*:\s*&?\s*(?:'\w+\s+)?(?:mut\s+)?(?:str|String)\b"
)


def _byte_lengths(text: str) -> Counter[str]:
    """Each string parameter's `.len()` in `text`, by parameter name, counted."""
    code = blanked_text(text)
    names = {found["name"] for found in _STRING_PARAMETER.finditer(code)} - {"self"}
    counted: Counter[str] = Counter()
    for name in names:
        counted[name] = len(re.findall(rf"(?<![\w.]){re.escape(name)}\s*\.\s*len\s*\(\s*\)", code))
    return counted


REFACTOR_BYTES = "the refactor counts bytes: "  # a refactorer has no staged test to pass


def byte_lengths(
    kata: str, before: Mapping[str, str], after: Mapping[str, str], *, refactor: bool = False
) -> str | None:
    """Why a Rust change or refactor from `before` to `after` (path -> text of the files it
    wrote) measures a string parameter in bytes where the kata counts characters; None when it
    does not."""
    if not NOT_BYTES.search(kata):
        return None
    lead = REFACTOR_BYTES if refactor else BYTES
    for path, text in after.items():
        added = _byte_lengths(text) - _byte_lengths(before.get(path, ""))
        for name in sorted(added):
            return (
                f"{lead}`{name}.len()` is the length of `{name}` in bytes, and the kata counts "
                f"characters, not bytes: write `{name}.chars().count()` there instead, and send "
                'the whole file with "action": "upsert"'
            )
    return None
