"""A green refactor that changes what the kata's examples give is sent back (drive/probe.py).
Measured (r44, FizzBuzz): the refactorer turned `format!("{}", n)` into a loop over `1..=n`
(`say(2)` gave "12"); the only test was `say(0)` panics, so the refactor landed and the run was
lost. Real git, real cargo and pytest, the real gate."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from support.crates import FIZZ_MANIFEST as MANIFEST
from support.crates import PV_MANIFEST
from support.crates import crate as _crate
from support.crates import probe_crew as _crew
from support.e2e_kit import git, write_files
from support.fake_drive import one_cycle
from support.fake_model import FakeModel

from tddhooks.drive.probe import (
    PYTHON_PROBE,
    RUST_PROBE,
    broken_examples,
    build_probe,
    python_package,
)
from tddhooks.policy.compose import kata_requirements
from tddhooks.resources import read_template

MakeRepo = Callable[..., Path]
FB = read_template("katas/fizzbuzz.md")
PV = read_template("katas/password-validation.md")
SAYS = 'pub fn say(n: u32) -> String {\n    assert!(n != 0, "zero");\n    format!("{}", n)\n}\n'
LOOPED = (
    'pub fn say(n: u32) -> String {\n    assert!(n != 0, "zero");\n    let mut said = '
    "String::new();\n    for i in 1..=n {\n        said.push_str(&i.to_string());\n    }\n"
    "    said\n}\n"
)
TIDIED = 'pub fn say(n: u32) -> String {\n    assert!(n != 0, "zero");\n    n.to_string()\n}\n'
ZERO = "use fizz::say;\n\n#[test]\n#[should_panic]\nfn zero_panics() {\n    let _ = say(0);\n}\n"


def _probe(kata: str, language: str = "rust", project: str | None = "fizz", **kw: Any) -> Any:
    return build_probe(kata, kata_requirements(kata, whole=True), language, project, **kw)


def test_each_example_of_fizzbuzz_is_a_test_of_its_own() -> None:
    probe = _probe(FB)
    assert probe is not None
    assert probe.path == RUST_PROBE
    assert len(probe.cases) == 15  # 14 values and the refusal of zero
    assert probe.text.startswith("//! tddhooks: the kata's examples")
    assert "use fizz::say;\n" in probe.text
    assert '#[test]\nfn example_2() {\n    use fizz::say;\n    assert_eq!(say(2), "2");\n}\n' in (
        probe.text
    )
    assert '    assert_eq!(say(105), "FizzBuzzWhizz");\n' in probe.text
    assert (
        "#[test]\n#[should_panic]\nfn example_15() {\n    use fizz::say;\n    let _ = say(0);\n}\n"
    ) in probe.text
    assert probe.cases[1].call == "say(2)"
    assert probe.cases[1].example.said == '2 gives "2"'


def test_a_list_the_kata_gives_whole_is_compared_whole_and_no_errors_is_empty() -> None:
    probe = _probe(PV, project="pv")
    assert probe is not None
    text = probe.text
    assert 'assert!(validate("Abcdef1!").is_empty());' in text
    assert 'assert_eq!(validate("Abc1!"), ["must be at least 8 characters"]);' in text
    assert (
        'assert_eq!(validate("abc"), ["must be at least 8 characters", "must contain a digit", '
        '"must contain an uppercase letter", "must contain a special character"]);'
    ) in text
    python = _probe(PV, "python", "pv")
    assert python is not None
    assert python.path == PYTHON_PROBE
    assert "    from pv import validate\n" in python.text
    assert '    assert validate("Abcdef1!") == []\n' in python.text
    assert '    assert validate("Abc1!") == ["must be at least 8 characters"]\n' in python.text


@pytest.mark.parametrize(
    ("signature", "requirements", "left_out"),
    [
        # `to_roman(-1)` does not compile for a `u32`, and one test that does not compile keeps
        # the whole probe file from building: no example would be checked
        ("to_roman(n: u32) -> String", '1 gives "I".\n2. -1 panics.', "to_roman(-1)"),
        # the kata writes the number unquoted where the function returns a `String`
        ("say(n: u32) -> String", '1 gives 1, 3 gives "Fizz".', "assert_eq!(say(1), 1);"),
        ("add(text: &str) -> i32", '"1" gives 1.\n2. 5 gives 5.', "add(5)"),
        ("is_leap(year: u16) -> bool", '2000 gives true.\n2. 1900 gives "no".', '"no"'),
        ("count(text: &str) -> Vec<u32>", '"a" gives 1.\n2. "b" gives "x".', '"x"'),
    ],
)  # fmt: skip
def test_an_example_the_signatures_types_cannot_hold_is_left_out(
    signature: str, requirements: str, left_out: str
) -> None:
    probe = _probe(_kata(signature, requirements))
    assert probe is not None
    assert len(probe.cases) == 1
    assert left_out not in probe.text


def test_python_says_true_and_false_its_own_way() -> None:
    kata = "# Leap\n\n`def is_leap(year: int) -> bool`\n\n## Requirements\n\n1. 1900 gives false.\n"
    probe = _probe(kata, "python", "leap")
    assert probe is not None
    assert "    assert is_leap(1900) == False\n" in probe.text


def test_python_refusals_expect_the_exception() -> None:
    probe = _probe(FB, "python", "fizz")
    assert probe is not None
    assert "import pytest\n" in probe.text
    assert (
        "def test_example_15():\n    from fizz import say\n    with pytest.raises(Exception):\n"
        "        say(0)\n"
    ) in probe.text


KATA = """# Kata

