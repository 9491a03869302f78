"""A style: commit may change any file when the change is formatting only, proved by equal token
streams or by the language's formatter (real ruff and rustfmt on texts; rules pure)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tddhooks.git import Change
from tddhooks.policy.formatting import formatting_only, same_tokens
from tddhooks.policy.message import parse_message
from tddhooks.policy.rules import CommitFacts, check_message
from tddhooks.policy.settings import settings_from_text

PY_OLD = "def test_add():\n    assert add( 1,2 )==3  #same\n"
PY_LAYOUT = "def test_add():\n    assert add(1, 2) == 3  # same\n"
PY_QUOTES = "x = {'a': 1,\n     'b': 2}\n"
PY_QUOTES_FORMATTED = 'x = {"a": 1, "b": 2}\n'


@pytest.mark.parametrize(
    ("language", "old", "new", "same"),
    [
        ("python", PY_OLD, PY_LAYOUT, True),
        ("python", PY_OLD, PY_LAYOUT.replace("3", "4"), False),
        ("python", PY_OLD, PY_LAYOUT.replace("# same", "# other"), False),
        ("python", "if x:\n  y()\n", "if x:\n    y()\n", True),
        ("python", "if x:\n    y()\nz()\n", "if x:\n    y()\n    z()\n", False),  # block moves
        ("rust", "fn f()->i32{1+1}\n", "fn f() -> i32 {\n    1 + 1\n}\n", True),
        ("rust", "fn f()->i32{1+1}\n", "fn f() -> i32 {\n    1 + 2\n}\n", False),
        ("rust", 'fn f(){g("a  b")}\n', 'fn f() {\n    g("a b")\n}\n', False),  # in a literal
    ],
)
def test_token_streams(language: str, old: str, new: str, same: bool) -> None:
    assert same_tokens(language, old, new) is same


def test_what_ruff_format_makes_of_the_parent_is_formatting_only(tmp_path: Path) -> None:
    assert not same_tokens("python", PY_QUOTES, PY_QUOTES_FORMATTED)  # quotes differ
    assert formatting_only("python", "t.py", PY_QUOTES, PY_QUOTES_FORMATTED, tmp_path)
    assert not formatting_only("python", "t.py", PY_QUOTES, 'x = {"a": 1, "b": 3}\n', tmp_path)


@pytest.mark.skipif(shutil.which("rustfmt") is None, reason="rustfmt is not installed")
@pytest.mark.cargo
def test_what_rustfmt_makes_of_the_parent_is_formatting_only(tmp_path: Path) -> None:
    old = "fn f(x: u8) -> u8 {\n    match x { 0 => 1, _ => 2 }\n}\n"
    new = "fn f(x: u8) -> u8 {\n    match x {\n        0 => 1,\n        _ => 2,\n    }\n}\n"
    assert not same_tokens("rust", old, new)  # rustfmt adds a trailing comma
    assert formatting_only("rust", "src/lib.rs", old, new, tmp_path)
    assert not formatting_only("rust", "src/lib.rs", old, new.replace("2,", "3,"), tmp_path)


def _facts(formatting: frozenset[str]) -> CommitFacts:
    names = frozenset({"tests/test_add.py::test_add"})
    return CommitFacts(
        changes=(Change("M", "tests/test_add.py"), Change("M", "src/calc.py")),
        test_names_before=names,
        test_names_after=names,
        added_lines={},
        formatting_only=formatting,
    )


def test_a_style_commit_may_reformat_tests_and_code_and_nothing_else() -> None:
    settings = settings_from_text("language: python\n")
    style = parse_message("style: ruff format\n")
    both = frozenset({"tests/test_add.py", "src/calc.py"})
    assert check_message(style, _facts(both), settings) == []
    refused = check_message(style, _facts(frozenset({"src/calc.py"})), settings)
    assert [violation.rule for violation in refused] == ["type-rules"]
    assert "only as `ruff format` formats them" in refused[0].message
    # the proof is for style: only; a refactor still may not touch the tests
    refactor = parse_message("refactor: tidy\n")
    assert check_message(refactor, _facts(both), settings.__class__(**{
        **settings._asdict(), "require_sections": ()}))[0].rule == "type-rules"  # fmt: skip


def test_only_code_files_can_be_proved_formatting(make_repo: object) -> None:
    from tddhooks.policy.formatting import formatting_only_paths

    files = {"tests/expected.txt": "a  b\n", "tests/test_a.py": "x = ( 1 )\n"}
    repo = make_repo(files)  # type: ignore[operator]
    (repo / "tests/expected.txt").write_text("a b\n")  # whitespace in data is content
    (repo / "tests/test_a.py").write_text("x = 1\n")
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    settings = settings_from_text("language: python\n")
    proved = formatting_only_paths(repo, ["--cached", "HEAD"], settings)
    assert proved == frozenset({"tests/test_a.py"})


def test_ruffs_safe_fixes_count_as_formatting_but_a_change_beyond_them_does_not(
    tmp_path: Path,
) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.ruff.lint]\nextend-select = ["I", "UP"]\n')
    old = "import sys\nimport os\n\n\ndef test_x(self):\n    self.assertEquals(os.sep, sys.x)\n"
    new = "import os\nimport sys\n\n\ndef test_x(self):\n    self.assertEqual(os.sep, sys.x)\n"
    assert not same_tokens("python", old, new)
    assert formatting_only("python", "test_x.py", old, new, tmp_path)
    assert not formatting_only("python", "test_x.py", old, new.replace("os.sep", "os.pathsep"),
                               tmp_path)  # fmt: skip
    # without the rule selected, the same change is no fix of the linter's: more than layout
    (tmp_path / "pyproject.toml").write_text('[tool.ruff.lint]\nselect = ["E"]\n')
    assert not formatting_only("python", "test_x.py", old, new, tmp_path)
