"""The drive applies the linter's machine-applicable fixes to an agent's files before it stages
them (drive/workspace.py `format_files`, `ci.fix_cmd`): a needless `return` no longer costs an
attempt. Measured: the 1.5B implementor's bowling turns lost 2-3 attempts to clippy's
`needless_return`. Real cargo and clippy, real git."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from support.crates import LINT_MANIFEST as MANIFEST
from support.crates import LINT_TEST as TEST
from support.crates import LINT_ZERO as ZERO
from support.crates import rust_repo_with_staged_test
from support.e2e_kit import git, write_files

from tddhooks.drive import workspace
from tddhooks.policy.settings import PolicySettings, load_settings

MakeRepo = Callable[..., Path]
RETURNS = (
    "pub fn score(rolls: &[u32]) -> u32 {\n    let total = rolls.iter().sum();\n"
    "    return total;\n}\n"
)


def test_the_fixes_run_before_the_formatter_and_keep_to_the_turns_files(
    make_repo: MakeRepo, tmp_path: Path
) -> None:
    repo = make_repo({"own.rs": "a\n", "other.rs": "b\n"})
    settings = PolicySettings(
        # idempotent, as a real fixer is: a second run changes nothing and ends the rounds
        lint_fix=("sh", "-c", "grep -q fix own.rs || echo fix >> own.rs; echo fix >> other.rs"),
        fmt_fix=("sh", "-c", "echo fmt >> own.rs"),
    )

    assert workspace.format_files(repo, settings, ["own.rs"]) is None

    assert (repo / "own.rs").read_text(encoding="utf-8") == "a\nfix\nfmt\n"
    assert (repo / "other.rs").read_text(encoding="utf-8") == "b\n"
    # a file the tools create is removed; the person's own untracked file is not theirs to touch
    write_files(repo, {"notes.txt": "mine\n"})
    creates = settings._replace(
        lint_fix=("sh", "-c", "echo lock > Cargo.lock; echo x >> notes.txt")
    )
    assert workspace.format_files(repo, creates, ["own.rs"]) is not None  # notes.txt: not run
    assert (repo / "notes.txt").read_text(encoding="utf-8") == "mine\n"
    (repo / "notes.txt").unlink()
    creates = settings._replace(lint_fix=("sh", "-c", "echo lock > Cargo.lock"))
    assert workspace.format_files(repo, creates, ["own.rs"]) is None
    assert not (repo / "Cargo.lock").exists()
    git(repo, "checkout", "own.rs")
    write_files(repo, {"own.rs": "a\nfix\nfmt\n"})
    # a fix that fails (the code does not compile) leaves the formatter to run, and says nothing
    broken = settings._replace(lint_fix=("sh", "-c", "exit 101"))
    assert workspace.format_files(repo, broken, ["own.rs"]) is None
    assert (repo / "own.rs").read_text(encoding="utf-8") == "a\nfix\nfmt\nfmt\n"
    # a fix that changed the file runs again (rustc and clippy report one layer at a time),
    # whether it failed or not, at most three times in all
    for code in (101, 0):
        write_files(repo, {"own.rs": "a\n"})
        layered = settings._replace(lint_fix=("sh", "-c", f"echo fix >> own.rs; exit {code}"))
        workspace.format_files(repo, layered, ["own.rs"])
        assert (repo / "own.rs").read_text(encoding="utf-8") == "a\nfix\nfix\nfix\nfmt\n"


def test_the_default_fix_command_follows_the_check_command(make_repo: MakeRepo) -> None:
    default = make_repo({"tdd.yaml": "language: rust\n"}, name="default")
    assert load_settings(default).lint_fix[:3] == ("cargo", "clippy", "--fix")
    custom = make_repo(
        {"tdd.yaml": "language: rust\nci:\n  check_cmd: [cargo, check]\n"}, name="custom"
    )
    assert load_settings(custom).lint_fix == ()  # another linter: no guess at its fixes
    own = make_repo(
        {"tdd.yaml": "language: python\nci:\n  check_cmd: [flake8]\n  fix_cmd: [fixer, -i]\n"},
        name="own",
    )
    assert load_settings(own).lint_fix == ("fixer", "-i")


@pytest.mark.cargo
def test_clippy_fixes_a_needless_return_in_the_agents_file_and_not_the_staged_test(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = rust_repo_with_staged_test(make_repo, monkeypatch, RETURNS)

    assert workspace.format_files(repo, load_settings(repo), ["src/lib.rs"]) is None

    fixed = (repo / "src/lib.rs").read_text(encoding="utf-8")
    assert "return" not in fixed
    assert fixed.endswith("    total\n}\n")  # clippy's fix, laid out by rustfmt
    assert (repo / "tests/zero.rs").read_text(encoding="utf-8") == TEST
    # clippy built outside the work tree: nothing new for git to see, no target/ to ignore
    assert not (repo / "target").exists()
    assert git(repo, "ls-files", "--others", "--exclude-standard").stdout == ""


# measured: 5 of the 1.5B implementor's 42 red bowling attempts were this one error, with rustc's
# own fix in the message ("consider dereferencing here")
DEREF = (
    "pub fn score(rolls: &[u32]) -> u32 {\n    let total = 0;\n    for roll in rolls.iter() {\n"
    "        if roll == 0 {\n            total += 1;\n        }\n    }\n    total\n}\n"
)


ENUMERATED = (
    "pub fn score(grid: &str) -> u32 {\n    let mut total = 0;\n"
    "    for (y, row) in grid.lines().enumerate() {\n        total += row.len() as u32;\n    }\n"
    "    total\n}\n"
)


@pytest.mark.cargo
def test_rustcs_own_suggestions_repair_code_that_does_not_compile(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = rust_repo_with_staged_test(make_repo, monkeypatch, DEREF)

    workspace.format_files(repo, load_settings(repo), ["src/lib.rs"])

    fixed = (repo / "src/lib.rs").read_text(encoding="utf-8")
    assert "if *roll == 0 {" in fixed  # E0277: `&u32 == {integer}`
    assert "let mut total = 0;" in fixed  # E0384: assigned twice to an immutable binding
    assert (repo / "tests/zero.rs").read_text(encoding="utf-8") == TEST
    # measured: the 1.5B implementor's Game of Life loop, clean but for clippy, which sees the
    # discarded index only once rustc's fix renamed the unused `y` to `_y`
    write_files(repo, {"src/lib.rs": ENUMERATED})
    workspace.format_files(repo, load_settings(repo), ["src/lib.rs"])
    assert "for row in grid.lines() {" in (repo / "src/lib.rs").read_text(encoding="utf-8")
    # a suggestion rustc marks as a guess is not applied: `nums` stays unknown, not renamed
    write_files(repo, {"src/lib.rs": ZERO.replace("0\n}", "nums.len() as u32\n}")})
    workspace.format_files(repo, load_settings(repo), ["src/lib.rs"])
    assert "nums.len()" in (repo / "src/lib.rs").read_text(encoding="utf-8")


# measured: the 1.5B implementor's FizzBuzz answers (three attempts of five) and Password
# Validation answers, with rustc's suggestion and the drive's hint in the prompt
LITERALS = (
    'pub fn say(n: u32) -> String {\n    match n % 3 {\n        0 => "Fizz",\n'
    "        _ => n.to_string(),\n    }\n}\n\n"
    "pub fn check(text: &str) -> Result<String, String> {\n    if text.is_empty() {\n"
    '        return Err("empty");\n    }\n    Ok("0:0:N")\n}\n\n'
    "pub fn validate(password: &str) -> Vec<String> {\n    let mut errors = Vec::new();\n"
    '    if password.len() < 8 {\n        errors.push("must be at least 8 characters");\n    }\n'
    "    if !password.contains('1') {\n        errors.push(\"must contain a digit\");\n    }\n"
    "    if !password.contains('!') {\n        errors.push(\"must contain a special character\");\n"
    "    }\n    errors\n}\n"
)


@pytest.mark.cargo
def test_a_str_literal_where_a_string_is_expected_gets_rustcs_to_string(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = rust_repo_with_staged_test(make_repo, monkeypatch, LITERALS + ZERO)

    workspace.format_files(repo, load_settings(repo), ["src/lib.rs"])

    fixed = (repo / "src/lib.rs").read_text(encoding="utf-8")
    assert '0 => "Fizz".to_string(),' in fixed
    assert 'return Err("empty".to_string());' in fixed
    assert 'Ok("0:0:N".to_string())' in fixed
    for message in ("be at least 8 characters", "contain a digit", "contain a special character"):
        assert f'errors.push("must {message}".to_string());' in fixed  # one per round
    assert fixed.count(".to_string()") == 7
    from tddhooks.proc import run

    assert run(["cargo", "check", "--quiet"], cwd=repo).ok  # nothing else was wrong


@pytest.mark.cargo
@pytest.mark.parametrize(
    "source",
    [
        # another mismatch: a number is expected, a literal is no number
        'pub fn score(_rolls: &[u32]) -> u32 {\n    "0"\n}\n',
        # a raw literal: rustc's suggestion goes after `"#`, not taken
        'pub fn say() -> String {\n    r#"Fizz"#\n}\n' + ZERO,
    ],
)
def test_other_mismatches_are_left_to_the_gate(
    source: str, make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = rust_repo_with_staged_test(make_repo, monkeypatch, source)

    workspace.format_files(repo, load_settings(repo), ["src/lib.rs"])

    assert ".to_string()" not in (repo / "src/lib.rs").read_text(encoding="utf-8")


@pytest.mark.cargo
def test_a_literal_in_a_const_item_gets_no_to_string(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """rustc suggests `.to_string()` for a `const`/`static` String too, where the call is error
    E0015: the code is left as the model wrote it, the function beside it is still fixed."""
    source = (
        "//! The kata, as the scaffold opens it.\n\n"
        'pub const GREETING: String = "hi";\npub static NAMES: [String; 1] = ["a"];\n'
        'pub fn say() -> String {\n    "Fizz"\n}\n' + ZERO
    )
    repo = rust_repo_with_staged_test(make_repo, monkeypatch, source)

    workspace.format_files(repo, load_settings(repo), ["src/lib.rs"])

    fixed = (repo / "src/lib.rs").read_text(encoding="utf-8")
    assert 'pub const GREETING: String = "hi";' in fixed
    assert 'pub static NAMES: [String; 1] = ["a"];' in fixed
    assert '"Fizz".to_string()' in fixed


@pytest.mark.parametrize(
    ("source", "const"),
    [
        ('pub const NAME: String = "a"', True),
        ('pub(crate) static mut NAMES: [String; 2] = ["a", "b"', True),
        ('#[allow(dead_code)]\nconst P: Point = Point { inner: Q { a: 1 }, name: "a"', True),
        ('const fn f() -> String {\n    let x = 1;\n    "a"', True),
        ('impl X {\n    pub const unsafe fn g() -> String {\n        if t { "x" } else { "y" };\n'
         '        "b"', True),
        ('fn f() -> String {\n    "a"', False),
        ('fn constant() -> String {\n    "a"', False),
        ('const X: u8 = 1;\nfn f() -> String {\n    match n { 0 => "z", _ => "a"', False),
        ('fn f() -> Vec<String> {\n    let mut v = vec![];\n    v.push("a;{\\"b"', False),
        ('fn f() {\n    const_thing("a"', False),
    ],
)  # fmt: skip
def test_a_const_context_is_read_outward_from_the_literal(source: str, const: bool) -> None:
    from tddhooks.drive.rustfixes import in_const_context

    data = source.encode()
    assert in_const_context(data, len(data)) is const


@pytest.mark.parametrize(
    ("source", "const"),
    [
        # red team: the scaffold's lib.rs opens with a `//!` line, and models write `///` docs
        ('//! The kata.\npub const NAME: String = "a"', True),
        ('/// The greeting.\n/* and */\nconst NAME: String = "a"', True),
        ('#[doc = "a]"]\nconst NAME: String = "a"', True),
        # an item with a body before it ends with `}`, not `;`
        ('fn a() {}\n\nconst NAME: String = "a"', True),
        ('impl X {\n    fn new() -> Self {\n        X\n    }\n    const A: String = "a"', True),
        ('fn f() {\n    fn g() {}\n    static S: String = "a"', True),
        # a brace or quote in a string, a char or a comment is no block
        ('const X: String = { let s = "}"; "a"', True),
        ("const fn f(c: char) -> String {\n    let _ = c == '}';\n    \"a\"", True),
        ('const fn f() -> String {\n    // }\n    "a"', True),
        ("fn f() -> String {\n    let _ = ['\"', '{'];\n    \"a\"", False),
        ('fn f() -> String {\n    let _ = r"\\";\n    /* " */\n    "a"', False),
        ('fn f<\'a>(x: &\'a str) -> String {\n    let _ = \'}\';\n    "a"', False),
        # a `const { }` block is a const context; a `const fn` before ours is not ours
        ('fn f() -> String {\n    let s: String = const { "a"', True),
        ('const fn a() {}\nfn b() -> String {\n    "a"', False),
        # a closure's body runs later, even in a static; the field after it is the static's
        ('static X: LazyLock<String> = LazyLock::new(|| "a"', False),
        ('static T: Table = Table { f: |x| x, name: "a"', True),
        ('thread_local! {\n    static NAME: RefCell<String> = RefCell::new("a"', False),
        ('lazy_static! {\n    static ref NAME: String = "a"', False),
        ('pub const extern "C" fn f() -> String {\n    "a"', True),
    ],
)  # fmt: skip
def test_comments_literals_and_items_before_the_literal_do_not_fool_it(
    source: str, const: bool
) -> None:
    from tddhooks.drive.rustfixes import in_const_context

    data = source.encode()
    assert in_const_context(data, len(data)) is const


@pytest.mark.cargo
def test_the_staged_test_keeps_its_own_mismatch(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tester's test is not the implementor's to repair, even where rustc suggests it."""
    repo = rust_repo_with_staged_test(make_repo, monkeypatch, ZERO)
    mine = (
        'use lintfix::score;\n\n#[test]\nfn zero() {\n    let s: String = "0";\n'
        "    assert_eq!(score(&[]), s.len() as u32);\n}\n"
    )
    write_files(repo, {"tests/zero.rs": mine})

    workspace.format_files(repo, load_settings(repo), ["src/lib.rs"])

    assert (repo / "tests/zero.rs").read_text(encoding="utf-8") == mine