## Interface

- Rust: `pub fn {signature}` in `src/lib.rs`.

## Requirements

1. {requirement}
"""


def _kata(signature: str, requirement: str) -> str:
    return KATA.format(signature=signature, requirement=requirement)


@pytest.mark.parametrize(
    ("signature", "requirement", "check"),
    [
        # one item of a returned list is looked for in it
        ("split(text: &str) -> Vec<String>", '"a" gives "x".',
         'assert!(split("a").iter().any(|item| *item == "x"));'),
        # `&u64 == 2` and `&&str == "x"` do not build: the item is compared, not its reference
        ("factors(n: u64) -> Vec<u64>", "4 gives 2.",
         "assert!(factors(4).iter().any(|item| *item == 2));"),
        ("is_leap(year: u32) -> bool", "1996 gives true.", "assert_eq!(is_leap(1996), true);"),
        # a Result or an Option is unwrapped
        ("to_roman(n: u32) -> Result<String, String>", '4 gives "IV".',
         'assert_eq!(to_roman(4).unwrap(), "IV");'),
        ("first(text: &str) -> Option<u32>", '"7,8" gives 7.',
         'assert_eq!(first("7,8").unwrap(), 7);'),
        # a kata's escape is the code's escape: "1\n2" is a newline in both
        ("add(text: &str) -> u32", '"1\\n2,3" gives 6.', 'assert_eq!(add("1\\n2,3"), 6);'),
        ('quote(text: &str) -> String', '"a\\"b" gives "b".', 'assert_eq!(quote("a\\"b"), "b");'),
        # the return type follows the parameter list's own `)`, not the last one
        ("check(text: &str) -> Result<(), String>", '"" is rejected.',
         'let _ = check("").unwrap();'),
        # a nested generic is one parameter (the compiler judges whether it takes the value)
        ("size(m: HashMap<String, Vec<u8>>) -> usize", '"a" gives 1.',
         'assert_eq!(size("a"), 1);'),
    ],
)  # fmt: skip
def test_the_check_follows_the_interfaces_return_type(
    signature: str, requirement: str, check: str
) -> None:
    probe = _probe(_kata(signature, requirement))
    assert probe is not None
    assert f"    {check}\n" in probe.text


@pytest.mark.parametrize(
    "kata",
    [
        # two parameters: an example of one literal is no call of it
        read_template("katas/mars-rover.md"),
        # no Interface section: nothing says which function the examples are of
        '# Kata\n\n## Requirements\n\n1. 2 gives "2".\n',
        # the only input the kata gives is given two results (a later stage): neither is the rule
        _kata("say(n: u32) -> String", '2 gives "2".\n2. Later, 2 gives "two".'),
    ],
)
def test_nothing_is_probed_where_it_cannot_be_told(kata: str) -> None:
    assert _probe(kata) is None


def test_nothing_is_probed_without_a_project_or_over_a_file_of_the_repository() -> None:
    assert _probe(FB, project=None) is None
    assert _probe(FB, taken=[RUST_PROBE, "src/lib.rs"]) is None
    assert _probe(FB, "python", "fizz", taken=[PYTHON_PROBE]) is None
    assert _probe(FB, "go", "fizz") is None


def test_a_kata_of_several_functions_gives_each_the_examples_of_its_requirements() -> None:
    kata = (
        "# Kata\n\n## Interface\n\n`pub fn to_roman(n: u32) -> String` and "
        "`pub fn from_roman(text: &str) -> u32`\n\n## Requirements\n\n"
        '1. to_roman: 4 gives "IV".\n2. from_roman: "IV" gives 4.\n'
    )
    probe = _probe(kata)
    assert probe is not None
    assert [case.call for case in probe.cases] == ["to_roman(4)", 'from_roman("IV")']
    assert "    use fizz::to_roman;\n    assert_eq!(to_roman(4), " in probe.text
    assert "    use fizz::from_roman;\n    assert_eq!(from_roman(" in probe.text


@pytest.mark.parametrize(
    ("listed", "package"),
    [
        (["src/pv/__init__.py", "tests/test_a.py"], "pv"),
        (["pv/__init__.py", "tests/__init__.py"], "pv"),
        (["tests/__init__.py", "kata.py"], None),
        (["src/pv/util/__init__.py"], None),
    ],
)
def test_the_python_package_is_the_one_under_src_or_at_the_top(
    listed: list[str], package: str | None
) -> None:
    assert python_package(listed) == package


def _rust_repo(make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch, lib: str = SAYS) -> Path:
    return _crate(make_repo, monkeypatch, lib, {"tests/zero.rs": ZERO, "kata.md": FB})


def _judge_refactor(
    repo: Path, source_path: str, source: str, kata: str, role: str = "refactorer"
) -> str | None:
    write_files(repo, {source_path: source})
    git(repo, "add", source_path)
    crew = _crew(repo)
    verdict = crew.gate.staged(repo, crew.settings)
    assert verdict.green  # the gate alone lets it land
    language = crew.settings.language
    listed = crew.workspace.listed(repo)
    project = "fizz" if language == "rust" else python_package(listed)
    probe = build_probe(kata, kata_requirements(kata, whole=True), language, project, listed)
    assert probe is not None
    head = crew.workspace.head_tree(repo)
    return broken_examples(crew, probe, head, verdict.tree, role)


@pytest.mark.cargo
def test_a_refactor_that_changes_an_example_is_named_with_what_it_gives_now(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _rust_repo(make_repo, monkeypatch)
    write_files(repo, {"notes.txt": "mine\n"})  # a person's file, never touched

    why = _judge_refactor(repo, "src/lib.rs", LOOPED, FB)

    assert why is not None
    assert why.startswith(
        "the refactor changes what the code gives for an example of the kata, which no test "
        'checks yet: requirement 1 says 2 gives "2", and `say(2)` did so before this refactor; '
        'now it gives "12" (1 more of the kata\'s examples too)'
    )
    # the probe was in the judged trees only
    assert not (repo / RUST_PROBE).exists()
    assert git(repo, "status", "--porcelain").stdout == "M  src/lib.rs\n?? notes.txt\n"
    assert RUST_PROBE not in git(repo, "ls-files").stdout


@pytest.mark.cargo
def test_a_refactor_that_keeps_the_examples_passes_and_unbuilt_ones_say_nothing(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Fizz, Buzz, … fail on HEAD and after: only the examples HEAD keeps are the refactor's
    repo = _rust_repo(make_repo, monkeypatch)
    assert _judge_refactor(repo, "src/lib.rs", TIDIED, FB) is None


@pytest.mark.cargo
def test_a_probe_that_does_not_build_on_head_tells_nothing(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a library that takes the number as text (a person's choice): `say(2)` does not compile
    lib = 'pub fn say(n: &str) -> String {\n    assert!(n != "0", "zero");\n    n.to_string()\n}\n'
    repo = _rust_repo(make_repo, monkeypatch, lib)
    write_files(repo, {"tests/zero.rs": ZERO.replace("say(0)", 'say("0")')})
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "test: zero as text")
    assert _judge_refactor(repo, "src/lib.rs", lib.replace("n.to_string()", "n.repeat(2)"), FB) is (
        None
    )


CALC = """# String Calculator

