"""Red team, class 4: the hook judges the message exactly as git will store it. Git runs
commit-msg before its own cleanup: `-m`/`-F` keep `#` lines, an editor drops them,
`--cleanup`/`commit.cleanup` override, the scissors line cuts only with an editor or `--verbose`.
Each case commits through the installed hooks and checks what git really stored (`%B`/`%s`)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from support.rules_kit import (
    SUB_CODE,
    SUB_TEST,
    accepted,
    commit_with,
    git,
    head,
    make_kata,
    rejected,
    run,
    stored,
    tdd,
    write,
)

SCISSORS = "# ------------------------ >8 ------------------------"
WIP = "# WIP hack\n\ndocs: notes\n"


@pytest.fixture
def kata(tmp_path: Path) -> Path:
    repo = make_kata(tmp_path)
    write(repo, {"README.md": "notes\n"})
    git(repo, "add", "README.md")
    return repo


def _editor(repo: Path, text: str) -> dict[str, str]:
    """GIT_EDITOR that replaces the message with `text`."""
    source = repo.parent / "edited.txt"
    source.write_text(text, encoding="utf-8", newline="")
    script = repo.parent / "editor.sh"
    script.write_text(f'#!/bin/sh\ncat "{source}" > "$1"\n', encoding="utf-8")
    script.chmod(0o755)
    return {"GIT_EDITOR": str(script)}


def _git_would_store(repo: Path, message: str, *args: str) -> str:
    """The subject git stores for this message with these arguments (hooks skipped), undone."""
    before = head(repo)
    assert commit_with(repo, message, "--no-verify", *args).returncode == 0
    subject = stored(repo, "%s").rstrip("\n")
    git(repo, "reset", "-q", "--soft", before)
    return subject


def _feature(repo: Path) -> str:
    write(repo, {"tests/sub.rs": SUB_TEST, "src/lib.rs": SUB_CODE})
    git(repo, "add", "-A")
    return head(repo)


def test_a_comment_line_via_m_is_the_stored_subject(kata: Path) -> None:
    before = head(kata)
    result = git(kata, "commit", "-q", "-m", "# WIP hack", "-m", "docs: notes")
    text = rejected(result, "prefixed", before, kata)
    assert 'subject "# WIP hack"' in text


def test_a_comment_line_via_F_is_the_stored_subject(kata: Path) -> None:
    assert _git_would_store(kata, WIP) == "# WIP hack"
    before = head(kata)
    text = rejected(commit_with(kata, WIP), "prefixed", before, kata)
    assert 'subject "# WIP hack"' in text
    kept = (kata / ".git/tddhooks/last-message").read_text(encoding="utf-8")
    assert kept == WIP  # kept as git would have stored it: the comment line included


def test_a_comment_line_in_the_editor_is_dropped(kata: Path) -> None:
    before = head(kata)
    accepted(git(kata, "commit", "-q", env=_editor(kata, WIP)), before, kata)
    assert stored(kata) == "docs: notes\n\n"


@pytest.mark.parametrize(
    "args",
    [("--cleanup=strip",), ("--clean=strip",), ("--cleanup", "strip")],
    ids=["long", "abbreviated", "separate-value"],
)
def test_cleanup_strip_on_the_command_line_drops_comments(
    kata: Path, args: tuple[str, ...]
) -> None:
    before = head(kata)
    accepted(commit_with(kata, WIP, *args), before, kata)
    assert stored(kata, "%s").strip() == "docs: notes"


def test_cleanup_from_config_given_with_git_c(kata: Path) -> None:
    path = kata.parent / "wip.txt"
    path.write_text(WIP, encoding="utf-8")
    before = head(kata)
    accepted(git(kata, "-c", "commit.cleanup=strip", "commit", "-q", "-F", str(path)), before, kata)
    assert stored(kata, "%s").strip() == "docs: notes"


def test_cleanup_verbatim_from_config_keeps_comments_even_in_the_editor(kata: Path) -> None:
    git(kata, "config", "commit.cleanup", "verbatim")
    before = head(kata)
    rejected(git(kata, "commit", "-q", env=_editor(kata, WIP)), "prefixed", before, kata)


def test_an_alias_with_its_own_cleanup_is_followed(kata: Path) -> None:
    git(kata, "config", "alias.ci", "commit --cleanup=strip")
    path = kata.parent / "wip.txt"
    path.write_text(WIP, encoding="utf-8")
    before = head(kata)
    accepted(git(kata, "ci", "-q", "-F", str(path)), before, kata)


def test_a_scissors_line_in_F_is_not_a_cut(kata: Path) -> None:
    before = _feature(kata)
    message = "feat: subtract\n\n" + SCISSORS + "\n" + tdd("feat", "subtract").split("\n\n", 1)[1]
    accepted(commit_with(kata, message), before, kata)
    assert SCISSORS in stored(kata)
    assert "Context:" in stored(kata)


@pytest.mark.parametrize(
    ("args", "config"),
    [(("-v",), None), ((), "commit.verbose=true"), (("--cleanup=scissors", "-e"), None)],
    ids=["verbose-flag", "verbose-config", "scissors-with-editor"],
)
def test_a_scissors_line_cuts_with_verbose_or_an_editor(
    kata: Path, args: tuple[str, ...], config: str | None
) -> None:
    before = _feature(kata)
    if config:
        key, value = config.split("=")
        git(kata, "config", key, value)
    message = "feat: subtract\n\n" + SCISSORS + "\n" + tdd("feat", "subtract").split("\n\n", 1)[1]
    env = {"GIT_EDITOR": "true"}
    text = rejected(commit_with(kata, message, *args, env=env), "sections", before, kata)
    assert "missing Context" in text


def test_cleanup_scissors_without_an_editor_is_whitespace(kata: Path) -> None:
    before = _feature(kata)
    message = "feat: subtract\n\n" + SCISSORS + "\n" + tdd("feat", "subtract").split("\n\n", 1)[1]
    accepted(commit_with(kata, message, "--cleanup=scissors"), before, kata)


def test_carriage_return_line_ends_are_rejected(kata: Path) -> None:
    message = "# WIP hack\rdocs: notes\r"
    before = head(kata)
    assert commit_with(kata, message, "--no-verify").returncode == 0
    raw = subprocess.run(["git", "log", "-1", "--format=%s"], cwd=kata, capture_output=True)
    assert raw.stdout == b"# WIP hack\rdocs: notes\n"  # git's subject: the comment and the CR
    git(kata, "reset", "-q", "--soft", before)
    text = rejected(commit_with(kata, message), "prefixed", before, kata)
    assert "carriage returns" in text


def test_a_missing_blank_line_after_the_subject_is_rejected(kata: Path) -> None:
    message = "docs: notes\nhack: smuggled into the subject\n"
    subject = _git_would_store(kata, message)
    assert subject == "docs: notes hack: smuggled into the subject"
    before = head(kata)
    text = rejected(commit_with(kata, message), "prefixed", before, kata)
    assert f'"{subject}"' in text


def test_crlf_line_ends_are_what_git_cleans_away(kata: Path) -> None:
    before = head(kata)
    accepted(commit_with(kata, "docs: notes\r\n\r\nmore\r\n"), before, kata)
    assert stored(kata) == "docs: notes\n\nmore\n\n"


def test_when_the_committing_git_is_unknown_every_cleanup_must_pass(kata: Path) -> None:
    # called without a `git commit` above it: git's cleanup cannot be read, so a message that
    # would be stored with the comment as its subject under -m/-F is refused
    message = kata.parent / "direct.txt"
    message.write_text(WIP, encoding="utf-8")
    judged = run(kata, "tddhooks", "hook", "commit-msg", str(message))
    assert judged.returncode == 1
    assert 'subject "# WIP hack"' in judged.stdout
    message.write_text("docs: notes\n\n# a comment line is fine in the body\n", encoding="utf-8")
    assert run(kata, "tddhooks", "hook", "commit-msg", str(message)).returncode == 0
