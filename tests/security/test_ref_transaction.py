"""The reference-transaction hook: git itself refuses a branch update that brings in a commit no
hook judged and the policy refuses, however the commit was made (real git, Python kata)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.gatekit import calc_kata_fixture
from support.refkit import (
    REFUSED,
    git,
    green_feature,
    hooked_commit,
    red_feature,
    sneak,
    stage,
    tip,
)

pytestmark = pytest.mark.pygate


__all__ = ["calc_kata_fixture"]  # the `kata` fixture


def refused(done: object, repo: Path, before: str, rule: str = "green") -> None:
    """Refused by the reference-transaction hook for `rule`, and main did not move."""
    text = done.stdout + done.stderr  # type: ignore[attr-defined]
    assert done.returncode != 0, text  # type: ignore[attr-defined]
    assert f"[{rule}]" in text, text
    assert "was judged by no tddhooks hook" in text, text
    assert tip(repo, "refs/heads/main") == before


def test_commit_no_verify_of_a_red_tree_is_refused_and_nothing_lands(kata: Path) -> None:
    before = tip(kata)
    stage(kata, red_feature()[0])
    done = git(kata, "commit", "--no-verify", "-m", red_feature()[1])
    refused(done, kata, before)
    assert REFUSED in done.stderr
    assert "next: nothing landed and your changes are still staged" in done.stderr
    assert git(kata, "diff", "--cached", "--name-only").stdout.split() == ["tests/test_sub.py"]


def test_commit_no_verify_of_a_green_tree_with_a_bad_message_is_refused(kata: Path) -> None:
    before = tip(kata)
    stage(kata, green_feature()[0])
    refused(git(kata, "commit", "--no-verify", "-m", "added zeros"), kata, before, "prefixed")


def test_commit_no_verify_that_the_policy_accepts_is_judged_on_landing(kata: Path) -> None:
    files, message = green_feature()
    stage(kata, files)
    done = git(kata, "commit", "--no-verify", "-m", message)
    assert done.returncode == 0, done.stdout + done.stderr
    assert git(kata, "log", "-1", "--format=%s").stdout.strip() == "feat: sum zeros"


def test_a_commit_the_hooks_accepted_carries_a_record(kata: Path) -> None:
    from tddhooks.policy.judged import is_recorded
    from tddhooks.policy.landing import Commit, brought_in

    before = tip(kata)
    files, message = green_feature()
    hooked_commit(kata, files, message)
    commits: list[Commit] = brought_in(kata, "HEAD", [before], remotes=False)
    assert len(commits) == 1
    assert is_recorded(kata / ".git" / "tddhooks", commits[0].key)
    # a record names tree, parent and message: the same tree on another parent has none
    assert not is_recorded(kata / ".git" / "tddhooks", commits[0].key.replace("a", "b", 1))


def test_git_commit_by_its_exec_path_and_by_an_alias_is_refused(kata: Path) -> None:
    before = tip(kata)
    files, message = red_feature()
    stage(kata, files)
    exec_path = git(kata, "--exec-path").stdout.strip()
    done = git(kata, "--exec-path=" + exec_path, "commit", "-n", "-m", message)
    refused(done, kata, before)
    import subprocess

    direct = subprocess.run(
        [f"{exec_path}/git-commit", "--no-verify", "-m", message],
        cwd=kata,
        capture_output=True,
        text=True,
    )
    refused(direct, kata, before)
    git(kata, "config", "alias.ci", "commit --no-verify")
    refused(git(kata, "ci", "-m", message), kata, before)


def test_commit_tree_then_update_ref_is_refused(kata: Path) -> None:
    before = tip(kata)
    stage(kata, red_feature()[0])
    tree = git(kata, "write-tree").stdout.strip()
    made = git(kata, "commit-tree", tree, "-p", before, "-m", red_feature()[1]).stdout.strip()
    refused(git(kata, "update-ref", "refs/heads/main", made), kata, before)
    refused(git(kata, "update-ref", "refs/heads/other", made), kata, before)
    assert git(kata, "rev-parse", "-q", "--verify", "refs/heads/other").returncode != 0


def _side_with_red(kata: Path) -> tuple[str, str]:
    """A side branch whose only commit, red, was made with every hook off."""
    before = tip(kata)
    git(kata, "switch", "-q", "-c", "side")
    red = sneak(kata, *red_feature())
    git(kata, "switch", "-q", "main")
    return before, red


@pytest.mark.parametrize(
    "args",
    [
        ["reset", "--soft", "{red}"],
        ["branch", "-f", "other", "{red}"],
        ["checkout", "-B", "main", "{red}"],
        ["merge", "--ff-only", "side"],
        ["merge", "--no-ff", "--no-verify", "-m", "merge side", "side"],
        ["cherry-pick", "-Xpatience", "{red}"],
        ["branch", "copy", "{red}"],
        ["push", ".", "{red}:refs/heads/copy"],
        ["fetch", ".", "{red}:refs/heads/copy"],
        ["update-ref", "--stdin"],
    ],
    ids=[
        "reset-soft",
        "branch-f",
        "checkout-B",
        "ff-merge",
        "merge",
        "cherry-pick",
        "branch",
        "push-to-itself",
        "fetch-into-a-branch",
        "update-ref-stdin",
    ],
)
def test_moving_a_branch_onto_a_commit_no_hook_judged_is_refused(
    kata: Path, args: list[str]
) -> None:
    before, red = _side_with_red(kata)
    assert git(kata, "branch", "other").returncode == 0  # a branch at a judged commit
    if args == ["update-ref", "--stdin"]:
        import subprocess

        done = subprocess.run(
            ["git", *args], cwd=kata, input=f"update refs/heads/copy {red}\n",
            capture_output=True, text=True,
        )  # fmt: skip
    else:
        done = git(kata, *[arg.replace("{red}", red) for arg in args])
    refused(done, kata, before)
    assert git(kata, "rev-parse", "-q", "--verify", "refs/heads/copy").returncode != 0
    assert tip(kata, "refs/heads/other") == before


def test_git_am_of_a_red_patch_is_refused(kata: Path) -> None:
    before, red = _side_with_red(kata)
    patch = git(kata, "format-patch", "-1", "--stdout", red).stdout
    (kata.parent / "p.mbox").write_text(patch, encoding="utf-8")
    refused(git(kata, "am", str(kata.parent / "p.mbox")), kata, before)


def test_revert_that_makes_the_tree_red_is_refused(kata: Path) -> None:
    code = {"src/calc/sub.py": "def sub(a: int, b: int) -> int:\n    return a - b\n"}
    test = "from calc.sub import sub\n\n\ndef test_sub() -> None:\n    assert sub(3, 1) == 2\n"
    first = hooked_commit(
        kata,
        {**code, "tests/test_sub.py": test},
        red_feature()[1].replace("negatives", "subtract"),
    )
    again = test.replace("test_sub(", "test_sub_again(")
    hooked_commit(kata, {"tests/test_sub_again.py": again}, green_feature(2, "again")[1])
    before = tip(kata)
    done = git(kata, "revert", "--no-edit", "-Xignore-space-change", first)
    refused(done, kata, before)


def test_rebase_exec_amend_no_verify_is_refused(kata: Path) -> None:
    files, message = green_feature()
    hooked_commit(kata, files, message)
    before = tip(kata)
    (kata.parent / "red.py").write_text(red_feature()[0]["tests/test_sub.py"], encoding="utf-8")
    script = f"cp {kata.parent / 'red.py'} tests/test_sub.py && git add -A && " \
        "git commit -q --amend --no-verify --no-edit"  # fmt: skip
    done = git(kata, "rebase", "-q", "HEAD~1", "--exec", script)
    assert done.returncode != 0
    git(kata, "rebase", "--abort")
    assert tip(kata, "refs/heads/main") == before


def test_an_amend_by_git_core_that_turns_green_off_and_adds_a_red_test_is_refused(
    kata: Path,
) -> None:
    """HEAD turns `green` off (accepted: its parent's policy judged it); amending HEAD with a red
    test by git's own executable, where no process name says "amend", is judged against HEAD by
    the commit hooks, and by HEAD's parent's policy when the branch moves."""
    import subprocess

    relax = {"tdd.yaml": "language: python\npolicy:\n  disabled_rules: [green]\n"}
    hooked_commit(kata, relax, "chore: relax the policy")
    before = tip(kata)
    stage(kata, red_feature()[0])
    exec_path = git(kata, "--exec-path").stdout.strip()
    done = subprocess.run(
        [f"{exec_path}/git-commit", "--amend", "-m", red_feature()[1]],
        cwd=kata,
        capture_output=True,
        text=True,
    )
    refused(done, kata, before)
    assert "GIT_REFLOG_ACTION" not in done.stderr


def test_a_merge_of_a_side_branch_made_with_hooks_off_is_refused_even_when_green(
    kata: Path,
) -> None:
    before = tip(kata)
    git(kata, "switch", "-q", "-c", "side")
    sneak(kata, green_feature()[0], "no prefix, no sections")
    git(kata, "switch", "-q", "main")
    done = git(kata, "merge", "--no-ff", "-m", "merge side", "side")
    refused(done, kata, before, "prefixed")  # the side commit was made with hooks off


def test_a_branch_move_from_outside_the_work_tree_or_bare_is_refused(kata: Path) -> None:
    before, red = _side_with_red(kata)
    elsewhere = kata.parent / "elsewhere"
    elsewhere.mkdir()
    git_dir = str(kata / ".git")
    moves = [
        ["--git-dir", git_dir, "--work-tree", str(elsewhere), "update-ref", "refs/heads/main"],
        ["--git-dir", git_dir, "--bare", "update-ref", "refs/heads/main"],
        ["-C", str(kata), "branch", "-f", "other"],
    ]
    assert git(kata, "branch", "other").returncode == 0
    for args in moves:
        done = git(elsewhere, *args, red)
        assert done.returncode != 0, (args, done.stderr)
        assert tip(kata, "refs/heads/main") == before
        assert tip(kata, "refs/heads/other") == before


def test_updates_that_are_not_branch_moves_never_start_python(kata: Path) -> None:
    """The shim alone answers for tags, remote-tracking refs, the stash and deletions."""
    import os
    import subprocess

    hook = kata / ".git" / "hooks" / "reference-transaction"
    env = {**os.environ, "PATH": "/nonexistent"}  # no tddhooks, no python to find
    zero, sha = "0" * 40, tip(kata)
    for line in [
        f"{zero} {sha} refs/tags/v1",
        f"{zero} {sha} refs/remotes/origin/main",
        f"{zero} {sha} refs/stash",
        f"{sha} {zero} refs/heads/gone",
        f"{zero} {sha} HEAD",
    ]:
        for state in ("prepared", "committed", "aborted"):
            done = subprocess.run(
                ["/bin/sh", str(hook), state], input=line + "\n", env=env, text=True,
                capture_output=True, cwd=kata,
            )  # fmt: skip
            assert done.returncode == 0, (line, state, done.stderr)
    text = hook.read_text(encoding="utf-8").replace("INSTALL_PYTHON=", "INSTALL_PYTHON=/gone #")
    hook.write_text(text, encoding="utf-8")
    done = subprocess.run(
        ["/bin/sh", str(hook), "prepared"], input=f"{zero} {sha} refs/heads/x\n", env=env,
        text=True, capture_output=True, cwd=kata,
    )  # fmt: skip
    assert done.returncode == 1  # a branch move does start it
    assert "is gone" in done.stderr


def test_a_forged_baseline_or_record_is_no_pass(kata: Path) -> None:
    """A ref under refs/tddhooks/baseline/, a rewritten baseline list and a copied record are
    all written without the seal: the commit is still judged."""
    import json

    before, red = _side_with_red(kata)
    assert git(kata, "update-ref", "refs/tddhooks/baseline/side", red).returncode == 0
    refused(git(kata, "reset", "--soft", red), kata, before)
    state = kata / ".git" / "tddhooks"
    taken = json.loads((state / "baseline-taken").read_text(encoding="utf-8"))
    taken["tips"].append(red)
    (state / "baseline-taken").write_text(json.dumps(taken), encoding="utf-8")
    refused(git(kata, "reset", "--soft", red), kata, before)
    from tddhooks.policy.landing import brought_in

    hooked_commit(kata, *green_feature())  # a genuine record to copy
    before = tip(kata)
    [genuine] = (state / "judged").iterdir()
    [commit] = brought_in(kata, red, [before], remotes=False)
    (state / "judged" / commit.key).write_text(genuine.read_text(encoding="utf-8"))
    refused(git(kata, "reset", "--soft", red), kata, before)


def test_a_replacement_object_does_not_pass_a_red_commit_off_as_a_judged_one(kata: Path) -> None:
    """`git replace <red> <judged>` makes git show the judged commit's content for the red one;
    the hook reads the commits as they are, and judges nothing while replacements exist."""
    before = tip(kata)
    judged = hooked_commit(kata, *green_feature())
    assert git(kata, "reset", "-q", "--hard", before).returncode == 0
    git(kata, "switch", "-q", "-c", "side")
    red = sneak(kata, *red_feature())
    git(kata, "switch", "-q", "main")
    assert git(kata, "replace", red, judged).returncode == 0
    done = git(kata, "reset", "--soft", red)
    refused_by = done.stdout + done.stderr
    assert done.returncode != 0
    assert "[replaced-objects]" in refused_by
    assert tip(kata, "refs/heads/main") == before
