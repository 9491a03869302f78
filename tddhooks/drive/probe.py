"""Check `examples-kept` (small-model, docs/checks.md): does a green change still give what the
kata's examples say, where HEAD did? (docs/kata-checks.md, "A refactor that changes what the kata
says")

The kata's readable examples (agents/examples.py) are written out as a probe test file, one test
per example, and the same gate runs it on HEAD's tree and on the attempt's tree, each with the
probe added (trees of their own: the work tree and the person's index are never touched). An
example that passed on HEAD and fails now refuses the attempt, naming the call, what the kata
says and what it gives now. An example that did not pass on HEAD, a probe that does not build on
HEAD, and an example whose call a staged test makes itself say nothing.

Only when it can tell: a kata whose Interface section names a function of one parameter
(drive/interface.py `interface_functions`), examples with a literal input, and a Rust library
crate or a Python package. An input the kata gives two different results is left out."""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from tddhooks.agents.examples import Example, Value, kata_examples, literal
from tddhooks.drive.interface import interface_functions, parentheses, split_top

if TYPE_CHECKING:
    from tddhooks.drive.crew import Crew
    from tddhooks.policy.verdicts import Verdict

RUST_PROBE = "tests/tddhooks_examples.rs"
PYTHON_PROBE = "tests/test_tddhooks_examples.py"
_HEADER = "tddhooks: the kata's examples, run before a refactor lands; never committed"
_PY_STRING = re.compile(r"""(["'])((?:\\.|(?!\1)[^\\])*)\1""")
_RETURNED = re.compile(r"(?:->\s*(?P<type>.+?)\s*)?$")
_LIST = re.compile(r"^(?:(?:std::)?(?:vec::)?Vec\s*<|&\s*\[|(?:list|List|Sequence)\s*\[)")
_WRAPPED = re.compile(r"^(?:Result|Option)\s*<")
_ITEM_TYPE = re.compile(r"^(?:(?:std::)?(?:vec::)?Vec\s*<|&\s*\[)|[>\]]\s*$")
# the Rust types whose values a kata writes: another kind of literal does not build
_KINDS = (
    ("int", re.compile(r"[iu](?:8|16|32|64|128|size)")),
    ("bool", re.compile(r"bool")),
    ("str", re.compile(r"&?(?:'\w+)?str|&?String")),
    ("float", re.compile(r"f32|f64")),  # `1` is no float literal
)


@dataclass(frozen=True)
class Case:
    """One example as a probe test: the test's name, the call and what the kata says of it."""

    name: str
    function: str
    example: Example
    call: str
    expected: str


@dataclass(frozen=True)
class Probe:
    path: str
    text: str
    cases: tuple[Case, ...]
    project: str = ""
    # the strings the kata gives as values in every case built, a case left out since too: the
    # example a staged test calls itself still names its message (drive/misplaced.py)
    strings: frozenset[str] = frozenset()

    def without(self, names: Collection[str]) -> Probe | None:
        """The probe less the cases named (None when none is left)."""
        cases = [case for case in self.cases if case.name not in names]
        return (
            replace(_file(self.path, self.project, cases), strings=self.strings) if cases else None
        )


def _code(value: Value, language: str = "rust") -> str:
    """A kata's value as code (agents/examples.py `literal`)."""
    return literal(value, language, code=True)


def _returned(signature: str) -> str:
    """What the signature returns ("" when it does not say): after the parameter list's own
    `)`, not the last one (`-> Result<(), String>`)."""
    match = _RETURNED.search(signature[parentheses(_without_strings(signature))[1] + 1 :])
    return (match["type"] or "").strip() if match else ""


def _parameter(signature: str) -> str:
    opening, closing = parentheses(_without_strings(signature))
    return signature[opening + 1 : closing].strip().rstrip(",")


