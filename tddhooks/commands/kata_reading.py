"""What the drive reads from a kata file, for `tddhooks doctor` (docs/kata-checks.md, "A
refactor that changes what the kata says"): the signatures of its interface and the examples of its
requirements that the drive's checks run. A kata written another way is accepted everywhere, and
those checks then do nothing; the doctor says so instead of leaving it silent."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

EXAMPLE_FORM = '`3 gives "Fizz"`, `1996 -> true`, `0 panics`'
DOCS = "docs/agents.md#a-refactor-that-changes-what-the-kata-says"
_DECLARED = {"rust": "`pub fn f(n: u32) -> String`", "python": "`def f(n: int) -> str`"}


@dataclass(frozen=True)
class KataReading:
    """What was read; `problem` when the checks do nothing, and `fix` when the kata looks meant
    to give more than was read (`tddhooks doctor` then warns)."""

    functions: tuple[str, ...]
    examples: int
    probed: int
    problem: str | None = None
    fix: str | None = None
    unread: str = ""  # what looks like examples and is not read: "a table, `assert` lines"
    without: tuple[int, ...] = ()  # the requirements no example was read from

    @property
    def detail(self) -> str:
        if self.problem is not None:
            return self.problem
        names = ", ".join(f"`{name}`" for name in self.functions)
        said = f"interface {names}; {self.probed} of {self.examples} examples run as checks"
        if self.without:
            numbers = ", ".join(map(str, self.without))
            plural = "s" * (len(self.without) > 1)
            verb = "give" if self.without[1:] else "gives"
            said += f"; requirement{plural} {numbers} {verb} no example to check"
        return said + (f"; not read: {self.unread}" if self.unread else "")


def read_kata(kata: str, language: str, root: Path, listed: Sequence[str]) -> KataReading:
    """What the drive reads from `kata` in the repository at `root` (`listed`: its files)."""
    from tddhooks.drive.probe import build_probe, python_package
    from tddhooks.drive.turnkit import kata_crate
    from tddhooks.kata.examples import kata_examples
    from tddhooks.kata.interface import interface_functions
    from tddhooks.kata.markdown import kata_requirements

    functions = tuple(interface_functions(kata, language))
    requirements = kata_requirements(kata, whole=True)
    found = kata_examples(requirements)
    examples = len(found)
    unread = _unread(kata)
    if not functions:
        # a kata that names no function and gives no example is prose the drive reads as it is
        meant = examples or unread or _SIGNATURE_LIKE.search(kata)
        return KataReading(
            functions, examples, 0,
            "no function signature read: the drive checks neither the kata's interface nor its "
            "examples",
            _how_to_declare(kata, language) if meant else None,
        )  # fmt: skip
    if not examples:
        # nothing that looks like an example either (the shipped Bowling's "rolls 5, 5, 3 …
        # score 16"): a kata may give none, and is not told to (a fix makes the row a warning)
        fix = (f"write the examples into the numbered list under `## Requirements` as "
               f"{EXAMPLE_FORM} ({DOCS})") if unread else None  # fmt: skip
        return KataReading(
            functions, 0, 0,
            "no example read from the numbered requirements: the drive checks none"
            + (f" (not read: {unread})" if unread else f" (it reads {EXAMPLE_FORM})"),
            fix,
        )  # fmt: skip
    project = kata_crate(root) if language == "rust" else python_package(listed)
    probe = build_probe(kata, requirements, language, project, listed)
    if probe is None:
        return KataReading(
            functions, examples, 0,
            f"{examples} example{'s' * (examples > 1)} read, none the drive can run as a test",
            _why_none(language, project, listed),
        )  # fmt: skip
    given = {example.requirement for example in found}
    without = tuple(n for n in range(1, len(requirements) + 1) if n not in given)
    fix = f"write each example in its requirement as {EXAMPLE_FORM} ({DOCS})" if unread else None
    return KataReading(functions, examples, len(probe.cases), None, fix, unread, without)


# a declaration or an Interface section: the kata means a function the drive did not read
_SIGNATURE_LIKE = re.compile(r"\b(?:fn|def)\s+\w+\s*[<(]|## (?:Interface|API)\b")
# a Rust `fn` the kata names without `pub` (the drive reads only a `pub fn`: the tests in `tests/`
# can call no other)
_PRIVATE_FN = re.compile(r"(?<![\w)])(?<!pub )(?<!pub\(crate\) )fn\s+(?P<name>\w+)\s*[<(]")


def _how_to_declare(kata: str, language: str) -> str:
    """The fix for a kata whose signature is not read; for a Rust `fn` without `pub`, that."""
    private = _PRIVATE_FN.search(kata) if language == "rust" else None
    if private is not None:
        return (
            f"`fn {private['name']}` is read only as `pub fn {private['name']}(…) -> …`: add "
            f"`pub`, in backticks or in a fenced block of the kata's `## Interface` section "
            f"({DOCS})"
        )
    declared = _DECLARED.get(language, _DECLARED["rust"])
    return (
        f"name the function in backticks ({declared}) in the kata's `## Interface` section ({DOCS})"
    )


_TABLE_ROW = re.compile(r"^\s*\|.*\|.*\|\s*$", re.MULTILINE)
_ASSERT_LINE = re.compile(r"^\W*(?:assert(?:_eq!|!)?|self\.assert\w*)\b", re.M)
_GIVEN = re.compile(r"\bgiven\b[^\n]*\breturns?\b", re.IGNORECASE)
# `10 gives X`, `5 → V`: a result a person reads as a string, and no literal without its quotes
_UNQUOTED = re.compile(r"(?<![\w.])-?\d+\s*(?:\bgives|->|=>|→)\s*(?!True\b|False\b)[A-Z]\w*")
_EXAMPLES_HEADING = re.compile(r"^#{1,6}\s+[^\n]*\bexamples?\b[^\n]*$", re.M | re.I)


def _unread(kata: str) -> str:
    """What in the kata reads as examples to a person and is not read as one: a table, `assert`
    lines, "given …, returns …", an examples section of its own, a result without its quotes
    (README.md, "Practise a kata by hand")."""
    from tddhooks.kata.markdown import kata_requirements

    found = []
    for heading in _EXAMPLES_HEADING.finditer(kata):
        if not kata_requirements(f"{heading[0]}\n\n1. x\n"):  # not read as requirements
            found.append(f"the `{heading[0].strip()}` section")
            break
    if _TABLE_ROW.search(kata):
        found.append("a table")
    if _ASSERT_LINE.search(kata):
        found.append("`assert` lines")
    if _GIVEN.search(kata):
        found.append('"given …, returns …"')
    if unquoted := _UNQUOTED.search(kata):
        found.append(f"`{unquoted[0]}` (a string is read in double quotes)")
    return ", ".join(found)


def _why_none(language: str, project: str | None, listed: Sequence[str]) -> str:
    if project is None and language == "rust":
        return "the checks import the code from Cargo.toml, and there is none"
    if project is None:
        lone = [p for p in listed if re.fullmatch(r"(?:src/)?(?!test)\w+\.py", p)]
        move = (
            f": move `{lone[0]}` to `{lone[0][:-3]}/__init__.py` (imports unchanged)"
            if len(lone) == 1
            else ""
        )
        return (
            "the checks import the code from a package (`src/<name>/__init__.py` or "
            f"`<name>/__init__.py`), and there is none{move} ({DOCS})"
        )
    return (
        "the checks call a function of one parameter with each example's input, of a type its "
        f"signature can hold ({DOCS})"
    )