def test_only_an_inserted_to_string_for_e0308_in_the_agents_files_is_taken() -> None:
    from tddhooks.drive.rustfixes import literal_insertions, takes_rustc_fixes

    def line(code: str, path: str, start: int, end: int, text: str) -> str:
        span = {"file_name": path, "byte_start": start, "byte_end": end,
                "suggested_replacement": text}  # fmt: skip
        message = {"code": {"code": code}, "children": [{"spans": [span]}]}
        return json.dumps({"reason": "compiler-message", "message": message})

    output = "\n".join([
        "not json", "[1, 2]", '{"reason": "build-finished"}',
        line("E0308", "src/lib.rs", 10, 10, ".to_string()"),
        line("E0277", "src/lib.rs", 20, 20, ".to_string()"),
        line("E0308", "src/lib.rs", 30, 34, ".to_string()"),
        line("E0308", "tests/zero.rs", 40, 40, ".to_string()"),
        line("E0308", "src/lib.rs", 50, 50, ".into()"),
    ])  # fmt: skip
    assert list(literal_insertions(output, ["src/lib.rs"])) == [("src/lib.rs", 10)]
    assert takes_rustc_fixes(("/usr/bin/cargo", "clippy", "--fix", "--broken-code"))
    assert not takes_rustc_fixes(("ruff", "check", "--fix"))
    assert not takes_rustc_fixes(())


