"""The drive's edges without cargo, on real git repositories: the workspace operations that
must only ever touch a turn's own paths, the step files, the work dir a drive accepts, and the
shipped demo session."""

from __future__ import annotations

import json
import stat
from collections.abc import Callable
from pathlib import Path

import pytest
from support.e2e_kit import git, write_files

from tddhooks.agents.edits import check_edits, parse_answer
from tddhooks.agents.roles import path_policy
from tddhooks.commands.demo import recorded_cycles
from tddhooks.commands.drive import LLMFlags, prepare_work_dir
from tddhooks.drive import gather, workspace
from tddhooks.drive.steplog import AttemptRecord, EditRecord, StepLog, StepWriter, plan_markdown
from tddhooks.errors import UsageError
from tddhooks.llm.replay import load_session
from tddhooks.policy.settings import PolicySettings, load_settings
from tddhooks.resources import read_template

MakeRepo = Callable[..., Path]
SETTINGS = PolicySettings(test_paths=("tests/**",), source_paths=("src/**", "Cargo.toml"))


def _turn_log() -> StepLog:
    log = StepLog(cycle=2, role="tester", provider="custom", model="m", phase="green")
    log.attempts.append(
        AttemptRecord(
            number=1,
            plan="test «vide»",
            outcome="overshoot",
            failure="already passes",
            edits=[EditRecord(path="tests/a.rs", action="upsert", bytes=10, lines=2)],
        )
    )
    return log


def test_step_files_never_overwrite_an_earlier_turn(tmp_path: Path) -> None:
    (tmp_path / ".tdd" / "logs").mkdir(parents=True)
    (tmp_path / ".tdd" / "logs" / "step-2-tester.json").write_text("{}", encoding="utf-8")
    writer = StepWriter(tmp_path)
    first, second = _turn_log(), _turn_log()

    path = writer.write(first)
    again = writer.write(first)  # the same turn rewrites its own file
    other = writer.write(second)

    assert path == again == tmp_path / ".tdd/logs/step-2-tester-2.json"
    assert other == tmp_path / ".tdd/logs/step-2-tester-3.json"
    assert StepLog.model_validate_json(path.read_text(encoding="utf-8")) == first
    plan = (tmp_path / ".tdd/plan/step-2-tester-2.md").read_text(encoding="utf-8")
    assert plan == plan_markdown(first)
    assert "## Attempt 1: overshoot" in plan
    assert "test «vide»" in plan
    assert "already passes" in plan
    assert "upsert `tests/a.rs` (2 lines)" in plan


def test_restore_to_head_undoes_only_the_named_paths(make_repo: MakeRepo) -> None:
    repo = make_repo({"src/lib.rs": "old\n", "notes.txt": "mine\n"})
    write_files(repo, {"src/lib.rs": "new\n", "src/new/mod.rs": "x\n", "notes.txt": "edited\n"})
    git(repo, "add", "src/lib.rs", "src/new/mod.rs")

    workspace.restore_to_head(repo, ["src/lib.rs", "src/new/mod.rs"])

    assert (repo / "src/lib.rs").read_text(encoding="utf-8") == "old\n"
    assert not (repo / "src/new").exists()  # the directory the turn created goes too
    assert (repo / "notes.txt").read_text(encoding="utf-8") == "edited\n"  # not the turn's
    assert git(repo, "diff", "--cached", "--name-only").stdout == ""


def test_the_formatter_keeps_its_changes_to_the_turns_files_only(make_repo: MakeRepo) -> None:
    repo = make_repo({"own.rs": "a\n", "other.rs": "b\n"})
    settings = SETTINGS._replace(fmt_fix=("sh", "-c", "echo fmt >> own.rs; echo fmt >> other.rs"))

    assert workspace.format_files(repo, settings, ["own.rs"]) is None

    assert (repo / "own.rs").read_text(encoding="utf-8") == "a\nfmt\n"
    assert (repo / "other.rs").read_text(encoding="utf-8") == "b\n"
    write_files(repo, {"other.rs": "b\nthe person is typing\n"})
    assert "outside this turn: other.rs" in (
        workspace.format_files(repo, settings, ["own.rs"]) or ""
    )
    assert (repo / "own.rs").read_text(encoding="utf-8") == "a\nfmt\n"  # not run again
    assert (repo / "other.rs").read_text(encoding="utf-8") == "b\nthe person is typing\n"
    git(repo, "checkout", "other.rs")
    failing = SETTINGS._replace(fmt_fix=("sh", "-c", "echo syntax error >&2; exit 1"))
    assert "syntax error" in (workspace.format_files(repo, failing, ["own.rs"]) or "")