## Interface

- Rust: `pub fn add(numbers: &str) -> i32` in `src/lib.rs`

## Requirements

1. An empty string gives `0`: `""` gives `0`.
2. Newlines also separate numbers: `"1\\n2,3"` gives `6`.
3. Numbers bigger than 1000 are ignored: `"2,1001"` gives `2`.
"""
ADDS = (
    "pub fn add(numbers: &str) -> i32 {\n    if numbers.is_empty() {\n        return 0;\n    }\n"
    "    numbers.split([',', '\\n']).map(|n| n.parse::<i32>().unwrap()).sum()\n}\n"
)
EMPTY = 'use fizz::add;\n\n#[test]\nfn empty_is_zero() {\n    assert_eq!(add(""), 0);\n}\n'


@pytest.mark.cargo
def test_an_example_that_now_panics_is_not_given_the_next_failures_value(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `"2,1001"` fails before and after (not built yet): its `left: 1003` is no value of
    # `add("1\n2,3")`, which now panics on "1\n2"
    repo = _crate(make_repo, monkeypatch, ADDS, {"tests/empty.rs": EMPTY, "kata.md": CALC})

    why = _judge_refactor(repo, "src/lib.rs", ADDS.replace("[',', '\\n']", "','"), CALC)

    assert why is not None
    assert 'requirement 2 says "1\\n2,3" gives 6, and `add("1\\n2,3")` did so before' in why
    assert "1003" not in why
    assert "; now it panics." in why


PV_SOURCE = (
    "def validate(password: str) -> list[str]:\n    errors = []\n    if len(password) < 8:\n"
    '        errors.append("must be at least 8 characters")\n    return errors\n'
)
PV_TEST = (
    "from pv import validate\n\n\ndef test_short():\n"
    '    assert validate("Abc1!") == ["must be at least 8 characters"]\n'
)


@pytest.mark.pygate
def test_a_python_refactor_that_changes_an_example_is_sent_back(make_repo: MakeRepo) -> None:
    pyproject = read_template("scaffolds/python/pyproject.toml").replace("{project}", "pv")
    repo = make_repo({"tdd.yaml": "language: python\n", "pyproject.toml": pyproject,
                      "src/pv/__init__.py": PV_SOURCE, "tests/test_pv.py": PV_TEST,
                      "kata.md": PV})  # fmt: skip
    broken = PV_SOURCE.replace("< 8:", '< 8 or password == "Abcdef1!":')

    why = _judge_refactor(repo, "src/pv/__init__.py", broken, PV)

    assert why is not None
    assert 'requirement 1 says "Abcdef1!" gives no errors, and `validate("Abcdef1!")`' in why
    assert "; now: AssertionError: assert ['must be at" in why
    git(repo, "reset", "-q", "--hard")
    kept = PV_SOURCE.replace("errors = []", "errors: list[str] = []")
    assert _judge_refactor(repo, "src/pv/__init__.py", kept, PV) is None


PRIMES = """# Prime Factors