def test_a_line_of_another_shape_in_cargos_output_is_passed_over() -> None:
    """red team: a proc macro's stdout reaches `cargo check --message-format=json`'s own, so a
    line that only looks like a diagnostic must not stop the drive."""
    from tddhooks.drive.rustfixes import literal_insertions

    def line(message: object) -> str:
        return json.dumps({"reason": "compiler-message", "message": message})

    span = {"file_name": "src/lib.rs", "suggested_replacement": ".to_string()"}
    shapes = [
        line("E0308"),
        line({"code": "E0308"}),
        line({"code": {"code": "E0308"}, "children": None}),
        line({"code": {"code": "E0308"}, "children": [None, {"spans": 3}]}),
        line({"code": {"code": "E0308"}, "children": [{"spans": [
            {**span, "byte_start": "9", "byte_end": "9"},
            {**span, "byte_start": [9], "byte_end": [9]},
            {**span, "byte_start": True, "byte_end": True},
            {**span, "file_name": ["src/lib.rs"], "byte_start": 9, "byte_end": 9},
        ]}]}),
    ]  # fmt: skip
    assert list(literal_insertions("\n".join(shapes), ["src/lib.rs"])) == []


PROC_MACRO = (
    "use proc_macro::TokenStream;\n\n#[proc_macro]\npub fn noise(_: TokenStream) -> TokenStream {\n"
    '    println!(r#"{{"reason":"compiler-message","message":{{"code":"E0308"}}}}"#);\n'
    "    TokenStream::new()\n}\n"
)


