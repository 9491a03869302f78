"""`.pre-commit-config.yaml` edited by node positions: byte-identical round trips, valid for the
real pre-commit and prek, others' hooks and comments kept."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tddhooks.commands.precommit_config import (
    BLOCK_END,
    BLOCK_START,
    CREATED_HEADER,
    HOOK_IDS,
    HOOK_TYPES,
    add_hooks,
    hook_entries,
    load,
    notes,
    remove_hooks,
)
from tddhooks.errors import ConfigError

PATH = Path(".pre-commit-config.yaml")
OURS = sorted(HOOK_IDS.values())
PREK = str(Path(sys.executable).parent / "prek")

SHAPES = {
    "indent 0, comments": """\
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
""",
    "indent 4, several repos": """\
repos:
    -   repo: https://github.com/pre-commit/pre-commit-hooks
        rev: v4.6.0
        hooks:
        -   id: trailing-whitespace
        -   id: end-of-file-fixer
    -   repo: https://github.com/psf/black
        rev: 24.1.0
        hooks: [{id: black}]
""",
    "empty flow": "repos: []  # nothing yet\n",
    "no repos": "# only settings\nfail_fast: true\n",
    "empty file": "",
    "crlf": "repos:\r\n- repo: local\r\n  hooks:\r\n  - {id: x, name: x, entry: x, language: system}\r\n",  # noqa: E501
    "flow repos": "repos: [{repo: local, hooks: [{id: a, name: a, entry: 'true', language: system}]}]\n",  # noqa: E501
    "multi-line flow, trailing comma": (
        "repos: [\n  {repo: local, hooks: [{id: a, name: a, entry: 'true', language: system}]},\n]\n"  # noqa: E501
    ),
    "anchors and merge keys": """\
x-common: &common
  language: system
  pass_filenames: false
default_install_hook_types: [pre-commit]  # theirs
repos:
- repo: local
  hooks:
  - id: a
    <<: *common
    name: a
    entry: 'true'
  - &b
    id: b
    name: b
    entry: 'true'
    language: system
- repo: https://github.com/psf/black
  rev: 24.1.0
  hooks: [{id: black}]
""",
    "block install types, literal entry": """\
default_install_hook_types:
  - pre-commit
  - pre-push
repos:
  - repo: local
    hooks:
      - id: a
        name: a
        entry: |
          echo hi
        language: system
