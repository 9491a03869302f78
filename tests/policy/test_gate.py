"""The gate's mechanics with cheap configured commands (tdd.yaml `ci:` may name any command);
the real cargo runs in tests/hooks/."""

from __future__ import annotations

import os
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from support.hookkit import processes_matching
from support.repo import git, write_files

from tddhooks.errors import EnvironmentProblem
from tddhooks.policy.gate import (
    cached_green_lines,
    memoized_key,
    run_gate,
    staged_tree_verdict,
    tree_verdict,
)
from tddhooks.policy.settings import PolicySettings
from tddhooks.runners import get_runner

MakeRepo = Callable[..., Path]
PASSING = (
    'echo "running 1 test"; echo "test adds ... ok"; echo; '
    'echo "test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out"'
)
FILES = {"src/lib.rs": "pub fn add() {}\n", "tests/add.rs": "#[test]\nfn adds() {}\n"}


def _settings(log: Path, *, fmt: str = "true", lint: str = "true", test: str = PASSING,
              timeout_s: float = 60) -> PolicySettings:  # fmt: skip
    """Commands that append their name to `log`, so a test can count what really ran."""

    def logged(name: str, body: str) -> tuple[str, ...]:
        return ("sh", "-c", f"echo {name} >> '{log}'; {body}")

    return PolicySettings(
        language="rust",
        test_paths=("tests/**",),
        fmt_check=logged("fmt", fmt),
        lint=logged("lint", lint),
        test=logged("test", test),
        timeout_s=timeout_s,
    )


def _runs(log: Path) -> list[str]:
    return log.read_text(encoding="utf-8").split() if log.exists() else []


def _tree(repo: Path) -> str:
    return git(repo, "write-tree").stdout.strip()


def test_run_gate_runs_every_step_even_after_a_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_files(tmp_path / "work", {**FILES, "target/gen.rs": "#[test]\nfn generated() {}\n"})
    monkeypatch.setenv("GIT_INDEX_FILE", "/leaked/index")  # as inside a hook
    log = tmp_path / "log"
    settings = _settings(
        log, fmt="echo 'Diff in src/lib.rs'; exit 1", test=f"env > '{tmp_path}/env'; {PASSING}"
    )
    verdict = run_gate(tmp_path / "work", settings, get_runner("rust"), tmp_path / "target")

    assert sorted(_runs(log)) == ["fmt", "lint", "test"]
    assert not verdict.green
    assert [(s.name, s.returncode) for s in verdict.steps] == [("fmt", 1), ("lint", 0), ("test", 0)]
    assert "Diff in src/lib.rs" in verdict.steps[0].output_tail
    assert verdict.report.passed == 1
    assert verdict.test_names == ["tests/add.rs::adds"]  # build directories are not sources
    assert verdict.tree == ""
    env = (tmp_path / "env").read_text(encoding="utf-8")
    assert "GIT_INDEX_FILE" not in env
    assert "CARGO_TERM_COLOR=never" in env
    assert "CARGO_NET_RETRY=0" in env  # offline, a fetch fails at once instead of retrying


def test_an_offline_fetch_stops_the_gate_at_the_step_that_met_it(tmp_path: Path) -> None:
    """The next step would only wait on the same network again: it never starts."""
    log = tmp_path / "log"
    offline = (
        "echo 'error: failed to get `itertools` as a dependency of package `a v0.1.0`' >&2; "
        "exit 101"
    )
    settings = _settings(log, lint=offline)
    with pytest.raises(EnvironmentProblem, match="failed to get `itertools`") as info:
        run_gate(tmp_path, settings, get_runner("rust"), None)
    assert "cargo fetch" in (info.value.fix or "")
    assert "test" not in _runs(log)
    assert "lint" in _runs(log)


def test_a_missing_tool_is_an_environment_problem(tmp_path: Path) -> None:
    settings = _settings(tmp_path / "log")._replace(lint=("no-such-linter-ß", "--strict"))
    with pytest.raises(EnvironmentProblem, match="lint step `no-such-linter-ß --strict`") as info:
        run_gate(tmp_path, settings, get_runner("rust"), None)
    assert info.value.fix is not None
    assert "tdd.yaml" in info.value.fix


def test_a_python_without_ruff_is_told_to_install_it_with_its_own_pip(tmp_path: Path) -> None:
    """The fix names the interpreter the gate ran, not a bare `pip` from some other PATH entry
    (a newcomer's `.venv/bin/tddhooks` is often not activated)."""
    subprocess.run(  # a real, empty Python environment beside the tree: no ruff in it
        ["python3", "-m", "venv", "--without-pip", str(tmp_path / "bare venv")], check=True
    )
    python = str(tmp_path / "bare venv" / "bin" / "python")
    settings = _settings(tmp_path / "log")._replace(lint=(python, "-m", "ruff", "check", "."))
    tree = tmp_path / "tree"  # the venv's links lead out of the folder: never inside the tree
    tree.mkdir()
    with pytest.raises(EnvironmentProblem, match="No module named ruff") as info:
        run_gate(tree, settings, get_runner("python"), None)
    assert info.value.fix == (
        f"install them into the Python the gate runs: `'{python}' -m pip install pytest ruff`"
    )


