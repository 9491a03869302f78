"""The tester's red is checked against the kata's Interface section (drive/interface.py): a test
that calls the code with other types can never pass, whatever the implementor writes. Measured:
the 1.5B tester's first Mars Rover test compared `execute("", &[])` (a `Result`) with "0:0:N",
and the implementor failed five attempts on it. Real git, real cargo, the real gate."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from support.e2e_kit import git, write_files
from support.fake_drive import one_cycle
from support.fake_model import FakeModel

from tddhooks.drive.interface import (
    broken_interface,
    defined_signature,
    interface_functions,
    interface_mismatch,
    kept_interface,
    same_signature,
    stubbed,
    tree_with_file,
    wrapped_hint,
)
from tddhooks.drive.ports import RealGate
from tddhooks.policy.settings import load_settings
from tddhooks.resources import read_template

MakeRepo = Callable[..., Path]
EXECUTE = "pub fn execute(commands: &str, obstacles: &[(u32, u32)]) -> Result<String, String>"
KATA = read_template("katas/mars-rover.md")
MANIFEST = '[package]\nname = "rover"\nversion = "0.1.0"\nedition = "2021"\n'
WRONG = (
    "use rover::execute;\n\n#[test]\nfn starts_at_origin() {\n"
    '    assert_eq!(execute("", &[]), "0:0:N");\n}\n'
)
RIGHT = WRONG.replace('"0:0:N"', 'Ok("0:0:N".to_string())')
# a type the implementor is still to write: red for a reason the implementation removes
NEW_TYPE = (
    "use rover::Rover;\n\n#[test]\nfn starts_at_origin() {\n"
    '    assert_eq!(Rover::new().report(), "0:0:N");\n}\n'
)


def test_a_wrapped_return_gets_the_one_change_that_fits() -> None:
    some = wrapped_hint("expected `Option<u32>`, found `u32`")
    assert "compare the call with `Some(…)`" in some
    assert wrapped_hint("expected `u32`, found `&str`") == ""


def test_the_signatures_are_read_from_the_katas_text() -> None:
    assert interface_functions(KATA) == {"execute": EXECUTE}  # it spans two lines there
    assert interface_functions(read_template("katas/bowling.md")) == {
        "score": "pub fn score(rolls: &[u32]) -> u32"
    }
    assert interface_functions("# Kata\n\nNo interface: `def add(text)` is Python.\n") == {}
    lib = (
        "pub fn execute(\n    commands: &str,\n    obstacles: &[(u32, u32)],\n"
        ") -> Result<String, String> {\n"
    )
    assert same_signature(defined_signature(lib, "execute") or "", EXECUTE)  # rustfmt's layout
    assert not same_signature("pub fn execute(commands: &str) -> String", EXECUTE)
    assert defined_signature("pub fn executed() {}\n", "execute") is None
    stub = stubbed("//! kata", [EXECUTE])
    assert stub.startswith("//! kata\n\n")
    assert f"{EXECUTE} {{\n    unimplemented!()\n}}\n" in stub


@pytest.mark.parametrize(
    ("one", "other", "same"),
    [
        ("pub fn validate(_password: &str) -> Vec<String>", "pub fn validate(password: &str) -> "
         "Vec<String>", True),
        ("pub fn say(mut n: u32) -> String", "pub fn say(n: u32) -> String", True),
        ("pub fn validate(password: &str) -> Vec<&str>", "pub fn validate(password: &str) -> "
         "Vec<String>", False),
        ("pub fn say(n: u64) -> String", "pub fn say(n: u32) -> String", False),
        ("pub fn say(n: u32)", "pub fn say(n: u32) -> String", False),
        ("pub fn say(n: u32) -> String", "pub fn said(n: u32) -> String", False),
        ("pub fn apply(f: fn(u8) -> u8, x: u8) -> u8", "pub fn apply(g: fn(u8) -> u8, y: u8) -> u8",
         True),
        ("pub fn apply(f: fn(u8) -> u8, x: u8) -> u8", "pub fn apply(x: u8, f: fn(u8) -> u8) -> u8",
         False),
        ("pub fn sum(values: &[std::primitive::u8]) -> u8", "pub fn sum(v: &[std::primitive::u8]) "
         "-> u8", True),
        ("pub fn validate<'a>(password: &'a str) -> Vec<&'a str>", "pub fn validate(password: &str)"
         " -> Vec<&str>", True),
        ("pub fn first<'a, T>(items: &'a [T]) -> &'a T", "pub fn first<T>(items: &[T]) -> &T",
         True),
        ("pub fn name(id: u8) -> &'static str", "pub fn name(id: u8) -> &str", False),
    ],
)  # fmt: skip
def test_a_signature_is_the_same_for_every_caller_whatever_its_parameter_names(
    one: str, other: str, same: bool
) -> None:
    assert same_signature(one, other) is same
    assert same_signature(other, one) is same


def test_an_edit_that_changes_the_katas_types_breaks_the_interface() -> None:
    kata = read_template("katas/password-validation.md")
    wanted = "pub fn validate(password: &str) -> Vec<String>"
    broken = "pub fn validate(password: &str) -> Vec<&str> {\n    vec![]\n}\n"
    kept = "pub fn validate(_password: &str) -> Vec<String> {\n    vec![]\n}\n"
    why = broken_interface(kata, "//! kata\n", broken)
    assert why is not None
    assert why.startswith("src/lib.rs declares `pub fn validate(password: &str) -> Vec<&str>`")
    assert f"fixes `{wanted}`" in why
    assert broken_interface(kata, "//! kata\n", kept) is None
    assert broken_interface(kata, kept, broken) is not None  # from the interface to another
    assert broken_interface(kata, broken, broken) is None  # a person's own choice, kept
    assert broken_interface(kata, kept, "//! gone\n") is None  # a test that calls it fails
    assert broken_interface("# Kata\n\nNo interface.\n", "", broken) is None
    # a method of the same name is another function: only a top-level item is the interface
    method = "impl P {\n    pub fn validate(&self) -> bool {\n        true\n    }\n}\n"
    assert broken_interface(kata, "", method) is None
    assert defined_signature(method, "validate") is None


def _repo(make_repo: MakeRepo, lib: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("CARGO_TARGET_DIR", raising=False)
    return make_repo(
        {"tdd.yaml": "language: rust\n", "Cargo.toml": MANIFEST, "src/lib.rs": lib, "kata.md": KATA}
    )  # fmt: skip


def _judge(repo: Path, test: str) -> str | None:
    write_files(repo, {"tests/origin.rs": test})
    git(repo, "add", "tests/origin.rs")
    settings = load_settings(repo)
    verdict = RealGate().staged(repo, settings)
    assert not verdict.report.green
    return interface_mismatch(RealGate(), repo, settings, KATA, ["tests/origin.rs"], verdict)


@pytest.mark.cargo
def test_a_test_that_compares_the_result_with_a_str_is_refused_before_any_code_exists(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(make_repo, "//! The rover kata.\n", monkeypatch)
    index_before = git(repo, "write-tree").stdout

    why = _judge(repo, WRONG)

    assert why is not None
    assert "tests/origin.rs:5:" in why
    assert "error[E0308]: mismatched types" in why
    assert "(expected `Result<String, String>`, found `&str`)" in why
    assert "compare `.unwrap()` of the call with the expected value" in why
    assert 'or compare the call with `Ok("…".to_string())`' in why
    assert f"`{EXECUTE}`" in why
    # the check wrote nothing the person can see: index and files as the tester left them
    git(repo, "rm", "-q", "--cached", "tests/origin.rs")
    assert git(repo, "write-tree").stdout == index_before
    assert (repo / "src/lib.rs").read_text(encoding="utf-8") == "//! The rover kata.\n"
    assert _judge(repo, RIGHT) is None
    assert _judge(repo, NEW_TYPE) is None  # Rover: the implementor's to write
    # measured: in an integration test `crate` is the test itself; the stub defines `execute`,
    # so an import that still fails is the test's own
    own_crate = _judge(repo, RIGHT.replace("use rover::execute;", "use crate::execute;"))
    assert own_crate is not None
    assert "unresolved import `crate::execute`" in own_crate
    assert "import from the kata's crate, `use rover::execute;`" in own_crate


@pytest.mark.cargo
@pytest.mark.parametrize(
    "kata",
    [
        # a signature that does not compile: the stubbed tree fails in src/lib.rs, not the test
        "`pub fn execute(commands: &str, obstacles: &[(u32, u32)]) -> Resul<String, String>`",
        # the same name twice with other types: the stubs clash, nothing is blamed on the test
        f"`{EXECUTE}` or `pub fn execute(commands: &str) -> String`",
    ],
)
def test_a_kata_whose_interface_does_not_build_never_blames_the_test(
    kata: str, make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(make_repo, "//! The rover kata.\n", monkeypatch)
    write_files(repo, {"tests/origin.rs": WRONG})
    git(repo, "add", "tests/origin.rs")
    settings = load_settings(repo)
    verdict = RealGate().staged(repo, settings)
    paths = ["tests/origin.rs"]
    assert interface_mismatch(RealGate(), repo, settings, kata, paths, verdict) is None


@pytest.mark.cargo
def test_a_library_that_already_has_the_interface_judges_the_test_without_stubs(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    lib = f"{EXECUTE} {{\n    let _ = (commands, obstacles);\n    Err(String::new())\n}}\n"
    repo = _repo(make_repo, lib, monkeypatch)
    assert _judge(repo, WRONG) is not None
    assert _judge(repo, RIGHT) is None  # an assertion that fails: the right red


@pytest.mark.cargo
def test_a_library_whose_signature_was_changed_on_purpose_is_not_second_guessed(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    lib = "pub fn execute(commands: &str, obstacles: &[(u32, u32)]) -> String {\n    todo!()\n}\n"
    repo = _repo(make_repo, lib, monkeypatch)
    wrong_for_this_lib = RIGHT  # compares a String with a Result: the lib's, not the kata's
    assert _judge(repo, wrong_for_this_lib) is None


def test_the_checked_tree_is_built_in_a_private_index(make_repo: MakeRepo) -> None:
    repo = make_repo({"src/lib.rs": "//! a\n", "README.md": "r\n"})
    write_files(repo, {"notes.txt": "mine\n"})
    git(repo, "add", "notes.txt")
    index_before = git(repo, "write-tree").stdout

    tree = tree_with_file(repo, "src/lib.rs", "//! a\npub fn b() {}\n")

    assert git(repo, "cat-file", "blob", f"{tree}:src/lib.rs").stdout == "//! a\npub fn b() {}\n"
    assert git(repo, "cat-file", "blob", f"{tree}:notes.txt").stdout == "mine\n"  # staged work
    assert git(repo, "write-tree").stdout == index_before
    assert git(repo, "status", "--porcelain").stdout == "A  notes.txt\n"
    assert not list((repo / ".git" / "tddhooks").glob("*.index"))


SOURCE = (
    "pub fn execute(commands: &str, obstacles: &[(u32, u32)]) -> Result<String, String> {\n"
    '    let _ = (commands, obstacles);\n    Ok("0:0:N".to_string())\n}\n'
)


def _models(tests: tuple[str, ...], sources: tuple[str, ...]) -> dict[str, FakeModel]:
    models = {role: FakeModel(role) for role in ("tester", "implementor", "refactorer")}
    models["tester"].enqueue(*(
        {"plan": "origin", "edits": [{"path": "tests/origin.rs", "content": test}]}
        for test in tests
    ))  # fmt: skip
    commit = {"type": "feat", "scope": "rover", "summary": "the rover reports its origin"}
    models["implementor"].enqueue(*(
        {"plan": "report the origin", "edits": [{"path": "src/lib.rs", "content": source}],
         "commit": commit}
        for source in sources
    ))  # fmt: skip
    models["refactorer"].enqueue({"plan": "nothing to tidy", "edits": []})
    return models


@pytest.mark.cargo
def test_tester_and_implementor_are_told_the_change_that_fits_and_the_cycle_lands(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(make_repo, "//! The rover kata.\n", monkeypatch)
    models = _models((WRONG, RIGHT), (SOURCE.replace('"0:0:N".to_string()', '"0:0:N"'), SOURCE))

    one_cycle(repo, models, profile="small-model")

    assert len(models["tester"].asked) == 2
    told = models["tester"].asked[1].user
    assert "does not compile against the kata's interface" in told
    assert "found `&str`" in told
    # the implementor's `Ok("0:0:N")` is red, and its retry carries the change that fits
    assert len(models["implementor"].asked) == 2
    # first in its section: a long rustc output is cut from the end
    assert "failed because\nHint: a `String` is expected where the code gives a `&str`" in (
        models["implementor"].asked[1].user
    )
    log = git(repo, "log", "--format=%s").stdout.splitlines()
    assert log[0].endswith("): the rover reports its origin")
    assert log[0].startswith("feat(")
    assert git(repo, "show", "HEAD:tests/origin.rs").stdout == RIGHT


@pytest.mark.cargo
@pytest.mark.parametrize("wrong", ["use crate::execute;\n", "use mars_rover::execute;\n", ""])
def test_a_test_that_reaches_the_crate_by_a_wrong_name_is_repaired_and_handed_over(
    wrong: str, make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """drive/testimports.py: no tester attempt is spent on the crate's name (measured: two
    Mars Rover cycles of six were lost to `use crate::execute;` before the hint was followed)."""
    repo = _repo(make_repo, "//! The rover kata.\n", monkeypatch)
    models = _models((RIGHT.replace("use rover::execute;\n", wrong),), (SOURCE,))

    one_cycle(repo, models, profile="small-model")

    assert len(models["tester"].asked) == 1  # handed over at once
    assert git(repo, "show", "HEAD:tests/origin.rs").stdout == RIGHT
    assert git(repo, "log", "-1", "--format=%s").stdout.startswith("feat(")


PV = read_template("katas/password-validation.md")
VALIDATE = "pub fn validate(password: &str) -> Vec<String>"


@pytest.mark.parametrize(
    "lib",
    [
        # a comment inside the signature is no part of it
        "pub fn validate(\n    password: &str, // the input\n) -> Vec<String> {\n    vec![]\n}\n",
        "pub fn validate(password: &str /* the input */) -> Vec<String> {\n    vec![]\n}\n",
        "pub fn validate(\n    password: &str, // see {x}; later\n) -> Vec<String> {\n}\n",
        # commented-out code at the start of a line is not the library's function
        "/*\npub fn validate(password: &str) -> Vec<&str> {}\n*/\n"
        "pub fn validate(password: &str) -> Vec<String> {\n    vec![]\n}\n",
        # a path to the same type is the same type for every caller
        "pub fn validate(password: &str) -> Vec<std::string::String> {\n    vec![]\n}\n",
        "pub fn validate(password: &str) -> ::std::vec::Vec<String> {\n    vec![]\n}\n",
        # `const` changes nothing for a caller
        "pub const fn validate(password: &str) -> Vec<String> {\n    Vec::new()\n}\n",
        # a string or a char that looks like a comment opener is no comment
        'const A: &str = "/*";\nconst B: char = \'"\';\n'
        "pub fn validate(password: &str) -> Vec<String> {\n    vec![]\n}\n// */\n",
    ],
)
def test_an_edit_that_keeps_the_katas_types_is_never_refused(lib: str) -> None:
    assert broken_interface(PV, "", lib) is None
    assert same_signature(defined_signature(lib, "validate") or "", VALIDATE)


@pytest.mark.parametrize(
    ("lib", "told"),
    [
        # not callable from the kata's tests in tests/: the interface is gone as surely
        ("pub(crate) fn validate(password: &str) -> Vec<String> {\n    vec![]\n}\n",
         "declares `pub(crate) fn validate"),
        ("fn validate(password: &str) -> Vec<String> {\n    vec![]\n}\n",
         "declares `fn validate"),
        ("pub const fn validate(password: &str) -> Vec<&'static str> {\n    Vec::new()\n}\n",
         "declares `pub const fn validate(password: &str) -> Vec<&'static str>`"),
        ("#[must_use]\npub fn validate(password: &str) -> Vec<&str> {\n    vec![]\n}\n",
         "declares `pub fn validate(password: &str) -> Vec<&str>`"),
    ],
)  # fmt: skip
def test_an_edit_that_hides_or_retypes_the_function_is_refused(lib: str, told: str) -> None:
    why = broken_interface(PV, "", lib)
    assert why is not None
    assert told in why
    if "pub fn" not in lib and "pub const fn" not in lib:
        assert "`pub`" in why


def test_a_kata_naming_one_signature_twice_with_other_parameter_names_keeps_it() -> None:
    kata = f"`{VALIDATE}`, and again: `pub fn validate(input: &str) -> Vec<String>`."
    assert interface_functions(kata) == {"validate": VALIDATE}
    both = f"`{VALIDATE}`, or `pub fn validate(input: &str) -> Vec<&str>`."
    assert interface_functions(both) == {}


def test_an_assertion_macro_rust_lacks_gets_the_way_rust_writes_it() -> None:
    """r62 (db26772): `assert_panics!(say(0))` four attempts of four, told only rustc's words."""
    from tddhooks.drive.interface import macro_hint

    error = [
        "tests/zero_refused_since_game_starts.rs:3:5: error: cannot find macro `assert_panics` "
        "in this scope"
    ]
    hint = macro_hint(error, ["say"])
    assert "Rust has no `assert_panics!`" in hint
    assert "`#[should_panic]`" in hint
    assert "`say(…);`" in hint
    other = macro_hint(["tests/a.rs:3:5: error: cannot find macro `assert_contains` in this scope"],
                       ["say"])  # fmt: skip
    assert "should_panic" not in other
    assert "`assert_eq!`" in other
    assert macro_hint(["tests/a.rs:4:5: error[E0282]: type annotations needed"], ["say"]) == ""


