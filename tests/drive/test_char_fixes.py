"""A `char` method that takes a radix, passed by name as a predicate, becomes the closure that fits
before the gate (drive/charfixes.py). Measured: the 1.5B implementor wrote
`password.chars().any(char::is_digit)` in five of five attempts of a Password Validation turn,
with the hint in its prompt. Real cargo: rustc's own E0593 spans pick what is rewritten."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from drive.test_lint_fixes import _rust_repo_with_staged_test

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
