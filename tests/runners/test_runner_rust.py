"""RustRunner: static test names, crate names, env, commands, skip markers and the scaffold."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.repo import git, write_files

from tddhooks import proc
from tddhooks.git import clean_env
from tddhooks.runners.rust import RustRunner, code_only, crate_name

NAME_CASES = [
    pytest.param({"tests/a.rs": "#[test]\nfn adds() {}\n"}, {"tests/a.rs::adds"}, id="plain"),
    pytest.param(
        {"tests/a.rs": '#[test]\n#[should_panic(expected = "x]")]\nfn panics() {}\n'},
        {"tests/a.rs::panics"},
        id="attribute-between-with-bracket-in-string",
    ),
    pytest.param(
        {"tests/a.rs": "#[should_panic]\n#[test]\n#[ignore]\npub fn later() {}\n"},
        {"tests/a.rs::later"},
        id="attributes-around-pub-fn",
    ),
    pytest.param(
        {"tests/ä.rs": "# [ test ]\nfn ünïcode_adds() {}\n#[test] async fn r#match() {}\n"},
        {"tests/ä.rs::ünïcode_adds", "tests/ä.rs::match"},
        id="non-ascii-spacing-raw-identifier",
    ),
    pytest.param(
        {"tests/a.rs": "// #[test]\n// fn commented() {}\n/* #[test] fn blocked() {} */\n"},
        set(),
        id="line-and-block-comments",
    ),
    pytest.param(
        {"tests/a.rs": "/* a /* #[test] fn nested() {} */ still comment */\n#[test]\nfn real() {}"},
        {"tests/a.rs::real"},
        id="nested-block-comment",
    ),
    pytest.param(
        {
            "tests/a.rs": 'const S: &str = "#[test] fn in_string() {}";\n'
            'const R: &str = r#"#[test]\nfn raw() {}"#;\n'
        },
        set(),
        id="strings-and-raw-strings",
    ),
    pytest.param(
        {
            "tests/a.rs": "fn helper<'a>(x: &'a str) -> char { 'x' }\n"
            "#[test]\nfn uses_lifetimes() {}\n"
        },
        {"tests/a.rs::uses_lifetimes"},
        id="lifetimes-and-char-literals",
    ),
    pytest.param(
        {
            "src/lib.rs": "#[cfg(test)]\nmod tests {\n    #[test]\n    fn unit() {}\n}\n",
            "README.md": "#[test]\nfn not_rust() {}\n",
        },
        {"src/lib.rs::tests::unit"},
        id="unit-tests-in-src-and-non-rust-files",
    ),
    pytest.param({"tests/a.rs": "fn helper() {}\n#[bench]\nfn b() {}\n"}, set(), id="no-tests"),
]


@pytest.mark.parametrize(("files", "expected"), NAME_CASES)
def test_static_test_names(files: dict[str, str], expected: set[str]) -> None:
    assert RustRunner().test_names(files) == expected


def test_code_only_keeps_code_and_blanks_literals() -> None:
    assert code_only('let s = "a // b"; // note\nlet c = \'"\';') == 'let s = "";  \nlet c = "";'


@pytest.mark.parametrize(
    ("project", "expected"),
    [
        ("bowling", "bowling"),
        ("Bowling Kata!", "bowling-kata"),
        ("string_calculator", "string-calculator"),
        ("Café Crème", "cafe-creme"),
        ("2048", "kata-2048"),
        ("test", "test-kata"),
        ("self", "self-kata"),
        ("日本", "kata"),
        ("", "kata"),
    ],
)
def test_crate_name(project: str, expected: str) -> None:
    assert crate_name(project) == expected


@pytest.mark.parametrize(
    ("line", "skips"),
    [
        ("#[ignore]", True),
        ('    #[ignore = "later"]', True),
        ("# [ ignore ]", True),
        ('#[cfg_attr(not(feature = "x"), ignore)]', True),
        ("#[test]", False),
        ("// ignore this comment", False),
        ("let ignored = 1;", False),
    ],
)
def test_skip_markers(line: str, skips: bool) -> None:
    assert any(marker.search(line) for marker in RustRunner.skip_markers) is skips


def test_env_builds_in_the_callers_folder_whatever_cargo_target_dir_says(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    runner = RustRunner()
    monkeypatch.delenv("CARGO_TARGET_DIR", raising=False)
    assert runner.env(tmp_path) == {
        "CARGO_TERM_COLOR": "never",
        "RUST_BACKTRACE": "0",
        "CARGO_NET_RETRY": "0",
        "CARGO_TARGET_DIR": str(tmp_path),
        "CARGO_BUILD_BUILD_DIR": str(tmp_path),
    }
    assert "CARGO_TARGET_DIR" not in runner.env(None)
    monkeypatch.setenv("CARGO_TARGET_DIR", "/shared/target")
    monkeypatch.setenv("CARGO_BUILD_BUILD_DIR", "/shared/build")
    assert runner.env(tmp_path)["CARGO_TARGET_DIR"] == str(tmp_path)
    assert runner.env(tmp_path)["CARGO_BUILD_BUILD_DIR"] == str(tmp_path)
    assert "CARGO_TARGET_DIR" not in runner.env(None)  # the environment's own stays in force


def test_default_commands_name_every_test_and_treat_warnings_as_errors() -> None:
    commands = RustRunner().default_commands()
    assert commands.test == ("cargo", "test", "--all", "--no-fail-fast")
    assert "--quiet" not in commands.test  # quiet prints dots, not test names
    assert commands.lint[-2:] == ("-D", "warnings")
    assert commands.fmt_check[-1] == "--check"
    assert commands.timeout_s == 300


def test_scaffold_writes_a_named_crate_and_never_overwrites(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "lib.rs").write_text("// mine\n", encoding="utf-8")
    written = RustRunner().scaffold(tmp_path, "Bowling Kata")
    assert written == ["Cargo.lock", "Cargo.toml", "tests/.gitkeep"]
    assert (tmp_path / "src" / "lib.rs").read_text(encoding="utf-8") == "// mine\n"
    manifest = (tmp_path / "Cargo.toml").read_text(encoding="utf-8")
    assert 'name = "bowling-kata"' in manifest
    assert 'edition = "2021"' in manifest
    assert "{project}" not in (tmp_path / "Cargo.lock").read_text(encoding="utf-8")
    assert RustRunner().scaffold(tmp_path, "Bowling Kata") == []


@pytest.mark.cargo
def test_toolchain_version_names_rustc_and_cargo() -> None:
    version = RustRunner().toolchain_version()
    assert version.startswith("rustc ")
    assert "; cargo " in version


def _run(runner: RustRunner, command: tuple[str, ...], cwd: Path) -> proc.ProcResult:
    return proc.run(command, cwd=cwd, env=clean_env(runner.env(None)), timeout_s=300)


@pytest.mark.cargo
def test_scaffold_is_green_for_real_then_a_failing_test_is_named(tmp_path: Path) -> None:
    runner = RustRunner()
    repo = tmp_path / "bowling"
    repo.mkdir()
    runner.scaffold(repo, "Bowling Kata")
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "chore: scaffold")
    commands = runner.default_commands()
    for command in (commands.fmt_check, commands.lint, commands.test):
        result = _run(runner, command, repo)
        assert result.ok, result.output
    report = runner.parse_test_output(result.output, result.returncode)
    assert report.green
    assert (report.passed, report.failed) == (0, 0)
    # cargo rewrote nothing: the scaffold commit stays clean (Cargo.lock included)
    assert git(repo, "status", "--porcelain").stdout == ""

    test_file = (
        "use bowling_kata as _;\n\n#[test]\nfn gutter_game_scores_zéro() {}\n\n"
        "#[test]\nfn adds_two() {\n    assert_eq!(2 + 2, 5);\n}\n"
    )
    write_files(repo, {"tests/adds.rs": test_file})
    result = _run(runner, commands.test, repo)
    report = runner.parse_test_output(result.output, result.returncode)
    assert not report.green
    assert report.failing_tests == ["tests/adds.rs::adds_two"]
    assert report.passing_tests == ["tests/adds.rs::gutter_game_scores_zéro"]
    assert any("panicked at tests/adds.rs:8:5" in line for line in report.error_lines)
    # static names agree with what cargo reports for top-level integration tests
    static = runner.test_names({"tests/adds.rs": test_file})
    assert static == {*report.failing_tests, *report.passing_tests}
    assert not (repo / "target").exists()  # the shared CARGO_TARGET_DIR was used
