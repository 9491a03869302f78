"""The paths each role is offered (agents/offers.py): the only values its schema's `path` takes,
so a schema-bound model cannot write a test as the implementor or code as the tester."""

from __future__ import annotations

import pytest

from tddhooks.agents.offers import behaviour_slug, new_test_path, offered_paths
from tddhooks.agents.roles import path_policy
from tddhooks.agents.schemas import answer_schema
from tddhooks.policy.settings import PolicySettings

RUST = PolicySettings(language="rust", test_paths=("tests/**",), source_paths=("src/**",))
PYTHON = PolicySettings(
    language="python",
    test_paths=("tests/**", "test_*.py", "*_test.py"),
    source_paths=("src/**", "*.py"),
)
FILES = ("Cargo.toml", "src/lib.rs", "src/parse.rs", "tests/empty.rs", "kata.md")


@pytest.mark.parametrize(
    ("requirement", "slug"),
    [
        ("An empty string sums to 0.", "empty_string_sums_to_0"),
        ('A string holding one number returns that number: "7" gives 7.',
         "string_holding_one_number_returns"),
        ("A strike: ten pins with the first roll.", "strike"),
        ("Numbers above 1000 are left out of the sum.", "numbers_above_1000_left_out"),
        ('"//;\\n" picks a separator.', "picks_separator"),
        ("1000 is the limit.", "cycle_3_1000_limit"),
        ("", "cycle_3"),
        ("Über straße!", "ber_stra_e"),
    ],
)  # fmt: skip
def test_a_requirement_names_its_test_file(requirement: str, slug: str) -> None:
    assert behaviour_slug(requirement, "cycle_3") == slug


def test_a_huge_word_in_a_kata_never_makes_a_file_name_too_long() -> None:
    slug = behaviour_slug("Sums " + "x" * 10_000 + " numbers.", "cycle_1")
    assert slug == ("sums_" + "x" * 10_000)[:60]
    assert behaviour_slug("\u0000../../etc/passwd: gives 1", "cycle_1") == "etc_passwd"


def test_the_new_test_file_never_exists_already_whatever_its_case() -> None:
    taken = ["tests/empty_string.rs", "tests/Empty_String_2.rs"]
    path = new_test_path("rust", "Empty string.", 1, taken, path_policy("tester", RUST))
    assert path == "tests/empty_string_3.rs"
    python = new_test_path("python", "Empty string.", 1, [], path_policy("tester", PYTHON))
    assert python == "tests/test_empty_string.py"


def test_no_new_file_is_offered_where_the_tester_may_not_write() -> None:
    spec_only = PolicySettings(language="rust", test_paths=("spec/**",), source_paths=("src/**",))
    assert new_test_path("rust", "Empty.", 1, [], path_policy("tester", spec_only)) is None
    assert offered_paths("tester", path_policy("tester", spec_only), files=FILES,
                         unit_test_files=(), requirement="Empty.", cycle=1) == ()  # fmt: skip


def test_the_tester_gets_a_new_file_the_test_files_there_are_and_unit_tests_beside_code() -> None:
    offered = offered_paths("tester", path_policy("tester", RUST), files=FILES,
                            unit_test_files=("src/parse.rs",), requirement="Empty input.",
                            cycle=2)  # fmt: skip
    # the new file is a suggestion: a test may be added beside the others in tests/empty.rs
    assert offered == ("tests/empty_input.rs", "tests/empty.rs", "src/parse.rs")


def test_the_implementor_gets_the_code_files_and_never_a_test_manifest_or_kata() -> None:
    offered = offered_paths("implementor", path_policy("implementor", RUST), files=FILES,
                            unit_test_files=(), requirement="x", cycle=1)  # fmt: skip
    assert offered == ("src/lib.rs", "src/parse.rs")
    python_files = ("src/kata/__init__.py", "tests/test_a.py", "test_b.py", "conftest.py", "x.md")
    policy = path_policy("implementor", PYTHON)
    offered = offered_paths("implementor", policy, files=python_files, unit_test_files=(),
                            requirement="x", cycle=1)  # fmt: skip
    assert "src/kata/__init__.py" in offered
    assert not {"tests/test_a.py", "test_b.py", "x.md"} & set(offered)


def test_the_refactorer_may_start_a_module_so_it_gets_no_list() -> None:
    policy = path_policy("refactorer", RUST)
    assert offered_paths("refactorer", policy, files=FILES, unit_test_files=(),
                         requirement="x", cycle=1) == ()  # fmt: skip


def test_offered_paths_are_the_only_values_of_path_and_bound_the_edits() -> None:
    tester = answer_schema("tester", ("tests/empty.rs",))["properties"]["edits"]
    assert tester["items"]["properties"]["path"] == {"type": "string", "enum": ["tests/empty.rs"]}
    assert tester["maxItems"] == 1
    implementor = answer_schema("implementor", ("src/lib.rs", "src/parse.rs"))["properties"]
    edits = implementor["edits"]
    assert edits["items"]["properties"]["path"]["enum"] == ["src/lib.rs", "src/parse.rs"]
    assert edits["maxItems"] == 2
    # it edits files that exist: no delete, so content is always a string
    assert edits["items"]["properties"]["action"]["enum"] == ["upsert"]
    assert edits["items"]["properties"]["content"] == {"type": "string"}
    free = answer_schema("implementor")["properties"]["edits"]
    assert free["items"]["properties"]["path"] == {"type": "string"}
    assert "maxItems" not in free
