"""The tester's Rust integration test reaches the kata's crate by its real name
(drive/testimports.py). Measured: Qwen2.5-Coder 1.5B wrote `use crate::execute;` and the kata's
title as the crate (`use mars_rover::execute;`) and lost two cycles of six to them."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tddhooks.agents.edits import AgentAnswer, FileEdit
from tddhooks.drive.testimports import dependencies, repaired_answer, repaired_test
from tddhooks.proc import run
from tddhooks.resources import read_template

CALL = '\n#[test]\nfn origin() {\n    assert_eq!(execute("").unwrap(), "0:0:N");\n}\n'
MANIFEST = '[package]\nname = "rover"\nversion = "0.1.0"\nedition = "2021"\n'


def _fix(text: str, known: tuple[str, ...] = ()) -> str:
    return repaired_test(text, "rover", ["execute"], known)


@pytest.mark.parametrize(
    ("written", "repaired"),
    [
        ("use crate::execute;", "use rover::execute;"),
        ("use super::execute;", "use rover::execute;"),
        ("use mars_rover::execute;", "use rover::execute;"),
        ("use kata::{execute};", "use rover::{execute};"),
        ("use mars_rover::{Rover, execute};", "use rover::{Rover, execute};"),
        ("use mars_rover::*;", "use rover::*;"),
        ("use crate::*;", "use rover::*;"),
        ("pub use crate::execute;", "pub use rover::execute;"),
        ("    use crate::execute;", "    use rover::execute;"),
        ("use crate::execute as run;", "use rover::execute as run;"),
    ],
)
def test_a_wrong_root_of_the_crate_is_rewritten(written: str, repaired: str) -> None:
    assert _fix(written + "\n" + CALL) == repaired + "\n" + CALL


def test_a_path_in_the_code_is_rewritten_and_then_needs_no_import() -> None:
    text = '#[test]\nfn origin() {\n    assert!(crate::execute("").is_ok());\n}\n'
    assert _fix(text) == text.replace("crate::execute", "rover::execute")
    qualified = text.replace("crate::", "mars_rover::")
    assert _fix(qualified) == text.replace("crate::execute", "rover::execute")


def test_a_call_with_nothing_in_scope_gets_its_import_after_the_leading_comments() -> None:
    globbed = "use std::collections::*;\n" + CALL  # the standard library has no `execute`
    assert _fix(globbed) == "use rover::execute;\n" + globbed
    text = "//! The rover's origin.\n#![allow(unused)]\n" + CALL
    assert _fix(text) == "//! The rover's origin.\n#![allow(unused)]\nuse rover::execute;\n" + CALL
    assert _fix(CALL.lstrip("\n")) == "use rover::execute;\n\n" + CALL.lstrip("\n")


@pytest.mark.parametrize(
    "text",
    [
        "use rover::execute;\n" + CALL,  # already right
        "use rover::*;\n" + CALL,
        "use std::collections::HashMap;\nuse rover::execute;\n" + CALL,
        # a module of the test file, a helper of its own, a method, a qualified call
        "mod support;\nuse support::execute;\n" + CALL,
        "use self::execute;\n" + CALL,
        "fn execute(_: &str) -> Result<String, String> { Ok(String::new()) }\n" + CALL,
        '#[test]\nfn origin() {\n    assert!(rover::execute("").is_ok());\n}\n',
        '#[test]\nfn origin() {\n    assert!(Rover::new().execute("").is_ok());\n}\n',
        # a name that is not the Interface's: perhaps another crate's, perhaps a typo; not guessed
        "use mars_rover::Rover;\nuse rover::execute;\n" + CALL,
        "use rover::{execute, Rover};\n" + CALL,
        # a path that goes on past the function's name is not the function
        "use rover::execute;\nuse crate::execute::inner;\n" + CALL,
    ],
)
def test_what_can_be_meant_otherwise_is_left_alone(text: str) -> None:
    assert _fix(text) == text


def test_a_dependency_of_the_manifest_keeps_its_paths() -> None:
    manifest = MANIFEST + '\n[dev-dependencies]\nrover-testkit = "1"\n[dependencies]\nserde = "1"\n'
    assert dependencies(manifest) == {"rover_testkit", "serde"}
    assert dependencies("[package\n") == set()
    # red team: a platform's own dependencies are dependencies too
    platform = MANIFEST + "\n[target.'cfg(unix)'.dev-dependencies]\nunix-kit = \"1\"\n"
    assert dependencies(platform) == {"unix_kit"}
    assert dependencies(MANIFEST + '\ntarget = "x"\ndependencies = 3\n') == set()
    text = "use rover_testkit::execute;\n" + CALL
    assert _fix(text, ("rover_testkit",)) == text
    assert _fix(text) == "use rover::execute;\n" + CALL


def test_only_integration_tests_of_a_rust_kata_with_an_interface_are_repaired() -> None:
    kata = read_template("katas/mars-rover.md")
    answer = AgentAnswer(
        plan="origin",
        edits=[
            FileEdit(path="tests/origin.rs", content="use crate::execute;\n" + CALL),
            FileEdit(path="./tests/nested/more.rs", content=CALL),
            FileEdit(
                path="src/lib.rs", content="#[cfg(test)]\nmod tests {\n    use super::*;\n}\n"
            ),
            FileEdit(path="tests/old.rs", action="delete"),
        ],
    )
    repaired, changed = repaired_answer(answer, kata, MANIFEST)
    assert changed == ["tests/origin.rs", "./tests/nested/more.rs"]
    assert repaired.edits[0].content == "use rover::execute;\n" + CALL
    assert repaired.edits[1].content == "use rover::execute;\n" + CALL
    assert repaired.edits[2:] == answer.edits[2:]
    assert repaired_answer(answer, "# A kata without an interface\n", MANIFEST) == (answer, [])
    assert repaired_answer(answer, kata, None) == (answer, [])  # no manifest: no crate name
    assert repaired_answer(answer, kata, "[package\n") == (answer, [])


# red team: each of these is a valid test (or a test that names something else) that the repair
# corrupted or rewrote: a string's or comment's text, `$crate` in a macro, a module declared
# `pub(crate)`, a type's associated function, a parent module's helpers behind `super::*`
@pytest.mark.parametrize(
    "text",
    [
        'use rover::execute;\n#[test]\nfn t() {\n    execute("crate::execute").unwrap();\n}\n',
        "use rover::execute;\n// like crate::execute, see mars_rover::execute\n" + CALL,
        "use rover::execute;\n/* crate::execute */\n" + CALL,
        "use rover::execute;\nmacro_rules! run {\n    ($s:expr) => {\n"
        "        $crate::execute($s)\n    };\n}\n" + CALL,
        "pub(crate) mod helpers {\n    pub fn execute() {}\n}\n"
        "#[test]\nfn t() {\n    helpers::execute();\n}\n",
        "#[cfg(test)] mod helpers {\n    pub fn execute() {}\n}\n"
        "#[test]\nfn t() {\n    helpers::execute();\n}\n",
        "struct Runner;\nimpl Runner {\n    fn execute(&self) {}\n}\n"
        "#[test]\nfn t() {\n    Runner::execute(&Runner);\n}\n",
        "use rover::execute;\nstruct R;\nimpl R {\n    fn execute() {}\n"
        "    fn go() {\n        Self::execute();\n    }\n}\n" + CALL,
        "use rover::execute;\nfn run(s: &str) -> String {\n    execute(s).unwrap()\n}\n"
        'mod tests {\n    use super::*;\n    #[test]\n    fn t() {\n        run("M");\n    }\n}\n',
        "extern crate rover as mars;\nuse mars::execute;\n" + CALL,
        "use ::rover::execute;\n" + CALL,
        # a primitive type's associated function; the test's own function of that name
        "use rover::execute;\n#[test]\nfn t() {\n    assert_eq!(u32::execute(1), 1);\n}\n",
        "fn execute(s: &str) -> String {\n    rover::execute(s).unwrap()\n}\nmod tests {\n"
        '    #[test]\n    fn t() {\n        crate::execute("M");\n        super::execute("M");\n'
        "    }\n}\n",
        # a glob from a module of the test or a dependency may bring the name in
        "mod common;\nuse common::*;\n" + CALL,
        "use std::collections::*;\nuse rover_testkit::prelude::*;\n" + CALL,
        # a call only in a string or a comment needs no import
        '#[test]\nfn t() {\n    println!("execute(x)");\n}\n',
        '// execute("") is Ok\n#[test]\nfn t() {}\n',
    ],
)
def test_code_that_means_something_else_and_text_that_is_not_code_are_left_alone(
    text: str,
) -> None:
    assert _fix(text, ("rover_testkit",)) == text


def test_a_test_modules_super_is_its_parent_and_the_parent_gets_the_import() -> None:
    text = "mod tests {\n    use super::*;\n" + CALL + "}\n"
    assert _fix(text) == "use rover::execute;\n\n" + text
    # a module of the test crate (tests/common/mod.rs): `super::` is the test file
    common = "use super::*;\nuse rover::execute;\n" + CALL
    kata = read_template("katas/mars-rover.md")
    answer = AgentAnswer(
        plan="common", edits=[FileEdit(path="tests//common/mod.rs", content=common)]
    )
    assert repaired_answer(answer, kata, MANIFEST) == (answer, [])
    # the root of a test crate, however its path is spelled: `super::` there has no parent
    root = AgentAnswer(plan="root", edits=[FileEdit(path="./tests/./origin.rs", content=common)])
    assert repaired_answer(root, kata, MANIFEST)[1] == ["./tests/./origin.rs"]
    assert repaired_test(common, "rover", ["execute"], root=False) == common
    assert _fix(common) == common.replace("super::*", "rover::*")


@pytest.mark.parametrize(
    ("head", "newline"),
    [
        ("#![allow(unused)]\n", "\n"),
        ("#![allow(unused)]\r\n", "\r\n"),  # the leading run used to end at the `\r`
        ("//! Origin.\r\n#![allow(unused)]\r\n", "\r\n"),
        ("#![allow(unused)] // all of it\n", "\n"),
        ("#![allow(\n    dead_code,\n    unused,\n)]\n", "\n"),
        ("/*! Origin. */\n#![allow(unused)]\n", "\n"),
        ("/* a\n   header */\n", "\n"),
    ],
)
def test_an_added_import_goes_after_every_inner_attribute(head: str, newline: str) -> None:
    # an import above an inner attribute does not compile ("an inner attribute is not permitted
    # in this context")
    body = CALL.replace("\n", newline)
    assert _fix(head + body) == head + f"use rover::execute;{newline}" + body


def test_a_byte_order_mark_stays_first() -> None:
    assert _fix("\ufeffuse rover::execute;\n" + CALL) == "\ufeffuse rover::execute;\n" + CALL
    assert _fix("\ufeff" + CALL.lstrip("\n")) == "\ufeffuse rover::execute;\n\n" + CALL.lstrip("\n")


@pytest.mark.parametrize(
    "text",
    [
        "\n" * 200_000,  # a small model's runaway answer: every `^\s*` scanned to the end
        " \n" * 100_000 + CALL,
        "use a::" * 30_000 + ";",
        "fn t() { " + "crate::execute(1); " * 10_000 + "}",
    ],
)
def test_a_huge_test_is_repaired_in_linear_time(text: str) -> None:
    started = time.monotonic()
    _fix(text)
    assert time.monotonic() - started < 5  # was minutes: quadratic in the blank lines


LIB = "pub fn execute(commands: &str) -> Result<String, String> {\n    Ok(commands.into())\n}\n"
# valid tests as a person or a model writes them; each compiles as written and once repaired
VALID = {
    "tests/attributes.rs": "//! Origin.\r\n#![allow(unused)]\r\n" + CALL.replace("\n", "\r\n"),
    "tests/layered.rs": "#![allow(\n    dead_code,\n)] // all\n" + CALL,
    "tests/helpers.rs": (
        "use rover::execute;\nfn run(s: &str) -> String {\n    execute(s).unwrap()\n}\n"
        'mod tests {\n    use super::*;\n    #[test]\n    fn t() {\n        run("M");\n    }\n}\n'
    ),
    "tests/macro.rs": (
        "use rover::execute;\nmacro_rules! run {\n    ($s:expr) => {\n        $crate::execute($s)\n"
        '    };\n}\n#[test]\nfn t() {\n    assert_eq!(run!("crate::execute"), Ok("crate::execute"'
        ".into()));\n    assert_eq!(u32::max(1, 2), 2);\n}\n"
    ),
    "tests/bound.rs": (
        "#[test]\nfn t() {\n    let execute = |c: &str| rover::execute(c).unwrap();\n"
        '    assert_eq!(execute("M"), "M");\n}\n'
        'fn check(execute: impl Fn(&str) -> String) -> String {\n    execute("M")\n}\n'
        '#[test]\nfn u() {\n    assert_eq!(check(|c| rover::execute(c).unwrap()), "M");\n}\n'
    ),
    "tests/grouped.rs": (
        "use rover::execute;\nfn helper() -> u8 {\n    1\n}\n"
        "mod support {\n    pub const ONE: u8 = 1;\n}\n"
        "mod tests {\n    use crate::{execute, helper, support::ONE};\n    #[test]\n    fn t() {\n"
        '        assert!(execute("M").is_ok());\n        assert_eq!(helper(), ONE);\n    }\n}\n'
    ),
    "tests/scoped.rs": (
        "pub(crate) mod helpers {\n    pub fn execute() -> u8 {\n        1\n    }\n}\n"
        "struct Runner;\nimpl Runner {\n    fn execute(&self) -> u8 {\n        2\n    }\n}\n"
        "#[test]\nfn t() {\n    assert_eq!(helpers::execute() + Runner::execute(&Runner), 3);\n}\n"
    ),
}


@pytest.mark.cargo
def test_repaired_valid_tests_still_compile(
    make_repo: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """red team: the repair put an import above an inner attribute, pointed `$crate`, a
    module's and a type's functions at the crate, and took a test module's helpers away."""
    monkeypatch.delenv("CARGO_TARGET_DIR", raising=False)
    files = {path: repaired_test(text, "rover", ["execute"]) for path, text in VALID.items()}
    repo = make_repo({"Cargo.toml": MANIFEST, "src/lib.rs": LIB, **files})

    # the gate's lint: an import the repair adds and the test does not use is an error
    lint = ["cargo", "clippy", "--all-targets", "--quiet", "--", "-D", "warnings"]
    built = run(lint, cwd=repo, timeout_s=600)

    assert built.ok, built.output
