"""The answer parser and the edit sandbox: every refused path kind, role separation, no partial
writes. Real git repositories in tmp dirs; real symlinks."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from support.repo import git, write_files

from tddhooks.agents.edits import (
    ANSWER_SHAPE,
    MAX_EDITS,
    MAX_FILE_BYTES,
    AgentAnswer,
    AnswerInvalid,
    EditRefused,
    FileEdit,
    apply_edits,
    check_edits,
    glob_match,
    normalize_path,
    parse_answer,
)
from tddhooks.agents.roles import path_policy
from tddhooks.policy.rules import glob_regex
from tddhooks.policy.settings import PolicySettings

SETTINGS = PolicySettings(
    language="rust", test_paths=("tests/**",), source_paths=("src/**",), kata_description="kata.md"
)
MakeRepo = Callable[..., Path]

KATA_FILES = {
    "Cargo.toml": '[package]\nname = "roman"\nversion = "0.1.0"\nedition = "2021"\n',
    "src/lib.rs": 'pub fn to_roman(n: u32) -> String {\n    "I".repeat(n as usize)\n}\n',
    "src/old.rs": "// unused\n",
    "tests/one.rs": (
        'use roman::to_roman;\n\n#[test]\nfn one() {\n    assert_eq!(to_roman(1), "I");\n}\n'
    ),
    "kata.md": "# Roman numerals\n",
    "tdd.yaml": "language: rust\n",
    ".gitignore": "/target\n.tdd/\n",
    ".pre-commit-config.yaml": "repos: []\n",
    "hooks/pre-commit": "#!/bin/sh\n",
}


def _answer(**overrides: Any) -> str:
    answer: dict[str, Any] = {
        "plan": "add the first test",
        "edits": [{"path": "tests/one.rs", "action": "upsert", "content": "fn x() {}\n"}],
        "commit": {"type": "feat", "scope": "roman", "summary": "one", "rationale": ["start"]},
        "done": False,
        "reason": None,
    }
    answer.update(overrides)
    return json.dumps(answer)


# ---------------------------------------------------------------- parse_answer


@pytest.mark.parametrize(
    ("text", "plan", "paths"),
    [
        (_answer(), "add the first test", ["tests/one.rs"]),
        ("```json\n" + _answer(plan="fenced") + "\n```", "fenced", ["tests/one.rs"]),
        ("Here it is:\n```\n" + _answer(plan="prose") + "\n```\nDone.", "prose", ["tests/one.rs"]),
        (_answer(plan="römisch → Zahlen ✓", edits=[]), "römisch → Zahlen ✓", []),
        ('{"plan": "minimal"}', "minimal", []),
        (
            _answer(edits=[{"path": "src/old.rs", "action": "delete"}]),
            "add the first test",
            ["src/old.rs"],
        ),
        (_answer(edits=[], done=True, reason="all covered"), "add the first test", []),
    ],
)
def test_parse_answer_accepts(text: str, plan: str, paths: list[str]) -> None:
    answer = parse_answer(text)
    assert answer.plan == plan
    assert [edit.path for edit in answer.edits] == paths


def test_parse_answer_keeps_commit_intent_and_content() -> None:
    answer = parse_answer(
        _answer(edits=[{"path": "tests/ü.rs", "action": "upsert", "content": "é"}])
    )
    assert answer.commit is not None
    assert (answer.commit.type, answer.commit.scope, answer.commit.rationale) == (
        "feat",
        "roman",
        ["start"],
    )
    assert answer.edits[0].content == "é"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I cannot do that.", "not one JSON object"),
        ("", "empty"),
        ('{"plan": "x", "edits": [', "invalid JSON"),
        ("[1, 2]", "expected a JSON object"),
        (_answer(done="false"), "'done': input should be a valid boolean (got 'false')"),
        (_answer(plan=42), "'plan': input should be a valid string"),
        (_answer(edits={"path": "a"}), "'edits': input should be a valid list"),
        (_answer(surprise=1), "unknown field 'surprise'"),
        (
            _answer(edits=[{"path": "tests/a.rs", "action": "upsert", "content": "", "mode": 1}]),
            "unknown field 'edits.0.mode'",
        ),
        (_answer(edits=[{"path": "tests/a.rs", "action": "upsert"}]), "needs 'content'"),
        (
            _answer(edits=[{"path": "src/old.rs", "action": "delete", "content": "x"}]),
            "must not have 'content'",
        ),
        (_answer(edits=[{"path": "a", "action": "rename"}]), "'upsert' or 'delete'"),
        (_answer(edits=[{"action": "delete"}]), "missing field 'edits.0.path'"),
        ('{"edits": []}', "missing field 'plan'"),
        (_answer(edits=[], done=True), "done=true needs a non-empty 'reason'"),
        (_answer(edits=[], done=True, reason="  "), "done=true needs a non-empty 'reason'"),
        (_answer(done=True, reason="all covered"), "empty 'edits' list"),
        (
            _answer(
                edits=[
                    {"path": "tests/a.rs", "action": "upsert", "content": "1"},
                    {"path": "./tests/a.rs", "action": "upsert", "content": "2"},
                ]
            ),
            "appears twice",
        ),
        (
            _answer(
                edits=[
                    {"path": f"tests/t{i}.rs", "action": "upsert", "content": ""}
                    for i in range(MAX_EDITS + 1)
                ]
            ),
            f"at most {MAX_EDITS} edits",
        ),
        (_answer(commit={"type": "feat"}), "missing field 'commit.summary'"),
    ],
)
def test_parse_answer_refuses_with_a_message_for_the_model(text: str, expected: str) -> None:
    with pytest.raises(AnswerInvalid) as caught:
        parse_answer(text)
    assert expected in caught.value.message
    # the model is told the valid shape every time
    assert ANSWER_SHAPE in caught.value.message
    assert len(caught.value.message) < 900


# ---------------------------------------------------------------- paths


@pytest.mark.parametrize(
    ("path", "pattern", "expected"),
    [
        ("tests/one.rs", "tests/**", True),
        ("tests/deep/er/one.rs", "tests/**", True),
        ("src/tests/one.rs", "tests/**", False),
        ("tests", "tests/**", False),
        ("test_roman.py", "test_*.py", True),
        ("pkg/sub/test_roman.py", "test_*.py", True),
        ("pkg/roman_test.py", "**/*_test.py", True),
        ("roman_test.py", "**/*_test.py", True),
        ("tdd.yaml", "/tdd.yaml", True),
        ("sub/tdd.yaml", "/tdd.yaml", False),
        ("tests/zählen.rs", "tests/*.rs", True),
        ("tests/a/zählen.rs", "tests/*.rs", False),
        ("src/a1.rs", "src/a[0-9].rs", True),
        ("src/ab.rs", "src/a[!0-9].rs", True),
        ("src/a.rs", "src/?.rs", True),
        ("src/a.rs.bak", "src/*.rs", False),
    ],
)
def test_glob_match(path: str, pattern: str, expected: bool) -> None:
    assert glob_match(path, pattern) is expected
    # the sandbox and the commit policy must agree on what a test file is
    assert (glob_regex(pattern).match(path) is not None) is expected


@pytest.mark.parametrize(
    ("raw", "clean"),
    [("tests/a.rs", "tests/a.rs"), ("./tests//a.rs", "tests/a.rs"), ("src/ä/b.rs", "src/ä/b.rs")],
)
def test_normalize_path(raw: str, clean: str) -> None:
    assert normalize_path(raw) == clean


def _upsert(path: str, content: str = "x\n") -> FileEdit:
    return FileEdit(path=path, action="upsert", content=content)


def _delete(path: str) -> FileEdit:
    return FileEdit(path=path, action="delete")


@pytest.fixture
def kata(make_repo: MakeRepo) -> Path:
    return make_repo(KATA_FILES)


REFUSED = [
    ("tester", _upsert("/etc/passwd"), "absolute paths are refused"),
    ("tester", _upsert("~/tests/a.rs"), "absolute paths are refused"),
    ("tester", _upsert("C:/tests/a.rs"), "absolute paths are refused"),
    ("tester", _upsert("../outside.rs"), "'..' is refused"),
    ("tester", _upsert("tests/../../outside.rs"), "'..' is refused"),
    ("implementor", _upsert("src/../tests/one.rs"), "'..' is refused"),
    ("tester", _upsert("tests\\a.rs"), "forward slashes"),
    ("tester", _upsert(""), "the path is empty"),
    ("tester", _upsert("."), "names the repository root"),
    ("tester", _upsert("tests/a\nb.rs"), "control characters"),
    ("tester", _upsert(".git/hooks/pre-commit"), ".git/"),
    ("tester", _upsert("tests/.git/config"), ".git/"),
    ("implementor", _upsert(".GIT/config"), ".git/"),
    ("tester", _upsert(".tdd/logs/step-1-tester.json"), "protected"),
    ("implementor", _upsert("tdd.yaml"), "protected"),
    ("implementor", _upsert("kata.md"), "protected"),
    ("implementor", _upsert(".pre-commit-config.yaml"), "protected"),
    ("implementor", _upsert(".gitignore"), "protected"),
    ("tester", _upsert("tests/.gitignore"), "protected"),
    ("implementor", _upsert("hooks/pre-commit"), "protected"),
    ("tester", _upsert("src/lib.rs"), "the tester may change only its test items"),
    ("tester", _upsert("Cargo.toml"), "the tester may only write tests/**"),
    ("implementor", _upsert("tests/one.rs"), "tests belong to the tester"),
    ("implementor", _upsert("tests/zwei.rs"), "tests belong to the tester"),
    ("refactorer", _delete("tests/one.rs"), "tests belong to the tester"),
    ("implementor", _upsert("Cargo.toml"), "the implementor may only write src/**"),
    ("implementor", _upsert("README.md"), "the implementor may only write src/**"),
    ("implementor", _delete("src/missing.rs"), "does not exist"),
    ("implementor", _upsert("src"), "may only write"),
    ("implementor", _upsert("src/big.rs", "x" * (MAX_FILE_BYTES + 1)), "the limit is"),
    ("implementor", _upsert("src/nul.rs", "a\0b"), "NUL"),
]


@pytest.mark.parametrize(("role", "edit", "reason"), REFUSED)
def test_check_edits_refuses(kata: Path, role: str, edit: FileEdit, reason: str) -> None:
    with pytest.raises(EditRefused) as caught:
        check_edits(kata, [edit], path_policy(role, SETTINGS))
    assert reason in caught.value.message
    assert "nothing was written" in caught.value.message


ALLOWED = [
    ("tester", _upsert("tests/two.rs")),
    ("tester", _upsert("./tests/one.rs")),
    ("tester", _upsert("tests/nested/römisch.rs", "ü\n")),
    ("tester", _delete("tests/one.rs")),
    ("implementor", _upsert("src/lib.rs")),
    ("implementor", _upsert("src/numerals/mod.rs")),
    ("implementor", _upsert("src/zahlen_ä.rs")),
    ("implementor", _delete("src/old.rs")),
    ("refactorer", _upsert("src/lib.rs")),
    ("implementor", _upsert("src/exactly_max.rs", "é" * (MAX_FILE_BYTES // 2))),
]


@pytest.mark.parametrize(("role", "edit"), ALLOWED)
def test_check_edits_allows_the_roles_own_paths(kata: Path, role: str, edit: FileEdit) -> None:
    check_edits(kata, [edit], path_policy(role, SETTINGS))


def test_symlinked_directory_is_refused(kata: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, kata / "tests" / "linked")
    with pytest.raises(EditRefused, match="goes through the symlink 'tests/linked'"):
        apply_edits(kata, [_upsert("tests/linked/evil.rs")], path_policy("tester", SETTINGS))
    assert list(outside.iterdir()) == []


def test_symlinked_file_is_refused(kata: Path) -> None:
    os.symlink(kata / "src" / "lib.rs", kata / "tests" / "alias.rs")
    with pytest.raises(EditRefused, match=r"symlink 'tests/alias\.rs'"):
        apply_edits(kata, [_upsert("tests/alias.rs", "gone\n")], path_policy("tester", SETTINGS))
    assert (kata / "src" / "lib.rs").read_text(encoding="utf-8") == KATA_FILES["src/lib.rs"]


def test_a_directory_is_not_a_file(kata: Path) -> None:
    (kata / "tests" / "sub").mkdir()
    with pytest.raises(EditRefused, match="it is a directory"):
        check_edits(kata, [_upsert("tests/sub")], path_policy("tester", SETTINGS))


def test_duplicate_and_too_many_edits_are_refused(kata: Path) -> None:
    policy = path_policy("tester", SETTINGS)
    with pytest.raises(EditRefused, match="appears twice"):
        check_edits(kata, [_upsert("tests/a.rs"), _upsert("./tests/a.rs")], policy)
    many = [_upsert(f"tests/t{i}.rs") for i in range(MAX_EDITS + 1)]
    with pytest.raises(EditRefused, match=f"at most {MAX_EDITS} per answer"):
        check_edits(kata, many, policy)


def test_every_refused_edit_is_named(kata: Path) -> None:
    edits = [_upsert("src/lib.rs"), _upsert("tests/ok.rs"), _upsert("../x.rs")]
    with pytest.raises(EditRefused) as caught:
        check_edits(kata, edits, path_policy("tester", SETTINGS))
    assert "'src/lib.rs'" in caught.value.message
    assert "'../x.rs'" in caught.value.message
    assert "'tests/ok.rs'" not in caught.value.message


# ---------------------------------------------------------------- apply_edits


def _status(repo: Path) -> list[str]:
    return sorted(git(repo, "status", "--porcelain", "-uall").stdout.splitlines())


def _snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(root)): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and ".git" not in path.relative_to(root).parts
    }


def test_apply_edits_writes_exactly_the_files(kata: Path) -> None:
    edits = [
        _upsert("src/lib.rs", 'pub fn to_roman(n: u32) -> String {\n    "Ⅰ".into()\n}'),
        _upsert("src/numerals/table.rs", "// römische Zahlen\n"),
        _delete("src/old.rs"),
    ]
    written = apply_edits(kata, edits, path_policy("implementor", SETTINGS))
    assert written == ["src/lib.rs", "src/numerals/table.rs", "src/old.rs"]
    assert _status(kata) == [" D src/old.rs", " M src/lib.rs", "?? src/numerals/table.rs"]
    # a trailing newline is added when missing, never doubled
    lib = (kata / "src" / "lib.rs").read_bytes()
    assert lib.endswith(b'"\xe2\x85\xa0".into()\n}\n')
    assert (kata / "src/numerals/table.rs").read_text(encoding="utf-8") == "// römische Zahlen\n"
    assert not list(kata.rglob("*.tddhooks-tmp"))


def test_apply_edits_normalises_the_returned_paths(kata: Path) -> None:
    written = apply_edits(kata, [_upsert("./tests//two.rs", "")], path_policy("tester", SETTINGS))
    assert written == ["tests/two.rs"]
    assert (kata / "tests" / "two.rs").read_text(encoding="utf-8") == ""


def test_nothing_is_written_when_one_edit_is_refused(kata: Path) -> None:
    write_files(kata, {"src/wip.rs": "// a person's uncommitted work\n"})
    before = _snapshot(kata)
    edits = [
        _upsert("src/lib.rs", "pub fn changed() {}\n"),
        _upsert("src/brand_new.rs", "pub fn new() {}\n"),
        _delete("src/old.rs"),
        _upsert("tests/one.rs", "// the implementor editing the test\n"),
    ]
    with pytest.raises(EditRefused, match=r"tests/one\.rs"):
        apply_edits(kata, edits, path_policy("implementor", SETTINGS))
    assert _snapshot(kata) == before


def test_file_edit_model_forbids_inconsistent_content() -> None:
    with pytest.raises(ValueError, match="needs 'content'"):
        FileEdit(path="src/a.rs", action="upsert")
    with pytest.raises(ValueError, match="must not have 'content'"):
        FileEdit(path="src/a.rs", action="delete", content="")
    assert AgentAnswer(plan="p").edits == []


def test_the_implementor_cannot_end_the_kata() -> None:
    text = '{"plan": "p", "edits": [], "done": true, "reason": "all done"}'
    with pytest.raises(AnswerInvalid) as caught:
        parse_answer(text, "implementor")
    assert "the implementor cannot end the kata" in caught.value.message
    assert parse_answer(text, "tester").done


def test_the_implementors_done_false_copied_from_an_example_is_ignored() -> None:
    answer = parse_answer('{"plan": "p", "edits": [], "done": false, "reason": null}', "refactorer")
    assert not answer.done


def test_an_edit_without_action_is_an_upsert() -> None:
    answer = parse_answer('{"plan": "p", "edits": [{"path": "src/lib.rs", "content": "x"}]}')
    assert answer.edits[0].action == "upsert"


def test_an_invalid_answer_is_shown_the_roles_own_shape() -> None:
    with pytest.raises(AnswerInvalid) as caught:
        parse_answer('{"plan": 3}', "implementor")
    assert '"commit": {"scope": one-word|null' in caught.value.message
    assert '"done"' not in caught.value.message


def test_the_refactorers_commit_needs_no_type() -> None:
    text = '{"plan": "p", "edits": [], "commit": {"scope": "add", "summary": "s", "rationale": []}}'
    answer = parse_answer(text, "refactorer")
    assert answer.commit is not None
    assert answer.commit.type is None
