"""Red-team attacks on the trust mechanisms of issue 34, each tried with real git on a Python
kata with the default install: the routes that landed a red commit before their fix (the hook's
own code chosen by PATH/PYTHONPATH/the work tree; content shown to the gate by a filter driver or
a replacement; a commit deciding its own policy; hooks registered by another spelling), the
routes that were already refused, and what is still open (xfail, strict)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.gatekit import calc_kata_fixture
from support.redteamkit import (
    GREEN_OF_RED,
    HOOK_TO_GREEN,
    has_red_test,
    hash_blob,
    loose_commit,
    red_commit,
)
from support.refkit import (
    FAILING_TEST,
    FILES,
    REFUSED,
    git,
    green_feature,
    hooked_commit,
    red_feature,
    sneak,
    stage,
    tip,
    write,
)

pytestmark = pytest.mark.pygate


__all__ = ["calc_kata_fixture"]  # the `kata` fixture


def refused(done: subprocess.CompletedProcess[str], repo: Path, before: str) -> str:
    """The command failed, main did not move and holds no red test; the output."""
    text = done.stdout + done.stderr
    assert done.returncode != 0, text
    assert tip(repo, "refs/heads/main") == before, text
    assert not has_red_test(repo), text
    return text


def commit_red(repo: Path, extra: dict[str, str] | None = None, *args: str,
               env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:  # fmt: skip
    files, message = red_feature()
    stage(repo, {**files, **(extra or {})})
    return git(repo, "commit", *args, "-m", message, env=env)


# --- the code that judges is chosen by the committer's environment (landed before the fix) ---


def test_a_tddhooks_earlier_on_path_that_exits_0_does_not_judge(kata: Path) -> None:
    fake = kata.parent / "fake"
    fake.mkdir()
    (fake / "tddhooks").write_text("#!/bin/sh\ncat >/dev/null\nexit 0\n", encoding="utf-8")
    (fake / "tddhooks").chmod(0o755)
    before = tip(kata)
    done = commit_red(kata, env={"PATH": f"{fake}{os.pathsep}{os.environ['PATH']}"})
    assert "[green]" in refused(done, kata, before)


def test_pythonpath_naming_a_fake_tddhooks_package_does_not_judge(kata: Path) -> None:
    evil = kata.parent / "evil" / "tddhooks"
    evil.mkdir(parents=True)
    for name in ("__init__.py", "cli.py", "entry.py"):
        (evil / name).write_text("def main(*args, **kwargs):\n    return 0\n", encoding="utf-8")
    (evil / "__main__.py").write_text("import sys\nsys.exit(0)\n", encoding="utf-8")
    before = tip(kata)
    done = commit_red(kata, env={"PYTHONPATH": str(evil.parent)})
    assert "[green]" in refused(done, kata, before)


def test_a_tddhooks_package_in_the_work_tree_does_not_judge(kata: Path) -> None:
    """Without tddhooks on PATH the shim runs `python -m tddhooks` in the work tree's top, which
    was the first folder on sys.path: an untracked `tddhooks/` there answered instead."""
    write(kata, {"tddhooks/__init__.py": "", "tddhooks/__main__.py": "import sys\nsys.exit(0)\n"})
    write(kata, {".git/info/exclude": "tddhooks/\n"})
    bin_dir = str(Path(sys.executable).parent)
    path = os.pathsep.join(p for p in os.environ["PATH"].split(os.pathsep) if p != bin_dir)
    before = tip(kata)
    done = commit_red(kata, env={"PATH": path})
    assert "[green]" in refused(done, kata, before)


# --- the gate shown other content than the commit holds (landed before the fix) ---


def test_a_filter_driver_in_the_repository_config_does_not_show_the_gate_a_green_test(
    kata: Path,
) -> None:
    git(kata, "config", "filter.green.smudge", "sed s/==\\ 5/==\\ -1/")
    git(kata, "config", "filter.green.clean", "cat")
    before = tip(kata)
    done = commit_red(kata, {".gitattributes": "tests/test_sub.py filter=green\n"})
    assert "[green]" in refused(done, kata, before)


def test_a_filter_driver_in_a_crafted_home_does_not_show_the_gate_a_green_test(
    kata: Path,
) -> None:
    home = kata.parent / "crafted"
    home.mkdir()
    (home / ".gitconfig").write_text(
        '[user]\n\tname = x\n\temail = x@x\n[filter "green"]\n'
        "\tsmudge = sed s/==\\\\ 5/==\\\\ -1/\n",
        encoding="utf-8",
    )
    env = {"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config")}
    before = tip(kata)
    done = commit_red(kata, {".gitattributes": "tests/test_sub.py filter=green\n"}, env=env)
    assert "[green]" in refused(done, kata, before)


def test_git_replace_of_the_red_blob_by_a_green_one_does_not_fool_the_hooks(kata: Path) -> None:
    files, message = red_feature()
    stage(kata, files)
    red_blob = git(kata, "rev-parse", ":tests/test_sub.py").stdout.strip()
    assert git(kata, "replace", red_blob, hash_blob(kata, GREEN_OF_RED)).returncode == 0
    before = tip(kata)
    assert "[green]" in refused(git(kata, "commit", "-m", message), kata, before)


def test_a_replace_ref_base_in_the_environment_does_not_fool_the_landing_judge(
    kata: Path,
) -> None:
    files, message = red_feature()
    stage(kata, files)
    red_blob = git(kata, "rev-parse", ":tests/test_sub.py").stdout.strip()
    git(kata, "update-ref", f"refs/evil/{red_blob}", hash_blob(kata, GREEN_OF_RED))
    before = tip(kata)
    env = {"GIT_REPLACE_REF_BASE": "refs/evil/"}
    done = git(kata, "commit", "--no-verify", "-m", message, env=env)
    assert REFUSED in refused(done, kata, before)


# --- a commit deciding its own policy (landed before the fix) ---


def test_a_red_commit_cannot_turn_trust_remotes_back_on_for_itself(kata: Path) -> None:
    yaml = "language: python\npolicy:\n  trust_remotes: false\n"
    hooked_commit(kata, {"tdd.yaml": yaml}, "chore: judge fetched commits too")
    files, message = red_feature()
    red = loose_commit(kata, {**files, "tdd.yaml": "language: python\n"}, message)
    git(kata, "update-ref", "refs/remotes/origin/x", red)  # "fetched"
    before = tip(kata)
    assert REFUSED in refused(git(kata, "reset", "--hard", red), kata, before)


def _orphan(kata: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """An unrelated history whose first commit disables `green` and adds a red test."""
    git(kata, "checkout", "-q", "--orphan", "evil")
    git(kata, "rm", "-rfq", ".")
    files, message = red_feature()
    loose = "language: python\npolicy:\n  disabled_rules: [green]\n"
    stage(kata, {**FILES, **files, "tdd.yaml": loose})
    return git(kata, "commit", *args, "-m", message)


def test_a_root_commit_cannot_bring_its_own_looser_policy(kata: Path) -> None:
    before = tip(kata)
    done = _orphan(kata, "--no-verify")
    assert done.returncode != 0
    assert REFUSED in done.stderr, done.stdout + done.stderr
    assert git(kata, "rev-parse", "-q", "--verify", "refs/heads/evil").returncode != 0
    git(kata, "checkout", "-qf", "main")
    assert tip(kata) == before


def test_a_root_commit_the_commit_hooks_accepted_by_its_own_policy_cannot_land(
    kata: Path,
) -> None:
    before = tip(kata)
    _orphan(kata)  # pre-commit and commit-msg judge a root commit by its own tdd.yaml
    git(kata, "checkout", "-qf", "main")
    listing = git(kata, "fsck", "--unreachable", "--no-reflogs").stdout.splitlines()
    roots = [line.split()[-1] for line in listing if line.startswith("unreachable commit")]
    assert roots  # the root commit git made, which the landing check refused
    for root in roots:
        refused(git(kata, "reset", "--hard", root), kata, before)


# --- runner hooks registered by another spelling (globals() landed before the fix) ---

PLUGIN_PATHS = 'pythonpath = ["src", "tests"]'
SPELLINGS = {
    "globals": {
        "tests/conftest.py": "def green(pyfuncitem):\n    return True\n\n\n"
        'globals()["pytest_" + "pyfunc_call"] = green\n',
    },
    "module-pytest-plugins": {
        "tests/test_sub.py": 'pytest_plugins = ["greenhelp"]\n' + FAILING_TEST,
        "tests/greenhelp.py": HOOK_TO_GREEN,
    },
    "star-import": {
        "tests/conftest.py": "from greenhelp import *  # noqa: F403\n",
        "tests/greenhelp.py": HOOK_TO_GREEN,
    },
    "alias-import": {
        "tests/conftest.py": "from greenhelp import green as pytest_pyfunc_call  # noqa: F401\n",
        "tests/greenhelp.py": "def green(pyfuncitem):\n    return True\n",
    },
    "assigned-lambda": {
        "tests/conftest.py": "pytest_pyfunc_call = lambda pyfuncitem: True  # noqa: E731\n"
    },
    "pytest-ini-addopts": {
        "pytest.ini": "[pytest]\npythonpath = src tests\naddopts = -pgreenhelp\n",
        "tests/greenhelp.py": HOOK_TO_GREEN,
    },
    "fixture-registers-plugin": {
        "tests/conftest.py": "import greenhelp\nimport pytest\n\n\n"
        '@pytest.fixture(autouse=True, scope="session")\n'
        "def _green(request: pytest.FixtureRequest) -> None:\n"
        "    request.config.pluginmanager.register(greenhelp)\n",
        "tests/greenhelp.py": HOOK_TO_GREEN,
    },
}


@pytest.mark.parametrize("spelling", sorted(SPELLINGS))
def test_a_runner_hook_by_any_spelling_keeps_the_tree_red(kata: Path, spelling: str) -> None:
    files, message = red_feature()
    pyproject = (kata / "pyproject.toml").read_text(encoding="utf-8")
    extra = {"pyproject.toml": pyproject.replace('pythonpath = ["src"]', PLUGIN_PATHS)}
    before = tip(kata)
    stage(kata, {**files, **extra, **SPELLINGS[spelling]})
    text = refused(git(kata, "commit", "-m", message), kata, before)
    assert "[green]" in text
    assert "pytest_pyfunc_call" in text or "runner" in text or "hook" in text


def test_a_setup_cfg_plugin_is_refused_when_it_is_the_pytest_configuration(kata: Path) -> None:
    pyproject = (kata / "pyproject.toml").read_text(encoding="utf-8")
    pyproject = pyproject.replace('[tool.pytest.ini_options]\npythonpath = ["src"]\n', "")
    before = tip(kata)
    extra = {
        "pyproject.toml": pyproject,
        "setup.cfg": "[tool:pytest]\npythonpath = src tests\naddopts = -p greenhelp\n",
        "tests/greenhelp.py": HOOK_TO_GREEN,
    }
    text = refused(commit_red(kata, extra), kata, before)
    assert "[green]" in text


# --- the test process ended early or its verdict bent (already refused) ---

ENDINGS = {
    "os-exit-in-test-module": {"tests/test_sub.py": FAILING_TEST + "\nimport os\n\nos._exit(0)\n"},
    "os-exit-in-tests-init": {"tests/__init__.py": "import os\n\nos._exit(0)\n"},
    "atexit-os-exit": {
        "tests/__init__.py": "import atexit\nimport os\n\natexit.register(lambda: os._exit(0))\n"
    },
    "sys-exit-in-test-module": {
        "tests/test_sub.py": FAILING_TEST + "\nimport sys\n\nsys.exit(0)\n"
    },
    "pytest-exit-0": {
        "tests/test_sub.py": FAILING_TEST + '\nimport pytest\n\npytest.exit("done", returncode=0)\n'
    },
    "assertion-error-replaced": {
        "tests/__init__.py": "import builtins\n\n"
        'builtins.AssertionError = type("X", (Exception,), {})\n'
    },
    "sitecustomize-in-src": {"src/sitecustomize.py": "import os\n\nos._exit(0)\n"},
    "pth-in-src": {"src/green.pth": "import os; os._exit(0)\n"},
}


@pytest.mark.parametrize("ending", sorted(ENDINGS))
def test_a_test_process_that_ends_early_or_bends_is_red(kata: Path, ending: str) -> None:
    before = tip(kata)
    assert "[green]" in refused(commit_red(kata, ENDINGS[ending]), kata, before)


# --- branch moves by other routes (already refused by the reference-transaction hook) ---


def test_an_update_ref_batch_with_one_red_branch_moves_nothing(kata: Path) -> None:
    red, before = red_commit(kata), tip(kata)
    batch = f"update refs/heads/side {before}\nupdate refs/heads/main {red}\n"
    done = subprocess.run(["git", "update-ref", "--stdin"], cwd=kata, input=batch, text=True,
                          capture_output=True)  # fmt: skip
    assert REFUSED in refused(done, kata, before)
    assert git(kata, "rev-parse", "-q", "--verify", "refs/heads/side").returncode != 0


@pytest.mark.parametrize(
    "route",
    ["switch-C", "branch-f-detached", "worktree-add", "push-dot", "fetch-dot", "stash-branch"],
)
def test_a_red_commit_brought_onto_a_branch_by_another_command_is_refused(
    kata: Path, route: str
) -> None:
    red, before = red_commit(kata), tip(kata)
    if route == "switch-C":
        done = git(kata, "switch", "-C", "main", red)
    elif route == "branch-f-detached":
        git(kata, "checkout", "-q", red)
        done = git(kata, "branch", "-f", "main", "HEAD")
    elif route == "worktree-add":
        done = git(kata, "worktree", "add", "-q", "-b", "w", str(kata.parent / "w"), red)
        assert git(kata, "rev-parse", "-q", "--verify", "refs/heads/w").returncode != 0
    elif route == "push-dot":
        git(kata, "checkout", "-q", "--detach")
        done = git(kata, "push", ".", f"{red}:refs/heads/main")
    elif route == "fetch-dot":
        git(kata, "update-ref", "refs/tags/r", red)
        done = git(kata, "fetch", "--update-head-ok", ".", "refs/tags/r:refs/heads/main")
    else:
        files, message = red_feature()
        stage(kata, files)
        git(kata, "stash", "-q")
        assert git(kata, "stash", "branch", "s").returncode == 0
        done = git(kata, "commit", "--no-verify", "-m", message)
        assert not has_red_test(kata, "refs/heads/s")
    refused(done, kata, before)


def test_a_commit_in_a_linked_worktree_with_no_verify_is_refused(kata: Path) -> None:
    other = kata.parent / "w"
    git(kata, "worktree", "add", "-q", "-b", "w", str(other))
    before = tip(other)
    files, message = red_feature()
    stage(other, files)
    done = git(other, "commit", "--no-verify", "-m", message)
    assert done.returncode != 0
    assert REFUSED in done.stderr
    assert tip(other) == before
    assert not has_red_test(kata, "refs/heads/w")


@pytest.mark.parametrize("source", ["bundle", "clone"])
def test_pulling_a_red_commit_from_a_path_is_judged(kata: Path, source: str) -> None:
    other = kata.parent / "other"
    subprocess.run(["git", "clone", "-q", str(kata), str(other)], check=True)
    files, message = red_feature()
    sneak(other, files, message)
    where = str(other)
    if source == "bundle":
        where = str(kata.parent / "red.bundle")
        git(other, "bundle", "create", where, "main")
    before = tip(kata)
    refused(git(kata, "pull", "-q", "--ff-only", where, "main"), kata, before)


def test_a_graft_replacement_is_no_way_round(kata: Path) -> None:
    red, before = red_commit(kata), tip(kata)
    assert git(kata, "replace", "--graft", before, red).returncode == 0
    done = git(kata, "commit", "--allow-empty", "--no-verify", "-m", "chore: nothing")
    assert "[replaced-objects]" in refused(done, kata, before)


# --- what git stores differs from what a hook accepted (already refused) ---


@pytest.mark.parametrize(
    ("first_line", "cleanup"),
    [
        ("# note", "verbatim"),
        ("# ------------------------ >8 ------------------------", "whitespace"),
    ],
)
def test_an_amend_whose_stored_message_gains_a_first_line_is_refused(
    kata: Path, first_line: str, cleanup: str
) -> None:
    files, message = green_feature()
    before = hooked_commit(kata, files, message)
    (kata.parent / "m").write_text(f"{first_line}\n{message}", encoding="utf-8")
    done = git(kata, "commit", "--amend", "--no-verify", f"--cleanup={cleanup}", "-F",
               str(kata.parent / "m"))  # fmt: skip
    assert done.returncode != 0
    assert "[prefixed]" in done.stderr, done.stderr
    assert tip(kata) == before


def test_a_green_tree_whose_type_breaks_a_rule_is_refused(kata: Path) -> None:
    before = tip(kata)
    stage(kata, {"src/calc/__init__.py": "def add(a: int, b: int) -> int:\n    return a + b + 0\n"})
    done = git(kata, "commit", "--no-verify", "-m", "test: tidy")
    assert done.returncode != 0
    assert "[type-rules]" in done.stderr
    assert tip(kata) == before


# --- routes the reference-transaction hook cannot see (caught at once, or open) ---


def test_head_pointed_at_a_tag_moves_no_branch_and_pre_push_refuses_it(kata: Path) -> None:
    remote = kata.parent / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    git(kata, "remote", "add", "origin", str(remote))
    assert git(kata, "push", "-q", "origin", "main").returncode == 0
    before = tip(kata)
    git(kata, "update-ref", "refs/tags/x", before)
    git(kata, "symbolic-ref", "HEAD", "refs/tags/x")
    assert commit_red(kata, None, "--no-verify").returncode == 0  # a tag is no branch
    assert tip(kata, "refs/heads/main") == before
    assert has_red_test(kata, "refs/tags/x")
    done = git(kata, "push", "origin", "refs/tags/x:refs/heads/main")
    assert done.returncode != 0
    assert "[green]" in done.stdout + done.stderr


def _symref_main_to_red(kata: Path) -> str:
    red = red_commit(kata)
    git(kata, "update-ref", "refs/tags/x", red)
    assert git(kata, "symbolic-ref", "refs/heads/main", "refs/tags/x").returncode == 0
    return red


def test_a_branch_made_a_symbolic_ref_to_a_red_tag_is_caught_after_the_fact(kata: Path) -> None:
    """git 2.39 runs no reference-transaction hook for `git symbolic-ref`: the agents' tip check
    reports the red tip at once and pre-push refuses to push it."""
    from tddhooks.policy.landing import landed_unjudged

    remote = kata.parent / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    git(kata, "remote", "add", "origin", str(remote))
    assert git(kata, "push", "-q", "origin", "main").returncode == 0
    state = kata / ".git" / "tddhooks"
    assert landed_unjudged(kata, state) == []
    red = _symref_main_to_red(kata)
    found = landed_unjudged(kata, state)
    assert [refusal.commit.sha for refusal in found] == [red]
    assert git(kata, "push", "origin", "main").returncode != 0  # git: not a branch
    done = git(kata, "push", "origin", f"{red}:refs/heads/main")
    assert done.returncode != 0
    assert "[green]" in done.stdout + done.stderr


@pytest.mark.xfail(
    strict=True,
    reason="git 2.39 runs no reference-transaction hook for `git symbolic-ref`: a branch made a "
    "symbolic ref to a red tag resolves to the red commit (caught by the agents' tip check and "
    "pre-push, see above)",
)
def test_a_branch_made_a_symbolic_ref_to_a_red_tag_is_refused_on_the_spot(kata: Path) -> None:
    _symref_main_to_red(kata)
    assert not has_red_test(kata)


@pytest.mark.xfail(
    strict=True,
    reason="semantics, not a route: a committed autouse fixture may monkeypatch the code under "
    "test; the tree's own tests then pass honestly and audit agrees",
)
def test_an_autouse_fixture_that_patches_the_code_under_test_keeps_the_tree_red(
    kata: Path,
) -> None:
    conftest = (
        "import pytest\n\n\n@pytest.fixture(autouse=True)\n"
        "def _fix(monkeypatch: pytest.MonkeyPatch) -> None:\n"
        '    monkeypatch.setattr("test_sub.add", lambda a, b: 5)\n'
    )
    before = tip(kata)
    refused(commit_red(kata, {"tests/conftest.py": conftest}), kata, before)


def test_a_commit_fetched_from_a_clone_is_trusted_by_default(kata: Path) -> None:
    """The documented limit of `policy.trust_remotes: true`: CI's audit judges what was pushed."""
    other = kata.parent / "other"
    subprocess.run(["git", "clone", "-q", str(kata), str(other)], check=True)
    files, message = red_feature()
    sneak(other, files, message)
    git(kata, "remote", "add", "o", str(other))
    git(kata, "fetch", "-q", "o")
    assert git(kata, "reset", "-q", "--hard", "o/main").returncode == 0
    assert has_red_test(kata)