def _one_parameter(signature: str) -> bool:
    """The signature takes one parameter (`m: HashMap<String, Vec<u8>>` is one), and is no
    Python method (`def score(self) -> int`: no function the probe can import and call; a Rust
    one is no interface function, drive/interface.py `_free`)."""
    params = split_top(_parameter(_without_strings(signature)))
    return len(params) == 1 and re.match(r"(?:self|cls)\b", params[0]) is None


def _without_strings(signature: str) -> str:
    """A Python signature with the insides of its string literals blanked, the same length: a
    default's `(` or `,` (`text: str = "a,(b"`) is text. A Rust signature holds no literal, and
    its `'` opens a lifetime."""
    if not signature.lstrip().startswith("def"):
        return signature
    return _PY_STRING.sub(lambda found: found[1] + " " * len(found[2]) + found[1], signature)


def _holds(rust_type: str, value: Value) -> bool:
    """Whether the kata's value can be a `rust_type`: a test that compares a `String` with `1`,
    or calls `f(-1)` for a `u32`, does not build, and keeps the whole probe file from building.
    A type this does not know (`Roman`, `impl AsRef<str>`) is left to the compiler."""
    bare = re.sub(r"\s+", "", rust_type)
    kind = next((kind for kind, pattern in _KINDS if pattern.fullmatch(bare)), None)
    if kind is None:
        return True
    return kind == value[0] and not (bare.startswith("u") and value[1].startswith("-"))


def _rust_check(call: str, example: Example, returned: str, parameter: str) -> str | None:
    """The body of one Rust probe test; None when the parameter's or the return type cannot hold
    the example."""
    values = example.values
    if not _holds(parameter, example.given):
        return None
    wrapped = bool(_WRAPPED.match(returned))
    if values is None:  # a refusal is a panic, or an `Err`/`None` the code returns
        return f"let _ = {call}.unwrap();" if wrapped else f"let _ = {call};"
    if wrapped:
        call, returned = f"{call}.unwrap()", re.sub(r"^\w+\s*<|>\s*$", "", returned)
    listed = bool(_LIST.match(returned))
    item = _ITEM_TYPE.sub("", returned) if listed else returned
    if not all(_holds(item, value) for value in values):
        return None
    if listed:
        if not values:
            return f"assert!({call}.is_empty());"
        if example.whole:
            return f"assert_eq!({call}, [{', '.join(map(_code, values))}]);"
        return f"assert!({call}.iter().any(|item| *item == {_code(values[0])}));"
    if len(values) != 1:
        return None
    return f"assert_eq!({call}, {_code(values[0])});"


def _python_check(call: str, example: Example, returned: str, _parameter: str) -> str | None:
    """The body of one Python probe test; None when it is no valid code (a kata's `"\\N"` is a
    SyntaxError: the whole file would not import)."""
    check = _python_assertion(call, example, returned)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            compile(check or "", PYTHON_PROBE, "exec")
    except (SyntaxError, SyntaxWarning, DeprecationWarning, ValueError):
        return None
    return check


def _python_assertion(call: str, example: Example, returned: str) -> str | None:
    values = example.values
    items = [_code(value, "python") for value in values or ()]
    if values is None:
        return f"with pytest.raises(Exception):\n        {call}"
    listed = bool(_LIST.match(returned)) or (not returned and (example.whole or not values))
    if listed:
        if example.whole or not values:
            return f"assert {call} == [{', '.join(items)}]"
        return f"assert {items[0]} in {call}"
    return f"assert {call} == {items[0]}" if len(values) == 1 else None


def python_package(listed: Sequence[str]) -> str | None:
    """The package a Python kata's tests import: `src/<name>/__init__.py`, else a top-level
    `<name>/__init__.py` that is no test folder; None when there is none."""
    for depth, prefix in ((3, "src/"), (2, "")):
        for path in listed:
            parts = path.split("/")
            if (
                len(parts) == depth
                and path.startswith(prefix)
                and parts[-1] == "__init__.py"
                and parts[-2].isidentifier()
                and not parts[-2].startswith("test")
            ):
                return parts[-2]
    return None


