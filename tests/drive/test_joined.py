"""A test that expects the kata's words joined where the code gives one word is told to build the
answer word by word (drive/joined.py). Measured (r65, FizzBuzz cycle 4 at 66828da): the 1.5B
implementor kept its early returns in ten attempts, told only `left: "Fizz"`, `right:
"FizzWhizz"`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from support.e2e_kit import git, write_files

from tddhooks.drive.joined import joined_shape, joined_words
from tddhooks.drive.ports import RealGate
from tddhooks.policy.settings import load_settings
from tddhooks.resources import read_template

MakeRepo = Callable[..., Path]
FB = read_template("katas/fizzbuzz.md")
ROMAN = '# Roman\n\n## Requirements\n\n1. 4 gives "IV", 10 gives "X", 14 gives "XIV".\n'
# r65's failure, as the implementor was told it
R65_FAILURE = """[test] cargo test --all --no-fail-fast: failed (exit 101)
failing tests: tests/words_join_in_order_fizz.rs::words_join_in_order_fizz
tests/words_join_in_order_fizz.rs::words_join_in_order_fizz: panicked at tests/words_join_in_order_fizz.rs:5:5: assertion `left == right` failed
  left: "Fizz"
  right: "FizzWhizz"
"""  # noqa: E501
EARLY_RS = (
    "pub fn say(n: u32) -> String {\n"
    '    if n % 3 == 0 {\n        return "Fizz".to_string();\n    }\n'
    '    if n % 7 == 0 {\n        return "Whizz".to_string();\n    }\n'
    "    n.to_string()\n}\n"
)


def test_the_r65_failure_gets_the_word_by_word_shape() -> None:
    hint = joined_words(R65_FAILURE, "rust", FB)

    assert hint.startswith(
        'Hint: the test expects "FizzWhizz", the kata\'s words "Fizz" and "Whizz" joined in that '
        'order, and the code gives "Fizz": do not return at the first word that fits'
    )
    assert (
        '```rust\nlet mut said = String::new();\nif … {\n    said.push_str("Fizz");\n}\n'
        'if … {\n    said.push_str("Whizz");\n}\n```\n'
    ) in hint


def test_three_words_are_read_as_three() -> None:
    failure = R65_FAILURE.replace('"FizzWhizz"', '"FizzBuzzWhizz"')
    assert '"Fizz" and "Buzz" and "Whizz" joined' in joined_words(failure, "rust", FB)


@pytest.mark.parametrize(
    "failure",
    [
        # the words in another order than expected: still one per check
        R65_FAILURE.replace('left: "Fizz"', 'left: "WhizzFizz"'),
        # the number itself where the words are expected
        R65_FAILURE.replace('left: "Fizz"', 'left: "21"'),
    ],
)
def test_any_other_value_where_words_are_expected_gets_it(failure: str) -> None:
    assert joined_words(failure, "rust", FB).startswith('Hint: the test expects "FizzWhizz"')


@pytest.mark.parametrize(
    ("failure", "kata"),
    [
        # one word expected: nothing joined
        (R65_FAILURE.replace('"FizzWhizz"', '"Whizz"'), FB),
        # the joined words given where one is expected: the test is the one that wants less
        (
            R65_FAILURE.replace('left: "Fizz"', 'left: "FizzWhizz"').replace(
                'right: "FizzWhizz"', 'right: "Fizz"'
            ),
            FB,
        ),
        # a word the kata does not quote
        (R65_FAILURE.replace('"FizzWhizz"', '"FizzBang"'), FB),
        # Roman numerals are letters, not words: "XIV" is no "X" joined to "IV"
        ('tests/r.rs::r: panicked at x\n  left: "XIIII"\n  right: "XIV"\n', ROMAN),
        # lists are drive/extras.py's
        ('tests/r.rs::r: panicked at x\n  left: ["Fizz"]\n  right: ["Fizz", "Whizz"]\n', FB),
    ],
)
def test_no_hint_where_nothing_joined_is_expected(failure: str, kata: str) -> None:
    assert joined_words(failure, "rust", kata) == ""


@pytest.mark.cargo
def test_real_libtest_output_gets_the_hint(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CARGO_TARGET_DIR", raising=False)
    manifest = '[package]\nname = "fb"\nversion = "0.1.0"\nedition = "2021"\n'
    test = 'use fb::say;\n\n#[test]\nfn joined() {\n    assert_eq!(say(21), "FizzWhizz");\n}\n'
    repo = make_repo({"tdd.yaml": "language: rust\n", "Cargo.toml": manifest,
                      "src/lib.rs": "\n", "tests/joined.rs": test, "kata.md": FB})  # fmt: skip
    write_files(repo, {"src/lib.rs": EARLY_RS})
    git(repo, "add", "src/lib.rs")

    verdict = RealGate().staged(repo, load_settings(repo))

    assert not verdict.green
    hint = joined_words(verdict.failure_excerpt(), "rust", FB)
    assert hint.startswith('Hint: the test expects "FizzWhizz", the kata\'s words "Fizz" and')


@pytest.mark.pygate
def test_real_pytest_output_gets_the_python_shape(make_repo: MakeRepo) -> None:
    pyproject = read_template("scaffolds/python/pyproject.toml").replace("{project}", "fb")
    early = (
        'def say(n: int) -> str:\n    if n % 3 == 0:\n        return "Fizz"\n'
        '    if n % 7 == 0:\n        return "Whizz"\n    return str(n)\n'
    )
    test = 'from fb import say\n\n\ndef test_joined():\n    assert say(21) == "FizzWhizz"\n'
    repo = make_repo({"tdd.yaml": "language: python\n", "pyproject.toml": pyproject,
                      "src/fb/__init__.py": early, "tests/test_joined.py": test,
                      "kata.md": FB})  # fmt: skip
    git(repo, "add", "-A")

    verdict = RealGate().staged(repo, load_settings(repo))

    assert not verdict.green
    hint = joined_words(verdict.failure_excerpt(), "python", FB)
    assert 'the test expects "FizzWhizz"' in hint
    assert (
        '```python\nsaid = ""\nif …:\n    said += "Fizz"\nif …:\n    said += "Whizz"\n```' in hint
    )


@pytest.mark.pygate
def test_the_implementors_retry_gets_the_hint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A whole drive with the real pytest gate: the implementor's first answer returns at the
    first word, the retry is told to build the answer word by word, and its second answer lands."""
    from support import loop_scenarios as scenarios
    from support.fake_drive import HooklessWorkspace
    from support.loop_scenarios import STOP, Side, drive_once, fake_models, plan_answer

    pyproject = read_template("scaffolds/python/pyproject.toml").replace("{project}", "kata")
    monkeypatch.setitem(scenarios.FILES, "kata.md", FB)
    monkeypatch.setitem(scenarios.FILES, "pyproject.toml", pyproject)
    # Fizz and Whizz are built and tested; the words do not join yet
    one_word = (
        'def say(n: int) -> str:\n    if n % 3 == 0:\n        return "Fizz"\n'
        '    if n % 7 == 0:\n        return "Whizz"\n    return str(n)\n'
    )
    monkeypatch.setitem(scenarios.FILES, "src/kata/__init__.py", one_word)
    for name, number, word in (("fizz", 3, "Fizz"), ("whizz", 7, "Whizz")):
        monkeypatch.setitem(scenarios.FILES, f"tests/test_{name}.py", (
            f'from kata import say\n\n\ndef test_{name}():\n    assert say({number}) == "{word}"\n'
        ))  # fmt: skip
    side = Side("git", tmp_path)
    test = 'from kata import say\n\n\ndef test_joined():\n    assert say(21) == "FizzWhizz"\n'
    # the checks in another order: still one word, "Whizz" now
    early = (
        'def say(n: int) -> str:\n    if n % 7 == 0:\n        return "Whizz"\n'
        '    if n % 3 == 0:\n        return "Fizz"\n    return str(n)\n'
    )
    joined = (
        'def say(n: int) -> str:\n    said = ""\n    if n % 3 == 0:\n        said += "Fizz"\n'
        '    if n % 7 == 0:\n        said += "Whizz"\n    return said or str(n)\n'
    )
    models = fake_models()
    models["tester"].enqueue(plan_answer("joined", "tests/test_joined.py", test), STOP)
    commit = {"scope": "say", "summary": "the words join in order"}
    models["implementor"].enqueue(
        plan_answer("early", "src/kata/__init__.py", early, commit=commit),
        plan_answer("joined", "src/kata/__init__.py", joined, commit=commit),
    )
    models["refactorer"].enqueue(plan_answer("nothing to tidy"))
    monkeypatch.setattr(Side, "ports", lambda self: {"gate": RealGate(),
                                                     "workspace": HooklessWorkspace()})  # fmt: skip

    drive_once(side, models, steps=1)

    retry = models["implementor"].asked[1].user
    assert (
        'Hint: the test expects "FizzWhizz", the kata\'s words "Fizz" and "Whizz" joined in that '
        'order, and the code gives "Whizz"'
    ) in retry
    assert side.subjects()[0] == "feat(say): the words join in order"