# --- the gate's snapshot folder poisoned between runs (landed before the fix) ---


def _poisoned_snapshot(kata: Path, how: str) -> None:
    """After a green commit, change the gate's kept snapshot (in the user's cache folder, not
    under .git/) so that `add` passes the red test: a planted .pyc whose header matches the
    source, or an edited source the private index is told to ignore."""
    import glob
    import py_compile
    import struct

    hooked_commit(kata, *green_feature())
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    [snapshot] = [Path(p) for p in glob.glob(f"{cache}/tddhooks/snapshots/*/snapshot")]
    source = snapshot / "src" / "calc" / "__init__.py"
    evil = source.read_text(encoding="utf-8").replace("return a + b", "return a + abs(b)")
    facts = source.stat()
    if how == "pyc":
        planted = kata.parent / "evil.py"
        planted.write_text(evil, encoding="utf-8")
        tag = sys.implementation.cache_tag
        compiled = source.parent / "__pycache__" / f"__init__.{tag}.pyc"
        compiled.parent.mkdir(exist_ok=True)
        py_compile.compile(str(planted), cfile=str(compiled), dfile=str(source))
        data = bytearray(compiled.read_bytes())
        data[8:16] = struct.pack("<II", int(facts.st_mtime) & 0xFFFFFFFF, facts.st_size)
        compiled.write_bytes(bytes(data))
        return
    reader = snapshot.parent / "snapshot.git"
    if how == "reader-config":  # a filter driver in the gate's own git directory
        with (reader / "config").open("a", encoding="utf-8") as stream:
            stream.write('[filter "green"]\n\tsmudge = sed s/==\\\\ 5/==\\\\ -1/\n\tclean = cat\n')
        return
    if how == "reader-replace":  # a replacement ref in the gate's own git directory
        red_blob = hash_blob(kata, FAILING_TEST)
        green = hash_blob(kata, GREEN_OF_RED)
        (reader / "refs" / "replace").mkdir(parents=True, exist_ok=True)
        (reader / "refs" / "replace" / red_blob).write_text(green + "\n", encoding="utf-8")
        return
    source.write_text(evil, encoding="utf-8")
    env = {
        "GIT_DIR": str(snapshot.parent / "snapshot.git"),
        "GIT_INDEX_FILE": str(snapshot.parent / "snapshot.index"),
        "GIT_WORK_TREE": str(snapshot),
    }
    done = git(kata, "update-index", f"--{how}", "src/calc/__init__.py", env=env)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    "how", ["pyc", "skip-worktree", "assume-unchanged", "reader-config", "reader-replace"]
)
def test_a_poisoned_snapshot_folder_does_not_judge_the_next_tree(kata: Path, how: str) -> None:
    _poisoned_snapshot(kata, how)
    before = tip(kata)
    extra = {".gitattributes": "tests/test_sub.py filter=green\n"} if how == "reader-config" else {}
    text = refused(commit_red(kata, extra), kata, before)
    assert "failing tests: tests/test_sub.py::test_subtracts_" in text