def _belongs(requirement: str, name: str, several: bool) -> bool:
    return not several or re.search(rf"\b{re.escape(name)}\b", requirement) is not None


def build_probe(
    kata: str,
    requirements: Sequence[str],
    language: str,
    project: str | None,
    taken: Collection[str] = (),
) -> Probe | None:
    """The probe test file for the kata's examples (None when there is nothing it can check):
    `project` is the crate (Rust) or package (Python) the test imports, `taken` the paths the
    tree already has (the probe never replaces one of them)."""
    path = RUST_PROBE if language == "rust" else PYTHON_PROBE
    # a file where the probe's folder would be (`tests`) is taken too: git cannot add under it
    folder = path.split("/")[0]
    if project is None or {path, folder} & set(taken) or language not in ("rust", "python"):
        return None
    functions = {name: sig for name, sig in interface_functions(kata, language).items()
                 if _one_parameter(sig)}  # fmt: skip
    examples = kata_examples(requirements)
    cases: list[Case] = []
    several = len(functions) > 1
    for name, signature in functions.items():
        mine = [e for e in examples if _belongs(requirements[e.requirement - 1], name, several)]
        said: dict[Value, set[object]] = {}
        for example in mine:
            said.setdefault(example.given, set()).add((example.values, example.whole))
        for example in mine:
            if len(said[example.given]) > 1:
                continue  # the kata gives this input two results: neither is the rule
            call = f"{name}({_code(example.given)})"
            check = (_rust_check if language == "rust" else _python_check)(
                call, example, _returned(signature), _parameter(signature).partition(":")[2]
            )
            if check is not None:
                cases.append(Case(f"example_{len(cases) + 1}", name, example, call, check))
    return _file(path, project, cases) if cases else None


def _file(path: str, project: str, cases: Sequence[Case]) -> Probe:
    """Each test imports its own function: one the code does not define yet fails its own
    examples (Rust: a compile error `broken_examples` leaves out), not every other one's."""
    if path == RUST_PROBE:
        lines = [f"//! {_HEADER}", ""]
        for case in cases:
            panics = ["#[should_panic]"] if case.example.values is None else []
            imported = f"    use {project}::{case.function};"
            lines += ["#[test]", *panics, f"fn {case.name}() {{", imported, f"    {case.expected}",
                      "}", ""]  # fmt: skip
    else:
        lines = [f'"""{_HEADER}"""', "import pytest", ""]
        for case in cases:
            lines += ["", f"def test_{case.name}():", f"    from {project} import {case.function}",
                      f"    {case.expected}", ""]  # fmt: skip
    strings = {
        value[1] for case in cases for value in case.example.values or () if value[0] == "str"
    }
    return Probe(path, "\n".join(lines), tuple(cases), project, frozenset(strings))


def ran(verdict: Verdict, probe: Probe) -> tuple[set[str], set[str]]:
    """The probe's cases that passed and that failed in `verdict` (`tests/….rs::example_1`,
    pytest's `tests/….py::test_example_1`)."""
    report = verdict.report

    def mine(names: Sequence[str]) -> set[str]:
        return {name.rsplit("::", 1)[-1].removeprefix("test_") for name in names
                if name.split("::", 1)[0] == probe.path}  # fmt: skip

    return mine(report.passing_tests), mine(report.failing_tests)


_REBUILDS = 2  # rustc reports unresolved names before type errors: two rounds at most
_LOCATED = re.compile(r"^(?P<path>[^\s:]+):(?P<line>\d+)(?::\d+)?: error")


def _erring(verdict: Verdict, probe: Probe) -> set[str]:
    """The probe's cases a compile error of `verdict` is located in."""
    starts = [(number, found[1]) for number, line in enumerate(probe.text.splitlines(), start=1)
              if (found := re.match(r"fn (example_\d+)\(", line))]  # fmt: skip
    erring: set[str] = set()
    for error in verdict.report.compile_errors:
        located = _LOCATED.match(error)
        if located is not None and located["path"] == probe.path:
            line = int(located["line"])
            erring |= {next((name for number, name in starts[::-1] if number <= line), "")}
    return erring - {""}