## Interface

- `pub fn factors(n: u64) -> Vec<u64>` in `src/lib.rs`

## Requirements

1. A prime is its own factor: 2 gives 2, 3 gives 3.
2. Repeated factors are each listed: 12 gives 2, 2 and 3.
"""
FACTORS = (
    "pub fn factors(mut n: u64) -> Vec<u64> {\n    let mut found = Vec::new();\n"
    "    let mut d = 2;\n    while n > 1 {\n        while n.is_multiple_of(d) {\n"
    "            found.push(d);\n            n /= d;\n        }\n        d += 1;\n    }\n"
    "    found\n}\n"
)
TWELVE = (
    "use fizz::factors;\n\n#[test]\nfn twelve() {\n    assert_eq!(factors(12), vec![2, 2, 3]);\n}\n"
)


@pytest.mark.cargo
def test_one_number_of_a_returned_list_of_numbers_is_looked_for_in_it(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `item` is a `&u64`: `item == 2` does not compile, and the whole probe told nothing
    repo = _crate(make_repo, monkeypatch, FACTORS, {"tests/twelve.rs": TWELVE, "kata.md": PRIMES})

    why = _judge_refactor(repo, "src/lib.rs", FACTORS.replace("n > 1", "n > 2"), PRIMES)

    assert why is not None
    assert "requirement 1 says 2 gives 2, and `factors(2)` did so before" in why


ROMAN = """# Roman Numerals

## Interface

The function is `def to_roman(number: int) -> str`, in the package.

## Requirements