# --- odd ref names and spellings (already refused, or no branch moves) ---


def test_update_ref_of_head_while_on_main_is_judged_as_a_move_of_main(kata: Path) -> None:
    red, before = red_commit(kata), tip(kata)
    assert REFUSED in refused(git(kata, "update-ref", "HEAD", red), kata, before)


def test_a_main_worktree_prefixed_branch_name_moves_no_branch(kata: Path) -> None:
    red, before = red_commit(kata), tip(kata)
    git(kata, "update-ref", "main-worktree/refs/heads/main", red)  # a pseudo-ref file, no branch
    assert tip(kata, "refs/heads/main") == before
    listing = git(kata, "for-each-ref", "--format=%(refname)", "refs/heads/").stdout.split()
    assert listing == ["refs/heads/main"]
    assert not has_red_test(kata)


def test_a_branch_written_into_packed_refs_is_reported_after_the_tool_call(kata: Path) -> None:
    """A direct write under .git/ (here packed-refs) skips every hook: the agents' tip check
    reports it at once."""
    from tddhooks.policy.landing import landed_unjudged

    state = kata / ".git" / "tddhooks"
    assert landed_unjudged(kata, state) == []
    red = red_commit(kata)
    git(kata, "pack-refs", "--all")
    packed = kata / ".git" / "packed-refs"
    old = tip(kata)
    packed.write_text(packed.read_text(encoding="utf-8").replace(old, red), encoding="utf-8")
    assert tip(kata, "refs/heads/main") == red
    assert [refusal.commit.sha for refusal in landed_unjudged(kata, state)] == [red]