def own_output(verdict: Verdict, case: Case, language: str) -> str:
    """The case's own part of the test output: libtest's `---- example_2 stdout ----` block,
    pytest's `____ test_example_2 ____` section ("" when the output has none). Not the next
    failing test's `left:`, nor the `-v` line that names it and then any failure's `E` line."""
    step = verdict.step("test")
    output = step.output_tail if step is not None else ""
    if language == "rust":
        block = output.split(f"---- {case.name} stdout ----", 1)
        if len(block) != 2:
            return ""
        return re.split(r"^(?:---- \S+ stdout ----|failures:)$", block[1], maxsplit=1,
                        flags=re.M)[0]  # fmt: skip
    header = re.search(rf"^_+ test_{case.name} _+$", output, re.M)
    if header is None:
        return ""
    return re.split(r"^(?:_+ \S+ _+|=+ .* =+)$", output[header.end() :], maxsplit=1,
                    flags=re.M)[0]  # fmt: skip


def _now_gives(verdict: Verdict, case: Case, language: str) -> str:
    """What the failing case's output says the call gives now: libtest's `left:` or pytest's
    `assert … == …` line ("" when it cannot be read)."""
    own = own_output(verdict, case, language)
    if language == "rust":
        found = re.search(r"^\s*left: (?P<value>[^\n]{1,200})", own, re.M)
        if found:
            return f"; now it gives {found['value']}"
        if not own:
            return ""
        if case.example.values is None:
            return "; now it does not panic"
        return "; now it panics" if "panicked at" in own else ""
    found = re.search(r"^E\s+(?P<line>[^\n]{1,200})", own, re.M)
    return f"; now: {found['line'].strip()}" if found else ""


Invented = Callable[[str], str]


def unchecked(probe: Probe, tests: Collection[str], language: str = "rust") -> Probe | None:
    """The probe less the examples a staged test calls itself (`say(3)` in its text): that test,
    not the kata's example, says what the call gives now. A person's staged test may say
    otherwise than the kata (`assert_eq!(say(3), "fizz")`); the change that passes it broke the
    example, and every attempt was refused."""
    called = {
        case.name for case in probe.cases
        if any(re.search(rf"(?<![\w.:]){re.escape(case.function)}\s*\(\s*"
                         rf"{re.escape(_code(case.example.given, language))}\s*\)", text)
               for text in tests)
    }  # fmt: skip
    return probe.without(called) if called else probe


