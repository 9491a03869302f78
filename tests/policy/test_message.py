"""parse_message: comments, scissors, CRLF, the Conventional Commits header, sections, fields."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path
from typing import Any

import pytest
from support.repo import git, write_files

from tddhooks.policy.message import Header, parse_header, parse_message

SCISSORS = "# ------------------------ >8 ------------------------"


@pytest.mark.parametrize(
    ("subject", "expected"),
    [
        ("feat: add roman numeral 4", Header("feat", None, False, "add roman numeral 4")),
        ("feat(roman): convert 4", Header("feat", "roman", False, "convert 4")),
        ("feat(roman)!: drop zero", Header("feat", "roman", True, "drop zero")),
        ("feat!: drop zero", Header("feat", None, True, "drop zero")),
        ("fix(parser-v2): handle ∅", Header("fix", "parser-v2", False, "handle ∅")),
        ("feat: añade cálculo ✓", Header("feat", None, False, "añade cálculo ✓")),
        ("refactor(ローマ): 整理する", Header("refactor", "ローマ", False, "整理する")),
        ("feat(my scope): x", Header("feat", "my scope", False, "x")),
        ("feat:  two spaces", Header("feat", None, False, "two spaces")),
        ("docs: trailing space   ", Header("docs", None, False, "trailing space")),
        ("Feat: uppercase type", None),
        ("FEAT: shouting", None),
        ("feat:no space", None),
        ("feat : space before colon", None),
        ("feat(): empty scope", None),
        ("feat(a(b)): nested parens", None),
        ("feat(roman) : x", None),
        ("feat(roman)!!: x", None),
        ("feat!(roman): x", None),
        ("feat: ", None),
        ("feat:", None),
        ("feat", None),
        ("feat2: digits", None),
        ("fëat: accented type", None),
        (" feat: leading space", None),
        ("Add roman numeral 4", None),
        ("", None),
    ],
)
def test_parse_header(subject: str, expected: Header | None) -> None:
    assert parse_header(subject) == expected
    assert parse_message(subject + "\n").header == expected


@pytest.mark.parametrize(
    ("subject", "kind"),
    [
        ("Merge branch 'feature' into main", "merge"),
        ("Merge branches 'a' and 'b'", "merge"),
        ("Merge pull request #12 from ana/roman", "merge"),
        ("Merge remote-tracking branch 'origin/main'", "merge"),
        ("Merge tag 'v1.0'", "merge"),
        ("Merge commit 'abc123'", "merge"),
        ('Revert "feat: convert 4"', "revert"),
        ("fixup! feat: convert 4", "fixup"),
        ("squash! feat: convert 4", "squash"),
        ("amend! feat: convert 4", "amend"),
        ("revert: undo the römer change", None),
        ("Merged the branch", None),
        ("merge branch 'x'", None),
        ("fixup!feat: no space", None),
        ("Revert the thing", None),
        ("feat: merge two numerals", None),
    ],
)
def test_exempt_git_messages(subject: str, kind: str | None) -> None:
    assert parse_message(f"{subject}\n\nbody\n").exempt == kind


FULL = """feat(roman): convert 4 to IV

Context:
- Role: Implementor
- Step: 3
- Kata goal: Convert numbers to Roman numerals.

Rationale:
- four needs the subtractive pair IV
- the rest stays additive

Diff summary:
- src/lib.rs: subtractive pairs
- tests/roman.rs: four is IV