def test_push_with_no_verify_skips_pre_push(kata: Path) -> None:
    """The documented limit of pre-push: `git push --no-verify` skips it (the agent guard refuses
    --no-verify; for a person, the server's CI `audit` is the authority)."""
    remote = kata.parent / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    red = red_commit(kata)
    refused_push = git(kata, "push", str(remote), f"{red}:refs/heads/main")
    assert refused_push.returncode != 0
    assert "[green]" in refused_push.stdout + refused_push.stderr
    assert git(kata, "push", "--no-verify", str(remote), f"{red}:refs/heads/main").returncode == 0
    assert has_red_test(remote)


# --- other ways to hand the commit hooks another tree (already refused) ---


def test_commit_only_of_an_intent_to_add_red_test_is_judged(kata: Path) -> None:
    files, message = red_feature()
    write(kata, files)
    git(kata, "add", "-N", "tests/test_sub.py")
    before = tip(kata)
    done = git(kata, "commit", "-m", message, "--", "tests/test_sub.py")
    assert "[green]" in refused(done, kata, before)


def test_commit_all_of_an_unstaged_red_edit_is_judged(kata: Path) -> None:
    before = tip(kata)
    test = kata / "tests" / "test_calc.py"
    test.write_text(test.read_text(encoding="utf-8").replace("== 5", "== 6"), encoding="utf-8")
    _, message = red_feature()
    done = git(
        kata, "commit", "-a", "-m", message.replace("tests/test_sub.py", "tests/test_calc.py")
    )
    text = done.stdout + done.stderr
    assert done.returncode != 0, text
    assert "[green]" in text
    assert tip(kata) == before


def test_a_top_level_tddhooks_module_in_the_tree_is_refused_as_shadowing(kata: Path) -> None:
    """It would answer for the gate's own pytest plugins (they were silently left out)."""
    files, message = green_feature()
    before = tip(kata)
    stage(kata, {**files, "tddhooks.py": "X = 1\n"})
    text = refused(git(kata, "commit", "-m", message), kata, before)
    assert "shadows the module tddhooks" in text


def test_a_test_package_that_patches_runtest_cannot_hide_behind_a_tddhooks_module(
    kata: Path,
) -> None:
    """`tests/__init__.py` (no conftest, so no runner-module rules) patches pytest's runtest; the
    gate's own plugin fails such tests, and a top-level `tddhooks.py` used to switch it off."""
    patch = "import _pytest.python\n\n_pytest.python.Function.runtest = lambda self: None\n"
    before = tip(kata)
    extra = {"tests/__init__.py": patch, "tddhooks.py": "X = 1\n"}
    assert "[green]" in refused(commit_red(kata, extra), kata, before)