def test_scratch_is_ignored_through_info_exclude_never_the_gitignore(make_repo: MakeRepo) -> None:
    plain = make_repo({"a.txt": "a\n"}, name="plain")
    listed = make_repo({".gitignore": "target/\n.tdd/\n"}, name="listed")

    assert workspace.ensure_scratch_ignored(plain) is True
    assert workspace.ensure_scratch_ignored(plain) is False
    assert workspace.ensure_scratch_ignored(listed) is False
    assert git(plain, "check-ignore", "-q", ".tdd/logs/step-1-tester.json").returncode == 0
    assert not (plain / ".gitignore").exists()
    assert ".tdd/" not in (listed / ".git/info/exclude").read_text(encoding="utf-8")


def test_a_set_aside_test_is_kept_and_can_be_brought_back(make_repo: MakeRepo) -> None:
    repo = make_repo({"tests/old.rs": "old\n"})
    workspace.ensure_scratch_ignored(repo)
    write_files(repo, {"tests/big.rs": "#[test] fn big() {}\n", "tests/old.rs": "changed\n"})
    git(repo, "add", "tests")
    staged = git(repo, "ls-files", "-s", "tests").stdout

    directory = workspace.set_aside(repo, 3, ["tests/big.rs", "tests/old.rs"])

    assert directory == repo / ".tdd/set-aside/3"
    assert (directory / "tests/big.rs").read_text(encoding="utf-8") == "#[test] fn big() {}\n"
    assert not (repo / "tests/big.rs").exists()
    assert (repo / "tests/old.rs").read_text(encoding="utf-8") == "old\n"
    assert git(repo, "status", "--porcelain").stdout == ""
    workspace.bring_back(repo, directory, ["tests/big.rs", "tests/old.rs"])
    assert git(repo, "ls-files", "-s", "tests").stdout == staged


def test_a_unit_test_set_aside_in_a_refactored_source_file_is_merged_back(
    make_repo: MakeRepo,
) -> None:
    """Unit tests beside the code: the preparatory refactor changes the same src/lib.rs the
    set-aside test sits in; bringing the test back keeps the refactor."""
    code = "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n"
    tests = "\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn adds() {\n"
    tests += "        assert_eq!(add(1, 1), 2);\n    }\n}\n"
    repo = make_repo({"src/lib.rs": code})
    write_files(repo, {"src/lib.rs": code + tests})
    git(repo, "add", "src/lib.rs")
    directory = workspace.set_aside(repo, 2, ["src/lib.rs"])
    assert (repo / "src/lib.rs").read_text("utf-8") == code
    refactored = code.replace("a + b", "b + a")
    write_files(repo, {"src/lib.rs": refactored})
    git(repo, "commit", "-q", "--no-verify", "-am", "refactor: commute")
    workspace.bring_back(repo, directory, ["src/lib.rs"])
    assert (repo / "src/lib.rs").read_text("utf-8") == refactored + tests
    assert git(repo, "show", ":src/lib.rs").stdout == refactored + tests


def test_agent_commits_use_the_agent_identity_and_surface_hook_rejections(
    make_repo: MakeRepo,
) -> None:
    repo = make_repo({"a.txt": "a\n"})
    settings = SETTINGS._replace(author_name="Máquina TDD", author_email="tdd@example.org")
    write_files(repo, {"a.txt": "b\n"})
    git(repo, "add", "a.txt")
    hook = repo / ".git" / "hooks" / "commit-msg"
    hook.write_text("#!/bin/sh\necho 'rule: no thanks' >&2\nexit 1\n", encoding="utf-8")
    hook.chmod(hook.stat().st_mode | stat.S_IEXEC)

    rejected = workspace.commit(repo, "feat: b\n", settings)

    assert not rejected.ok
    assert "rule: no thanks" in rejected.output
    hook.unlink()
    accepted = workspace.commit(repo, "feat: b\n", settings)
    assert accepted.ok
    assert accepted.sha == git(repo, "rev-parse", "HEAD").stdout.strip()
    assert git(repo, "log", "-1", "--format=%an <%ae>").stdout.strip() == (
        "Máquina TDD <tdd@example.org>"
    )
    assert workspace.numstat_staged(repo) == {}


