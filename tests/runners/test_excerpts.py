"""An excerpt of long output starts at a line, never mid-word (pure)."""

from __future__ import annotations

from tddhooks.runners.common import tail_chars


def test_the_tail_of_long_output_starts_at_a_line() -> None:
    output = "".join(f"note: `#[warn(dead_code)]` on by default {n}\n" for n in range(400))
    tail = tail_chars(output, 1000)
    assert len(tail) <= 1000
    assert tail.startswith("note: `#[warn(dead_code)]`")
    assert tail.endswith("on by default 399\n")
    assert tail_chars("short\n", 1000) == "short\n"