# r71's stuck test and the code the refactorer was asked to prepare (cycle 5, at 8054b40)
R71_TEST = (
    "use run_1::say;\n\n#[test]\nfn words_join_in_order_fizz() {\n"
    '    assert_eq!(say(21), "FizzWhizz");\n    assert_eq!(say(35), "BuzzWhizz");\n'
    '    assert_eq!(say(105), "FizzBuzzWhizz");\n}\n'
)
R71_CODE = (
    "pub fn say(n: u32) -> String {\n"
    "    if n.is_multiple_of(3) && n.is_multiple_of(5) {\n"
    '        "FizzBuzz".to_string()\n    } else if n.is_multiple_of(3) {\n'
    '        "Fizz".to_string()\n    } else if n.is_multiple_of(5) {\n'
    '        "Buzz".to_string()\n    } else {\n        n.to_string()\n    }\n}\n'
)


def test_the_preparatory_refactor_is_shown_the_shape_with_the_words_the_code_says() -> None:
    shape = joined_shape([R71_TEST], [R71_CODE], FB, "rust")

    assert shape.startswith(
        'The test expects the kata\'s words joined ("FizzBuzzWhizz"). Restructure the code to '
        "build the answer word by word"
    )
    assert "add no new word yet" in shape
    # the words the code says now, in the kata's order; not "Whizz", the implementor's to add
    assert shape.endswith(
        '```rust\nlet mut said = String::new();\nif … {\n    said.push_str("Fizz");\n}\n'
        'if … {\n    said.push_str("Buzz");\n}\n```\n'
    )