def broken_examples(
    crew: Crew,
    probe: Probe,
    head_tree: str,
    refactored_tree: str,
    role: str = "refactorer",
    invented: Invented | None = None,
    held: Collection[int] | None = None,
    tests: Collection[str] = (),
) -> str | None:
    """Why the refactored tree (the implementor's: its change with the staged test) breaks an
    example the kata gives that HEAD's tree keeps; None when it breaks none (or when the probe
    tells nothing: it builds on neither tree). `invented` (the implementor's): the hint for the
    strings a failing example's output shows that no test and no line of the kata asks for
    (drive/strays.py), "" when none; such a value is refused too. `held`: the requirements
    (numbered from 1) whose examples the change must keep, None: all (a refactor keeps every
    behaviour; the implementor only the requirements a test is about: `year % 4` keeps 2000 a
    leap year by chance, and the change for centuries may end that until 400 has its test).
    `tests`: the texts of the turn's tests, the staged one included (a value they spell is
    asked for, drive/misplaced.py `borrowed_value`)."""
    gate, workspace, root, settings = crew.gate, crew.workspace, crew.root, crew.settings
    if role != "refactorer":
        # a panic on HEAD is most often a requirement not built yet (`text.parse().unwrap()` of
        # "4,-1,-6" before numbers are split), not the kata's refusal: the implementor's change
        # may end it; a refactor keeps it (docs/kata-checks.md, "A refactor that changes what
        # the kata says")
        refusals = {case.name for case in probe.cases if case.example.values is None}
        values = probe.without(refusals) if refusals else probe
        if values is None:
            return None
        probe = values
    before = gate.tree(root, workspace.tree_with_file(root, head_tree, probe.path, probe.text),
                       settings)  # fmt: skip
    for _ in range(_REBUILDS):
        # an example HEAD's code cannot build (`-1` for a `u32`, a function not written yet)
        # is left out, so it does not silence the others (rustc builds the file whole)
        erring = _erring(before, probe)
        reduced = probe.without(erring) if erring else probe
        if reduced is None or reduced is probe:
            break
        probe = reduced
        before = gate.tree(root, workspace.tree_with_file(root, head_tree, probe.path,
                                                          probe.text), settings)  # fmt: skip
    kept, head_failing = ran(before, probe)
    # a refactor is also read where HEAD fails an example (drive/reshaped.py)
    if not kept and invented is None and not (role == "refactorer" and head_failing):
        return None
    after_tree = workspace.tree_with_file(root, refactored_tree, probe.path, probe.text)
    after = gate.tree(root, after_tree, settings)
    passing, failing = ran(after, probe)
    if after.report.compile_errors or not (passing or failing):
        return None  # it does not build against the refactored code: the gate's tests say so
    refactor = role == "refactorer"
    # a refusal HEAD "kept" may be the panic of code not built for that input yet (String
    # Calculator's `s.parse().unwrap()` on "4,-1,-6"): the implementor's change that splits at
    # commas and sums is no break of it
    broken = [
        case for case in probe.cases if case.name in kept and case.name in failing
        and (refactor or case.example.values is not None)
        and (held is None or case.example.requirement in held)
    ]  # fmt: skip
    if not broken and refactor:
        from tddhooks.drive.reshaped import reshaped_example

        return reshaped_example(before, after, probe, settings.language)
    if not broken:
        found = _invented(after, probe, failing, invented, settings.language)
        if found is None and invented is not None:  # the implementor's change
            from tddhooks.drive.misplaced import (
                borrowed_value,
                disordered_messages,
                misplaced_message,
            )

            language = settings.language
            found = misplaced_message(before, after, probe, failing, language)
            if found is None:
                found = disordered_messages(before, after, probe, failing, language)
            if found is None:
                found = borrowed_value(before, after, probe, failing, language, held, tests)
        return found
    case = broken[0]
    example = case.example
    more = f" ({len(broken) - 1} more of the kata's examples too)" if len(broken) > 1 else ""
    change = "the refactor" if refactor else "the change makes the staged test pass, but it"
    advice = (
        "A refactor keeps behaviour: undo that change, or make a smaller one" if refactor
        else f"Make the staged test pass and keep what `{case.call}` gave"
    )  # fmt: skip
    return (
        f"{change} changes what the code gives for an example of the kata, which no test "
        f"checks yet: requirement {example.requirement} says {example.said}, and `{case.call}` "
        f"did so before this {'refactor' if refactor else 'change'}"
        f"{_now_gives(after, case, settings.language)}{more}. {advice}"
    )


def _invented(
    after: Verdict, probe: Probe, failing: set[str], invented: Invented | None, language: str
) -> str | None:
    """Why the change gives, for an example of the kata, a string nothing asks for; None when it
    gives none."""
    if invented is None:
        return None
    for case in probe.cases:
        if case.name not in failing:
            continue
        hint = invented(own_output(after, case, language)).strip()
        if hint:
            return (
                "the change makes the staged test pass, but for an example of the kata it gives "
                f"a value no test and no line of the kata asks for: requirement "
                f"{case.example.requirement} says {case.example.said}"
                f"{_now_gives(after, case, language).replace('; now', ', and now', 1)}. {hint} "
                "Change the code so it gives the kata's own values there, or no value of its "
                "own until a test asks for one (the staged test needs only what it checks): send "
                'the whole file with "action": "upsert"'
            )
    return None
