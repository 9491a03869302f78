"""Red team: the committer's environment cannot judge the tree (issue 34, item 5).

A pytest plugin named in `PYTEST_PLUGINS` or `PYTEST_ADDOPTS`, a cargo runner named in a
`CARGO_TARGET_<triple>_RUNNER` variable: each turns a red tree green if the gate passes the
committer's environment on. The gate builds its environment from an allowlist plus the parent
commit's `gate.env` (policy/gate_env.py), and what it lets through is part of the verdict key.
Real git, the real hooks, real pytest and cargo."""

from __future__ import annotations

import platform
import stat
from pathlib import Path

import pytest
from support.gatekit import (
    RED_TEST,
    commit,
    crate_of,
    git,
    head,
    landed,
    message,
    python_kata_fixture,
    refused,
    rust_kata,
    unhooked_commit,
    write,
)

from tddhooks.errors import ConfigError
from tddhooks.policy.gate_env import fingerprint, gate_environment

__all__ = ["python_kata_fixture"]  # the `kata` fixture

GREENPLUG = """\
import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    outcome.get_result().outcome = "passed"
"""


@pytest.fixture
def plugin_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "greenplug.py").write_text(GREENPLUG, encoding="utf-8")
    return folder


@pytest.mark.pygate
@pytest.mark.parametrize(
    "variables",
    [
        {"PYTEST_PLUGINS": "greenplug"},
        {"PYTEST_ADDOPTS": "-p greenplug"},
        {"PYTHONSTARTUP": "unused", "PYTEST_ADDOPTS": "-p greenplug --no-header"},
    ],
    ids=["PYTEST_PLUGINS", "PYTEST_ADDOPTS", "PYTEST_ADDOPTS-more"],
)
def test_a_plugin_in_the_committers_environment_does_not_reach_the_gate(
    kata: Path, plugin_dir: Path, variables: dict[str, str]
) -> None:
    write(kata, {"tests/test_one.py": RED_TEST})
    git(kata, "add", "-A")
    before = head(kata)
    env = {"PYTHONPATH": str(plugin_dir), **variables}

    text = refused(commit(kata, message("test", "one", "Tester"), env=env), "[green]", before, kata)

    assert "test_one" in text
    assert "[cached]" not in text


@pytest.mark.pygate
def test_the_plugin_is_real_a_policy_that_names_its_variables_lets_it_in(
    kata: Path, plugin_dir: Path
) -> None:
    # the same plugin, named by the parent's tdd.yaml: the gate takes the variables, and the
    # plugin makes the red test pass (so the refusals above are the allowlist's doing)
    yaml = kata / "tdd.yaml"
    yaml.write_text(
        yaml.read_text(encoding="utf-8").replace(
            "  env: []", "  env: [PYTHONPATH, PYTEST_PLUGINS]"
        ),
        encoding="utf-8",
    )
    git(kata, "add", "tdd.yaml")
    unhooked_commit(kata, "chore: the gate takes the plugin's variables\n")
    write(kata, {"tests/test_one.py": RED_TEST})
    git(kata, "add", "-A")
    env = {"PYTHONPATH": str(plugin_dir), "PYTEST_PLUGINS": "greenplug"}

    before = head(kata)
    landed(commit(kata, message("test", "one", "Tester"), env=env), before, kata)


@pytest.mark.pygate
def test_a_verdict_reached_under_one_environment_is_not_reused_under_another(
    kata: Path,
) -> None:
    yaml = kata / "tdd.yaml"
    yaml.write_text(
        yaml.read_text(encoding="utf-8").replace("  env: []", "  env: [KATA_MODE]"),
        encoding="utf-8",
    )
    git(kata, "add", "tdd.yaml")
    unhooked_commit(kata, "chore: the gate takes KATA_MODE\n")
    mode = (
        'import os\n\n\ndef test_mode() -> None:\n    assert os.environ.get("KATA_MODE") == "on"\n'
    )
    write(kata, {"tests/test_mode.py": mode})
    git(kata, "add", "-A")
    before = head(kata)
    landed(commit(kata, message("test", "mode"), env={"KATA_MODE": "on"}), before, kata)
    git(kata, "reset", "-q", "--soft", "HEAD~1")

    text = refused(
        commit(kata, message("test", "mode"), env={"KATA_MODE": "off"}), "[green]", before, kata
    )

    assert "test_mode" in text


