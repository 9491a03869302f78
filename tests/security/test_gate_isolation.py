"""Red team, issue 7 class 1: files outside the staged tree must not sway the gate.

Each attack plants configuration that cargo, rustfmt or tddhooks would discover in a parent
folder or in the work tree, then commits through the real hooks; the verdict must be the one the
committed tree alone earns (plus the person's global toolchain configuration)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from support.hookkit import (
    CRATE,
    SUB_CODE,
    SUB_TEST,
    build_template,
    commit,
    git,
    head,
    kata,
    kata_template,
    run,
    tdd_message,
    write,
)

__all__ = ["kata", "kata_template"]  # fixtures
pytestmark = pytest.mark.cargo

# compiles, fails when run
RED_TEST = {
    "tests/red.rs": "#[test]\nfn adds_wrongly() {\n    assert_eq!(hookkata::add(1, 1), 3);\n}\n"
}
RED_MESSAGE = tdd_message("test", "a failing test", role="Tester", diff="- tests/red.rs: new")
FEAT = tdd_message("feat", "subtract two numbers", diff="- tests/sub.rs: new\n- src/lib.rs: sub")
RUNNER_TRUE = "[target.'cfg(all())']\nrunner = \"true\"\n"


def _verdicts(repo: Path) -> list[dict[str, object]]:
    folder = repo / ".git" / "tddhooks" / "verdicts"
    return [json.loads(path.read_text(encoding="utf-8")) for path in folder.glob("*.json")]


def _staged_tree(repo: Path) -> str:
    return git(repo, "write-tree").stdout.strip()


def _assert_rejected_red(repo: Path, before: str, result: subprocess.CompletedProcess[str]) -> None:
    assert result.returncode == 1, result.stderr
    assert "[green]" in result.stderr or "green" in result.stderr
    assert head(repo) == before


def test_untracked_cargo_config_runner_true_cannot_make_a_red_test_green(kata: Path) -> None:
    write(kata, {".cargo/config.toml": RUNNER_TRUE, **RED_TEST})
    git(kata, "add", "tests/red.rs")
    before, tree = head(kata), _staged_tree(kata)

    result = commit(kata, RED_MESSAGE)

    _assert_rejected_red(kata, before, result)
    assert "adds_wrongly" in result.stderr
    stored = [v for v in _verdicts(kata) if v["tree"] == tree]
    assert stored
    assert not any(v["green"] for v in stored)
    assert (kata / ".cargo/config.toml").read_text(encoding="utf-8") == RUNNER_TRUE


def test_the_attack_config_leaves_no_green_verdict_behind_for_a_later_commit(kata: Path) -> None:
    write(kata, {".cargo/config.toml": RUNNER_TRUE, **RED_TEST})
    git(kata, "add", "tests/red.rs")
    commit(kata, RED_MESSAGE)
    (kata / ".cargo/config.toml").unlink()
    before = head(kata)

    again = commit(kata, RED_MESSAGE)

    _assert_rejected_red(kata, before, again)
    assert "[cached]" not in again.stderr.split("green")[0]


def test_unstaged_workspace_line_does_not_make_a_green_tree_red(kata: Path) -> None:
    write(kata, {**SUB_TEST, **SUB_CODE})
    git(kata, "add", "-A")
    write(kata, {"Cargo.toml": CRATE["Cargo.toml"] + '\n[workspace]\nmembers = ["nowhere"]\n'})

    result = commit(kata, FEAT)

    assert result.returncode == 0, result.stderr
    assert "nowhere" in (kata / "Cargo.toml").read_text(encoding="utf-8")  # left as it was
    assert git(kata, "diff", "--name-only").stdout.split() == ["Cargo.toml"]


def test_a_kata_inside_an_enclosing_cargo_workspace_is_judged_on_its_own(tmp_path: Path) -> None:
    outer = tmp_path / "katas"
    outer.mkdir()
    (outer / "Cargo.toml").write_text('[workspace]\nmembers = ["kata"]\n', encoding="utf-8")
    repo = build_template(outer)
    write(repo, {**SUB_TEST, **SUB_CODE})
    git(repo, "add", "-A")

    result = commit(repo, FEAT)

    assert result.returncode == 0, result.stderr
    assert "green" in result.stderr


def test_a_kata_inside_an_enclosing_workspace_still_rejects_red(tmp_path: Path) -> None:
    outer = tmp_path / "katas"
    outer.mkdir()
    (outer / "Cargo.toml").write_text('[workspace]\nmembers = ["kata"]\n', encoding="utf-8")
    (outer / ".cargo").mkdir()
    (outer / ".cargo/config.toml").write_text(RUNNER_TRUE, encoding="utf-8")
    repo = build_template(outer)
    write(repo, RED_TEST)
    git(repo, "add", "-A")
    before = head(repo)

    _assert_rejected_red(repo, before, commit(repo, RED_MESSAGE))


def test_untracked_rustfmt_toml_does_not_make_a_formatted_tree_red(kata: Path) -> None:
    write(kata, {**SUB_TEST, **SUB_CODE, "rustfmt.toml": "hard_tabs = true\n"})
    git(kata, "add", "tests/sub.rs", "src/lib.rs")

    result = commit(kata, FEAT)

    assert result.returncode == 0, result.stderr
    assert git(kata, "status", "--porcelain").stdout == "?? rustfmt.toml\n"


def test_unstaged_tdd_yaml_disabling_green_has_no_effect_with_direct_shims(kata: Path) -> None:
    write(kata, {"tdd.yaml": "policy:\n  disabled_rules: [green]\n"})
    git(kata, "add", "tdd.yaml")
    git(kata, "commit", "-q", "--no-verify", "-m", "chore: policy file")
    git(kata, "rm", "-q", "--cached", "tdd.yaml")
    git(kata, "commit", "-q", "--no-verify", "-m", "chore: no policy file")  # default policy again
    write(kata, RED_TEST)  # tdd.yaml stays in the work tree, untracked, disabling green
    git(kata, "add", "tests/red.rs")
    before = head(kata)

    _assert_rejected_red(kata, before, commit(kata, RED_MESSAGE))


def test_modified_unstaged_tdd_yaml_with_test_cmd_true_has_no_effect(kata: Path) -> None:
    write(kata, {"tdd.yaml": "ci:\n  timeout_s: 200\n"})
    git(kata, "add", "tdd.yaml")
    git(kata, "commit", "-q", "--no-verify", "-m", "chore: policy file")
    write(kata, {"tdd.yaml": 'ci:\n  test_cmd: ["true"]\n  check_cmd: ["true"]\n', **RED_TEST})
    git(kata, "add", "tests/red.rs")
    before = head(kata)

    _assert_rejected_red(kata, before, commit(kata, RED_MESSAGE))
    assert "test_cmd" in (kata / "tdd.yaml").read_text(encoding="utf-8")


def test_audit_ignores_a_cargo_config_in_the_shared_temp_folder(kata: Path, tmp_path: Path) -> None:
    write(kata, RED_TEST)
    git(kata, "add", "-A")
    git(kata, "commit", "-q", "--no-verify", "-m", "test: a red test sneaked in")
    fake_tmp = tmp_path / "shared-tmp"
    (fake_tmp / ".cargo").mkdir(parents=True)
    (fake_tmp / ".cargo/config.toml").write_text(RUNNER_TRUE, encoding="utf-8")

    result = run(kata, "tddhooks", "audit", "--json", env={"TMPDIR": str(fake_tmp)})

    assert result.returncode == 1, result.stdout + result.stderr
    report = json.loads(result.stdout)
    red = [v for v in report["violations"] if v["rule"] == "green"]
    assert red
    assert "adds_wrongly" in red[0]["message"]
    assert list(fake_tmp.iterdir()) == [fake_tmp / ".cargo"]  # audit built nothing there


def test_the_gate_builds_in_a_private_folder_outside_the_repository(kata: Path) -> None:
    write(kata, {**SUB_TEST, **SUB_CODE})
    git(kata, "add", "-A")
    assert commit(kata, FEAT).returncode == 0
    cache = Path(os.environ["XDG_CACHE_HOME"]) / "tddhooks" / "snapshots"
    (private,) = list(cache.iterdir())
    assert private.stat().st_mode & 0o777 == 0o700
    assert (private / "snapshot" / "tests" / "sub.rs").is_file()
    assert not (kata / ".git" / "tddhooks" / "snapshot").exists()


def test_a_cache_folder_inside_the_repository_is_refused(kata: Path) -> None:
    write(kata, {**SUB_TEST, **SUB_CODE})
    git(kata, "add", "-A")
    before = head(kata)

    result = commit(kata, FEAT, env={"XDG_CACHE_HOME": str(kata / "cache")})
    hook = run(kata, "tddhooks", "hook", "pre-commit", env={"XDG_CACHE_HOME": str(kata / "cache")})

    assert result.returncode == 1
    assert "inside the repository" in result.stderr
    assert head(kata) == before
    assert hook.returncode == 3  # an environment problem, not a red tree


def test_a_planted_symlink_for_the_private_folder_is_refused(kata: Path, tmp_path: Path) -> None:
    write(kata, {**SUB_TEST, **SUB_CODE})
    git(kata, "add", "-A")
    cache = Path(os.environ["XDG_CACHE_HOME"])
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (cache / "tddhooks").mkdir(parents=True)
    (cache / "tddhooks" / "snapshots").symlink_to(foreign)
    before = head(kata)

    result = commit(kata, FEAT)
    hook = run(kata, "tddhooks", "hook", "pre-commit")

    assert result.returncode == 1
    assert "not a folder owned by you" in result.stderr
    assert head(kata) == before
    assert list(foreign.iterdir()) == []
    assert hook.returncode == 3


def test_two_repositories_get_separate_private_folders(tmp_path: Path) -> None:
    repos = []
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        repos.append(build_template(tmp_path / name))
    for repo in repos:
        write(repo, {**SUB_TEST, **SUB_CODE})
        git(repo, "add", "-A")
        assert commit(repo, FEAT).returncode == 0
    cache = Path(os.environ["XDG_CACHE_HOME"]) / "tddhooks" / "snapshots"
    assert len(list(cache.iterdir())) == 2


def test_a_committed_cargo_config_runner_true_cannot_make_a_red_test_green(kata: Path) -> None:
    # committed, so part of the judged tree: the gate notices that no test ran at all
    write(kata, {".cargo/config.toml": RUNNER_TRUE, **RED_TEST})
    git(kata, "add", "-A")
    before = head(kata)

    result = commit(kata, RED_MESSAGE)

    _assert_rejected_red(kata, before, result)
    assert "no test ran, though the tree defines" in result.stderr


@pytest.mark.pygate
def test_a_committed_conftest_that_collects_nothing_cannot_make_python_green(
    make_repo: object,
) -> None:
    from support.hookkit import install_shims
    from support.pykata import FAILING_TEST, FILES

    repo: Path = make_repo(FILES)  # type: ignore[operator]
    install_shims(repo)
    write(repo, {"conftest.py": 'collect_ignore_glob = ["*"]\n', "tests/test_neg.py": FAILING_TEST})
    git(repo, "add", "-A")
    before = head(repo)

    result = git(repo, "commit", "-m", "test: negatives")

    assert result.returncode == 1
    assert "no test ran, though the tree defines" in result.stderr
    assert head(repo) == before


@pytest.mark.parametrize("variable", ["CARGO_TARGET_DIR", "CARGO_BUILD_BUILD_DIR"])
def test_a_user_cargo_folder_cannot_lend_the_work_trees_build_to_the_staged_tree(
    kata: Path, tmp_path: Path, variable: str
) -> None:
    """With CARGO_TARGET_DIR set (many Rust users set it globally), the gate once built the
    staged snapshot into that folder, where the person's own `cargo test` of the work tree had
    built the same crate: cargo's fingerprints do not name the package folder, so the snapshot's
    older sources counted as built, and the work tree's unstaged fix made the staged red tree
    green. Cargo's `build.build-dir` (stable since 1.91) holds the fingerprints too."""
    shared = {variable: str(tmp_path / "user-target")}
    red_code = {"src/lib.rs": SUB_CODE["src/lib.rs"].replace("a - b", "a + b")}
    write(kata, {**SUB_TEST, **red_code})
    git(kata, "add", "-A")
    before = head(kata)
    _assert_rejected_red(kata, before, commit(kata, FEAT, env=shared))
    write(kata, SUB_CODE)  # the fix, left unstaged, built and run in the work tree
    assert run(kata, "cargo", "test", "--quiet", env=shared).returncode == 0
    write(kata, {"kata.md": CRATE["kata.md"] + "\n- Subtract too.\n"})
    git(kata, "add", "kata.md")  # a new staged tree: no stored verdict answers for it

    result = commit(kata, FEAT, env=shared)

    _assert_rejected_red(kata, before, result)
    assert "subtracts" in result.stderr