@pytest.mark.cargo
def test_a_proc_macro_printing_what_looks_like_a_diagnostic_does_not_stop_the_fixes(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CARGO_TARGET_DIR", raising=False)
    manifest = MANIFEST + '\n[dependencies]\nnoise = { path = "noise" }\n'
    noise = '[package]\nname = "noise"\nversion = "0.1.0"\nedition = "2021"\n\n[lib]\n'
    repo = make_repo({
        "tdd.yaml": "language: rust\n", "Cargo.toml": manifest, "src/lib.rs": ZERO,
        "noise/Cargo.toml": noise + "proc-macro = true\n", "noise/src/lib.rs": PROC_MACRO,
    })  # fmt: skip
    source = 'noise::noise!();\n\npub fn say() -> String {\n    "Fizz"\n}\n'
    write_files(repo, {"src/lib.rs": source})

    workspace.format_files(repo, load_settings(repo), ["src/lib.rs"])

    assert '"Fizz".to_string()' in (repo / "src/lib.rs").read_text(encoding="utf-8")
    assert (repo / "noise/src/lib.rs").read_text(encoding="utf-8") == PROC_MACRO


def test_a_fix_rewrites_only_regular_files_it_changes_and_never_follows_a_symlink(
    tmp_path: Path,
) -> None:
    from tddhooks.drive.rustfixes import rewrite_files

    outside = tmp_path / "outside.rs"
    outside.write_text("secret\n")
    root = tmp_path / "repo"
    root.mkdir()
    (root / "a.rs").write_text("one\n")
    (root / "b.rs").write_text("two\n")
    (root / "link.rs").symlink_to(outside)
    seen: list[str] = []

    def upper_a(path: str, data: bytes) -> bytes:
        seen.append(path)
        return data.upper() if path == "a.rs" else data

    paths = ["b.rs", "link.rs", "a.rs", "gone.rs", "a.rs"]
    assert rewrite_files(root, paths, upper_a) == ["a.rs"]
    assert seen == ["a.rs", "b.rs"]  # each file once, in order; no symlink, no missing file
    assert (root / "a.rs").read_text() == "ONE\n"
    assert outside.read_text() == "secret\n"