FAKE_RUNNER = """#!/bin/sh
printf '\\nrunning 2 tests\\ntest empty_is_zero ... ok\\ntest red_one ... ok\\n\\n'
printf 'test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\\n\\n'
"""
RED_RUST = """#[test]
fn empty_is_zero() {
    assert_eq!(CRATE::add(""), 0);
}

#[test]
fn red_one() {
    assert_eq!(CRATE::add("1"), 1);
}
"""


@pytest.mark.cargo
def test_a_cargo_runner_in_the_committers_environment_does_not_reach_the_gate(
    tmp_path: Path, session_dir: Path
) -> None:
    repo = rust_kata(tmp_path, session_dir)
    crate = crate_of(repo)
    code = "//! kata\npub fn add(_text: &str) -> i32 {\n    0\n}\n"
    write(repo, {"tests/add.rs": RED_RUST.replace("CRATE", crate), "src/lib.rs": code})
    git(repo, "add", "-A")
    runner = tmp_path / "fake-runner.sh"
    runner.write_text(FAKE_RUNNER, encoding="utf-8")
    runner.chmod(runner.stat().st_mode | stat.S_IXUSR)
    triple = f"{platform.machine()}_UNKNOWN_LINUX_GNU".upper()
    env = {f"CARGO_TARGET_{triple}_RUNNER": str(runner), "RUSTC_WRAPPER": "", "RUSTFLAGS": ""}
    before = head(repo)

    text = refused(commit(repo, message("feat", "one"), env=env), "[green]", before, repo)

    assert "red_one" in text


def test_the_gate_environment_is_an_allowlist() -> None:
    committer = {
        "PATH": "/usr/bin",
        "HOME": "/home/p",
        "LC_ALL": "C.UTF-8",
        "CARGO_HOME": "/home/p/.cargo",
        "RUSTUP_HOME": "/home/p/.rustup",
        "TERM": "xterm-256color",
        "PYTEST_PLUGINS": "greenplug",
        "PYTEST_ADDOPTS": "-p greenplug",
        "PYTHONPATH": "/evil",
        "PYTHONSTARTUP": "/evil/start.py",
        "PYTHONHOME": "/evil",
        "RUSTFLAGS": "--cfg skip",
        "RUSTDOCFLAGS": "--cfg skip",
        "RUSTC_WRAPPER": "/evil/wrap",
        "RUSTC": "/evil/rustc",
        "CARGO_BUILD_RUSTC_WRAPPER": "/evil/wrap",
        "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER": "/evil/run",
        "CARGO_TARGET_DIR": "/shared/target",
        "LD_PRELOAD": "/evil/lib.so",
        "LD_LIBRARY_PATH": "/evil",
        "GIT_INDEX_FILE": "/tmp/index",
        "KATA_MODE": "on",
    }

    env = gate_environment((), committer)

    assert env == {
        "PATH": "/usr/bin",
        "HOME": "/home/p",
        "LC_ALL": "C.UTF-8",
        "CARGO_HOME": "/home/p/.cargo",
        "RUSTUP_HOME": "/home/p/.rustup",
        "TERM": "dumb",
        "NO_COLOR": "1",
    }
    assert gate_environment(("KATA_MODE",), committer)["KATA_MODE"] == "on"
    assert fingerprint((), committer) != fingerprint((), {**committer, "LC_ALL": "C"})
    assert fingerprint((), committer) == fingerprint((), {**committer, "PATH": "/venv/bin"})
    assert fingerprint(("KATA_MODE",), committer) != fingerprint(
        ("KATA_MODE",), {**committer, "KATA_MODE": "off"}
    )


@pytest.mark.parametrize(
    ("yaml", "said"),
    [
        ("gate:\n  env: [OPENAI_API_KEY]\n", "holds a key"),
        ("gate:\n  env: [LLMCRED]\nllm:\n  api_key_env: LLMCRED\n", "holds the key"),
        ("gate:\n  env: ['A B']\n", "is not an environment variable name"),
        ("gate:\n  envs: []\n", "unknown field 'gate.envs'"),
        ("python:\n  runner_hooks: maybe\n", "python.runner_hooks"),
    ],
)
def test_gate_settings_are_checked(yaml: str, said: str) -> None:
    from tddhooks.config import parse_config

    with pytest.raises(ConfigError) as caught:
        parse_config(yaml, Path("tdd.yaml"))

    assert said in str(caught.value)