@pytest.mark.cargo
def test_a_hung_step_is_killed_with_its_children_and_never_cached(make_repo: MakeRepo) -> None:
    repo = make_repo(FILES)
    log = repo / ".git" / "log"
    marker = f"{os.getpid()}.424242"  # unique `sleep` argument to find leftovers by
    settings = _settings(log, test=f"sleep {marker} & sleep {marker}", timeout_s=1)

    verdict = tree_verdict(repo, _tree(repo), settings)

    assert verdict.timed_out
    assert not verdict.green
    assert "timed out" in verdict.verification_lines()[0]
    deadline = time.monotonic() + 5
    while processes_matching(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes_matching(marker) == []
    tree_verdict(repo, _tree(repo), settings)
    assert _runs(log).count("test") == 2  # the timed-out verdict was not reused


@pytest.mark.cargo
def test_verdicts_are_cached_by_tree_red_ones_too(make_repo: MakeRepo) -> None:
    repo = make_repo(FILES)
    log = repo / ".git" / "log"
    green_settings = _settings(log)
    tree = _tree(repo)

    first = tree_verdict(repo, tree, green_settings)
    second = tree_verdict(repo, tree, green_settings)

    assert sorted(_runs(log)) == ["fmt", "lint", "test"]
    assert (first.green, first.cached, second.green, second.cached) == (True, False, True, True)
    assert second.tree == tree
    assert second.key == first.key
    assert cached_green_lines(repo, tree, green_settings) == first.verification_lines()
    tree_verdict(repo, tree, green_settings, use_cache=False)
    assert len(_runs(log)) == 6

    red_settings = _settings(log, test="exit 101")  # other commands: another key
    red = tree_verdict(repo, tree, red_settings)
    again = tree_verdict(repo, tree, red_settings)
    assert (red.green, again.green, again.cached) == (False, False, True)
    assert len(_runs(log)) == 9
    assert cached_green_lines(repo, tree, red_settings) is None
    assert cached_green_lines(repo, "f" * 40, green_settings) is None


@pytest.mark.cargo
def test_the_gate_judges_the_index_not_the_work_tree(make_repo: MakeRepo) -> None:
    repo = make_repo(FILES)
    write_files(repo, {"src/lib.rs": "staged\n"})
    git(repo, "add", "src/lib.rs")
    write_files(repo, {"src/lib.rs": "unstaged\n", "src/untracked.rs": "x\n"})
    check = 'test "$(cat src/lib.rs)" = staged && test ! -e src/untracked.rs || exit 1'
    settings = _settings(repo / ".git" / "log", test=f"{check}; {PASSING}")
    assert staged_tree_verdict(repo, settings).green
    # a partial commit's temporary index holds other content: that is what gets judged
    other = repo / ".git" / "partial-index"
    env = {**os.environ, "GIT_INDEX_FILE": str(other)}
    subprocess.run(["git", "read-tree", "HEAD"], cwd=repo, env=env, check=True)
    assert not staged_tree_verdict(repo, settings, index_file=str(other)).green
    assert (repo / "src/lib.rs").read_text(encoding="utf-8") == "unstaged\n"


@pytest.mark.cargo
def test_the_key_memo_follows_commands_and_toolchain_selection(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo(FILES)
    state = repo / ".git" / "tddhooks"
    settings = _settings(repo / ".git" / "log")
    assert memoized_key(repo, state, settings) is None
    verdict = tree_verdict(repo, _tree(repo), settings)
    assert memoized_key(repo, state, settings) == verdict.key
    assert memoized_key(repo, state, settings._replace(lint=("x",))) is None
    monkeypatch.setenv("RUSTUP_TOOLCHAIN", "nightly")
    assert memoized_key(repo, state, settings) is None
    monkeypatch.delenv("RUSTUP_TOOLCHAIN")
    assert memoized_key(repo, state, settings) == verdict.key
    write_files(repo, {"rust-toolchain.toml": '[toolchain]\nchannel = "stable"\n'})
    assert memoized_key(repo, state, settings) is None


@pytest.mark.cargo
def test_concurrent_gates_on_one_tree_run_once(make_repo: MakeRepo) -> None:
    repo = make_repo(FILES)
    log = repo / ".git" / "log"
    settings = _settings(log, test=f"sleep 1; {PASSING}")
    tree = _tree(repo)
    results = []
    threads = [
        threading.Thread(target=lambda: results.append(tree_verdict(repo, tree, settings)))
        for _ in range(2)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(_runs(log)) == ["fmt", "lint", "test"]
    assert sorted(v.cached for v in results) == [False, True]


def test_the_runner_decides_what_the_test_exit_code_means(tmp_path: Path) -> None:
    settings = _settings(
        tmp_path / "log", test="echo '====== no tests ran in 0.01s ======'; exit 5"
    )._replace(
        language="python",
    )
    verdict = run_gate(tmp_path, settings, get_runner("python"), None)
    assert verdict.green  # pytest's exit 5 on a fresh scaffold: nothing collected, nothing red
    assert verdict.step("test") is not None
    assert verdict.step("test").returncode == 0  # type: ignore[union-attr]


def test_the_stamps_which_finds_what_shutil_which_finds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """policy/stored.which (the verdict key's toolchain stamp) agrees with shutil.which: the
    first executable file on PATH; not a folder, not a file without the x bit."""
    import os
    import shutil

    from tddhooks.policy.stored import which

    first, second, folder = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    for place in (first, second, folder / "tool"):
        place.mkdir(parents=True)
    (first / "tool").write_text("#!/bin/sh\n")  # not executable
    (second / "tool").write_text("#!/bin/sh\n")
    (second / "tool").chmod(0o755)
    monkeypatch.setenv("PATH", os.pathsep.join(str(place) for place in (folder, first, second)))

    assert which("tool") == shutil.which("tool") == str(second / "tool")
    assert which("missing") is None
    assert which(str(second / "tool")) == str(second / "tool")
