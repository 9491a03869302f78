"""Red-team cases against the item-aware rules (unit tests beside the code) and the amend
detection: each tries to pass code off as a test, or a commit off as an amend (real git)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from support.repo import git, write_files

from tddhooks.policy.amend import is_amend_args
from tddhooks.policy.facts import staged_facts
from tddhooks.policy.message import parse_message
from tddhooks.policy.rules import check_message
from tddhooks.policy.settings import PolicySettings

MakeRepo = Callable[..., Path]
RUST = PolicySettings(
    language="rust",
    test_paths=("tests/**",),
    require_test_with=("feat", "fix"),
)
CODE = "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n"


def _rules(repo: Path, files: dict[str, str], header: str) -> list[str]:
    write_files(repo, files)
    git(repo, "add", "-A")
    facts = staged_facts(repo, RUST)
    return [
        f"{v.rule}: {v.message}"
        for v in check_message(parse_message(f"{header}\n"), facts, RUST)
        if v.rule == "type-rules"
    ]


@pytest.mark.parametrize(
    "disguise",
    [
        "// #[cfg(test)] mod tests { #[test] fn fake() {} }\n",
        '/* #[test]\nfn fake() {} */\nconst S: &str = "#[test] fn x() {}";\n',
        "#[cfg(not(test))]\nmod tests {\n    #[test]\n    fn t() {}\n}\n",
    ],
    ids=["comment", "block-comment-and-string", "cfg-not-test"],
)
def test_a_feature_with_a_fake_unit_test_has_no_test(make_repo: MakeRepo, disguise: str) -> None:
    repo = make_repo({"src/lib.rs": CODE})
    changed = CODE.replace("a + b", "a + b + 0") + disguise
    found = _rules(repo, {"src/lib.rs": changed}, "feat: more")
    # cfg(not(test)): never compiled into the test binary, so its #[test] never runs
    assert found == ["type-rules: feat: commits must add or change a test, and no test file "
                     "is staged (test paths: tests/**)"]  # fmt: skip
    assert staged_facts(repo, RUST).test_names_after == frozenset()


def test_code_slipped_into_a_test_commit_beside_a_unit_test_is_caught(make_repo: MakeRepo) -> None:
    repo = make_repo({"src/lib.rs": CODE})
    unit = "\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {\n        super::add(1, 1);\n"
    unit += "    }\n}\n"
    found = _rules(repo, {"src/lib.rs": CODE.replace("a + b", "a * b") + unit}, "test: pin add")
    assert found == ["type-rules: test: commits may change only test files (test paths: "
                     "tests/**); src/lib.rs is not"]  # fmt: skip


def test_code_hidden_in_a_test_module_of_a_refactor_is_caught(make_repo: MakeRepo) -> None:
    unit = "\n#[cfg(test)]\nmod tests {\n    fn helper() -> i32 {\n        1\n    }\n}\n"
    repo = make_repo({"src/lib.rs": CODE + unit})
    found = _rules(repo, {"src/lib.rs": CODE + unit.replace("1\n", "2\n")}, "refactor: tidy")
    assert found == ["type-rules: refactor: commits may not change src/lib.rs"]


def test_a_test_module_renamed_to_look_like_one_without_cfg_is_code(make_repo: MakeRepo) -> None:
    # `mod tests` without #[cfg(test)] is compiled into the library: its functions are code
    plain = "\nmod tests {\n    pub fn helper() -> i32 {\n        1\n    }\n}\n"
    repo = make_repo({"src/lib.rs": CODE})
    found = _rules(repo, {"src/lib.rs": CODE + plain}, "test: helper")
    assert found == ["type-rules: test: commits may change only test files (test paths: "
                     "tests/**); src/lib.rs is not"]  # fmt: skip


@pytest.mark.parametrize(
    "args",
    [
        ["commit", "-m", "feat: x", "-m", "--amend"],
        ["commit", "-m--amend"],
        ["commit", "-F", "--amend"],
        ["commit", "--message", "--amend"],
        ["commit", "--", "--amend"],
        ["commit", "--amend", "--no-amend"],
        ["-c", "alias.x=commit --amend", "commit", "-m", "x"],
    ],
)
def test_look_alike_amends_are_judged_against_head(args: list[str]) -> None:
    assert is_amend_args(args, lambda _name: None) is False


def test_the_environment_cannot_claim_an_amend(make_repo: MakeRepo) -> None:
    import os

    from tddhooks.policy.amend import amend_in_progress

    repo = make_repo({"src/lib.rs": CODE})
    os.environ["TDDHOOKS_AMEND"] = "1"
    try:
        assert amend_in_progress(repo) is False  # pytest's ancestors are no `git commit --amend`
    finally:
        del os.environ["TDDHOOKS_AMEND"]
