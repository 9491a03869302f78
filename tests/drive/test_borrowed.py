"""An implementor change that gives an example of an untested requirement the value the kata gives
only other untested requirements' examples is sent back (drive/misplaced.py `borrowed_value`).
Measured (r62, FizzBuzz cycle 1 at db26772): for "2 gives "2"" the 1.5B implementor landed
`if n % 3 == 0 || n % 5 == 0 || n % 7 == 0 { return "Fizz" }`. Real git and the real gate."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from support.crates import probe_crew as _crew
from support.e2e_kit import git, write_files

from tddhooks.drive.misplaced import MISPLACED, Tells
from tddhooks.drive.probe import broken_examples, build_probe, python_package, unchecked
from tddhooks.policy.compose import kata_requirements
from tddhooks.resources import read_template

MakeRepo = Callable[..., Path]
FB = read_template("katas/fizzbuzz.md")
PYPROJECT = read_template("scaffolds/python/pyproject.toml").replace("{project}", "fb")
EMPTY_PY = '"""FizzBuzz."""\n'
TWO_PY = 'from fb import say\n\n\ndef test_two():\n    assert say(2) == "2"\n'
FIZZ_PY = 'from fb import say\n\n\ndef test_three():\n    assert say(3) == "Fizz"\n'
R62_PY = (
    "def say(n: int) -> str:\n"
    "    if n % 3 == 0 or n % 5 == 0 or n % 7 == 0:\n"
    '        return "Fizz"\n'
    "    return str(n)\n"
)
MINIMAL_PY = "def say(n: int) -> str:\n    return str(n)\n"
FIZZ_ONLY_PY = (
    'def say(n: int) -> str:\n    if n % 3 == 0:\n        return "Fizz"\n    return str(n)\n'
)


def _judge(
    repo: Path, head: str, source: str, test: str, held: set[int], spelled: bool = True
) -> str | None:
    """The implementor's change (`source`, with its staged test) judged as a drive judges it,
    `held` the requirements a test is about; `spelled`: the staged test's text is among the
    turn's tests, as the drive passes it."""
    write_files(repo, {"src/fb/__init__.py": head})
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "--allow-empty", "-m", "chore: head")
    write_files(repo, {"src/fb/__init__.py": source, "tests/test_staged.py": test})
    git(repo, "add", "-A")
    crew = _crew(repo)
    verdict = crew.gate.staged(repo, crew.settings)
    assert verdict.green, verdict.failure_excerpt()  # the gate alone lets it land
    listed = crew.workspace.listed(repo)
    probe = build_probe(FB, kata_requirements(FB, whole=True), "python",
                        python_package(listed), listed)  # fmt: skip
    assert probe is not None
    probe = unchecked(probe, [test], "python")
    assert probe is not None
    head_tree = crew.workspace.head_tree(repo)
    return broken_examples(crew, probe, head_tree, verdict.tree, "implementor",
                           lambda _text: "", held, [test] if spelled else [])  # fmt: skip


@pytest.fixture
def repo(make_repo: MakeRepo) -> Path:
    return make_repo({"tdd.yaml": "language: python\n", "pyproject.toml": PYPROJECT,
                      "src/fb/__init__.py": EMPTY_PY, "kata.md": FB,
                      "tests/.gitkeep": ""})  # fmt: skip


@pytest.mark.pygate
def test_the_r62_change_is_sent_back_naming_the_word_but_not_the_katas_own(repo: Path) -> None:
    why = _judge(repo, EMPTY_PY, R62_PY, TWO_PY, {1})

    assert why is not None
    assert why.startswith(
        f'{MISPLACED}"Fizz" for `say(5)`, an input of requirement 3, which no test asks for yet'
    )
    assert '"Fizz" is the kata\'s value for other inputs' in why
    assert 'Give "Fizz" only with the test that asks for it, and nothing for inputs no test' in why
    # what the kata says for 5 is not told: r71's retry, told it, special-cased the input
    assert "Buzz" not in why
    assert Tells().heard(why) == why  # capped per turn like the other misplaced refusals


