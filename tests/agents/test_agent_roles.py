"""Roles: their specs, path policies per language layout, and the shipped prompt templates."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tddhooks.agents.context import estimate_tokens
from tddhooks.agents.edits import check_edits, matches_any, parse_answer
from tddhooks.agents.roles import ROLES, path_policy, role_spec, system_prompt
from tddhooks.agents.schemas import answer_schema
from tddhooks.errors import UsageError
from tddhooks.policy.settings import PolicySettings

RUST = PolicySettings(language="rust", test_paths=("tests/**",), source_paths=("src/**",))
PYTHON = PolicySettings(
    language="python",
    kata_description="katas/bowling.md",
    test_paths=("tests/**", "test_*.py"),
    source_paths=("src/**", "*.py"),
)


def test_role_specs() -> None:
    assert {name: (spec.title, spec.commit_type) for name, spec in ROLES.items()} == {
        "tester": ("Tester", None),
        "implementor": ("Implementor", "feat"),
        "refactorer": ("Refactorer", "refactor"),
    }


def test_unknown_role_names_the_valid_ones() -> None:
    with pytest.raises(UsageError, match="unknown role 'reviewer'") as caught:
        role_spec("reviewer")
    assert caught.value.fix is not None
    assert "tester, implementor, refactorer" in caught.value.fix
    with pytest.raises(UsageError):
        system_prompt("reviewer")


def _may_write(role: str, settings: PolicySettings, path: str) -> bool:
    policy = path_policy(role, settings)
    return (
        not matches_any(path, policy.protected)
        and not matches_any(path, policy.foreign)
        and matches_any(path, policy.writable)
    )


@pytest.mark.parametrize(
    ("settings", "role", "path", "expected"),
    [
        (RUST, "tester", "tests/adds.rs", True),
        (RUST, "tester", "src/lib.rs", False),
        (RUST, "implementor", "src/lib.rs", True),
        (RUST, "implementor", "src/ziffern/neu.rs", True),
        (RUST, "implementor", "tests/adds.rs", False),
        (RUST, "refactorer", "src/lib.rs", True),
        (RUST, "refactorer", "tests/adds.rs", False),
        (RUST, "implementor", "kata.md", False),
        (RUST, "tester", "tests/kata.md", True),  # only the kata file itself is protected
        (RUST, "implementor", "tdd.yaml", False),
        (RUST, "implementor", ".tdd/set-aside/adds.rs", False),
        # Python: test_*.py matches the source glob *.py too; tests still win for the tester only
        (PYTHON, "tester", "test_bowling.py", True),
        (PYTHON, "tester", "pkg/test_frames.py", True),
        (PYTHON, "implementor", "test_bowling.py", False),
        (PYTHON, "implementor", "bowling.py", True),
        (PYTHON, "implementor", "src/bowling/__init__.py", True),
        (PYTHON, "tester", "bowling.py", False),
        (PYTHON, "implementor", "katas/bowling.md", False),
    ],
)
def test_role_path_policies(settings: PolicySettings, role: str, path: str, expected: bool) -> None:
    assert _may_write(role, settings, path) is expected


def test_default_globs_when_settings_have_none() -> None:
    bare = PolicySettings()
    assert path_policy("tester", bare).writable == ("tests/**",)
    assert path_policy("implementor", bare).writable == ("src/**",)
    assert path_policy("implementor", bare).foreign == ("tests/**",)


# ---------------------------------------------------------------- prompt templates


def _example(prompt: str) -> str:
    lines = [line for line in prompt.splitlines() if line.startswith('{"plan"')]
    assert len(lines) == 1, "each prompt shows exactly one example answer"
    return lines[0]


@pytest.mark.parametrize("role", list(ROLES))
def test_prompt_is_lean_and_shows_a_valid_example(
    role: str, make_repo: Callable[..., Path]
) -> None:
    prompt = system_prompt(role)
    assert estimate_tokens(prompt) <= 400
    example = _example(prompt)
    answer = parse_answer(example, role)
    # the example shows exactly the fields of the role's schema
    assert set(json.loads(example)) == set(answer_schema(role)["properties"])
    # the example itself obeys the role's path rules
    repo = make_repo({"src/lib.rs": "\n", "tests/keep.rs": "\n"})
    check_edits(repo, answer.edits, path_policy(role, RUST))
    if role in ("implementor", "refactorer"):
        assert answer.commit is not None
        assert answer.commit.type is None  # feat or refactor: the tool writes it


@pytest.mark.parametrize("role", list(ROLES))
def test_prompt_has_nothing_volatile(role: str) -> None:
    prompt = system_prompt(role)
    assert not re.search(r"\b[0-9a-f]{7,40}\b", prompt)  # commit ids
    assert not re.search(r"\d{4}-\d{2}-\d{2}|\d{2}:\d{2}", prompt)  # dates, times
    assert not re.search(r"(?<![\w.])/(?:home|tmp|work|Users|var)/", prompt)  # absolute paths
    assert system_prompt(role) == prompt


@pytest.mark.parametrize(
    ("role", "phrases"),
    [
        (
            "tester",
            ["Tester", "exactly ONE new failing test", "test files only", "Covered tests",
             '"done": true', "use <crate>::"],
        ),
        (
            "implementor",
            ["Implementor", "minimal source change", "Never touch a test file", "staged test",
             "`pub`"],
        ),
        (
            "refactorer",
            ["Refactorer", "without changing its behaviour", "Never touch a test file",
             '"edits": []'],
        ),
    ],
)  # fmt: skip
def test_prompt_states_the_roles_tdd_rule(role: str, phrases: list[str]) -> None:
    prompt = system_prompt(role)
    for phrase in phrases:
        assert phrase in prompt
    assert "ONE JSON object" in prompt


def test_the_testers_schema_offers_no_delete_and_always_content() -> None:
    # a grammar-bound small model filled a delete with the new test's content (docs/agents.md)
    tester_edit = answer_schema("tester")["properties"]["edits"]["items"]["properties"]
    assert tester_edit["action"]["enum"] == ["upsert"]
    assert tester_edit["content"] == {"type": "string"}
    implementor_edit = answer_schema("implementor")["properties"]["edits"]["items"]["properties"]
    assert implementor_edit["action"]["enum"] == ["upsert", "delete"]
    assert implementor_edit["content"]["type"] == ["string", "null"]
