"""Unit tests beside the code: the facts say which source files changed test items and which
changed code items, and the type rules judge them apart (real git, no cargo)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from support.repo import git, write_files

from tddhooks.policy.compose import infer_role, suggest_type
from tddhooks.policy.facts import commit_facts, staged_facts
from tddhooks.policy.items import classify, parse_hunks
from tddhooks.policy.message import parse_message
from tddhooks.policy.rules import (
    CommitFacts,
    changed_code_paths,
    changed_test_paths,
    check_message,
)
from tddhooks.policy.settings import PolicySettings

MakeRepo = Callable[..., Path]
RUST = PolicySettings(language="rust", test_paths=("tests/**",), require_test_with=("feat", "fix"))
PYTHON = PolicySettings(
    language="python",
    test_paths=("tests/**", "test_*.py", "*_test.py"),
    require_test_with=("feat", "fix"),
)
CODE = "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n"
UNIT = (
    "\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn adds() {\n"
    "        assert_eq!(add(1, 2), 3);\n    }\n}\n"
)
UNIT_TWO = UNIT.replace("    }\n}\n", "    }\n\n    #[test]\n    fn adds_zero() {\n"
                        "        assert_eq!(add(0, 0), 0);\n    }\n}\n")  # fmt: skip


def _facts(repo: Path, files: dict[str, str], settings: PolicySettings) -> CommitFacts:
    write_files(repo, files)
    git(repo, "add", "-A")
    return staged_facts(repo, settings)


def _verdict(kind: str, facts: CommitFacts, settings: PolicySettings) -> list[str]:
    message = parse_message(f"{kind}: x\n")
    return [v.rule for v in check_message(message, facts, settings) if v.rule == "type-rules"]


def test_a_unit_test_added_beside_the_code_is_a_test_item(make_repo: MakeRepo) -> None:
    repo = make_repo({"src/lib.rs": CODE})
    facts = _facts(repo, {"src/lib.rs": CODE + UNIT}, RUST)
    assert facts.test_item_paths == {"src/lib.rs"}
    assert facts.code_item_paths == frozenset()
    assert changed_test_paths(facts, RUST) == ["src/lib.rs"]
    assert changed_code_paths(facts, RUST) == []
    assert infer_role(facts.changes, RUST, facts) == "Tester"
    assert suggest_type(facts.changes, RUST, facts) == "test"
    assert _verdict("test", facts, RUST) == []
    assert _verdict("refactor", facts, RUST) == ["type-rules"]


def test_a_feature_with_its_unit_test_is_an_implementor_commit(make_repo: MakeRepo) -> None:
    repo = make_repo({"src/lib.rs": CODE + UNIT})
    changed = CODE.replace("a + b", "a + b + 0") + UNIT_TWO
    facts = _facts(repo, {"src/lib.rs": changed}, RUST)
    assert facts.test_item_paths == {"src/lib.rs"} == facts.code_item_paths
    assert infer_role(facts.changes, RUST, facts) == "Implementor"
    assert _verdict("feat", facts, RUST) == []
    assert _verdict("test", facts, RUST) == ["type-rules"]


def test_a_refactor_may_not_edit_a_unit_test_body(make_repo: MakeRepo) -> None:
    repo = make_repo({"src/lib.rs": CODE + UNIT})
    facts = _facts(repo, {"src/lib.rs": CODE + UNIT.replace("add(1, 2), 3", "add(2, 1), 3")}, RUST)
    assert facts.test_names_before == facts.test_names_after  # same names, other body
    assert _verdict("refactor", facts, RUST) == ["type-rules"]


def test_a_refactor_of_the_code_beside_unit_tests_passes(make_repo: MakeRepo) -> None:
    repo = make_repo({"src/lib.rs": CODE + UNIT})
    facts = _facts(repo, {"src/lib.rs": CODE.replace("a + b", "b + a") + UNIT}, RUST)
    assert facts.test_item_paths == frozenset()
    assert facts.code_item_paths == {"src/lib.rs"}
    assert infer_role(facts.changes, RUST, facts) == "Refactorer"
    assert _verdict("refactor", facts, RUST) == []
    assert _verdict("feat", facts, RUST) == ["type-rules"]


def test_deleting_a_unit_test_module_is_a_test_change(make_repo: MakeRepo) -> None:
    repo = make_repo({"src/lib.rs": CODE + UNIT})
    facts = _facts(repo, {"src/lib.rs": CODE}, RUST)
    assert facts.test_item_paths == {"src/lib.rs"}
    assert not facts.code_item_paths
    assert _verdict("refactor", facts, RUST) == ["type-rules"]


def test_an_out_of_line_test_module_is_a_test_file(make_repo: MakeRepo) -> None:
    repo = make_repo({"src/lib.rs": CODE + "\n#[cfg(test)]\nmod tests;\n", "src/tests.rs": ""})
    facts = _facts(repo, {"src/tests.rs": "#[test]\nfn t() {}\n"}, RUST)
    assert facts.test_item_paths == {"src/tests.rs"}
    assert not facts.code_item_paths


def test_audit_facts_see_the_unit_test_of_a_commit(make_repo: MakeRepo) -> None:
    repo = make_repo({"src/lib.rs": CODE})
    write_files(repo, {"src/lib.rs": CODE.replace("a + b", "a + b + 0") + UNIT})
    git(repo, "commit", "-qam", "feat: adds")
    facts = commit_facts(repo, "HEAD", RUST)
    assert facts.test_item_paths == facts.code_item_paths == {"src/lib.rs"}


PY_CODE = "def add(a, b):\n    return a + b\n"
PY_TEST = "\n\ndef test_add():\n    assert add(1, 2) == 3\n"
PYPROJECT = '[project]\nname = "k"\n\n[tool.pytest.ini_options]\npython_files = ["*.py"]\n'


def test_python_tests_beside_code_where_pytest_collects_them(make_repo: MakeRepo) -> None:
    repo = make_repo({"pyproject.toml": PYPROJECT, "src/k/calc.py": PY_CODE})
    facts = _facts(repo, {"src/k/calc.py": PY_CODE + PY_TEST}, PYTHON)
    assert facts.test_item_paths == {"src/k/calc.py"}
    assert not facts.code_item_paths
    assert "src/k/calc.py::test_add" in facts.test_names_after
    assert _verdict("test", facts, PYTHON) == []


def test_python_test_functions_pytest_does_not_collect_are_code(make_repo: MakeRepo) -> None:
    repo = make_repo({"pyproject.toml": '[project]\nname = "k"\n', "src/k/calc.py": PY_CODE})
    facts = _facts(repo, {"src/k/calc.py": PY_CODE + PY_TEST}, PYTHON)
    assert not facts.test_item_paths
    assert facts.code_item_paths == {"src/k/calc.py"}
    assert _verdict("test", facts, PYTHON) == ["type-rules"]


@pytest.mark.parametrize(
    ("patch", "hunks"),
    [
        ("--- a/x.rs\n+++ b/x.rs\n@@ -2 +2,2 @@\n-a\n+b\n+c\n", {"x.rs": [(2, 1, 2, 2)]}),
        ("--- /dev/null\n+++ b/n.rs\n@@ -0,0 +1 @@\n+x\n", {"n.rs": [(0, 0, 1, 1)]}),
        ("--- a/g.rs\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-x\n--- y\n", {"g.rs": [(1, 2, 0, 0)]}),
    ],
)
def test_parse_hunks(patch: str, hunks: dict[str, list[tuple[int, int, int, int]]]) -> None:
    assert parse_hunks(patch) == hunks


def test_blank_lines_count_for_neither() -> None:
    old = {"a.rs": "fn a() {}\n\n"}
    new = {"a.rs": "fn a() {}\n\n\n"}

    def spans(path: str, text: str) -> tuple[tuple[int, int], ...]:
        return ()

    assert classify({"a.rs": [(2, 0, 3, 1)]}, ["a.rs"], old, new, spans, spans) == (
        frozenset(),
        frozenset(),
    )


def test_hints_for_a_file_holding_a_unit_test_and_code(make_repo: MakeRepo) -> None:
    repo = make_repo({"src/lib.rs": CODE + UNIT})
    changed = CODE.replace("a + b", "a + b + 0") + UNIT_TWO
    facts = _facts(repo, {"src/lib.rs": changed}, RUST)
    test_commit = check_message(parse_message("test: x\n"), facts, RUST)
    assert test_commit[0].message.endswith("src/lib.rs is not")
    assert "git restore --staged -p src/lib.rs, answering y to those hunks" in test_commit[0].hint


@pytest.mark.parametrize("kata", ["kata.md", "./kata.md", "../outside.md", "", "/abs/k.md"])
def test_the_kata_file_is_looked_up_in_the_tree_only_inside_it(
    make_repo: MakeRepo, kata: str
) -> None:

    repo = make_repo({"src/lib.rs": CODE, "kata.md": "# K\n"})
    facts = _facts(repo, {"src/lib.rs": CODE + "// x\n"}, RUST._replace(kata_description=kata))
    assert facts.has_kata is (kata in ("kata.md", "./kata.md"))