@pytest.mark.cargo
def test_a_refusal_written_with_a_macro_rust_lacks_is_refused_with_should_panic(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(make_repo, "//! The rover kata.\n", monkeypatch)
    test = (
        "use rover::execute;\n\n#[test]\nfn refuses_a_bad_command() {\n"
        '    assert_panics!(execute("X", &[]));\n}\n'
    )

    why = _judge(repo, test)

    assert why is not None
    assert "cannot find macro `assert_panics`" in why
    assert "marked `#[should_panic]`" in why
    assert "(`execute(…);`)" in why


def test_the_hint_on_an_untyped_value_names_the_katas_own_return_type() -> None:
    from tddhooks.drive.interface import annotation_hint

    error = ["tests/a.rs:4:5: error[E0282]: type annotations needed"]
    assert "`Vec::<String>::new()`" in annotation_hint(error, [VALIDATE])
    numbers = "pub fn primes(n: u32) -> Vec<u32>"
    assert "`Vec::<u32>::new()`" in annotation_hint(error, [numbers])
    rover = annotation_hint(error, [EXECUTE])  # no list returned: no word of `Vec::<String>`
    assert "Vec::<" not in rover
    assert "`let expected: Type = …;`" in rover
    assert annotation_hint(["tests/a.rs:4:5: error[E0308]: mismatched types"], [VALIDATE]) == ""


@pytest.mark.parametrize(
    ("kata", "lib"),
    [
        ("`pub fn winner(board: [[char; 3]; 3]) -> Option<char>`",
         "pub fn winner(board: [[char; 3]; 3]) -> Option<char> {\n    None\n}\n"),
        ("`pub fn rgb(hex: &str) -> [u8; 3]`",
         "pub fn rgb(hex: &str) -> [u8; 3] {\n    [0; 3]\n}\n"),
        ("`pub fn add(text: &str) -> i32;`", "pub fn add(text: &str) -> i32 {\n    0\n}\n"),
    ],
)  # fmt: skip
def test_an_array_type_is_read_whole_on_both_sides(kata: str, lib: str) -> None:
    """A `;` inside `[u8; 3]` ends no signature: read there, the kata's own signature was refused
    on every attempt."""
    (name, wanted), *_ = interface_functions(kata).items()
    assert same_signature(defined_signature(lib, name) or "", wanted)
    assert broken_interface(kata, "", lib) is None
    assert broken_interface(kata, "", lib.replace("3]", "4]").replace("i32", "i64")) is not None


@pytest.mark.parametrize(
    ("one", "other"),
    [
        # rustfmt breaks a long generic list over lines with a trailing comma
        ("pub fn f(a: &str) -> Result<String, String,>",
         "pub fn f(a: &str) -> Result<String, String>"),
        ("pub fn f<T>(a: T) -> u8 where T: Copy,", "pub fn f<T>(a: T) -> u8 where T: Copy"),
        # a pattern is a parameter's name too
        ("pub fn f((x, y): (u8, u8)) -> u8", "pub fn f(p: (u8, u8)) -> u8"),
        ("pub fn f(Point { x, y }: Point) -> u8", "pub fn f(p: Point) -> u8"),
        ("pub fn f(a: u8) -> ()", "pub fn f(a: u8)"),
    ],
)  # fmt: skip
def test_a_signature_written_otherwise_for_the_same_caller_is_the_same(
    one: str, other: str
) -> None:
    assert same_signature(one, other)
    assert same_signature(other, one)


def test_a_signature_written_in_shorthand_fixes_nothing() -> None:
    """A kata may mention its function in shorthand (`…`, a parameter without its type): no code
    could declare that, so every edit would be refused."""
    kata = (
        "Call `pub fn execute(commands: &str, …) -> Result<String, String>`, "
        "`pub fn say(n) -> String`, or `pub fn add(text: &str, ...) -> i32`; "
        "`pub fn score(rolls: &[u32]) -> Option<(u8, u8)>` is whole."
    )
    assert interface_functions(kata) == {"score": "pub fn score(rolls: &[u32]) -> Option<(u8, u8)>"}
    lib = "pub fn say(n: u32) -> String {\n    n.to_string()\n}\n"
    assert broken_interface(kata, "", lib) is None
    assert interface_functions("`def add(text)`", "python") == {"add": "def add(text)"}


@pytest.mark.cargo
def test_a_unit_test_beside_the_code_of_a_kata_with_methods_is_judged_as_it_is(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A method the kata names (`pub fn report(&self) -> String`) cannot be stubbed at the top
    of src/lib.rs: stubbed there, its error sat in the test's own file and the valid red of a
    unit test beside the code was refused on every attempt."""
    monkeypatch.delenv("CARGO_TARGET_DIR", raising=False)
    kata = "# Rover\n\n- Rust: `pub fn report(&self) -> String` on `Rover`.\n"
    lib = "pub struct Rover;\n"
    repo = make_repo({"tdd.yaml": "language: rust\n", "Cargo.toml": MANIFEST, "src/lib.rs": lib})
    test = (
        lib + "\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n"
        '    fn reports() {\n        assert_eq!(Rover.report(), "0:0:N");\n    }\n}\n'
    )
    write_files(repo, {"src/lib.rs": test})
    git(repo, "add", "src/lib.rs")
    settings = load_settings(repo)
    verdict = RealGate().staged(repo, settings)
    assert not verdict.report.green

    assert interface_mismatch(RealGate(), repo, settings, kata, ["src/lib.rs"], verdict) is None
    assert interface_functions(kata) == {}
    free = "`pub fn report(rover: &Rover) -> String`, `pub fn f(selfish: u8)`"
    assert set(interface_functions(free)) == {"report", "f"}


def test_the_kata_signatures_kept_are_those_the_library_does_not_declare_otherwise() -> None:
    functions = {
        "validate": "pub fn validate(password: &str) -> Vec<String>",
        "score": "pub fn score(rolls: &[u32]) -> u32",
        "say": "pub fn say(n: u32) -> String",
    }
    lib = (
        "pub fn validate(_password: &str) -> Vec<String> {\n    vec![]\n}\n\n"
        "pub fn score(rolls: Vec<u32>) -> u32 {\n    rolls.iter().sum()\n}\n"
    )
    assert kept_interface(functions, lib) == {
        "validate": functions["validate"],  # the same for a caller: kept
        "say": functions["say"],  # not declared yet: kept
    }
    assert kept_interface(functions, "") == functions


def test_the_tests_a_failed_attempt_broke_say_what_they_call_and_expect(tmp_path: Path) -> None:
    from tddhooks.drive.gather import broken_expectations

    (tmp_path / "tdd.yaml").write_text("language: rust\n", encoding="utf-8")
    settings = load_settings(tmp_path)
    texts = {
        "Cargo.toml": '[package]\nname = "pw"\nversion = "0.1.0"\n',
        "tests/short.rs": 'use pw::validate;\n\n#[test]\nfn short() {\n'
                          '    assert_eq!(validate("Abc1!"), vec!["must be at least 8"]);\n}\n',
        "tests/upper.rs": 'use pw::validate;\n\n#[test]\nfn upper() {\n'
                          '    assert_eq!(validate("abcdef1!"), vec!["needs upper"]);\n}\n',
    }  # fmt: skip
    failure = (
        "[test] cargo test: failed (exit 101)\n"
        "failing tests: tests/short.rs::short, tests/upper.rs::upper, tests/gone.rs::g\n"
        'tests/short.rs::short: panicked\n  left: ["must be at least 8", "needs upper"]'
    )
    found = broken_expectations(settings, texts, ["tests/upper.rs"], failure)
    # the staged test is the prompt's own, and a file the tree lacks says nothing
    assert found == (
        'tests/short.rs, which the last attempt broke, calls `validate("Abc1!")` and expects '
        '`vec!["must be at least 8"]`.',
    )
    assert broken_expectations(settings, texts, [], "[lint] clippy: failed") == ()
    assert broken_expectations(settings, texts, [], None) == ()


FENCED = """# Leap Year

## Interface

```rust
pub fn is_leap(year: u32) -> bool {
    todo!()
}
```

### Python

~~~python
def is_leap(year: int) -> bool:
    ...
~~~

## Requirements

1. A year divisible by 4 is leap: 1996 gives true.

```rust
pub fn helper(x: u8) -> u8 {
    x
}
```
"""


def test_a_signature_in_a_fenced_block_of_the_interface_section_is_read() -> None:
    """Newcomer: a Leap Year kata gave its Interface as a ```rust block; no check read it."""
    assert interface_functions(FENCED) == {"is_leap": "pub fn is_leap(year: u32) -> bool"}
    assert interface_functions(FENCED, "python") == {"is_leap": "def is_leap(year: int) -> bool"}


@pytest.mark.parametrize(
    ("block", "functions"),
    [
        # rustfmt's layout of a long signature, and a declaration without a body
        ("```rust\npub fn validate(\n    password: &str,\n) -> Vec<String>;\n```",
         {"validate": "pub fn validate(password: &str) -> Vec<String>"}),
        ("```\npub fn execute(commands: &str, obstacles: &[(u32, u32)]) -> Result<String, "
         "String> {\n```", {"execute": EXECUTE}),
        # a private helper, a method and an unclosed fence read nothing
        ("```rust\nfn helper(x: u8) -> u8 {\n```", {}),
        ("```rust\nimpl Rover {\n    pub fn report(&self) -> String {\n```", {}),
        ("```rust\n", {}),
        # the same name given two signatures: which one would the test follow?
        ("`pub fn say(n: u32) -> String`\n\n```rust\npub fn say(n: u64) -> String {}\n```", {}),
    ],
)  # fmt: skip
def test_fenced_signatures_are_read_as_written_or_not_at_all(
    block: str, functions: dict[str, str]
) -> None:
    assert interface_functions(f"# K\n\n## Interface\n\n{block}\n") == functions


