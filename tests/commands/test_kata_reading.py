"""What `tddhooks doctor`'s `kata checks` row says a kata gives the drive (read_kata): the forms a
newcomer copies from public kata repositories, each told what was read and what was not."""

from __future__ import annotations

from pathlib import Path

import pytest

from tddhooks.commands.kata_reading import read_kata

ROMAN = "# Roman Numerals\n\nConvert numbers.\n\n## Interface\n\n"
SIGNATURE = "`pub fn to_roman(n: u32) -> String`\n\n"


@pytest.mark.parametrize(
    ("kata", "fix"),
    [
        # a plain `fn`, in backticks or in a fenced block: `pub` is what is missing
        (ROMAN + "`fn to_roman(n: u32) -> String`\n\n## Requirements\n\n1. 1 gives \"I\".\n",
         "`fn to_roman` is read only as `pub fn to_roman(…) -> …`: add `pub`"),
        (ROMAN + "```rust\nfn to_roman(n: u32) -> String {\n    todo!()\n}\n```\n\n"
         "## Requirements\n\n1. 1 gives \"I\".\n",
         "`fn to_roman` is read only as `pub fn to_roman(…) -> …`: add `pub`"),
        # no declaration at all: the form to write
        (ROMAN + "to_roman(n) -> String\n\n## Requirements\n\n1. 1 gives \"I\".\n",
         "name the function in backticks (`pub fn f(n: u32) -> String`)"),
    ],
)  # fmt: skip
def test_a_signature_not_read_is_told_what_to_change(tmp_path: Path, kata: str, fix: str) -> None:
    reading = read_kata(kata, "rust", tmp_path, [])
    assert reading.detail.startswith("no function signature read")
    assert fix in (reading.fix or "")


def test_examples_in_a_section_of_their_own_and_a_table_are_named_as_not_read(
    tmp_path: Path,
) -> None:
    kata = (
        ROMAN + SIGNATURE + "## Examples\n\n| n | roman |\n|---|---|\n| 4 | IV |\n\n"
        "## Requirements\n\n1. Numbers from 1 to 3999.\n"
    )
    reading = read_kata(kata, "rust", tmp_path, [])
    assert reading.detail == (
        "no example read from the numbered requirements: the drive checks none "
        "(not read: the `## Examples` section, a table)"
    )
    assert "numbered list under `## Requirements`" in (reading.fix or "")


def test_a_kata_read_in_part_names_the_requirements_without_an_example(tmp_path: Path) -> None:
    (tmp_path / "Cargo.toml").write_text('[package]\nname = "roman"\nversion = "0.1.0"\n')
    kata = (
        ROMAN + SIGNATURE + "## Requirements\n\n"
        '1. Given 1, returns "I".\n2. 4 gives "IV", 9 gives "IX".\n3. 10 gives X.\n'
    )
    reading = read_kata(kata, "rust", tmp_path, ["Cargo.toml"])
    assert reading.problem is None
    assert reading.detail == (
        "interface `to_roman`; 2 of 2 examples run as checks; requirements 1, 3 give no example to "
        "check; "
        'not read: "given …, returns …", `10 gives X` (a string is read in double quotes)'
    )
    assert '`3 gives "Fizz"`' in (reading.fix or "")


def test_a_kata_read_whole_has_no_fix(tmp_path: Path) -> None:
    (tmp_path / "Cargo.toml").write_text('[package]\nname = "roman"\nversion = "0.1.0"\n')
    kata = ROMAN + SIGNATURE + '## Requirements\n\n1. 1 gives "I".\n2. 4 gives "IV".\n'
    reading = read_kata(kata, "rust", tmp_path, ["Cargo.toml"])
    assert reading.detail == "interface `to_roman`; 2 of 2 examples run as checks"
    assert reading.fix is None


def test_a_lone_python_module_is_told_where_to_move(tmp_path: Path) -> None:
    kata = (
        "# Leap Year\n\n## Interface\n\n```python\ndef is_leap_year(year: int) -> bool:\n```\n\n"
        "## Requirements\n\n1. 1996 -> true\n"
    )
    reading = read_kata(kata, "python", tmp_path, ["leap.py", "tests/test_leap.py"])
    assert reading.detail == "1 example read, none the drive can run as a test"
    assert "move `leap.py` to `leap/__init__.py` (imports unchanged)" in (reading.fix or "")


@pytest.mark.parametrize(
    "kata",
    [
        # the shipped Bowling: its examples are prose ("rolls 5, 5, 3 and then zeros score 16")
        "# Bowling\n\n## Interface\n\n`pub fn score(rolls: &[u32]) -> u32`\n\n## Requirements\n\n"
        "1. A spare earns the next roll: rolls 5, 5, 3 and then zeros score 16.\n",
        # a kata of prose only: no function, no example
        "# Addition kata\n\nAdd two numbers, even négatifs.\n",
    ],
)
def test_a_kata_that_gives_nothing_to_read_is_told_so_without_a_fix(
    tmp_path: Path, kata: str
) -> None:
    reading = read_kata(kata, "rust", tmp_path, [])
    assert reading.problem is not None
    assert reading.fix is None  # nothing looked meant to be read: doctor says ok, not warn


def test_a_kata_that_means_a_function_and_gives_none_is_told_how(tmp_path: Path) -> None:
    kata = "# Leap\n\n## Interface\n\nis_leap(year) -> bool\n\n## Requirements\n\n1. Years.\n"
    reading = read_kata(kata, "rust", tmp_path, [])
    assert "name the function in backticks" in (reading.fix or "")


def test_one_requirement_without_an_example_is_named_in_the_singular(tmp_path: Path) -> None:
    # as the shipped string-calculator reads: "An empty string sums to 0." gives no example
    (tmp_path / "Cargo.toml").write_text('[package]\nname = "roman"\nversion = "0.1.0"\n')
    kata = ROMAN + SIGNATURE + '## Requirements\n\n1. Nothing yet.\n2. 4 gives "IV".\n'
    reading = read_kata(kata, "rust", tmp_path, ["Cargo.toml"])
    assert reading.detail == (
        "interface `to_roman`; 1 of 1 examples run as checks; requirement 1 gives no example to "
        "check"
    )