@pytest.mark.pygate
def test_the_minimal_change_passes(repo: Path) -> None:
    """5 says "5": not the kata's "Buzz", but no other requirement's word either."""
    assert _judge(repo, EMPTY_PY, MINIMAL_PY, TWO_PY, {1}) is None


@pytest.mark.pygate
def test_a_tested_requirements_word_for_a_later_requirements_input_passes(repo: Path) -> None:
    """15 says "Fizz" once 3 does: requirement 4 is not built yet, and "Fizz" is a tested word."""
    assert _judge(repo, MINIMAL_PY, FIZZ_ONLY_PY, FIZZ_PY, {1, 2}) is None


@pytest.mark.pygate
def test_a_word_the_staged_test_spells_is_tested_though_no_requirement_is_mapped(
    repo: Path,
) -> None:
    """A staged test named so that no requirement is mapped to it (`fizz`, not `three_is_fizz`)
    still asks for "Fizz": 15 saying "Fizz" is no borrowed word (the reverted d6c470a refused
    it, test_refactor_probe.py caught it)."""
    unmapped = FIZZ_PY.replace("test_three", "test_fizz")
    assert _judge(repo, MINIMAL_PY, FIZZ_ONLY_PY, unmapped, {1}) is None
    # the same change without the test's text among the turn's tests is refused: the text is
    # what tells
    why = _judge(repo, MINIMAL_PY, FIZZ_ONLY_PY, unmapped, {1}, spelled=False)
    assert why is not None
    assert why.startswith(f'{MISPLACED}"Fizz"')


@pytest.mark.pygate
def test_a_word_head_gave_there_already_is_not_this_changes(repo: Path) -> None:
    change = R62_PY.replace("return str(n)", 'return str(n) if n != 1 else "1"')
    assert _judge(repo, R62_PY, change, TWO_PY, {1}) is None


@pytest.mark.pygate
def test_a_refactor_is_not_judged_this_way(repo: Path) -> None:
    write_files(repo, {"src/fb/__init__.py": R62_PY, "tests/test_staged.py": TWO_PY})
    git(repo, "add", "-A")
    crew = _crew(repo)
    verdict = crew.gate.staged(repo, crew.settings)
    listed = crew.workspace.listed(repo)
    probe = build_probe(FB, kata_requirements(FB, whole=True), "python",
                        python_package(listed), listed)  # fmt: skip
    assert probe is not None
    head_tree = crew.workspace.head_tree(repo)
    assert broken_examples(crew, probe, head_tree, verdict.tree, "implementor",
                           lambda _text: "", None) is None  # fmt: skip


R62_RS = (
    "pub fn say(n: u32) -> String {\n"
    "    if n.is_multiple_of(3) || n.is_multiple_of(5) || n.is_multiple_of(7) {\n"
    '        return "Fizz".to_string();\n'
    "    }\n"
    "    n.to_string()\n"
    "}\n"
)
TWO_RS = 'use fizz::say;\n\n#[test]\nfn two() {\n    assert_eq!(say(2), "2");\n}\n'


@pytest.mark.cargo
def test_the_r62_change_is_sent_back_in_rust(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The change as r62 landed it (cycle 1, db26772), read from libtest's `left:`."""
    from support.crates import crate as _crate

    repo = _crate(make_repo, monkeypatch, "//! FizzBuzz.\n", {"kata.md": FB, "tests/.gitkeep": ""})
    write_files(repo, {"src/lib.rs": R62_RS, "tests/two.rs": TWO_RS})
    git(repo, "add", "-A")
    crew = _crew(repo)
    verdict = crew.gate.staged(repo, crew.settings)
    assert verdict.green, verdict.failure_excerpt()
    listed = crew.workspace.listed(repo)
    probe = build_probe(FB, kata_requirements(FB, whole=True), "rust", "fizz", listed)
    assert probe is not None
    probe = unchecked(probe, [TWO_RS], "rust")
    assert probe is not None
    why = broken_examples(crew, probe, crew.workspace.head_tree(repo), verdict.tree,
                          "implementor", lambda _text: "", {1})  # fmt: skip
    assert why is not None
    assert why.startswith(f'{MISPLACED}"Fizz" for `say(5)`, an input of requirement 3')