Verification:
- cargo test: 4 passed, 0 failed; clippy clean; fmt clean
"""


def test_full_message_sections_and_fields() -> None:
    message = parse_message(FULL)
    assert message.subject == "feat(roman): convert 4 to IV"
    assert message.body.startswith("Context:\n- Role: Implementor")
    assert message.text == FULL
    assert message.sections == {
        "Context": [
            "Role: Implementor",
            "Step: 3",
            "Kata goal: Convert numbers to Roman numerals.",
        ],
        "Rationale": ["four needs the subtractive pair IV", "the rest stays additive"],
        "Diff summary": ["src/lib.rs: subtractive pairs", "tests/roman.rs: four is IV"],
        "Verification": ["cargo test: 4 passed, 0 failed; clippy clean; fmt clean"],
    }
    assert message.fields == {
        "Role": "Implementor",
        "Step": "3",
        "Kata goal": "Convert numbers to Roman numerals.",
    }
    assert message.exempt is None


@pytest.mark.parametrize(
    ("raw", "subject", "body"),
    [
        ("feat: x\n# a comment\n\nbody line\n", "feat: x", "body line"),
        ("# only a comment\nfeat: x\n", "feat: x", ""),
        ("\n\n\nfeat: x\n\n\n\nbody\n\n\n", "feat: x", "body"),
        ("feat: x\r\n\r\nbody\r\n", "feat: x", "body"),
        ("feat: x   \n\nbody\t \n", "feat: x", "body"),
        ("feat: x\n\nbody\n" + SCISSORS + "\ndiff --git a/x b/x\n+junk\n", "feat: x", "body"),
        # git's scissors line may end in whitespace, CR included
        ("feat: x\n\nbody\n" + SCISSORS + "\r\n+junk\r\n", "feat: x", "body"),
        ("feat: x\n\none\n\n\n\ntwo\n", "feat: x", "one\n\ntwo"),
        # git's subject is the whole first paragraph
        ("feat: x\nno blank line before body\n", "feat: x no blank line before body", ""),
        ("feat: ünïcödé ✓\n\nça marche\n", "feat: ünïcödé ✓", "ça marche"),
        ("", "", ""),
        ("# nothing but comments\n#\n", "", ""),
        ("\n\n# Please enter the commit message\n", "", ""),
    ],
)
def test_cleanup_like_git(raw: str, subject: str, body: str) -> None:
    message = parse_message(raw)
    assert (message.subject, message.body) == (subject, body)
    assert "#" not in message.text
    assert "\r" not in message.text


def test_other_comment_char_keeps_hash_lines() -> None:
    raw = "feat: x\n\n#[ignore] stays: it is not a comment here\n; a comment\n"
    message = parse_message(raw, comment_char=";")
    assert message.body == "#[ignore] stays: it is not a comment here"
    cut = parse_message(
        "feat: x\n\nbody\n; ------------------------ >8 ------------------------\n+x\n", ";"
    )
    assert cut.body == "body"


def test_sections_case_insensitive_continuations_and_end() -> None:
    raw = (
        "refactor: extract numeral table\n\n"
        "Free text before the sections is allowed.\n\n"
        "CONTEXT:\n"
        "- role: refactorer\n"
        "- STEP:  4 \n"
        "- Kata goal: Convert numbers\n"
        "  to Roman numerals.\n"
        "- Pair: Ana Núñez\n\n"
        "rationale :\n"
        "* one table instead of\n"
        "    three if-chains\n\n"
        "diff SUMMARY:\n"
        "- src/lib.rs: table\n\n"
        "Verification:\n"
        "- cargo test: 4 passed\n\n"
        "Signed-off-by: Ana Núñez <ana@example.com>\n"
    )
    message = parse_message(raw)
    assert list(message.sections) == ["Context", "Rationale", "Diff summary", "Verification"]
    assert message.sections["Rationale"] == ["one table instead of three if-chains"]
    assert message.sections["Verification"] == ["cargo test: 4 passed"]
    assert message.fields == {
        "Role": "refactorer",
        "Step": "4",
        "Kata goal": "Convert numbers to Roman numerals.",
        "Pair": "Ana Núñez",
    }


@pytest.mark.parametrize(
    ("body", "sections"),
    [
        ("Context:\n", {"Context": []}),
        ("Context:\nplain text is not a bullet\n", {"Context": []}),
        ("Context:\n- \n-\n", {"Context": []}),
        ("Rationale: inline text\n", {}),
        ("Rationale:\n- a\nRationale:\n- b\n", {"Rationale": ["a", "b"]}),
        (
            "Verification:\n- ok\n\n\n- still verification\n",
            {"Verification": ["ok", "still verification"]},
        ),
        ("Notes:\n- not a section\n", {}),
    ],
)
def test_section_edge_cases(body: str, sections: dict[str, list[str]]) -> None:
    assert parse_message(f"feat: x\n\n{body}").sections == sections


def test_fields_only_come_from_context() -> None:
    message = parse_message("feat: x\n\nRationale:\n- Role: Tester\n")
    assert message.fields == {}


def _editor(tmp_path: Path, final_text: str) -> str:
    """A GIT_EDITOR that replaces the message file with final_text (as a person would type it)."""
    source = tmp_path / "final-message.txt"
    source.write_text(final_text, encoding="utf-8")
    script = tmp_path / "editor.sh"
    script.write_text(f'#!/bin/sh\ncp "{source}" "$1"\n', encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return str(script)


@pytest.mark.parametrize(
    ("raw", "comment_char"),
    [
        ("feat: x   \n# comment\n\n\n\nbody ✓\n\n\n" + SCISSORS + "\n+diff\n", "#"),
        ("\n\nfeat(ローマ): 整理\r\n\r\nbody\r\n# comment\r\n", "#"),
        ("feat: x\n\n#[ignore] is text here\n; comment\n", ";"),
    ],
)
def test_text_is_what_git_stores(
    tmp_path: Path, make_repo: Any, raw: str, comment_char: str
) -> None:
    repo = make_repo({"a.txt": "a\n"})
    write_files(repo, {"a.txt": "b\n"})
    git(repo, "add", "a.txt")
    env = {**os.environ, "GIT_EDITOR": _editor(tmp_path, raw)}
    subprocess.run(
        ["git", "-c", f"core.commentChar={comment_char}", "commit", "-q", "-v", "--no-verify"],
        cwd=repo,
        env=env,
        check=True,
        capture_output=True,
    )
    stored = git(repo, "log", "-1", "--format=%B").stdout
    assert stored.rstrip("\n") + "\n" == parse_message(raw, comment_char).text
