"""An untyped `vec![]` a tester's Rust test compares with a call of the kata's Interface function
takes the function's element type before the gate (drive/emptyvecs.py). Measured: the 1.5B
tester's first Password Validation test met E0282 "type annotations needed" in most runs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from support.crates import validate_crate
from support.e2e_kit import write_files

from tddhooks.agents.edits import AgentAnswer, FileEdit
from tddhooks.drive.emptyvecs import element_types, typed_answer, typed_empty_vecs
from tddhooks.proc import run

MakeRepo = Callable[..., Path]
VALIDATE = {"validate": "pub fn validate(password: &str) -> Vec<String>"}


@pytest.mark.parametrize(
    ("line", "repaired"),
    [
        ('assert_eq!(validate("Abcdef1!"), vec![]);',
         'assert_eq!(validate("Abcdef1!"), Vec::<String>::new());'),
        ('assert_eq!(vec![], validate("Abcdef1!"));',
         'assert_eq!(Vec::<String>::new(), validate("Abcdef1!"));'),
        ('assert_ne!(validate("abc"), vec![ ], "not accepted");',
         'assert_ne!(validate("abc"), Vec::<String>::new(), "not accepted");'),
        ('assert_eq!(password_validation::validate("x"), vec![]);',
         'assert_eq!(password_validation::validate("x"), Vec::<String>::new());'),
        # r43's other spellings of the empty list and of the call
        ('assert_eq!(validate("Abcdef1!").as_slice(), &[]);',
         'assert_eq!(validate("Abcdef1!").as_slice(), Vec::<String>::new());'),
        ('assert_eq!(validate("Abcdef1!").as_slice(), vec![]);',
         'assert_eq!(validate("Abcdef1!").as_slice(), Vec::<String>::new());'),
        ('assert_eq!(validate("x"), []);', 'assert_eq!(validate("x"), Vec::<String>::new());'),
        ('assert_eq!(validate("x"), Vec::new());',
         'assert_eq!(validate("x"), Vec::<String>::new());'),
        ('assert_eq!(&validate("x"), &[]);', 'assert_eq!(&validate("x"), &Vec::<String>::new());'),
    ],
)  # fmt: skip
def test_an_empty_vec_compared_with_the_interface_call_is_typed(line: str, repaired: str) -> None:
    assert typed_empty_vecs(line, VALIDATE) == repaired


@pytest.mark.parametrize(
    "line",
    [
        'assert_eq!(validate("x").len(), vec![]);',  # not the call itself
        "assert_eq!(errors, vec![]);",  # a variable: its type may be known
        '// assert_eq!(validate("x"), vec![]);',  # a comment
        'let text = "assert_eq!(validate(\\"x\\"), vec![])";',  # a string
        'assert_eq!(validate("x"), vec!["a"]);',  # not empty
        'assert_eq!(strength("x"), vec![]);',  # not the Interface's function
        'assert!(validate("x") == vec![]);',  # not an assert_eq!: left as it is
        'assert_eq!(&validate("x").as_slice(), &[]);',  # borrowed and sliced: left
        'assert_eq!(validate("x").iter().count(), []);',  # not the call nor its slice
        'assert_eq!(validate("x"), Vec::<String>::new());',  # typed already
    ],
)
def test_anything_else_is_left_as_it_is(line: str) -> None:
    assert typed_empty_vecs(line, VALIDATE) == line


def test_only_a_plain_element_type_is_taken() -> None:
    found = element_types({
        "validate": "pub fn validate(password: &str) -> Vec<String>",
        "scores": "pub fn scores(rolls: &[u32]) -> Vec<u32>",
        "pairs": "pub fn pairs(text: &str) -> Vec<(u32, u32)>",
        "nested": "pub fn nested() -> Vec<Vec<u8>>",
        "borrowed": "pub fn borrowed<'a>(text: &'a str) -> Vec<&'a str>",
        "say": "pub fn say(n: u32) -> String",
    })  # fmt: skip
    assert found == {"validate": "String", "scores": "u32", "pairs": "(u32, u32)"}


def test_a_type_parameter_of_the_function_is_not_taken() -> None:
    # `Vec::<T>::new()` names a `T` the test does not have: `assert_eq!(dedupe(&[1, 1]),
    # vec![])` compiled (rustc infers `T` from the argument), the repaired line did not
    found = element_types({
        "dedupe": "pub fn dedupe<T: PartialEq + Clone>(items: &[T]) -> Vec<T>",
        "pairs": "pub fn pairs<K: Into<String>, V>(items: &[(K, V)]) -> Vec<(String, V)>",
        "chunks": "pub fn chunks<const N: usize>(items: &[u8]) -> Vec<[u8; N]>",
        "shown": "pub fn shown(items: &[u8]) -> Vec<impl std::fmt::Display>",
        "names": "pub fn names<S: AsRef<str>>(items: &[S]) -> Vec<String>",
    })  # fmt: skip
    assert found == {"names": "String"}
    line = "assert_eq!(dedupe(&[1, 1]), vec![]);"
    assert typed_empty_vecs(line, {"dedupe": "pub fn dedupe<T: Clone>(items: &[T]) -> Vec<T>"}) == (
        line
    )


def test_the_answer_names_the_files_it_changed() -> None:
    test = 'use k::validate;\n\n#[test]\nfn ok() {\n    assert_eq!(validate("A"), vec![]);\n}\n'
    rust, python = FileEdit(path="tests/ok.rs", content=test), FileEdit(path="t.py", content=test)
    edits = [rust, python]
    answer = AgentAnswer(plan="p", edits=edits)
    repaired, changed = typed_answer(answer, VALIDATE)
    assert changed == ["tests/ok.rs"]
    assert "Vec::<String>::new()" in (repaired.edits[0].content or "")
    assert repaired.edits[1].content == test  # not a Rust file


UNTYPED = [
    'assert_eq!(validate("A"), vec![]);',
    'assert_eq!(validate("A").as_slice(), &[]);',
    'assert_eq!(validate("A").as_slice(), vec![]);',
    'assert_eq!(&validate("A"), &[]);',
    'assert_eq!(validate("A"), Vec::new());',
]


@pytest.mark.cargo
def test_the_repaired_test_compiles_where_the_untyped_one_did_not(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = validate_crate(make_repo, monkeypatch)
    body = "".join(f"#[test]\nfn ok{n}() {{\n    {line}\n}}\n" for n, line in enumerate(UNTYPED))
    test = f"use pv::validate;\n\n{body}"
    write_files(repo, {"tests/ok.rs": test})
    untyped = run(["cargo", "test", "--quiet"], cwd=repo)
    assert not untyped.ok
    assert "E0282" in untyped.stdout + untyped.stderr or "E0283" in untyped.stdout + untyped.stderr

    write_files(repo, {"tests/ok.rs": typed_empty_vecs(test, VALIDATE)})
    assert run(["cargo", "test", "--quiet"], cwd=repo).ok


RUST_FILES = {
    "tdd.yaml": "language: rust\n",
    "Cargo.toml": '[package]\nname = "pv"\nversion = "0.1.0"\nedition = "2021"\n',
    "kata.md": "# PV\n\n## Interface\n\n"
    "- Rust: `pub fn validate(password: &str) -> Vec<String>`\n\n## Requirements\n\n"
    "1. A password that breaks no rule gives an empty list.\n",
    "src/lib.rs": "",
    "tests/.gitkeep": "",
    ".gitignore": ".tdd/\n",
}


@pytest.mark.parametrize("kind", [pytest.param("git", marks=pytest.mark.cargo), "memory"])
def test_the_tester_turn_hands_over_the_typed_test(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from support import loop_scenarios as scenarios
    from support.loop_scenarios import STOP, Side, drive_once, fake_models, plan_answer

    monkeypatch.setattr(scenarios, "FILES", RUST_FILES)
    side = Side(kind, tmp_path)
    test = ('use pv::validate;\n\n#[test]\nfn accepted() {\n    // # needs: pub fn validate\n'
            '    assert_eq!(validate("Abcdef1!"), vec![]);\n}\n')  # fmt: skip
    source = "pub fn validate(_password: &str) -> Vec<String> {\n    vec![]\n}\n"
    models = fake_models()
    models["tester"].enqueue(plan_answer("accepted", "tests/accepted.rs", test), STOP)
    commit = {"type": "feat", "scope": "validate", "summary": "accept a password"}
    models["implementor"].enqueue(plan_answer("accept", "src/lib.rs", source, commit=commit))
    models["refactorer"].enqueue(plan_answer("nothing to tidy"))

    drive_once(side, models, steps=5, profile="small-model")

    assert side.subjects()[0] == "feat(validate): accept a password"
    if side.memory is not None:
        committed = side.memory.commits[-1].files["tests/accepted.rs"]
    else:
        committed = scenarios.git_stdout(side.root, "show", "HEAD:tests/accepted.rs")
    assert 'assert_eq!(validate("Abcdef1!"), Vec::<String>::new());' in committed