1. The largest: 3999 gives "MMMCMXCIX".
2. Small ones: 1 gives "I", 4 gives "IV".
"""
ROMAN_SOURCE = 'def to_roman(number: int) -> str:\n    return {1: "I", 4: "IV"}[number]\n'
ROMAN_TEST = 'from rn import to_roman\n\n\ndef test_one():\n    assert to_roman(1) == "I"\n'


@pytest.mark.pygate
def test_a_python_example_is_told_its_own_failure_not_an_earlier_ones(make_repo: MakeRepo) -> None:
    # 3999 fails before and after (not built yet), and pytest reports it first
    pyproject = read_template("scaffolds/python/pyproject.toml").replace("{project}", "rn")
    repo = make_repo({"tdd.yaml": "language: python\n", "pyproject.toml": pyproject,
                      "src/rn/__init__.py": ROMAN_SOURCE, "tests/test_rn.py": ROMAN_TEST,
                      "kata.md": ROMAN})  # fmt: skip
    repeated = 'def to_roman(number: int) -> str:\n    return "I" * number\n'

    why = _judge_refactor(repo, "src/rn/__init__.py", repeated, ROMAN)

    assert why is not None
    assert 'requirement 2 says 4 gives "IV", and `to_roman(4)` did so before' in why
    assert "MMMCMXCIX" not in why
    assert "; now: AssertionError: assert 'IIII' == 'IV'" in why


def _cycle(repo: Path, test: tuple[str, str], sources: Sequence[str], scope: str) -> FakeModel:
    """One cycle of the real drive: the tester hands over `test` (path, text), the implementor
    answers with each of `sources` for src/lib.rs in turn, the refactorer has nothing to tidy;
    returns the implementor's model (what it was asked)."""
    models = {role: FakeModel(role) for role in ("tester", "implementor", "refactorer")}
    path, text = test
    models["tester"].enqueue({"plan": "a test", "edits": [{"path": path, "content": text}]})
    commit = {"type": "feat", "scope": scope, "summary": "the staged test passes"}
    models["implementor"].enqueue(*(
        {"plan": "code", "edits": [{"path": "src/lib.rs", "content": source}], "commit": commit}
        for source in sources
    ))  # fmt: skip
    models["refactorer"].enqueue({"plan": "nothing to tidy", "edits": []})
    one_cycle(repo, models, profile="small-model")  # the example probe is a small-model aid
    return models["implementor"]