""",
    "no final newline": "repos:\n- repo: local\n  hooks:\n  - {id: x, name: x, entry: x, language: system}",  # noqa: E501
    "literal with blank lines, trailing comment": (
        "repos:\n- repo: local\n  hooks:\n  - id: x\n    name: x\n    entry: |\n      echo\n\n"
        "    language: system\n\n\n# trailing comment\n"
    ),
}


def ids(text: str) -> list[str]:
    return sorted(hook_id for _, hook_id in hook_entries(load(text, PATH)))


@pytest.mark.parametrize("name", SHAPES)
def test_install_then_uninstall_gives_the_file_back_byte_for_byte(name: str) -> None:
    before = SHAPES[name]
    after = add_hooks(before, PATH)
    assert ids(after) == sorted(ids(before) + OURS)
    assert add_hooks(after, PATH) == after  # idempotent
    assert remove_hooks(after, PATH) == before


@pytest.mark.parametrize("name", SHAPES)
@pytest.mark.parametrize("tool", ["pre-commit", "prek"])
def test_the_result_is_valid_for_the_real_frameworks(name: str, tool: str, tmp_path: Path) -> None:
    config = tmp_path / ".pre-commit-config.yaml"
    config.write_bytes(add_hooks(SHAPES[name], PATH).encode("utf-8"))
    cmd = [sys.executable, "-m", "pre_commit"] if tool == "pre-commit" else [PREK]
    result = subprocess.run([*cmd, "validate-config", str(config)], capture_output=True,
                            text=True, check=False, cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr


def test_comments_and_their_lines_survive_character_for_character() -> None:
    before = SHAPES["anchors and merge keys"]
    after = add_hooks(before, PATH)
    for line in before.splitlines():
        assert line in after.splitlines() or line.startswith("default_install_hook_types")
    assert "[pre-commit, commit-msg, prepare-commit-msg]  # tddhooks added: commit-msg " in after


def test_block_matches_the_item_indentation_of_the_file() -> None:
    after = add_hooks(SHAPES["indent 4, several repos"], PATH)
    assert f"    {BLOCK_START}" in after.splitlines()


def test_hooks_are_local_system_hooks_on_their_own_stage() -> None:
    data = load(add_hooks(None, PATH), PATH)
    (repo,) = data["repos"]
    assert repo["repo"] == "local"
    by_id = {hook["id"]: hook for hook in repo["hooks"]}
    for hook_type, hook_id in HOOK_IDS.items():
        hook = by_id[hook_id]
        assert hook["entry"] == f"tddhooks hook {hook_type}"
        assert hook["language"] == "system"
        assert hook["stages"] == [hook_type]
    assert by_id["tddhooks-pre-commit"]["pass_filenames"] is False
    assert data["default_install_hook_types"] == list(HOOK_TYPES)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("default_install_hook_types: [pre-commit]\nrepos: []\n", list(HOOK_TYPES)),
        ("default_install_hook_types: [pre-push]\nrepos: []\n", ["pre-push", *HOOK_TYPES]),
        ("default_install_hook_types:\n- commit-msg\nrepos: []\n",
         ["commit-msg", "pre-commit", "prepare-commit-msg"]),
    ],
)  # fmt: skip
def test_existing_install_types_are_extended_and_restored(text: str, expected: list[str]) -> None:
    after = add_hooks(text, PATH)
    assert load(after, PATH)["default_install_hook_types"] == expected
    assert notes(after, PATH) == []
    assert remove_hooks(after, PATH) == text


def test_install_types_that_cannot_be_extended_are_reported() -> None:
    text = "types: &t [pre-commit]\ndefault_install_hook_types: *t\nrepos: []\n"
    after = add_hooks(text, PATH)
    assert load(after, PATH)["default_install_hook_types"] == ["pre-commit"]
    assert any("default_install_hook_types" in note for note in notes(after, PATH))
    assert remove_hooks(after, PATH) == text


def test_default_stages_keeps_stage_less_hooks_off_the_message_stages() -> None:
    after = add_hooks(SHAPES["indent 4, several repos"], PATH)
    stages = load(after, PATH)["default_stages"]
    assert "commit-msg" not in stages
    assert "prepare-commit-msg" not in stages
    assert {"pre-commit", "pre-push", "manual", "pre-merge-commit"} <= set(stages)


def test_their_default_stages_are_left_alone_and_a_risk_is_reported() -> None:
    text = "default_stages: [pre-commit, commit-msg]\nrepos: []\n"
    after = add_hooks(text, PATH)
    assert load(after, PATH)["default_stages"] == ["pre-commit", "commit-msg"]
    assert any("default_stages" in note for note in notes(after, PATH))


def test_a_created_file_is_deleted_when_only_ours_is_left() -> None:
    created = add_hooks(None, PATH)
    assert created.startswith(CREATED_HEADER)
    assert remove_hooks(created, PATH) is None


def test_a_created_file_with_other_hooks_is_kept() -> None:
    created = add_hooks(None, PATH)
    mine = "      - {id: mine, name: m, entry: m, language: system}\n"
    extended = created + "  - repo: local\n    hooks:\n" + mine
    remaining = remove_hooks(extended, PATH)
    assert remaining is not None
    assert ids(remaining) == ["mine"]


def test_ids_listed_from_a_remote_repository_are_not_added_again() -> None:
    text = "repos:\n- repo: https://example.com/tddhooks\n  rev: v1\n  hooks:\n" + "".join(
        f"  - id: {hook_id}\n" for hook_id in OURS
    )
    assert add_hooks(text, PATH) == text
    assert remove_hooks(text, PATH) == text  # not ours to remove


def test_an_outdated_block_is_replaced() -> None:
    hook = "{id: tddhooks-pre-commit, name: o, entry: old, language: system}"
    old = f"repos:\n  {BLOCK_START}\n  - repo: local\n    hooks:\n      - {hook}\n  {BLOCK_END}\n"
    after = add_hooks(old, PATH)
    assert "entry: old" not in after
    assert ids(after) == OURS
    assert after.count(BLOCK_START) == 1


def test_an_unmarked_entry_of_ours_is_removed_by_its_position() -> None:
    before = SHAPES["flow repos"]
    marked = add_hooks(SHAPES["indent 0, comments"], PATH)
    unmarked = "\n".join(ln for ln in marked.splitlines() if "tddhooks hooks" not in ln) + "\n"
    assert ids(remove_hooks(unmarked, PATH) or "") == ["no-tabs"]
    assert remove_hooks(add_hooks(before, PATH), PATH) == before


@pytest.mark.parametrize(
    "text",
    [
        "repos: [\n",  # broken
        "- just\n- a list\n",  # not a mapping
        "{repos: []}\n",  # the whole file one flow mapping
        "repos: 3\n",
        "a: 1\n---\nb: 2\n",  # two documents
    ],
)
def test_configs_it_cannot_edit_are_refused_with_the_file_name(text: str) -> None:
    with pytest.raises(ConfigError, match=r"\.pre-commit-config\.yaml"):
        add_hooks(text, PATH)


def test_an_alias_bomb_is_edited_without_expanding_it() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 12)]
    bomb = "\n".join(lines) + "\nrepos: []\n"  # 9**12 leaves if anything expanded it
    after = add_hooks(bomb, PATH)
    assert ids(after) == OURS
    assert remove_hooks(after, PATH) == bomb


def test_a_huge_config_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """A config of 200,001 items is refused: the bound is at most that, and the count refuses
    past the bound (shown on a small one: parsing 200,000 events costs seconds)."""
    from tddhooks.commands import yaml_positions

    assert yaml_positions.MAX_EVENTS <= 200_000
    monkeypatch.setattr(yaml_positions, "MAX_EVENTS", 1_000)
    big = "repos: []\n" + "x: [" + ", ".join(["1"] * 1_001) + "]\n"
    with pytest.raises(ConfigError, match="too large"):
        add_hooks(big, PATH)


def test_removing_refuses_to_lose_a_hook_someone_put_inside_our_block() -> None:
    squatter = "- repo: local\n  hooks: [{id: squatter, name: s, entry: s, language: system}]\n"
    after = add_hooks(SHAPES["indent 0, comments"], PATH).replace(BLOCK_END, squatter + BLOCK_END)
    assert "squatter" in ids(after)
    with pytest.raises(ConfigError, match="would lose"):
        remove_hooks(after, PATH)


def test_result_is_plain_yaml() -> None:
    assert isinstance(yaml.safe_load(add_hooks(SHAPES["indent 0, comments"], PATH)), dict)
