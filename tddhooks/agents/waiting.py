"""Requirements that wait for a put-off one (docs/prompts.md, "What an agent sees
(prompt budget)").

A requirement whose examples give a value that holds a put-off requirement's quoted word builds
on it. While that one is put off, the tester is not pointed at the one built on it but at a
requirement it can finish alone; both come back after the others. Only the kata's requirements
and examples, as the kata grammar states them, are read."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tddhooks.agents.examples import Value, kata_examples

# a word a value must hold to count: a short one ("1", "no") is in too many values by chance
SHORTEST_WORD = 3


def waiting_on(requirements: Sequence[str], put_off: Iterable[int]) -> set[int]:
    """The requirements (0-based, `whole` texts) that build on a `put_off` one and are not put
    off themselves: an example of theirs gives a value that holds a put-off one's word and is
    not that word, or lists that word among several."""
    put_off = set(put_off)
    if not put_off:
        return set()
    examples = kata_examples(requirements)
    held = {
        value
        for example in examples
        if example.requirement - 1 in put_off
        for kind, value in example.values or ()
        if kind == "str" and len(value) >= SHORTEST_WORD and any(c.isalpha() for c in value)
    }
    return {
        example.requirement - 1
        for example in examples
        if example.requirement - 1 not in put_off and _builds(example.values or (), held)
    }


def _builds(values: Sequence[Value], held: set[str]) -> bool:
    strings = [value for kind, value in values if kind == "str"]
    if len(values) > 1:  # a list: one of its items is a put-off one's word
        return any(value in held for value in strings)
    return any(word in value and word != value for value in strings for word in held)
