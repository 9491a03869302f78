"""A `vec![…]` of string literals copied with `.to_vec()` where a `Vec<String>` is expected becomes
the plain `vec![…]`, whose literals then take rustc's `.to_string()` (drive/vecfixes.py).
Measured: r48's 1.5B implementor lost a Password Validation turn to
`vec!["must be at least 8 characters", "must contain a digit"].to_vec()`. Real cargo: rustc's own
E0308 span picks what is rewritten."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from support.crates import rust_repo_with_staged_test as _rust_repo_with_staged_test

from tddhooks.drive import workspace
from tddhooks.drive.vecfixes import LABEL, copied_vecs, drop_copies
from tddhooks.policy.settings import load_settings
from tddhooks.proc import run

MakeRepo = Callable[..., Path]
COPIED = (
    "pub fn validate(password: &str) -> Vec<String> {\n"
    "    if password.len() < 8 {\n"
    '        vec!["must be at least 8 characters", "must contain a digit"].to_vec()\n'
    "    } else if password.is_empty() {\n"
    '        vec!["must contain a digit".to_string(), "x"].to_vec()\n'
    "    } else {\n        vec![]\n    }\n}\n"
    "pub fn errors(password: &str) -> Result<(), Vec<String>> {\n"
    '    if password.is_empty() {\n        return Err(vec!["empty"].to_owned());\n    }\n'
    "    Ok(())\n}\n"
)


@pytest.mark.cargo
def test_the_copy_goes_and_each_literal_becomes_a_string(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _rust_repo_with_staged_test(make_repo, monkeypatch, COPIED)

    workspace.format_files(repo, load_settings(repo), ["src/lib.rs"])

    fixed = (repo / "src/lib.rs").read_text(encoding="utf-8")
    assert 'vec![\n            "must be at least 8 characters".to_string(),' in fixed
    assert '"must contain a digit".to_string(),\n        ]\n' in fixed
    assert 'Err(vec!["empty".to_string()])' in fixed
    assert ".to_owned()" not in fixed
    assert run(["cargo", "check", "--quiet"], cwd=repo).ok


def _mismatch(start: int, end: int, label: str = LABEL, path: str = "src/lib.rs",
              code: str = "E0308") -> str:  # fmt: skip
    span = {"byte_start": start, "byte_end": end, "file_name": path, "is_primary": True,
            "label": label}  # fmt: skip
    return json.dumps({"reason": "compiler-message", "message": {
        "message": "mismatched types", "code": {"code": code}, "spans": [span]}})  # fmt: skip


def test_only_the_primary_span_of_a_vec_of_str_mismatch_in_the_agents_file_is_taken() -> None:
    output = "\n".join([
        _mismatch(3, 30),
        _mismatch(40, 50, label="expected `String`, found `&str`"),
        _mismatch(60, 70, path="tests/t.rs"),
        _mismatch(80, 90, code="E0277"),
        "not json",
    ])  # fmt: skip
    assert list(copied_vecs(output, ["src/lib.rs"])) == [("src/lib.rs", 3, 30)]


@pytest.mark.parametrize(
    ("code", "after"),
    [
        ('vec!["a", "b"].to_vec()', 'vec!["a", "b"]'),
        ('vec! [ "a" ] . to_owned ( )', 'vec! [ "a" ]'),
        ('vec!["]"].to_vec()', 'vec!["]"]'),  # a bracket in a literal is text
        ('vec![f("a")].to_vec()', 'vec![f("a")]'),
        # not exactly a copied vec!: left to the gate
        ('vec!["a"].iter().map(|s| *s).collect()', None),
        ('vec!["a"][0..1].to_vec()', None),  # a slice of it: the `]` closes another bracket
        ('["a"].to_vec()', None),
        ('vec!["a"].clone()', None),
    ],
)
def test_a_span_is_rewritten_only_when_it_is_exactly_a_copied_vec(
    tmp_path: Path, code: str, after: str | None
) -> None:
    source = f"fn f() -> Vec<String> {{\n    {code}\n}}\n"
    (tmp_path / "lib.rs").write_text(source, encoding="utf-8")
    start = source.index(code)

    changed = drop_copies(tmp_path, [("lib.rs", start, start + len(code))])

    text = (tmp_path / "lib.rs").read_text(encoding="utf-8")
    assert text == (source if after is None else source.replace(code, after))
    assert changed == ([] if after is None else ["lib.rs"])