@pytest.mark.cargo
def test_the_refactorer_is_told_and_its_next_answer_lands(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    lib = 'pub fn say(n: u32) -> String {\n    format!("{}", n)\n}\n'
    repo = _crate(make_repo, monkeypatch, lib, {"kata.md": FB})
    models = {role: FakeModel(role) for role in ("tester", "implementor", "refactorer")}
    models["tester"].enqueue(
        {"plan": "zero", "edits": [{"path": "tests/zero.rs", "content": ZERO}]}
    )
    commit = {"type": "feat", "scope": "say", "summary": "zero is refused"}
    models["implementor"].enqueue(
        {"plan": "refuse zero", "edits": [{"path": "src/lib.rs", "content": SAYS}],
         "commit": commit}
    )  # fmt: skip
    tidy = {"type": "refactor", "scope": "say", "summary": "say the number with to_string"}
    models["refactorer"].enqueue(
        {"plan": "build it up", "edits": [{"path": "src/lib.rs", "content": LOOPED}],
         "commit": tidy},
        {"plan": "to_string", "edits": [{"path": "src/lib.rs", "content": TIDIED}], "commit": tidy},
    )  # fmt: skip

    one_cycle(repo, models, profile="small-model")

    assert len(models["refactorer"].asked) == 2
    told = models["refactorer"].asked[1].user
    assert 'requirement 1 says 2 gives "2", and `say(2)` did so before this refactor' in told
    assert git(repo, "log", "-1", "--format=%s").stdout.startswith("refactor(")
    assert git(repo, "show", "HEAD:src/lib.rs").stdout == TIDIED
    assert RUST_PROBE not in git(repo, "ls-tree", "-r", "--name-only", "HEAD").stdout
    logs = sorted((repo / ".tdd" / "logs").glob("step-*-refactorer*.json"))
    assert logs
    assert '"examples-changed"' in logs[-1].read_text(encoding="utf-8")


PV_RUST = (
    "pub fn validate(password: &str) -> Vec<String> {\n    let mut errors = Vec::new();\n"
    "    if password.len() < 8 {\n"
    '        errors.push("must be at least 8 characters".to_string());\n    }\n    errors\n}\n'
)


@pytest.mark.cargo
def test_a_probe_rustfmt_would_reformat_still_tells(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the probe's lines are no rustfmt's (a long list of the kata's errors): the gate's fmt and
    # clippy steps must not keep its tests from telling
    test = (
        'use fizz::validate;\n\n#[test]\nfn short() {\n    assert!(!validate("a").is_empty());\n}\n'
    )
    repo = _crate(make_repo, monkeypatch, PV_RUST, {"tests/short.rs": test, "kata.md": PV})
    broken = PV_RUST.replace("< 8 {", '< 8 || password == "Abcdef1!" {')
    why = _judge_refactor(repo, "src/lib.rs", broken, PV)
    assert why is not None
    assert 'says "Abcdef1!" gives no errors' in why


@pytest.mark.cargo
def test_an_example_the_interface_cannot_take_does_not_silence_the_others(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `-1` is no `u32`, and `fizz::count` is not written yet: each once left the whole probe
    # without a build on HEAD, so `say(2)` giving "12" went unseen
    kata = (
        "# Kata\n\n## Interface\n\n`pub fn say(n: u32) -> String` and "
        "`pub fn count(n: u32) -> u32`\n\n## Requirements\n\n"
        '1. say: 2 gives "2". 0 panics. -1 panics.\n2. count: 3 gives 3.\n'
    )
    repo = _rust_repo(make_repo, monkeypatch)
    why = _judge_refactor(repo, "src/lib.rs", LOOPED, kata)
    assert why is not None
    assert 'says 2 gives "2", and `say(2)` did so before this refactor; now it gives "12"' in why


def test_a_python_example_that_is_no_valid_literal_is_left_out() -> None:
    # `"\N"` is a SyntaxError in Python: the whole probe file would not import
    kata = FB.replace('97 gives "97"', '97 gives "97", "\\N" gives "N"')
    probe = _probe(kata, "python", "fizz")
    assert probe is not None
    assert '"\\N"' not in probe.text
    compile(probe.text, PYTHON_PROBE, "exec")


def test_python_examples_import_their_function_each() -> None:
    # a function of the kata not written yet fails its own examples, not every other one's
    kata = (
        "# Kata\n\n## Interface\n\n`def say(n: int) -> str` and `def count(n: int) -> int`\n\n"
        '## Requirements\n\n1. count: 2 gives 2.\n2. say: 2 gives "2".\n'
    )
    probe = _probe(kata, "python", "fizz")
    assert probe is not None
    assert "from fizz import count, say" not in probe.text
    assert 'def test_example_1():\n    from fizz import say\n    assert say(2) == "2"\n' in (
        probe.text
    )


def test_a_refusal_after_a_value_is_no_item_of_that_value() -> None:
    # `2 gives "2", 0 panics` once read as 2 giving the list ["2", 0]: say(2) was not probed
    probe = _probe(_kata("say(n: u32) -> String", '2 gives "2", 0 panics.'))
    assert probe is not None
    assert [(case.call, case.example.said) for case in probe.cases] == [
        ("say(2)", '2 gives "2"'),
        ("say(0)", "0 panics"),
    ]


def test_nothing_is_probed_where_tests_is_a_file() -> None:
    # git cannot add tests/… under a file named tests: the refactorer's turn once crashed there
    assert _probe(FB, taken=["tests", "src/lib.rs"]) is None
    assert _probe(FB, "python", "fizz", taken=["tests"]) is None


def test_a_refusal_of_a_result_is_its_error() -> None:
    # an `Err` does not panic: `let _ = to_roman(0);` failed on HEAD, so it never told
    probe = _probe(_kata("to_roman(n: u32) -> Result<String, String>", "0 is rejected."))
    assert probe is not None
    assert "    let _ = to_roman(0).unwrap();\n" in probe.text


FIZZ = 'use fizz::say;\n\n#[test]\nfn three_is_fizz() {\n    assert_eq!(say(3), "Fizz");\n}\n'
# requirement 1 has a test (`1 gives "1"`), so the implementor keeps its other examples
ITSELF = (
    "use fizz::say;\n\n#[test]\nfn a_number_is_said_as_itself() {\n"
    '    assert_eq!(say(1), "1");\n}\n'
)
FAKED = (
    'pub fn say(n: u32) -> String {\n    assert!(n != 0, "zero");\n    if n.is_multiple_of(3) {\n'
    '        return "Fizz".to_string();\n    }\n    "1".to_string()\n}\n'
)
FIZZED = (
    'pub fn say(n: u32) -> String {\n    assert!(n != 0, "zero");\n    if n.is_multiple_of(3) {\n'
    '        return "Fizz".to_string();\n    }\n    n.to_string()\n}\n'
)


@pytest.mark.cargo
def test_an_implementor_that_breaks_what_the_code_did_as_the_kata_says_is_told(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Passing the staged test is no reason to break an example HEAD kept: `say(2)` gave "2"."""
    repo = _crate(
        make_repo,
        monkeypatch,
        SAYS,
        {"tests/zero.rs": ZERO, "tests/itself.rs": ITSELF, "kata.md": FB},
    )
    implementor = _cycle(repo, ("tests/fizz.rs", FIZZ), (FAKED, FIZZED), "say")

    assert len(implementor.asked) == 2
    told = implementor.asked[1].user
    assert (
        "the change makes the staged test pass, but it changes what the code gives for an example "
        'of the kata, which no test checks yet: requirement 1 says 2 gives "2", and `say(2)` did '
        'so before this change; now it gives "1"'
    ) in told
    assert "Make the staged test pass and keep what `say(2)` gave" in told
    assert git(repo, "show", "HEAD:src/lib.rs").stdout == FIZZED
    assert git(repo, "log", "-1", "--format=%s").stdout.startswith("feat(")


VALID = (
    "use pv::validate;\n\n#[test]\nfn a_valid_password_breaks_no_rule() {\n"
    '    assert!(validate("Abcdef1!").is_empty());\n}\n'
)
SENTENCE = "Password too short or without digit"
INVENTED = (
    "pub fn validate(password: &str) -> Vec<String> {\n"
    "    if password.len() < 8 || !password.chars().any(|c| c.is_ascii_digit()) {\n"
    f'        return vec!["{SENTENCE}".to_string()];\n'
    "    }\n    Vec::new()\n}\n"
)
NOTHING_YET = "pub fn validate(_password: &str) -> Vec<String> {\n    Vec::new()\n}\n"


@pytest.mark.cargo
def test_an_implementor_that_gives_a_kata_example_an_invented_value_is_told(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Measured (r47, r45, r41): the first commit returned an invented sentence for every broken
    rule; the first test (no errors) let it land, and the next turn was lost to it."""
    repo = _crate(make_repo, monkeypatch, "//! Password Validation\n", {"kata.md": PV}, PV_MANIFEST)
    implementor = _cycle(repo, ("tests/valid.rs", VALID), (INVENTED, NOTHING_YET), "validate")

    assert len(implementor.asked) == 2
    told = implementor.asked[1].user
    assert (
        "the change makes the staged test pass, but for an example of the kata it gives a value "
        "no test and no line of the kata asks for: requirement 2 says "
    ) in told
    assert f'Hint: "{SENTENCE}" comes from src/lib.rs' in told
    assert git(repo, "show", "HEAD:src/lib.rs").stdout == NOTHING_YET


REFUSING = """# String Calculator

## Interface

- `pub fn add(text: &str) -> i32` in `src/lib.rs`

## Requirements

1. One number is its own sum: "7" gives 7.
2. Two numbers are added: "3,4" gives 7.
3. A negative number is refused: "4,-1,-6" fails with a message naming -1 and -6.
"""
PARSED = "pub fn add(text: &str) -> i32 {\n    text.parse().unwrap()\n}\n"
SEVEN = 'use fizz::add;\n\n#[test]\nfn seven() {\n    assert_eq!(add("7"), 7);\n}\n'
SUMMED = (
    "pub fn add(text: &str) -> i32 {\n"
    "    text.split(',')\n        .map(|part| part.parse::<i32>().unwrap())\n        .sum()\n}\n"
)


@pytest.mark.cargo
def test_a_panic_of_code_not_built_yet_is_no_refusal_the_implementor_must_keep(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """HEAD's `text.parse().unwrap()` panics on "4,-1,-6" because it cannot add yet (the demo's
    cycle 3): summing is the next requirement, not a break of the kata's refusal."""
    repo = _crate(make_repo, monkeypatch, PARSED, {"tests/seven.rs": SEVEN, "kata.md": REFUSING})

    assert _judge_refactor(repo, "src/lib.rs", SUMMED, REFUSING, "implementor") is None
    # a refactor keeps behaviour, a panic included
    why = _judge_refactor(repo, "src/lib.rs", SUMMED, REFUSING)
    assert why is not None
    assert 'requirement 3 says "4,-1,-6" fails' in why


LEAP = """# Leap Year

## Interface

```rust
pub fn is_leap(year: u32) -> bool {
    todo!()
}
```

## Requirements

1. A year divisible by 4 is a leap year: 1996 -> true.
2. A year divisible by 100 is not a leap year: 1900 -> false.
3. A year divisible by 400 is a leap year after all: 2000 -> true.
"""
BY_FOUR = "pub fn is_leap(year: u32) -> bool {\n    year.is_multiple_of(4)\n}\n"
NOT_CENTURIES = (
    "pub fn is_leap(year: u32) -> bool {\n"
    "    year.is_multiple_of(4) && !year.is_multiple_of(100)\n}\n"
)


def _leap_test(name: str, check: str) -> str:
    return f"use leap::is_leap;\n\n#[test]\nfn {name}() {{\n    assert!({check});\n}}\n"


@pytest.mark.cargo
def test_the_implementor_is_held_only_to_the_requirements_a_test_is_about(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Newcomer: `year % 4` keeps 2000 a leap year by chance; the change for centuries ends
    that, and requirement 3 has no test yet: it is no example the implementor must keep."""
    manifest = MANIFEST.replace('"fizz"', '"leap"')
    by_four = _leap_test("a_year_divisible_by_4_is_a_leap_year", "is_leap(1996)")
    repo = _crate(
        make_repo, monkeypatch, BY_FOUR, {"tests/by_four.rs": by_four, "kata.md": LEAP}, manifest
    )
    century = _leap_test("a_year_divisible_by_100_is_not_a_leap_year", "!is_leap(1900)")
    implementor = _cycle(repo, ("tests/century.rs", century), (NOT_CENTURIES,), "leap")

    assert len(implementor.asked) == 1  # landed at once, though is_leap(2000) changed
    assert git(repo, "show", "HEAD:src/lib.rs").stdout == NOT_CENTURIES


def test_an_example_the_staged_test_calls_itself_is_not_probed() -> None:
    """Red team: a person's staged `assert_eq!(say(3), "fizz")` says otherwise than the kata's
    `3 gives "Fizz"`; the implementor's change that passes it was refused for breaking that
    example, every attempt, though the staged test is what the change answers to."""
    from tddhooks.drive.probe import unchecked

    probe = _probe(FB)
    assert probe is not None
    calls = [case.call for case in probe.cases]
    assert "say(3)" in calls
    test = 'use fizz::say;\n\n#[test]\nfn three() {\n    assert_eq!(say( 3 ), "fizz");\n}\n'
    left = unchecked(probe, [test])
    assert left is not None
    assert [case.call for case in left.cases] == [call for call in calls if call != "say(3)"]
    assert "say(3)" not in left.text
    assert unchecked(probe, []) == probe  # nothing left out
    # `say(30)` or `resay(3)` is another call
    other = 'assert_eq!(say(30), "FizzBuzz"); assert_eq!(resay(3), 1);'
    kept = unchecked(probe, [other])
    assert kept is not None
    assert "say(3)" in [case.call for case in kept.cases]


@pytest.mark.parametrize("default", ['"a,(b"', "'a,(b'", '")"'])
def test_a_bracket_or_comma_in_a_python_default_is_text(default: str) -> None:
    kata = (f"# Kata\n\n## Interface\n\n`def count(text: str = {default}) -> int`\n\n"
            '## Requirements\n\n1. "a" gives 1.\n')  # fmt: skip
    probe = _probe(kata, "python", "fizz")
    assert probe is not None
    assert '    assert count("a") == 1\n' in probe.text


@pytest.mark.parametrize("signature", ["def score(self) -> int", "def make(cls) -> int"])
def test_a_python_method_is_not_called_as_a_function_of_one_parameter(signature: str) -> None:
    # a Bowling kata's `class Game` with `score(self)`: `from bowling import score` then
    # `score(20)` fails on any code, and the probe would check nothing
    kata = f"# Kata\n\n## Interface\n\n`{signature}`\n\n## Requirements\n\n1. 20 gives 20.\n"
    assert _probe(kata, "python", "fizz") is None