def test_the_preparatory_shape_in_python() -> None:
    test = 'from fizz import say\n\n\ndef test_join():\n    assert say(21) == "FizzWhizz"\n'
    code = 'def say(n: int) -> str:\n    if n % 3 == 0:\n        return "Fizz"\n    return str(n)\n'
    assert joined_shape([test], [code], FB, "python").endswith(
        '```python\nsaid = ""\nif …:\n    said += "Fizz"\n```\n'
    )
    assert joined_shape([test], [code], FB, "go").endswith("add no new word yet.\n")


@pytest.mark.parametrize(
    ("tests", "code", "kata"),
    [
        (['assert_eq!(say(7), "Whizz");'], R71_CODE, FB),  # one word: nothing joined
        ([R71_TEST], "pub fn say(n: u32) -> String {\n    n.to_string()\n}\n", FB),  # no word
        # the code builds word by word already
        ([R71_TEST], R71_CODE.replace('"Fizz".to_string()', 'said.push_str("Fizz")'), FB),
        ([R71_TEST], 'said += "Fizz"\nsaid += "Buzz"\n', FB),
        (['assert_eq!(roman(14), "XIV");'], 'if n == 10 { "X" }', ROMAN),  # no words to join
        ([], R71_CODE, FB),
    ],
)
def test_no_preparatory_shape(tests: list[str], code: str, kata: str) -> None:
    assert joined_shape(tests, [code], kata, "rust") == ""
