"""A closing brace rustc finds misplaced is removed before the gate (drive/bracefixes.py), and a
reference to a char literal given as a pattern becomes the char (drive/charfixes.py). Measured:
the 1.5B implementor's attempts of one Password Validation turn (r33), as written below. Real
cargo: rustc's own spans pick what is rewritten."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from support.crates import rust_repo_with_staged_test as _rust_repo_with_staged_test

from tddhooks.drive import workspace
from tddhooks.drive.bracefixes import MISMATCHED, UNEXPECTED, remove_stray_braces, stray_braces
from tddhooks.drive.charfixes import apply_replacements, reference_replacements
from tddhooks.policy.settings import load_settings
from tddhooks.proc import run

MakeRepo = Callable[..., Path]
# the model's answer: `]}` ends the `if` block early, and the file has a `}` too many
STRAY = (
    "pub fn validate(password: &str) -> Vec<String> {\n"
    "    if password.is_empty() || password.len() < 8 || !password.contains(&'0') {\n"
    '        vec![String::from("must contain a digit")]}\n'
    "    } else {\n        vec![]\n    }\n}\n"
)


@pytest.mark.cargo
def test_the_misplaced_brace_goes_then_the_char_reference_becomes_the_char(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _rust_repo_with_staged_test(make_repo, monkeypatch, STRAY)

    workspace.format_files(repo, load_settings(repo), ["src/lib.rs"])

    fixed = (repo / "src/lib.rs").read_text(encoding="utf-8")
    assert "!password.contains('0')" in fixed
    assert 'vec![String::from("must contain a digit")]\n    } else {' in fixed
    assert run(["cargo", "check", "--quiet"], cwd=repo).ok


def _unexpected(spans: list[dict[str, object]], message: str = UNEXPECTED) -> str:
    return json.dumps({"reason": "compiler-message",
                       "message": {"message": message, "code": None, "spans": spans}})  # fmt: skip


def _span(start: int, label: str, path: str = "src/lib.rs") -> dict[str, object]:
    # as rustc writes them: the matched brace as an empty span at it
    return {"byte_start": start, "byte_end": start + (label != MISMATCHED), "file_name": path,
            "label": label,
            "is_primary": label != MISMATCHED}  # fmt: skip


def test_only_the_brace_rustc_matched_with_another_indentation_is_taken() -> None:
    output = "\n".join([
        _unexpected([_span(3, "this delimiter might not be properly closed..."),
                     _span(9, MISMATCHED), _span(20, "unexpected closing delimiter")]),
        _unexpected([_span(30, MISMATCHED, "tests/t.rs")]),  # not the agent's file
        _unexpected([_span(40, MISMATCHED)], message="unexpected closing delimiter: `)`"),
        "not json",
    ])  # fmt: skip
    assert list(stray_braces(output, ["src/lib.rs"])) == [("src/lib.rs", 9, 10)]


@pytest.mark.parametrize(
    ("code", "at", "kept"),
    [
        ("    x]}\n    } else {\n", 6, True),  # ends a line of code: removed
        ("    x]}", 6, True),  # the file's last line
        ("    }\n", 4, False),  # begins its line: layout, kept
        ("    x]} y\n", 6, False),  # code after it: kept
        ("    x]{\n", 6, False),  # not a brace: kept
    ],
)
def test_a_brace_is_removed_only_where_it_ends_a_line_after_code(
    tmp_path: Path, code: str, at: int, kept: bool
) -> None:
    (tmp_path / "lib.rs").write_text(code, encoding="utf-8")
    changed = remove_stray_braces(tmp_path, [("lib.rs", at, at + 1)])
    text = (tmp_path / "lib.rs").read_text(encoding="utf-8")
    assert (changed == ["lib.rs"]) is kept
    assert text == (code[:at] + code[at + 1 :] if kept else code)


def test_only_a_reference_to_one_char_literal_becomes_the_char(tmp_path: Path) -> None:
    text = "a(&'0') b(& '\\'') c(&'é') d(&\"0\") e(&x) f(&'ab')\n"
    (tmp_path / "lib.rs").write_text(text, encoding="utf-8")
    data = text.encode()
    spans = []
    for piece in ("&'0'", "& '\\''", "&'é'", '&"0"', "&x", "&'ab'"):
        start = data.index(piece.encode())
        spans.append(("lib.rs", start, start + len(piece.encode())))

    assert apply_replacements(tmp_path, spans) == ["lib.rs"]

    assert (tmp_path / "lib.rs").read_text(encoding="utf-8") == (
        "a('0') b('\\'') c('é') d(&\"0\") e(&x) f(&'ab')\n"
    )


def test_only_a_pattern_bound_on_a_char_reference_is_taken() -> None:
    def e0277(message: str, start: int) -> str:
        span = {"byte_start": start, "byte_end": start + 4, "file_name": "src/lib.rs",
                "is_primary": True}  # fmt: skip
        return json.dumps({"reason": "compiler-message", "message": {
            "message": message, "code": {"code": "E0277"}, "spans": [span]}})  # fmt: skip

    output = "\n".join([
        e0277("the trait bound `&char: Pattern` is not satisfied", 10),
        e0277("the trait bound `&char: std::str::pattern::Pattern` is not satisfied", 20),
        e0277("the trait bound `&u8: Pattern` is not satisfied", 30),
        e0277("the trait bound `char: Display` is not satisfied", 40),
    ])  # fmt: skip
    assert [s[1] for s in reference_replacements(output, ["src/lib.rs"])] == [10, 20]