def test_a_fenced_block_outside_the_interface_section_is_no_signature() -> None:
    kata = "# K\n\n## Examples\n\n```rust\npub fn say(n: u32) -> String {}\n```\n"
    assert interface_functions(kata) == {}
    nested = "# K\n\n## Interface\n\nSee below.\n\n# Appendix\n\n```rust\npub fn f(x: u8) {}\n```\n"
    assert interface_functions(nested) == {}


@pytest.mark.parametrize(
    ("block", "language", "functions"),
    [
        # a list of declarations without a body or `;`: each its own, not run into the next
        ("```rust\npub fn add(a: u32, b: u32) -> u32\npub fn sub(a: u32, b: u32) -> u32\n```",
         "rust", {"add": "pub fn add(a: u32, b: u32) -> u32",
                  "sub": "pub fn sub(a: u32, b: u32) -> u32"}),
        ("```python\ndef add(a: int, b: int) -> int\ndef sub(a: int, b: int) -> int\n```",
         "python", {"add": "def add(a: int, b: int) -> int",
                    "sub": "def sub(a: int, b: int) -> int"}),
        # a comment after the declaration is no part of it
        ("```rust\npub fn add(a: u32, b: u32) -> u32 // the sum\n```", "rust",
         {"add": "pub fn add(a: u32, b: u32) -> u32"}),
        ("```python\ndef add(a: int, b: int) -> int  # the sum\n```", "python",
         {"add": "def add(a: int, b: int) -> int"}),
        # a declaration ends with its block's fence, not in the prose after it
        ("```rust\npub fn add(a: u32) -> u32\n```\n\nAdds one (a u32 -> u32 map).", "rust",
         {"add": "pub fn add(a: u32) -> u32"}),
        # an associated function of an `impl` (no `self`) or a class's method is no free one
        ("```rust\npub struct Game;\nimpl Game {\n    pub fn new() -> Self {\n        Game\n"
         "    }\n    pub fn score(&self) -> u32 { 0 }\n}\npub fn play(n: u32) -> u32 { n }\n```",
         "rust", {"play": "pub fn play(n: u32) -> u32"}),
        ("```python\nclass Game:\n    def roll(self, pins: int) -> None: ...\n\n"
         "def play(n: int) -> int: ...\n```", "python", {"play": "def play(n: int) -> int"}),
        # a block in a list item is indented whole: its functions are still top-level ones
        ("- the function:\n  ```python\n  def add(a: int, b: int) -> int: ...\n  ```", "python",
         {"add": "def add(a: int, b: int) -> int"}),
    ],
)  # fmt: skip
def test_each_fenced_declaration_is_read_alone(
    block: str, language: str, functions: dict[str, str]
) -> None:
    """Red team: two declarations without a body read as one signature, and a comment was kept
    in it; `broken_interface` then refused the implementor's `pub fn add(a: u32, b: u32) -> u32`
    as breaking the kata's Interface. `impl Game { pub fn new() -> Self }` read as a free `new`."""
    assert interface_functions(f"# K\n\n## Interface\n\n{block}\n", language) == functions
    if functions.get("add") == "pub fn add(a: u32, b: u32) -> u32":
        lib = "pub fn add(a: u32, b: u32) -> u32 {\n    a + b\n}\n"
        assert broken_interface(f"# K\n\n## Interface\n\n{block}\n", "", lib) is None
