"""Reading the test items of Rust files: module nesting, cfg(test), spans, libtest names."""

from __future__ import annotations

import pytest

from tddhooks.runners.rust import rust_test_names
from tddhooks.runners.rust_items import (
    blank,
    cfg_test_module_files,
    is_cfg_test,
    is_test_attr,
    libtest_name,
    module_path,
    read_items,
)

LIB = """\
pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds_two() {
        assert_eq!(add(1, 1), 2);
    }

    mod inner {
        #[test]
        #[should_panic]
        fn name() {
            panic!("}");
        }
    }
}

pub fn after() {}
"""


def test_nested_modules_qualify_test_names_like_libtest() -> None:
    items = read_items(LIB)
    assert [test.name for test in items.tests] == ["tests::adds_two", "tests::inner::name"]
    assert items.item_spans == ((5, 21),)
    assert not items.in_test(2)
    assert items.in_test(11)
    assert not items.in_test(23)


def test_static_names_carry_the_path_and_the_module_path() -> None:
    assert rust_test_names({"src/lib.rs": LIB}) == {
        "src/lib.rs::tests::adds_two",
        "src/lib.rs::tests::inner::name",
    }
    assert rust_test_names({"tests/a.rs": "#[test]\nfn t() {}\n"}) == {"tests/a.rs::t"}


def test_test_functions_outside_a_test_module_are_test_items() -> None:
    text = "fn code() {}\n#[test]\nfn solo() {\n    code();\n}\n#[tokio::test]\nasync fn a() {}\n"
    items = read_items(text)
    assert [t.name for t in items.tests] == ["solo", "a"]
    assert items.item_spans == ((2, 5), (6, 7))
    assert not items.in_test(1)


def test_comments_and_strings_do_not_count() -> None:
    text = (
        '// #[test] fn fake() {}\nconst S: &str = "#[test] fn x() {";\n/* #[test]\nfn y() {} */\n'
    )
    assert read_items(text).tests == ()
    assert blank(text).count("\n") == text.count("\n")


def test_cfg_test_items_other_than_modules_and_not_test() -> None:
    text = "#[cfg(test)]\nuse super::*;\n#[cfg(not(test))]\nfn real() {}\n"
    text += "#[cfg(test)]\nfn helper() {}\n"
    items = read_items(text)
    assert items.item_spans == ((1, 2), (5, 6))


def test_inner_cfg_test_makes_the_whole_file_a_test() -> None:
    assert read_items("#![cfg(test)]\nfn helper() {}\n").in_test(2)


def test_a_half_written_test_module_runs_to_the_end() -> None:
    items = read_items("fn a() {}\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {\n")
    assert items.in_test(5)
    assert not items.in_test(1)


@pytest.mark.parametrize(
    ("attr", "test"),
    [("test", True), ("tokio::test", True), ("tokio :: test(flavor = \"x\")", True),
     ("testing", False), ("should_panic", False), ("cfg(test)", False)],
)  # fmt: skip
def test_test_attributes(attr: str, test: bool) -> None:
    assert is_test_attr(attr) is test


@pytest.mark.parametrize(
    ("attr", "cfg"),
    [("cfg(test)", True), ("cfg(all(test, feature = \"x\"))", True), ("cfg(not(test))", False),
     ("cfg(feature = \"test\")", False), ("cfg_attr(test, derive(Debug))", False)],
)  # fmt: skip
def test_cfg_test_attributes(attr: str, cfg: bool) -> None:
    assert is_cfg_test(attr) is cfg


@pytest.mark.parametrize(
    ("path", "module"),
    [("src/lib.rs", []), ("src/main.rs", []), ("src/a.rs", ["a"]), ("src/a/mod.rs", ["a"]),
     ("src/a/b.rs", ["a", "b"]), ("tests/x.rs", []), ("src/bin/tool.rs", []),
     ("crates/k/src/calc.rs", ["calc"])],
)  # fmt: skip
def test_module_path(path: str, module: list[str]) -> None:
    assert module_path(path) == module


def test_libtest_names_of_static_names() -> None:
    assert libtest_name("src/calc.rs::tests::adds") == "calc::tests::adds"
    assert libtest_name("src/lib.rs::tests::adds") == "tests::adds"
    assert libtest_name("tests/x.py::test_a") is None


def test_out_of_line_test_modules_are_test_files() -> None:
    files = {
        "src/lib.rs": "mod calc;\n#[cfg(test)]\nmod tests;\n",
        "src/tests.rs": "#[test]\nfn t() {}\n",
        "src/calc.rs": "#[cfg(test)]\nmod checks;\n",
        "src/calc/checks.rs": "",
    }
    assert cfg_test_module_files(files) == {"src/tests.rs", "src/calc/checks.rs"}
