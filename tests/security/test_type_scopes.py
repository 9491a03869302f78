"""Red team, class 5 (the type part) and the static skip markers: what each commit type may touch
(README's policy table), every rejection naming the type to use, and skip markers spelled through
aliases. Real commits through the installed commit-msg hook."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.rules_kit import (
    PYTHON_KATA,
    SUB_CODE,
    SUB_TEST,
    accepted,
    commit_with,
    git,
    head,
    make_kata,
    rejected,
    tdd,
    write,
)


@pytest.fixture
def kata(tmp_path: Path) -> Path:
    return make_kata(tmp_path)


@pytest.fixture
def pykata(tmp_path: Path) -> Path:
    return make_kata(tmp_path, PYTHON_KATA)


def _stage(repo: Path, files: dict[str, str], *, delete: tuple[str, ...] = ()) -> str:
    write(repo, files)
    for path in delete:
        (repo / path).unlink()
    git(repo, "add", "-A")
    return head(repo)


@pytest.mark.parametrize("kind", ["docs", "chore", "ci"])
def test_housekeeping_types_may_not_change_code(kata: Path, kind: str) -> None:
    before = _stage(kata, {"src/lib.rs": SUB_CODE})
    text = rejected(commit_with(kata, f"{kind}: tidy\n"), "type-rules", before, kata)
    assert f"{kind}: commits may not change source files: src/lib.rs" in text
    assert "commit it as refactor:" in text


@pytest.mark.parametrize("kind", ["docs", "chore", "ci", "build", "style"])
def test_only_feature_and_test_commits_touch_test_files(kata: Path, kind: str) -> None:
    before = _stage(kata, {"tests/sub.rs": SUB_TEST})
    text = rejected(commit_with(kata, f"{kind}: tidy\n"), "type-rules", before, kata)
    assert f"{kind}: commits may not change tests/sub.rs" in text
    assert "test: or feat:" in text


def test_chore_may_not_delete_a_test(kata: Path) -> None:
    before = _stage(kata, {}, delete=("tests/add.rs",))
    rejected(commit_with(kata, "chore: cleanup\n"), "type-rules", before, kata)


def test_build_may_change_the_manifest_only(kata: Path) -> None:
    manifest = (kata / "Cargo.toml").read_text(
        encoding="utf-8"
    ) + "\n[profile.dev]\nopt-level = 1\n"
    before = _stage(kata, {"Cargo.toml": manifest})
    accepted(commit_with(kata, "build: faster debug builds\n"), before, kata)
    before = _stage(kata, {"src/lib.rs": SUB_CODE})
    rejected(commit_with(kata, "build: sneak code in\n"), "type-rules", before, kata)


@pytest.mark.parametrize(
    "path", ["Cargo.toml", ".cargo/config.toml", "rust-toolchain.toml", "clippy.toml"]
)
def test_docs_and_chore_may_not_change_build_files(kata: Path, path: str) -> None:
    before = _stage(kata, {path: "# changed\n"})
    text = rejected(commit_with(kata, "chore: tweak\n"), "type-rules", before, kata)
    assert "commit it as build:" in text


BUILD_SCRIPT = 'fn main() {\n    println!("cargo::rustc-env=GREETING=hi");\n}\n'


def test_a_build_script_is_code_a_build_commit_may_not_change(kata: Path) -> None:
    # cargo compiles and runs build.rs first, and what it writes can be the crate's code
    before = _stage(kata, {"build.rs": BUILD_SCRIPT})
    text = rejected(commit_with(kata, "build: a build script\n"), "type-rules", before, kata)
    assert "build: commits may not change source files: build.rs" in text
    assert "commit it as refactor:" in text


def test_a_build_script_lands_as_a_refactor_with_the_same_tests(kata: Path) -> None:
    before = _stage(kata, {"build.rs": BUILD_SCRIPT})
    accepted(commit_with(kata, tdd("refactor", "a build script")), before, kata)


def test_style_changes_code_with_the_same_test_names(kata: Path) -> None:
    before = _stage(kata, {"src/lib.rs": "pub fn add(a: i32, b: i32) -> i32 { a + b }\n"})
    accepted(commit_with(kata, "style: one line\n"), before, kata)


def test_feat_may_not_remove_a_test(kata: Path) -> None:
    before = _stage(
        kata, {"tests/sub.rs": SUB_TEST, "src/lib.rs": SUB_CODE}, delete=("tests/add.rs",)
    )
    text = rejected(commit_with(kata, tdd("feat", "subtract")), "type-rules", before, kata)
    assert "feat: commits may not remove a test" in text
    assert "tests/add.rs::adds" in text
    assert "test: commit of their own" in text


def test_a_test_commit_may_remove_a_test(kata: Path) -> None:
    before = _stage(kata, {"tests/sub.rs": SUB_TEST, "src/lib.rs": SUB_CODE})
    accepted(commit_with(kata, tdd("feat", "subtract")), before, kata)
    before = _stage(kata, {}, delete=("tests/add.rs",))
    accepted(commit_with(kata, tdd("test", "drop the adder test", role="Tester")), before, kata)


@pytest.mark.parametrize(
    "marker", ['#[ignore = "slow"]', "#[cfg_attr(all(), ignore)]", "#[cfg(any())]"]
)
def test_rust_skip_marker_spellings(kata: Path, marker: str) -> None:
    test = f"#[test]\n{marker}\nfn adds() {{\n    assert_eq!(kata::add(1, 2), 3);\n}}\n"
    before = _stage(kata, {"tests/add.rs": test})
    rejected(commit_with(kata, tdd("test", "tweak", role="Tester")), "no-skip", before, kata)


@pytest.mark.parametrize(
    ("imports", "decorator"),
    [
        ("from pytest import mark", "@mark.skip"),
        ("import pytest as pt", "@pt.mark.skip(reason='later')"),
        ("from pytest import mark as m", "@m.xfail"),
        ("import pytest", "@pytest.mark.skipif(True, reason='')"),
        ("import unittest", "@unittest.skip('later')"),
    ],
)
def test_python_skip_aliases(pykata: Path, imports: str, decorator: str) -> None:
    test = f"{imports}\nfrom kata import add\n\n\n{decorator}\n"
    test += "def test_adds():\n    assert add(1, 2) == 3\n"
    before = _stage(pykata, {"tests/test_add.py": test})
    rejected(commit_with(pykata, tdd("test", "tweak", role="Tester")), "no-skip", before, pykata)


@pytest.mark.parametrize(
    "body", ["    pytest.skip('later')", "    pt.skip('later')", "    raise unittest.SkipTest('x')"]
)
def test_python_skip_calls(pykata: Path, body: str) -> None:
    test = (
        "import unittest\n\nimport pytest\nimport pytest as pt\nfrom kata import add\n\n\n"
        f"def test_adds():\n{body}\n    assert add(1, 2) == 3\n"
    )
    before = _stage(pykata, {"tests/test_add.py": test})
    rejected(commit_with(pykata, tdd("test", "tweak", role="Tester")), "no-skip", before, pykata)


def test_python_module_level_opt_outs(pykata: Path) -> None:
    test = PYTHON_KATA["tests/test_add.py"] + "\n__test__ = False\n"
    before = _stage(pykata, {"tests/test_add.py": test})
    rejected(commit_with(pykata, tdd("test", "tweak", role="Tester")), "no-skip", before, pykata)


def test_a_python_function_named_skip_is_not_a_marker(pykata: Path) -> None:
    code = PYTHON_KATA["src/kata/__init__.py"] + "\n\ndef skip(n):\n    return n + 1\n"
    test = (
        PYTHON_KATA["tests/test_add.py"]
        + "\n\ndef test_skip():\n    from kata import skip\n    assert skip(1) == 2\n"
    )
    before = _stage(pykata, {"src/kata/__init__.py": code, "tests/test_add.py": test})
    accepted(commit_with(pykata, tdd("feat", "skip ahead")), before, pykata)
