"""How git cleans a message (policy.message.git_cleanup) and which cleanup a commit gets
(policy.commitmode): pure tables, and a differential test against what real git stores."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tddhooks.policy.commitmode import (
    ALL_CLEANUPS,
    cleanups,
    commit_options,
    committing_argv,
    global_config,
    subcommand,
)
from tddhooks.policy.message import Cleanup, git_cleanup, parse_message

SCISSORS = "# ------------------------ >8 ------------------------"
MESSAGES = [
    "# WIP hack\n\ndocs: notes\n",
    "docs: notes   \n\n\n\nbody\t \n\n",
    "\n\n  \ndocs: leading blanks\n",
    "docs: x\r\n\r\nbody\r\n",
    "docs: x\rsecond\r",
    f"docs: x\n\nbody\n{SCISSORS}\nbelow\n",
    f"{SCISSORS}\ndocs: after the scissors\n",
    f"docs: x\n\n{SCISSORS}\r\ncut: trailing whitespace is allowed\n",
    f"docs: x\n\n{SCISSORS} text\nnot a cut\n",
    f"docs: x\n\n{SCISSORS}",
    "docs: x\n #not a comment (indented)\n\n#comment\nlast\n",
    "docs: ünïcödé ✓\n\n\u00a0\nnbsp line\n",
]
MODES = {
    "strip": (("--cleanup=strip",), Cleanup("strip")),
    "whitespace": (("--cleanup=whitespace",), Cleanup("whitespace")),
    "verbatim": (("--cleanup=verbatim",), Cleanup("verbatim")),
    "verbose": (("-v",), Cleanup("whitespace", cut=True)),
    "scissors-editor": (("--cleanup=scissors", "-e"), Cleanup("whitespace", cut=True)),
    "strip-verbose": (("--cleanup=strip", "-v"), Cleanup("strip", cut=True)),
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cleanup") / "repo"
    path.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=path, check=True)
    return path


def _stored(repo: Path, message: str, args: tuple[str, ...]) -> str:
    """The message git stores; "" when git refuses it as empty."""
    source = repo.parent / "message.txt"
    source.write_bytes(message.encode("utf-8"))
    ident = ["-c", "user.name=T", "-c", "user.email=t@e"]
    env = {**os.environ, "GIT_EDITOR": "true"}
    made = subprocess.run(
        ["git", *ident, "commit", "-q", "--allow-empty", "--no-verify", "-F", str(source), *args],
        cwd=repo, env=env, capture_output=True, text=True,
    )  # fmt: skip
    if made.returncode != 0:
        assert "empty commit message" in made.stderr
        return ""
    raw = subprocess.run(["git", "cat-file", "commit", "HEAD"], cwd=repo, capture_output=True)
    return raw.stdout.decode("utf-8").split("\n\n", 1)[1]


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("message", MESSAGES, ids=range(len(MESSAGES)))
def test_git_cleanup_is_what_git_stores(repo: Path, mode: str, message: str) -> None:
    args, cleanup = MODES[mode]
    assert git_cleanup(message, cleanup) == _stored(repo, message, args)


@pytest.mark.parametrize("message", MESSAGES, ids=range(len(MESSAGES)))
def test_the_subject_is_gits_subject(repo: Path, message: str) -> None:
    _stored(repo, message, ("--cleanup=whitespace",))
    raw = subprocess.run(["git", "log", "-1", "--format=%s"], cwd=repo, capture_output=True)
    expected = raw.stdout.decode("utf-8").removesuffix("\n")
    assert parse_message(message, cleanup=Cleanup("whitespace")).subject == expected


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["-m", "x"], (None, -1)),
        (["-am", "x", "--cleanup=strip"], ("strip", -1)),
        (["--cleanup", "verbatim", "-F", "f"], ("verbatim", -1)),
        (["--clean=strip"], ("strip", -1)),
        (["-v", "-v", "--no-verbose"], (None, 0)),
        (["-qvm", "-v is the message"], (None, 1)),
        (["-m", "--cleanup=strip"], (None, -1)),  # the message, not an option
        (["-F", "-", "--", "--cleanup=strip"], (None, -1)),  # a pathspec after --
        (["--verb"], (None, 1)),
        (["--fixup=amend:HEAD", "-uno", "-Skey"], (None, -1)),
        (["--bogus"], None),
        (["-X"], None),
    ],
)
def test_commit_options(args: list[str], expected: tuple[str | None, int] | None) -> None:
    assert commit_options(args) == expected


def test_global_options_and_subcommand() -> None:
    argv = ["-C", "repo", "-c", "Commit.Cleanup=strip", "--no-pager", "commit", "-m", "x"]
    assert global_config(argv) == {"commit.cleanup": "strip"}
    assert subcommand(argv) == ("commit", ["-m", "x"])


@pytest.mark.parametrize(
    ("editor", "config", "argv", "expected"),
    [
        (":", {}, ["commit", "-m", "x"], (Cleanup("whitespace"),)),
        ("vi", {}, ["commit"], (Cleanup("strip"),)),
        ("vi", {}, ["commit", "-v"], (Cleanup("strip", cut=True),)),
        (
            ":",
            {"commit.verbose": "true"},
            ["commit", "-F", "f"],
            (Cleanup("whitespace", cut=True),),
        ),
        (":", {"commit.cleanup": "scissors"}, ["commit", "-F", "f"], (Cleanup("whitespace"),)),
        ("vi", {"commit.cleanup": "scissors"}, ["commit"], (Cleanup("whitespace", cut=True),)),
        (":", {"commit.cleanup": "strip"}, ["commit", "-m", "x"], (Cleanup("strip"),)),
        (":", {}, ["-c", "commit.cleanup=verbatim", "commit", "-m", "x"], (Cleanup("verbatim"),)),
        (":", {"alias.ci": "commit --cleanup=strip"}, ["ci", "-m", "x"], (Cleanup("strip"),)),
        (":", {}, ["commit", "--cleanup=nonsense"], ALL_CLEANUPS),
        (":", {}, ["frobnicate"], ALL_CLEANUPS),
        (":", {}, None, ALL_CLEANUPS),
    ],
)
def test_cleanups(
    editor: str, config: dict[str, str], argv: list[str] | None, expected: tuple[Cleanup, ...]
) -> None:
    assert cleanups({"GIT_EDITOR": editor}, config, argv) == expected


def test_committing_argv_finds_git_above_a_shell(tmp_path: Path) -> None:
    script = tmp_path / "probe.py"
    script.write_text(
        "from tddhooks.policy.commitmode import committing_argv\nprint(committing_argv())\n",
        encoding="utf-8",
    )
    hook = tmp_path / "repo" / ".git" / "hooks" / "commit-msg"
    subprocess.run(["git", "init", "-q", str(tmp_path / "repo")], check=True)
    hook.write_text(f'#!/bin/sh\nsh -c \'"{sys.executable}" "{script}"\' >&2\n', encoding="utf-8")
    hook.chmod(0o755)
    result = subprocess.run(
        ["git", "-c", "user.name=T", "-c", "user.email=t@e", "commit", "-q", "--allow-empty",
         "-m", "docs: x", "--cleanup=strip"],
        cwd=tmp_path / "repo", capture_output=True, text=True,
    )  # fmt: skip
    assert "'commit', '-q', '--allow-empty', '-m', 'docs: x', '--cleanup=strip'" in result.stderr
    argv = committing_argv()
    assert argv is None or "commit" not in argv  # not under git here
