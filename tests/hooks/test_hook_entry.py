"""The hook commands as processes, on paths that need no cargo: argument handling, the message
source given by the pre-commit framework, the comment character, errors outside a repository."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from support.hookkit import run, tdd_message
from support.repo import git, write_files

MakeRepo = Callable[..., Path]
DIRECT = (sys.executable, "-m", "tddhooks.commands.hook")


def _staged_repo(make_repo: MakeRepo) -> Path:
    repo = make_repo({"Cargo.toml": "[package]\nname = \"k\"\n", "src/lib.rs": "\n",
                      "kata.md": "# Roman\n\nConvert numbers to Roman numerals.\n"})  # fmt: skip
    write_files(repo, {"tests/roman.rs": "#[test]\nfn one() {}\n"})
    git(repo, "add", "tests/roman.rs")
    return repo


@pytest.mark.parametrize("entry", [("tddhooks", "hook"), DIRECT])
def test_commit_msg_accepts_and_rejects(make_repo: MakeRepo, entry: tuple[str, ...]) -> None:
    repo = _staged_repo(make_repo)
    message = repo / ".git" / "COMMIT_EDITMSG"
    message.write_text(tdd_message("test", "roman one", role="Tester", diff="- tests/roman.rs"),
                       encoding="utf-8")  # fmt: skip
    assert run(repo, *entry, "commit-msg", ".git/COMMIT_EDITMSG").returncode == 0
    message.write_text("roman one ñ\n# a comment git would drop\n", encoding="utf-8")
    rejected = run(repo, *entry, "commit-msg", ".git/COMMIT_EDITMSG")
    assert rejected.returncode == 1
    assert "[prefixed]" in rejected.stdout
    kept = (repo / ".git" / "tddhooks" / "last-message").read_text(encoding="utf-8")
    assert kept == "roman one ñ\n"  # as git would store it: comments dropped


def test_an_empty_message_is_left_for_git_to_abort(make_repo: MakeRepo) -> None:
    repo = _staged_repo(make_repo)
    git(repo, "config", "core.hooksPath", ".git/hooks")
    hook = repo / ".git" / "hooks" / "commit-msg"
    hook.write_text(
        f'#!/bin/sh\nexec "{sys.executable}" -m tddhooks.commands.hook commit-msg "$1"\n'
    )
    hook.chmod(0o755)
    editor = repo / ".git" / "editor.sh"
    editor.write_text("#!/bin/sh\nprintf '\\n# only comments\\n' > \"$1\"\n", encoding="utf-8")
    editor.chmod(0o755)
    before = git(repo, "rev-parse", "HEAD").stdout
    result = run(repo, "git", "commit", env={"GIT_EDITOR": str(editor)})
    assert "Aborting commit due to empty commit message" in result.stderr
    assert "[prefixed]" not in result.stdout + result.stderr  # the hook left it to git
    assert git(repo, "rev-parse", "HEAD").stdout == before


def test_a_custom_comment_character_is_honoured(make_repo: MakeRepo) -> None:
    repo = _staged_repo(make_repo)
    git(repo, "config", "core.commentChar", ";")
    message = repo / "msg"
    message.write_text("; git's help line\n", encoding="utf-8")
    assert run(repo, "tddhooks", "hook", "prepare-commit-msg", "msg").returncode == 0
    filled = message.read_text(encoding="utf-8")
    assert "; suggested: test(<scope>): " in filled
    assert "# " not in filled
    assert filled.rstrip("\n").endswith("; git's help line")
    header = "test: roman one\n"
    message.write_text(header + filled, encoding="utf-8")
    judged = run(repo, "tddhooks", "hook", "commit-msg", "msg")
    assert judged.returncode == 0, judged.stdout


@pytest.mark.parametrize(
    ("args", "env", "filled"),
    [
        ((), {}, True),
        (("template",), {}, True),
        (("message",), {}, False),
        (("merge",), {}, False),
        (("commit", "HEAD"), {}, False),
        (("squash",), {}, False),
        ((), {"PRE_COMMIT_COMMIT_MSG_SOURCE": "message"}, False),  # the framework's way
        ((), {"PRE_COMMIT_COMMIT_MSG_SOURCE": "template"}, True),
    ],
)
def test_prepare_commit_msg_fills_only_empty_editor_messages(
    make_repo: MakeRepo, args: tuple[str, ...], env: dict[str, str], filled: bool
) -> None:
    repo = _staged_repo(make_repo)
    message = repo / ".git" / "COMMIT_EDITMSG"
    message.write_text("\n# Please enter the commit message for your changes.\n", encoding="utf-8")
    before = message.read_text(encoding="utf-8")
    done = run(repo, "tddhooks", "hook", "prepare-commit-msg", str(message), *args, env=env)
    assert done.returncode == 0, done.stderr
    after = message.read_text(encoding="utf-8")
    assert (after != before) == filled
    if filled:
        assert "- Role: Tester" in after
        assert "- Step: 1" in after
        assert "- Kata goal: Convert numbers to Roman numerals." in after
        assert "- tests/roman.rs: added" in after
        assert after.endswith(before.lstrip("\n"))


def test_a_message_with_content_is_never_rewritten(make_repo: MakeRepo) -> None:
    repo = _staged_repo(make_repo)
    message = repo / "msg"
    message.write_text("wip: my own words\n", encoding="utf-8")
    run(repo, "tddhooks", "hook", "prepare-commit-msg", "msg")
    assert message.read_text(encoding="utf-8") == "wip: my own words\n"


@pytest.mark.parametrize(
    ("written", "refreshed"),
    [
        ("roman one\n\nContext:\n- Role: Implementor\n", True),  # the kept message itself
        ("# a comment git drops\nroman one  \n\n\nContext:\n- Role: Implementor\n", True),
        ("roman one\n\nContext:\n- Role: Implementor\n- extra line\n", False),
        ("roman two\n\nContext:\n- Role: Implementor\n", False),
    ],
)
def test_only_the_kept_message_reused_with_f_is_refreshed(
    make_repo: MakeRepo, written: str, refreshed: bool
) -> None:
    """`git commit -e -F .git/tddhooks/last-message` refreshes the context sections; any other
    `-F` message is left as written (decided without asking git when it cannot be the kept one,
    however the kept one was spelled: comments and trailing blanks are what git drops)."""
    repo = _staged_repo(make_repo)
    state = repo / ".git" / "tddhooks"
    state.mkdir(parents=True, exist_ok=True)
    (state / "last-message").write_text("roman one\n\nContext:\n- Role: Implementor\n", "utf-8")
    message = repo / ".git" / "COMMIT_EDITMSG"
    message.write_text(written, encoding="utf-8")

    done = run(repo, "tddhooks", "hook", "prepare-commit-msg", str(message), "message")

    assert done.returncode == 0, done.stderr
    after = message.read_text(encoding="utf-8")
    assert (after != written) == refreshed
    if refreshed:
        assert "- Role: Tester" in after  # a test is staged: the role follows what is staged
        assert "- tests/roman.rs: added" in after


def test_wrong_arguments_and_no_repository(tmp_path: Path) -> None:
    usage = run(tmp_path, *DIRECT, "post-commit")
    assert usage.returncode == 2
    assert "unknown hook call: post-commit" in usage.stderr
    outside = run(tmp_path, *DIRECT, "pre-commit")
    assert outside.returncode == 3
    assert "not inside a git repository" in outside.stderr


CHEAP_CI = (
    "ci:\n  fmt_check_cmd: [sh, -c, 'exit 0']\n  check_cmd: [sh, -c, 'exit 0']\n"
    "  test_cmd: [sh, -c, 'echo the suite fails; exit 1']\n"
)


@pytest.mark.cargo
def test_nothing_staged_skips_the_gate_unless_a_merge_is_concluded(make_repo: MakeRepo) -> None:
    repo = make_repo({"tdd.yaml": CHEAP_CI, "src/lib.rs": "\n"})
    quiet = run(repo, "tddhooks", "hook", "pre-commit")  # e.g. git commit --allow-empty
    assert (quiet.returncode, quiet.stdout) == (0, "")
    head = git(repo, "rev-parse", "HEAD").stdout
    (repo / ".git" / "MERGE_HEAD").write_text(head, encoding="utf-8")
    merging = run(repo, "tddhooks", "hook", "pre-commit")
    assert merging.returncode == 1
    assert "the suite fails" in merging.stdout


def test_the_green_rule_can_be_disabled(make_repo: MakeRepo) -> None:
    repo = make_repo({"tdd.yaml": CHEAP_CI + "policy:\n  disabled_rules: [green]\n"})
    write_files(repo, {"src/lib.rs": "// changed\n"})
    git(repo, "add", "src/lib.rs")
    skipped = run(repo, "tddhooks", "hook", "pre-commit")
    assert (skipped.returncode, skipped.stdout) == (0, "")