def test_the_refactor_mark_holds_only_for_the_head_it_was_made_on(make_repo: MakeRepo) -> None:
    repo = make_repo({"a.txt": "a\n"})

    assert workspace.refactor_turn_taken(repo) is False
    workspace.mark_refactor_turn(repo)
    assert workspace.refactor_turn_taken(repo) is True
    git(repo, "commit", "-q", "--allow-empty", "-m", "feat: next")
    assert workspace.refactor_turn_taken(repo) is False


def test_the_shipped_session_is_valid_answers_within_each_roles_paths(make_repo: MakeRepo) -> None:
    repo = make_repo({"src/lib.rs": "//! lib\n", "Cargo.toml": '[package]\nname = "k"\n'})
    lines = read_template("sessions/string-calculator.jsonl").splitlines()
    entries = [json.loads(line) for line in lines if line.strip()]
    assert recorded_cycles(load_session("string-calculator", crate="k")) == 3
    assert [e["role"] for e in entries] == ["tester", "implementor", "refactorer"] * 3
    for entry in entries:
        parsed = parse_answer(entry["answer"].replace("{crate}", "k"))
        check_edits(repo, parsed.edits, path_policy(entry["role"], SETTINGS))
    refactors = [parse_answer(e["answer"]) for e in entries if e["role"] == "refactorer"]
    assert any(r.edits for r in refactors)
    assert any(not r.edits for r in refactors)


NO_FLAGS = LLMFlags(model=None, provider=None, api_key=None, base_url=None, role_model=())


def test_drive_never_initialises_a_directory_that_is_not_empty(tmp_path: Path) -> None:
    write_files(tmp_path / "mine", {"notes.md": "ideas\n"})

    with pytest.raises(UsageError, match="not empty, so --kata does not initialise it"):
        prepare_work_dir(
            tmp_path / "mine",
            kata="string-calculator",
            language=None,
            flags=NO_FLAGS,
            roles=["tester"],
            as_json=False,
        )

    assert sorted(p.name for p in (tmp_path / "mine").iterdir()) == ["notes.md"]


def test_kata_is_ignored_with_a_warning_for_an_existing_repository(
    make_repo: MakeRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = make_repo({"kata.md": "# Mine\n"})

    root = prepare_work_dir(
        repo, kata="bowling", language=None, flags=NO_FLAGS, roles=["tester"], as_json=False
    )

    assert root == repo
    assert "--kata bowling ignored" in capsys.readouterr().err


def test_the_turn_context_reads_tests_and_sources_from_the_repository(make_repo: MakeRepo) -> None:
    repo = make_repo(
        {
            "Cargo.toml": '[package]\nname = "k"\n',
            "src/lib.rs": "pub fn add() {}\n",
            "tests/.gitkeep": "",
            "tests/somme.rs": "#[test]\nfn vide_é() {}\n",
            "notes.md": "not code\n",
        }
    )

    ctx = gather.turn_context(repo, load_settings(repo), role="tester", cycle=2, hints=["h"])

    assert ctx.files == ("Cargo.toml", "src/lib.rs", "tests/.gitkeep", "tests/somme.rs")
    assert set(ctx.file_texts) == {"Cargo.toml", "src/lib.rs", "tests/somme.rs"}
    assert ctx.covered_behaviours == ("tests/somme.rs::vide_é",)
    assert ctx.last_commit_message == "chore: initial files"
    assert "+not code" in ctx.last_diff
    assert ctx.hints == ("h",)
    assert ctx.work_dir == str(repo)


def test_ctrl_c_during_git_commit_leaves_head_and_index_as_they_were(
    make_repo: MakeRepo,
) -> None:
    repo = make_repo({"a.txt": "a\n"})
    write_files(repo, {"a.txt": "b\n"})
    git(repo, "add", "a.txt")
    head = git(repo, "rev-parse", "HEAD").stdout
    hook = repo / ".git" / "hooks" / "pre-commit"
    # Ctrl-C reaches the drive (git's parent) while the hooks run
    hook.write_text("#!/bin/sh\nkill -INT $(ps -o ppid= -p $PPID)\nsleep 30\n", encoding="utf-8")
    hook.chmod(hook.stat().st_mode | stat.S_IEXEC)

    with pytest.raises(KeyboardInterrupt):
        workspace.commit(repo, "feat: b\n", SETTINGS)

    assert not (repo / ".git" / "index.lock").exists()
    assert git(repo, "rev-parse", "HEAD").stdout == head
    assert git(repo, "diff", "--cached", "--name-only").stdout == "a.txt\n"
