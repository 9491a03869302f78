"""Which requirement of the kata a cycle works on: the `Kata goal` the prefill and the agents'
messages quote (pure; docs/policy.md, "Kata goal").

A TDD cycle is one test for one behaviour, so the cycle's own new test says what it is about:
1. the commit adds tests: the requirement their names match best;
2. it adds none, right after a feat:/fix: (a refactor of that cycle): the goal that feature
   commit quoted;
3. otherwise: the requirement the next test was due to take on before this commit
   (`next_requirement` of the tree without the commit's own tests: a test whose name matches no
   requirement covers the earliest one still open, as tests are written in the kata's order);
4. every requirement matched already: the last one; a kata without a requirements list: its one
   goal sentence (compose.kata_goal).

Matching: a requirement's keywords are its words of three letters or more (and its numbers of
three digits or more: `century_not_divisible_by_400` is about "… but not by 400"), minus a few
common words, a trailing plural `s` dropped; a test name's are the same words of its function name
(snake_case and camelCase split). Each keyword weighs 1 / (how many requirements have it), so the
words that tell requirements apart count most: "adds_two_numbers" matches "Add two numbers."
(add 1 + two 1/2 + number 1/2 = 2) over "Subtract two numbers." (two, number: 1). A test is
about the requirement it scores best on (the earlier one on a tie), when that score is at least 1.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

_WORD_RE = re.compile(r"[A-Za-z]+|[0-9]+")  # a number of three digits or more is a word
_CAMEL_RE = re.compile(r"(?<=[a-z])(?=[A-Z])")
_COMMON = frozenset(
    ("the", "and", "for", "with", "that", "this", "when", "then", "from", "into", "are", "was",
     "were", "has", "have", "its", "not", "but", "can", "should", "must", "will", "shall", "may",
     "each", "every", "all", "any", "test", "tests", "returns", "return", "given")
)  # fmt: skip
MATCH = 1.0


def keywords(text: str) -> frozenset[str]:
    """The words that can tell requirements apart (lower case, plural `s` dropped)."""
    words = _WORD_RE.findall(_CAMEL_RE.sub(" ", text.replace("_", " ")))
    found = set()
    for word in (w.lower() for w in words):
        if len(word) < 3 or word in _COMMON:
            continue
        found.add(word[:-1] if word.endswith("s") and len(word) > 3 else word)
    return frozenset(found)


def _function(name: str) -> str:
    """`tests/adds.rs::module::adds_two` -> `adds_two`; a parameter suffix dropped."""
    return name.rsplit("::", 1)[-1].split("[", 1)[0]


def _scores(requirements: Sequence[str], name: str) -> list[float]:
    sets = [keywords(requirement) for requirement in requirements]
    weight: dict[str, float] = {}
    for words in sets:
        for word in words:
            weight[word] = weight.get(word, 0.0) + 1.0
    mine = keywords(_function(name))
    return [sum(1.0 / weight[word] for word in words & mine) for words in sets]


def about(requirements: Sequence[str], name: str) -> tuple[float, int] | None:
    """(score, index) of the requirement test `name` is about: its best match (the earlier one
    on a tie), when that scores at least MATCH; None when it matches none."""
    scored = [(score, -index) for index, score in enumerate(_scores(requirements, name))]
    if not scored:
        return None
    score, index = max(scored)
    return (score, -index) if score >= MATCH else None


def cycle_requirement(
    requirements: Sequence[str], added_tests: Iterable[str], tree_tests: Iterable[str]
) -> str | None:
    """The requirement the cycle works on (rules in the module docstring); None without any."""
    if not requirements:
        return None
    added = list(added_tests)
    matches = [found for name in added if (found := about(requirements, name))]
    if matches:
        return requirements[max(matches, key=lambda found: (found[0], -found[1]))[1]]
    before = [name for name in tree_tests if name not in added]
    index = next_requirement(requirements, before)
    return requirements[-1] if index is None else requirements[index]


def cycle_goal(
    kata_text: str,
    added_tests: Iterable[str],
    tree_tests: Iterable[str],
    feature_goal: str | None = None,
) -> str:
    """The `Kata goal` line for a commit adding `added_tests` to a tree with `tree_tests`.
    `feature_goal`: the goal the cycle's feature commit quoted (HEAD is a feat:/fix: and this
    commit adds no test: a refactor of the same cycle quotes the same requirement)."""
    from tddhooks.kata.markdown import kata_goal, kata_requirements

    added = list(added_tests)
    requirements = kata_requirements(kata_text)
    if feature_goal and not added:
        return feature_goal
    found = cycle_requirement(requirements, added, tree_tests)
    return found if found is not None else kata_goal(kata_text)


def next_requirement(
    requirements: Sequence[str], tree_tests: Iterable[str], working: Iterable[int] = ()
) -> int | None:
    """Index of the requirement the tester's next test should take on; None when every one has
    a test. A test whose name matches a requirement covers it; each test that matches none is
    taken to cover the earliest requirement still open (tests are written in the kata's order),
    so an oddly named test never sends the tester back to a requirement it already did; the
    `working` ones are taken as covered."""
    covered, unmatched = _matched(requirements, tree_tests)
    # `working`: requirements a drive found already working (a test for it passed at once)
    covered.update(working)
    open_ones = [index for index in range(len(requirements)) if index not in covered]
    return open_ones[unmatched] if unmatched < len(open_ones) else None


def back_to(
    requirements: Sequence[str],
    tree_tests: Iterable[str],
    working: Iterable[int],
    put_off: Iterable[int],
) -> int | None:
    """Index of the requirement the tester goes back to once every one but the `put_off` ones
    (a drive set their tests aside) has a test; None when none is left. The tests that match no
    requirement cover the open ones that were not put off first, in order (they were written
    while the put-off ones waited), then the put-off ones: counted from a put-off requirement,
    they would leave a requirement they test open and point the tester at it again."""
    covered, unmatched = _matched(requirements, tree_tests)
    covered.update(working)
    waiting = set(put_off)
    open_ones = [index for index in range(len(requirements)) if index not in covered]
    order = [i for i in open_ones if i not in waiting] + [i for i in open_ones if i in waiting]
    return order[unmatched] if unmatched < len(order) else None


def _matched(requirements: Sequence[str], tree_tests: Iterable[str]) -> tuple[set[int], int]:
    """The requirements tests match by name, and how many tests match none."""
    covered: set[int] = set()
    unmatched = 0
    for name in tree_tests:
        found = about(requirements, name)
        if found is None:
            unmatched += 1
        else:
            covered.add(found[1])
    return covered, unmatched
