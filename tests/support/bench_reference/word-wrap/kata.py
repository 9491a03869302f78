"""Reference solution of the word-wrap kata: its acceptance suite must pass on it."""

from __future__ import annotations


def wrap(text: str, width: int) -> str:
    if width < 1:
        raise ValueError(f"the width must be at least 1, not {width}")
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) <= width:
            line += " " + word
            continue
        if line:
            lines.append(line)
        while len(word) > width:
            lines.append(word[:width])
            word = word[width:]
        line = word
    return "\n".join([*lines, line] if line else lines)
