"""Text edits of .pre-commit-config.yaml: others' hooks and comments survive; idempotent."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tddhooks.commands.precommit_config import (
    BLOCK_END,
    BLOCK_START,
    CREATED_HEADER,
    HOOK_IDS,
    add_hooks,
    hook_entries,
    load,
    remove_hooks,
)
from tddhooks.errors import ConfigError

PATH = Path(".pre-commit-config.yaml")
OURS = sorted(HOOK_IDS.values())

INDENT_0 = """\
# Qualitätsprüfung — keep this comment
default_stages: [pre-commit]
repos:
- repo: local
  hooks:
  - id: no-tabs  # über tabs
    name: no tabs
    entry: "! grep -P '\\t'"
    language: system
# about ci:
ci:
  autofix: false
"""
INDENT_4 = """\
repos:
    -   repo: https://github.com/pre-commit/pre-commit-hooks
        rev: v4.6.0
        hooks:
        -   id: trailing-whitespace
        -   id: end-of-file-fixer
"""
EMPTY_FLOW = "repos: []  # nothing yet\n"
NO_REPOS = "# only settings\nfail_fast: true\n"
CRLF = "repos:\r\n- repo: local\r\n  hooks:\r\n  - {id: x, name: x, entry: x, language: system}\r\n"


def ids(text: str) -> list[str]:
    return sorted(hook_id for _, hook_id in hook_entries(load(text, PATH)))


@pytest.mark.parametrize(
    ("before", "others"),
    [
        (INDENT_0, ["no-tabs"]),
        (INDENT_4, ["end-of-file-fixer", "trailing-whitespace"]),
        (EMPTY_FLOW, []),
        (NO_REPOS, []),
        ("", []),
        (CRLF, ["x"]),
    ],
)
def test_add_keeps_everything_and_remove_restores_the_original(
    before: str, others: list[str]
) -> None:
    after = add_hooks(before, PATH)
    assert ids(after) == sorted(others + OURS)
    for line in before.splitlines():
        if not line.startswith("repos:"):  # `repos: []` turns into a block list
            assert line in after.splitlines()  # comments included, character for character
    assert add_hooks(after, PATH) == after
    restored = remove_hooks(after, PATH)
    assert restored is not None
    assert ids(restored) == sorted(others)
    if "repos" in load(before, PATH):
        assert restored == before
    else:  # the `repos:` key we had to add stays, as an empty list
        assert load(restored, PATH) == {**load(before, PATH), "repos": []}


def test_block_matches_the_item_indentation_of_the_file() -> None:
    after = add_hooks(INDENT_4, PATH)
    assert f"    {BLOCK_START}" in after.splitlines()
    assert "    -   repo: https://github.com/pre-commit/pre-commit-hooks" in after


def test_crlf_files_stay_crlf() -> None:
    after = add_hooks(CRLF, PATH)
    assert "\n" not in after.replace("\r\n", "")


def test_hooks_are_local_system_hooks_on_their_own_stage() -> None:
    data = load(add_hooks(None, PATH), PATH)
    (repo,) = data["repos"]
    assert repo["repo"] == "local"
    by_id = {hook["id"]: hook for hook in repo["hooks"]}
    for hook_type, hook_id in HOOK_IDS.items():
        hook = by_id[hook_id]
        assert hook["entry"] == f"tddhooks hook {hook_type}"
        assert hook["language"] == "system"
        assert hook["always_run"] is True
        assert hook["stages"] == [hook_type]
    assert by_id["tddhooks-pre-commit"]["pass_filenames"] is False
    # commit-msg and prepare-commit-msg need the message file pre-commit passes as a filename
    assert "pass_filenames" not in by_id["tddhooks-commit-msg"]
    assert data["default_install_hook_types"] == ["pre-commit", "commit-msg", "prepare-commit-msg"]


def test_a_created_file_is_deleted_when_only_ours_is_left() -> None:
    created = add_hooks(None, PATH)
    assert created.startswith(CREATED_HEADER)
    assert remove_hooks(created, PATH) is None


def test_a_created_file_with_other_hooks_is_kept() -> None:
    created = add_hooks(None, PATH)
    extended = (
        created
        + "  - repo: local\n    hooks:\n      - {id: mine, name: m, entry: m, language: system}\n"
    )
    remaining = remove_hooks(extended, PATH)
    assert remaining is not None
    assert ids(remaining) == ["mine"]


def test_existing_install_types_setting_is_left_alone() -> None:
    text = "default_install_hook_types: [pre-commit]\nrepos: []\n"
    after = add_hooks(text, PATH)
    assert load(after, PATH)["default_install_hook_types"] == ["pre-commit"]
    assert after.count("default_install_hook_types") == 1


def test_ids_listed_from_a_remote_repository_are_not_added_again() -> None:
    text = "repos:\n- repo: https://example.com/tddhooks\n  rev: v1\n  hooks:\n" + "".join(
        f"  - id: {hook_id}\n" for hook_id in OURS
    )
    assert add_hooks(text, PATH) == text
    assert remove_hooks(text, PATH) == text  # not ours to remove


def test_only_missing_ids_are_added() -> None:
    text = (
        "repos:\n- repo: https://example.com/t\n  rev: v1\n  hooks:\n  - id: tddhooks-pre-commit\n"
    )
    after = add_hooks(text, PATH)
    assert ids(after) == OURS
    assert after.count("id: tddhooks-pre-commit") == 1


def test_an_outdated_block_is_replaced() -> None:
    hook = "{id: tddhooks-pre-commit, name: o, entry: old, language: system}"
    old = f"repos:\n  {BLOCK_START}\n  - repo: local\n    hooks:\n      - {hook}\n  {BLOCK_END}\n"
    after = add_hooks(old, PATH)
    assert "entry: old" not in after
    assert ids(after) == OURS


def test_a_non_empty_flow_list_is_refused() -> None:
    with pytest.raises(ConfigError, match="flow list"):
        add_hooks("repos: [{repo: meta, hooks: [{id: identity}]}]\n", PATH)


def test_invalid_yaml_names_the_file() -> None:
    with pytest.raises(ConfigError, match=r"\.pre-commit-config\.yaml: not valid YAML"):
        add_hooks("repos: [\n", PATH)


def test_removing_refuses_to_lose_a_hook_someone_put_inside_our_block() -> None:
    squatter = "- repo: local\n  hooks: [{id: squatter, name: s, entry: s, language: system}]\n"
    after = add_hooks(INDENT_0, PATH).replace(BLOCK_END, squatter + BLOCK_END)
    assert "squatter" in ids(after)
    with pytest.raises(ConfigError, match="would lose"):
        remove_hooks(after, PATH)


def test_result_is_plain_yaml() -> None:
    assert isinstance(yaml.safe_load(add_hooks(INDENT_0, PATH)), dict)
