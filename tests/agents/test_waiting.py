"""agents/waiting.py: which requirements build on a put-off one (docs/agents.md)."""

from __future__ import annotations

import pytest

from tddhooks.agents.waiting import waiting_on
from tddhooks.policy.compose import kata_requirements
from tddhooks.resources import read_template


def _requirements(kata: str) -> list[str]:
    return kata_requirements(read_template(f"katas/{kata}.md"), whole=True)


@pytest.mark.parametrize(
    ("kata", "put_off", "waiting"),
    [
        ("fizzbuzz", {4}, {5}),  # "Whizz" in "FizzWhizz", "BuzzWhizz", "FizzBuzzWhizz"
        ("fizzbuzz", {1}, {3, 5}),  # "Fizz" in "FizzBuzz" and "FizzWhizz"
        ("fizzbuzz", {3}, {5}),  # "FizzBuzz" in "FizzBuzzWhizz"
        ("fizzbuzz", {0}, set()),  # "1", "2", "97": no words
        ("fizzbuzz", {5}, set()),  # the last word-joining one: nothing builds on it
        ("fizzbuzz", {6}, set()),  # a refusal gives no value
        ("fizzbuzz", {4, 5}, set()),  # put off itself: not waiting as well
        ("fizzbuzz", set(), set()),
        ("password-validation", {2}, {7}),  # "must contain a digit" listed in requirement 8
        ("password-validation", {4}, set()),  # "abc" lacks no lowercase letter
        ("password-validation", {6}, set()),
        ("password-validation", {7}, set()),
        ("string-calculator", {1}, set()),  # numbers only
        ("game-of-life", {0}, set()),  # no letter in "...": no word
    ],
)
def test_the_requirements_that_build_on_a_put_off_one(
    kata: str, put_off: set[int], waiting: set[int]
) -> None:
    assert waiting_on(_requirements(kata), put_off) == waiting


def test_a_value_that_only_equals_the_word_does_not_build_on_it() -> None:
    requirements = [
        'A greeting: 1 gives "Hello".',
        'Another greeting: 2 gives "Hello".',
        'A longer one: 3 gives "Hello there".',
        'A short word is no word: 4 gives "no", 5 gives "not now".',
    ]
    assert waiting_on(requirements, {0}) == {2}
    assert waiting_on(requirements, {3}) == set()  # "no" is too short; "not now" is its own
