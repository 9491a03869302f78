"""Reference solution of the roman-numerals kata: its acceptance suite must pass on it."""

from __future__ import annotations

NUMERALS = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"),
            (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]  # fmt: skip


def to_roman(n: int) -> str:
    if not 1 <= n <= 3999:
        raise ValueError(f"{n} is out of range: 1 to 3999")
    numeral = ""
    for value, letters in NUMERALS:
        count, n = divmod(n, value)
        numeral += letters * count
    return numeral
