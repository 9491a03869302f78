"""A `char` method that takes a radix, passed by name as a predicate, becomes the closure that fits
before the gate (drive/charfixes.py). Measured: the 1.5B implementor wrote
`password.chars().any(char::is_digit)` in five of five attempts of a Password Validation turn,
with the hint in its prompt. Real cargo: rustc's own E0593 spans pick what is rewritten."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from support.crates import rust_repo_with_staged_test as _rust_repo_with_staged_test

from tddhooks.drive import workspace
from tddhooks.drive.charfixes import apply_replacements, predicate_replacements
from tddhooks.policy.settings import load_settings
from tddhooks.proc import run

MakeRepo = Callable[..., Path]
BY_NAME = (
    "pub fn validate(password: &str) -> Vec<String> {\n    let mut errors = Vec::new();\n"
    "    if !password.chars().any(char::is_digit) {\n"
    '        errors.push("must contain a digit".to_string());\n    }\n'
    "    if password.contains(char::is_digit) && password.chars().all(char::is_digit) {\n"
    '        errors.push("only digits".to_string());\n    }\n'
    "    // a comment naming char::is_digit stays as it is\n"
    "    errors\n}\n"
)


@pytest.mark.cargo
def test_a_radix_method_passed_by_name_becomes_the_closure_that_fits(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _rust_repo_with_staged_test(make_repo, monkeypatch, BY_NAME)

    workspace.format_files(repo, load_settings(repo), ["src/lib.rs"])

    fixed = (repo / "src/lib.rs").read_text(encoding="utf-8")
    assert "if !password.chars().any(|c: char| c.is_ascii_digit()) {" in fixed
    assert fixed.count("|c: char| c.is_ascii_digit()") == 3
    assert "// a comment naming char::is_digit stays as it is" in fixed
    assert run(["cargo", "check", "--quiet"], cwd=repo).ok


def _message(
    code: str, start: int, end: int, path: str = "src/lib.rs", primary: bool = True
) -> str:
    span = {"byte_start": start, "byte_end": end, "file_name": path, "is_primary": primary}
    return json.dumps({"reason": "compiler-message",
                       "message": {"code": {"code": code}, "spans": [span]}})  # fmt: skip


def test_only_e0593s_primary_span_in_the_agents_files_is_taken() -> None:
    output = "\n".join([
        _message("E0593", 10, 24), _message("E0308", 30, 44), _message("E0593", 50, 64, "x.rs"),
        _message("E0593", 70, 84, primary=False), "not json", '{"reason": "build-finished"}',
    ])  # fmt: skip
    assert list(predicate_replacements(output, ["src/lib.rs"])) == [("src/lib.rs", 10, 24)]


def test_only_the_methods_path_is_rewritten_never_a_call_or_another_text(tmp_path: Path) -> None:
    text = "a(char::is_digit) b(char::is_digit (c, 10)) c(char::is_alphabetic)\n"
    (tmp_path / "lib.rs").write_text(text, encoding="utf-8")
    name = "char::is_digit"
    by_name, called = text.index(name), text.index(name + " (")
    other = text.index("char::is_alphabetic")
    spans = [("lib.rs", by_name, by_name + len(name)), ("lib.rs", called, called + len(name)),
             ("lib.rs", other, other + len("char::is_alphabetic"))]  # fmt: skip

    assert apply_replacements(tmp_path, spans) == ["lib.rs"]

    assert (tmp_path / "lib.rs").read_text(encoding="utf-8") == (
        "a(|c: char| c.is_ascii_digit()) b(char::is_digit (c, 10)) c(char::is_alphabetic)\n"
    )
    assert apply_replacements(tmp_path, [("missing.rs", 0, 4)]) == []


# --- a string in single quotes, as Python writes one (r40: two attempts of five) ---------------

SINGLE_QUOTED = (
    "pub fn longer<'a>(a: &'a str, b: &'a str) -> &'a str {\n"
    "    if a.len() >= b.len() { a } else { b }\n"
    "}\n\n"
    "pub fn validate(password: &str) -> Vec<String> {\n"
    "    let first: char = 'A';\n"
    "    if password.len() < 8 {\n"
    "        vec!['must be at least 8 characters'.to_string()]\n"
    "    } else if !password.starts_with(first) {\n"
    "        vec!['short'.to_string()]\n"
    "    } else {\n"
    "        vec![]\n"
    "    }\n"
    "}\n"
)


@pytest.mark.cargo
def test_a_string_in_single_quotes_takes_rustcs_double_quotes(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _rust_repo_with_staged_test(make_repo, monkeypatch, SINGLE_QUOTED)

    workspace.format_files(repo, load_settings(repo), ["src/lib.rs"])

    fixed = (repo / "src/lib.rs").read_text(encoding="utf-8")
    assert 'vec!["must be at least 8 characters".to_string()]' in fixed
    assert 'vec!["short".to_string()]' in fixed  # the next round's error: lexing stops at one
    assert "let first: char = 'A';" in fixed  # a char literal and the lifetimes stay
    assert "pub fn longer<'a>(a: &'a str, b: &'a str) -> &'a str {" in fixed
    assert run(["cargo", "check", "--quiet"], cwd=repo).ok


def _quotes(path: str, spans: list[tuple[int, int, str]], help_text: str = "") -> str:
    child = {
        "message": help_text or "if you meant to write a string literal, use double quotes",
        "spans": [{"byte_start": start, "byte_end": end, "file_name": path,
                   "suggested_replacement": replacement} for start, end, replacement in spans],
    }  # fmt: skip
    message = {"code": None, "message": "prefix `x` is unknown", "spans": [], "children": [child]}
    return json.dumps({"reason": "compiler-message", "message": message})


def test_only_rustcs_double_quote_help_in_the_agents_files_is_taken() -> None:
    from tddhooks.drive.charfixes import quote_replacements

    output = "\n".join([
        _quotes("src/lib.rs", [(10, 11, '"'), (20, 21, '"')]),
        _quotes("tests/t.rs", [(10, 11, '"'), (20, 21, '"')]),  # not the agent's file
        _quotes("src/lib.rs", [(30, 31, '"'), (40, 41, '"')], "consider something else"),
        _quotes("src/lib.rs", [(50, 52, '"'), (60, 61, '"')]),  # not one quote
        _quotes("src/lib.rs", [(70, 71, "`"), (80, 81, '"')]),  # not a double quote
        _quotes("src/lib.rs", [(90, 91, '"')]),  # not a pair
        "not json",
    ])  # fmt: skip
    found = list(quote_replacements(output, ["src/lib.rs"]))
    assert found == [("src/lib.rs", 10, 11), ("src/lib.rs", 20, 21)]


def test_a_span_that_is_not_a_single_quote_is_left(tmp_path: Path) -> None:
    from tddhooks.drive.charfixes import apply_quotes

    (tmp_path / "src").mkdir()
    (tmp_path / "src/lib.rs").write_bytes(b"x 'ab' \"c\"")
    assert apply_quotes(tmp_path, [("src/lib.rs", 2, 3), ("src/lib.rs", 7, 8)]) == ["src/lib.rs"]
    assert (tmp_path / "src/lib.rs").read_bytes() == b'x "ab\' "c"'


def _testers_file_fixed(make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch, body: str) -> str:
    """A tester's turn that wrote tests/new.rs (`body` inside one test) in the `pv` crate: the
    file after the fixes; the library, not the turn's, is left as it was."""
    from support.crates import VALIDATE_SOURCE, validate_crate

    repo = validate_crate(make_repo, monkeypatch)
    test = f"use pv::validate;\n\n#[test]\nfn new() {{\n    {body}\n}}\n"
    (repo / "tests").mkdir(exist_ok=True)
    (repo / "tests/new.rs").write_text(test, encoding="utf-8")

    workspace.format_files(repo, load_settings(repo), ["tests/new.rs"])

    assert (repo / "src/lib.rs").read_text(encoding="utf-8") == VALIDATE_SOURCE
    return (repo / "tests/new.rs").read_text(encoding="utf-8")


@pytest.mark.cargo
def test_a_testers_string_in_single_quotes_is_fixed_in_its_test_file(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    # measured (r41): the tester's `vec!['must contain a lowercase letter']`, "prefix `letter` is
    # unknown", cost it an attempt; a test target is only checked with `--tests`
    body = "assert_eq!(validate(\"ABCDEF1!\"), vec!['must contain a lowercase letter']);"
    fixed = _testers_file_fixed(make_repo, monkeypatch, body)
    assert 'vec!["must contain a lowercase letter"]' in fixed


@pytest.mark.cargo
def test_clippys_safe_fixes_reach_a_testers_test_file(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    # measured (r43): the tester's `assert_eq!(….is_empty(), true)` failed clippy's
    # bool_assert_comparison and cost it an attempt; the fix is clippy's own, with `--tests`
    body = 'assert_eq!(validate("Abcdef1!").is_empty(), true);'
    fixed = _testers_file_fixed(make_repo, monkeypatch, body)
    assert 'assert!(validate("Abcdef1!").is_empty());' in fixed
