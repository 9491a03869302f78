"""A refactor that spreads the kata's messages over more functions (docs/agents.md, "A refactor
that changes what the kata says").

Measured (r53, Password Validation at ff1bcfc): cycles 1–4 landed one `if … { errors.push(…) }`
per rule in `validate`. The cycle-4 refactorer then moved the uppercase rule into a helper
`fn validate_rules(password: &str, errors: &mut Vec<String>)`, and cycles 5 and 6 failed: the
1.5B implementor's whole-file edits lost the helper or wrote it twice in all ten attempts.

Read only for a kata whose results are lists of messages in a set order (an example it gives
whole as two or more strings: "abc" gives the length, digit, uppercase and special-character
messages, in the order of the rules): there, one function with one check per rule is what the
kata asks for, and the order stays visible. A refactor that leaves the kata's messages in as many
functions as before (or fewer) is not read, nor any other kata's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from tddhooks.agents.examples import Example
from tddhooks.drive.rustcode import blanked_text, spans

_RUST_FN = re.compile(r"\bfn\s+(?P<name>\w+)")
_PY_DEF = re.compile(r"^(?P<indent>[ \t]*)(?:async\s+)?def\s+(?P<name>\w+)", re.MULTILINE)
MODULE = "(the module)"


def ordered_messages(examples: Iterable[Example]) -> frozenset[str]:
    """The strings the kata gives as whole lists of messages, when one of its examples lists two
    or more in a set order; empty for any other kata."""
    lists = []
    for example in examples:
        said = [value[1] for value in example.values or () if value[0] == "str"]
        if example.whole and example.values and len(said) == len(example.values):
            lists.append(said)
    if not any(len(said) >= 2 for said in lists):
        return frozenset()
    return frozenset(message for said in lists for message in said)


def _rust_holders(text: str, messages: frozenset[str]) -> dict[str, list[str]]:
    blank = blanked_text(text)
    closing, open_at = {}, []  # each `{` by index -> the index of its `}` (the end if none)
    for index, char in enumerate(blank):
        if char == "{":
            open_at.append(index)
        elif char == "}" and open_at:
            closing[open_at.pop()] = index
    ranges: list[tuple[int, int, str]] = []
    for found in _RUST_FN.finditer(blank):
        brace = blank.find("{", found.end())
        semicolon = blank.find(";", found.end(), brace if brace >= 0 else len(blank))
        if brace < 0 or semicolon >= 0:
            continue  # a declaration without a body (a trait's)
        ranges.append((found.start(), closing.get(brace, len(blank)), found["name"]))
    holders: dict[str, list[str]] = {}
    for span in spans(text):
        content = text[span.start : span.end]
        if span.comment or content not in messages:
            continue
        inside = [r for r in ranges if r[0] <= span.start <= r[1]]
        name = min(inside, key=lambda r: r[1] - r[0])[2] if inside else MODULE
        holders.setdefault(name, []).append(content)
    return holders


def _python_holders(text: str, messages: frozenset[str]) -> dict[str, list[str]]:
    lines = text.splitlines()
    holders: dict[str, list[str]] = {}
    stack: list[tuple[int, str]] = []  # (indent, name) of the defs the line is inside
    for line in lines:
        stripped = line.lstrip()
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(line) - len(stripped)
        while stack and indent <= stack[-1][0]:
            stack.pop()
        definition = _PY_DEF.match(line)
        for quote in ('"', "'"):
            for message in messages:
                if f"{quote}{message}{quote}" in line:
                    holders.setdefault(stack[-1][1] if stack else MODULE, []).append(message)
        if definition is not None:
            stack.append((indent, definition["name"]))
    return holders


def holders(text: str, messages: frozenset[str], language: str) -> dict[str, list[str]]:
    """The functions of a source file that hold one of `messages` as a string literal (a
    method or nested function by its own name; outside any, `MODULE`), with what each holds."""
    if language == "python":
        return _python_holders(text, messages)
    return _rust_holders(text, messages)


def spread_messages(
    before: Mapping[str, str],
    after: Mapping[str, str],
    examples: Sequence[Example],
    language: str,
) -> str | None:
    """Why a refactor of the source files `before` (path -> text at HEAD) into `after` (the
    files it wrote) spreads the kata's messages over more functions; None when it does not, or
    when the kata's results are no ordered lists of messages."""
    messages = ordered_messages(examples)
    if not messages:
        return None

    def held(texts: Mapping[str, str]) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for text in texts.values():
            for name, held_here in holders(text, messages, language).items():
                found.setdefault(name, []).extend(held_here)
        return found

    was = held(before)
    now = held({**before, **after})
    if len(now) <= max(len(was), 1):
        return None
    new = [name for name in now if name not in was] or list(now)
    home = max(was, key=lambda name: len(was[name])) if was else None
    moved = now[new[0]][0]
    where = "`" + new[0] + "`" if new[0] != MODULE else "the module, outside any function"
    source = f" out of `{home}`" if home and home != MODULE else ""
    return (
        f'the refactor moves the kata\'s message "{moved}"{source} into {where}: the kata lists '
        "every broken rule in a set order, which stays right when each check and its message "
        "sit in one function, one check after another in the order of the rules. Keep the "
        'checks where they are: make another small change, or send "edits": [] and say why in '
        '"plan"'
    )
