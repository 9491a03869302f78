"""The sandbox's item-aware half (agents/itemedits.py) on real git repositories: in a source file
that holds tests beside its code, the tester may change only test items, the implementor and the
refactorer only code items. Each attempt to get round it is one test: refused, with the reason,
and nothing written."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from support.item_edits import OPS, PYPROJECT

from tddhooks.agents.edits import EditRefused, FileEdit, check_edits
from tddhooks.agents.roles import path_policy
from tddhooks.policy.settings import load_settings

MakeRepo = Callable[..., Path]
NEW_TEST = "\n\ndef test_sub_negative() -> None:\n    assert sub(1, 3) == -2\n"
INIT = "def add(a: int, b: int) -> int:\n    return a + b\n"
RUST_LIB = (
    "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n\n#[cfg(test)]\nmod tests {\n"
    "    use super::*;\n\n    #[test]\n    fn adds() {\n        assert_eq!(add(1, 1), 2);\n"
    "    }\n}\n"
)


@pytest.fixture
def python_kata(make_repo: MakeRepo) -> Path:
    return make_repo({"pyproject.toml": PYPROJECT, "tdd.yaml": "language: python\n",
                      "src/calc/__init__.py": INIT, "src/calc/ops.py": OPS,
                      "tests/test_calc.py": "def test_x() -> None:\n    pass\n"})  # fmt: skip


@pytest.fixture
def rust_kata(make_repo: MakeRepo) -> Path:
    manifest = '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n'
    return make_repo({"Cargo.toml": manifest, "tdd.yaml": "language: rust\n",
                      "src/lib.rs": RUST_LIB})  # fmt: skip


def _check(repo: Path, role: str, path: str, content: str | None) -> None:
    edit = FileEdit(path=path, action="upsert" if content is not None else "delete",
                    content=content)  # fmt: skip
    check_edits(repo, [edit], path_policy(role, load_settings(repo)))


def _refused(repo: Path, role: str, path: str, content: str | None, reason: str) -> None:
    before = (repo / path).read_bytes() if (repo / path).exists() else None
    with pytest.raises(EditRefused) as caught:
        _check(repo, role, path, content)
    assert reason in caught.value.message
    assert "nothing was written" in caught.value.message
    after = (repo / path).read_bytes() if (repo / path).exists() else None
    assert after == before


def test_the_tester_may_add_a_test_function_to_a_module_pytest_collects(python_kata: Path) -> None:
    _check(python_kata, "tester", "src/calc/ops.py", OPS + NEW_TEST)


def test_the_tester_may_add_a_test_inside_the_rust_test_module(rust_kata: Path) -> None:
    added = RUST_LIB.replace(
        "    }\n}\n",
        "    }\n\n    #[test]\n    fn adds_zero() {\n        assert_eq!(add(0, 0), 0);\n    }\n}\n",
    )
    _check(rust_kata, "tester", "src/lib.rs", added)


def test_a_tester_changing_the_code_beside_the_tests_is_refused(python_kata: Path) -> None:
    changed = OPS.replace("a - b", "a - b + 0") + NEW_TEST
    _refused(
        python_kata, "tester", "src/calc/ops.py", changed, "it changes code in src/calc/ops.py"
    )


def test_a_tester_adding_top_level_code_after_a_test_is_refused(python_kata: Path) -> None:
    smuggled = OPS + NEW_TEST + "\n\nsub = lambda a, b: 2\n"  # a module-level statement is code
    _refused(python_kata, "tester", "src/calc/ops.py", smuggled, "it changes code in")


def test_a_tester_adding_code_after_the_rust_test_module_is_refused(rust_kata: Path) -> None:
    smuggled = RUST_LIB + "\npub fn sub(a: i32, b: i32) -> i32 {\n    a - b\n}\n"
    _refused(rust_kata, "tester", "src/lib.rs", smuggled, "it changes code in src/lib.rs")


def test_a_test_in_a_module_pytest_does_not_collect_is_code(python_kata: Path) -> None:
    # src/calc/__init__.py is not collected (python_files): a "test" there is plain code
    _refused(python_kata, "tester", "src/calc/__init__.py", INIT + NEW_TEST, "it changes code")


def test_the_tester_may_not_create_or_delete_a_source_file(python_kata: Path) -> None:
    _refused(python_kata, "tester", "src/calc/new_ops.py", NEW_TEST, "may not create or delete")
    _refused(python_kata, "tester", "src/calc/ops.py", None, "may not create or delete")


def test_the_implementor_may_change_the_code_beside_the_tests(python_kata: Path) -> None:
    _check(python_kata, "implementor", "src/calc/ops.py", OPS.replace("a - b", "-(b - a)"))


def test_an_implementor_changing_a_test_item_is_refused(python_kata: Path) -> None:
    weaker = OPS.replace("assert sub(5, 3) == 2", "assert True")
    _refused(python_kata, "implementor", "src/calc/ops.py", weaker, "it changes the tests in")


def test_an_implementor_deleting_a_file_with_tests_is_refused(python_kata: Path) -> None:
    _refused(python_kata, "implementor", "src/calc/ops.py", None, "it changes the tests in")


def test_a_refactorer_dropping_the_rust_test_module_is_refused(rust_kata: Path) -> None:
    bare = RUST_LIB.split("#[cfg(test)]")[0]
    _refused(rust_kata, "refactorer", "src/lib.rs", bare, "it changes the tests in src/lib.rs")


def test_a_refactorer_renaming_a_test_is_refused(rust_kata: Path) -> None:
    renamed = RUST_LIB.replace("fn adds()", "fn adds_one_and_one()")
    _refused(rust_kata, "refactorer", "src/lib.rs", renamed, "it changes the tests in")


def test_the_tester_still_may_not_write_the_manifest(rust_kata: Path) -> None:
    _refused(rust_kata, "tester", "Cargo.toml", "[package]\n", "the tester may only write tests/**")


CODE_ONLY = "pub fn say(n: u32) -> String {\n    n.to_string()\n}\n"
OWN_TEST = '\n#[test]\nfn buzz() {\n    assert_eq!(say(5), "Buzz");\n}\n'


@pytest.fixture
def plain_rust_kata(make_repo: MakeRepo) -> Path:
    """A library without tests beside its code: the tests are in tests/."""
    manifest = '[package]\nname = "fizz"\nversion = "0.1.0"\nedition = "2021"\n'
    return make_repo({"Cargo.toml": manifest, "tdd.yaml": "language: rust\n",
                      "src/lib.rs": CODE_ONLY})  # fmt: skip


@pytest.mark.parametrize("role", ["implementor", "refactorer"])
@pytest.mark.parametrize(
    ("path", "content"),
    [
        ("src/lib.rs", CODE_ONLY + OWN_TEST),  # measured: r46's implementor, beside its code
        ("src/lib.rs", CODE_ONLY + "\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {}\n}\n"),
        ("src/helper.rs", "pub fn h() {}\n" + OWN_TEST),  # a new module with a test of its own
    ],
)
def test_an_implementor_or_refactorer_adding_a_test_to_code_is_refused(
    plain_rust_kata: Path, role: str, path: str, content: str
) -> None:
    _refused(plain_rust_kata, role, path, content, f"it adds a test to {path}")


def test_code_without_tests_is_the_implementors_to_change(plain_rust_kata: Path) -> None:
    _check(
        plain_rust_kata,
        "implementor",
        "src/lib.rs",
        CODE_ONLY.replace("n.to_string()", 'format!("{n}")'),
    )
    _check(plain_rust_kata, "implementor", "src/helper.rs", "pub fn h() {}\n")
