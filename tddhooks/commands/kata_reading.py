"""What the drive reads from a kata file, for `tddhooks doctor` (docs/agents.md, "A refactor that
changes what the kata says"): the signatures of its interface and the examples of its
requirements that the drive's checks run. A kata written another way is accepted everywhere, and
those checks then do nothing; the doctor says so instead of leaving it silent."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

EXAMPLE_FORM = '`3 gives "Fizz"`, `1996 -> true`, `0 panics`'
DOCS = "docs/agents.md#a-refactor-that-changes-what-the-kata-says"
_DECLARED = {"rust": "`pub fn f(n: u32) -> String`", "python": "`def f(n: int) -> str`"}


@dataclass(frozen=True)
class KataReading:
    """What was read, and (`problem`, `fix`) when the checks do nothing."""

    functions: tuple[str, ...]
    examples: int
    probed: int
    problem: str | None = None
    fix: str | None = None

    @property
    def detail(self) -> str:
        if self.problem is not None:
            return self.problem
        names = ", ".join(f"`{name}`" for name in self.functions)
        return f"interface {names}; {self.probed} of {self.examples} examples run as checks"


def read_kata(kata: str, language: str, root: Path, listed: Sequence[str]) -> KataReading:
    """What the drive reads from `kata` in the repository at `root` (`listed`: its files)."""
    from tddhooks.agents.examples import kata_examples
    from tddhooks.drive.interface import interface_functions
    from tddhooks.drive.probe import build_probe, python_package
    from tddhooks.drive.turnkit import kata_crate
    from tddhooks.policy.compose import kata_requirements

    functions = tuple(interface_functions(kata, language))
    requirements = kata_requirements(kata, whole=True)
    examples = len(kata_examples(requirements))
    if not functions:
        declared = _DECLARED.get(language, _DECLARED["rust"])
        return KataReading(
            functions, examples, 0,
            "no function signature read: the drive checks neither the kata's interface nor its "
            "examples",
            f"name the function in backticks ({declared}) in the kata's `## Interface` section "
            f"({DOCS})",
        )  # fmt: skip
    if not examples:
        return KataReading(
            functions, 0, 0,
            "no example read from the numbered requirements: the drive checks none",
            f"write the examples into the requirements as {EXAMPLE_FORM} ({DOCS})",
        )  # fmt: skip
    project = kata_crate(root) if language == "rust" else python_package(listed)
    probe = build_probe(kata, requirements, language, project, listed)
    if probe is None:
        return KataReading(
            functions, examples, 0,
            f"{examples} example{'s' * (examples > 1)} read, none the drive can run as a test",
            _why_none(language, project),
        )  # fmt: skip
    return KataReading(functions, examples, len(probe.cases))


def _why_none(language: str, project: str | None) -> str:
    if project is None:
        where = "Cargo.toml" if language == "rust" else "a package (`src/<name>/__init__.py`)"
        return f"the checks import the code from {where}, and there is none"
    return (
        "the checks call a function of one parameter with each example's input, of a type its "
        f"signature can hold ({DOCS})"
    )
