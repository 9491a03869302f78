"""`tddhooks audit --jobs N` and audit's own verdict store: the same verdict for every commit as a
sequential, fresh audit, on real histories (Python: ruff and pytest; Rust: real cargo)."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from support.pykata import FILES, commit, messy_history
from support.repo import git

from tddhooks import output
from tddhooks.cli import cli

MakeRepo = Callable[..., Path]


@pytest.fixture(autouse=True)
def wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "250")
    output.use_streams()


def audit(repo: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["audit", "-C", str(repo), *args], catch_exceptions=False)


def report(repo: Path, *args: str) -> dict[str, Any]:
    result = audit(repo, "--json", *args)
    assert result.exit_code in (0, 1), result.output
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def per_commit(document: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    """Every violation as (commit, rule, kind, message): the verdict of each commit."""
    return [(v["commit"], v["rule"], v["kind"], v["message"]) for v in document["violations"]]


@pytest.mark.pygate
def test_a_concurrent_audit_judges_every_commit_as_a_sequential_one(make_repo: MakeRepo) -> None:
    repo, shas = messy_history(make_repo)
    sequential = report(repo, "--jobs", "1", "--fresh")
    concurrent = report(repo, "--jobs", "3", "--fresh")
    assert per_commit(concurrent) == per_commit(sequential)
    assert concurrent["trees_judged"] == sequential["trees_judged"]
    assert concurrent["trees_reused"] == sequential["trees_reused"]
    kinds = {(commit, kind) for commit, rule, kind, _ in per_commit(concurrent) if rule == "green"}
    assert (shas["lint"], "lint/format only") in kinds
    assert (shas["red"], "tests fail") in kinds


@pytest.mark.pygate
def test_a_second_audit_reads_its_own_store_and_fresh_ignores_it(make_repo: MakeRepo) -> None:
    repo, _shas = messy_history(make_repo)
    first = report(repo, "--jobs", "2")
    assert first["trees_from_store"] == 0
    again = report(repo, "--jobs", "2")
    assert again["trees_from_store"] == again["trees_judged"] > 0
    assert per_commit(again) == per_commit(first)
    assert "from earlier audits; --fresh re-runs them" in audit(repo).output
    fresh = report(repo, "--fresh")
    assert fresh["trees_from_store"] == 0
    assert per_commit(fresh) == per_commit(first)


@pytest.mark.pygate
def test_the_store_is_outside_the_repository_and_private(make_repo: MakeRepo) -> None:
    from tddhooks.commands.audit_gate import STORE
    from tddhooks.policy.snapshot import private_dir

    repo, _shas = messy_history(make_repo)
    report(repo)
    store = private_dir(repo) / STORE
    assert any(store.glob("*.json"))
    assert not store.resolve().is_relative_to(repo.resolve())
    assert stat.S_IMODE(os.stat(store).st_mode) == 0o700


@pytest.mark.pygate
def test_a_verdict_in_the_hooks_cache_is_never_read(make_repo: MakeRepo) -> None:
    """The hooks' cache is writable by anything that can write the repository: a forged green
    verdict there under audit's own key changes nothing."""
    from tddhooks.commands.audit_gate import AuditGate
    from tddhooks.policy.gate import tree_verdict, verdicts_dir
    from tddhooks.policy.settings import load_settings
    from tddhooks.policy.verdicts import VerdictStore

    repo, shas = messy_history(make_repo)
    settings = load_settings(repo)
    tree = git(repo, "rev-parse", f"{shas['red']}^{{tree}}").stdout.strip()
    red = tree_verdict(repo, tree, settings, use_cache=False)
    with AuditGate(repo, jobs=1, reuse=True) as gate:
        audit_key = gate._key(settings)
    hooks = VerdictStore(verdicts_dir(repo / ".git" / "tddhooks"))
    for key in (audit_key, red.key):
        hooks.put(red.model_copy(update={"green": True, "key": key}))
    violations = per_commit(report(repo))
    assert (shas["red"], "green") in {(commit, rule) for commit, rule, _, _ in violations}


def test_the_store_key_follows_the_commands_and_the_tools(
    make_repo: MakeRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tddhooks.commands.audit_gate import AuditGate
    from tddhooks.policy.settings import load_settings

    repo = make_repo(FILES)
    settings = load_settings(repo)
    other = settings._replace(test=(*settings.test, "-x"))
    with AuditGate(repo, jobs=1, reuse=True) as gate:
        before = gate._key(settings)
        assert gate._key(other) != before
    # another ruff first on PATH (an upgrade, a venv) is another toolchain
    shim = tmp_path / "bin" / "ruff"
    shim.parent.mkdir()
    shim.write_text('#!/bin/sh\nexec python -m ruff "$@"\n')
    shim.chmod(0o755)
    monkeypatch.setenv("PATH", f"{shim.parent}{os.pathsep}{os.environ['PATH']}")
    with AuditGate(repo, jobs=1, reuse=True) as gate:
        assert gate._key(settings) != before


@pytest.mark.pygate
def test_a_missing_tool_stops_every_lane_with_exit_3(make_repo: MakeRepo) -> None:
    yaml = "language: python\nci:\n  test_cmd: [no-such-test-tool-4711]\n"
    repo = make_repo({**FILES, "tdd.yaml": yaml})
    for number in range(4):
        commit(repo, {"README.md": f"{number}\n"}, f"docs: readme {number}")
    result = audit(repo, "--jobs", "2")
    assert result.exit_code == 3, result.output
    assert "no-such-test-tool-4711" in result.output


@pytest.mark.parametrize("jobs", ["0", "99"])
def test_jobs_out_of_range_is_a_usage_error(make_repo: MakeRepo, jobs: str) -> None:
    repo = make_repo(FILES)
    result = audit(repo, "--jobs", jobs)
    assert result.exit_code == 2
    assert f"--jobs {jobs}" in result.output


@pytest.mark.cargo
def test_a_concurrent_audit_of_a_rust_history_matches_the_sequential_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The benchmark's kata shapes (feat, refactor, red test, clippy-only red, revert pairs) on
    real cargo, each lane in its own snapshot and target folder (no shared CARGO_TARGET_DIR:
    with one, a lane ran the other lane's stale test binary and called a green tree red)."""
    from bench.bench_audit import build_history

    monkeypatch.delenv("CARGO_TARGET_DIR", raising=False)
    repo = build_history(tmp_path, commits=12)
    sequential = report(repo, "--jobs", "1", "--fresh")
    concurrent = report(repo, "--jobs", "2", "--fresh")
    assert per_commit(concurrent) == per_commit(sequential)
    kinds = {kind for _, rule, kind, _ in per_commit(sequential) if rule == "green"}
    assert kinds == {"lint/format only"}, per_commit(sequential)  # fmt, then clippy findings
    assert len(per_commit(sequential)) >= 5


@pytest.mark.pygate
def test_a_python_import_error_is_worded_as_one(make_repo: MakeRepo) -> None:
    """pytest's ModuleNotFoundError in collection: `does not import`, never `does not compile`,
    in the audit's kind, the gate's line and the onboarding diagnosis."""
    from tddhooks.policy.diagnosis import diagnose_head

    repo = make_repo(FILES)
    broken = (
        "from calc.missing import sub\n\n\ndef test_sub() -> None:\n    assert sub(3, 1) == 2\n"
    )
    red = commit(repo, {"tests/test_sub.py": broken}, "docs: a test that cannot import")
    document = report(repo)
    green = [v for v in document["violations"] if v["rule"] == "green"]
    assert [(v["commit"], v["kind"]) for v in green] == [(red, "does not import")]
    assert "No module named 'calc.missing'" in green[0]["message"]
    assert "compile" not in green[0]["message"]
    found = diagnose_head(repo)
    assert found is not None
    assert found.state == "does-not-import"
    assert "pytest cannot import the tests" in found.summary
    assert "ModuleNotFoundError" in "\n".join(found.details)
    assert "compile" not in found.summary + found.first_commit


@pytest.mark.cargo
def test_a_user_cargo_target_dir_still_gives_every_lane_its_own_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """CARGO_TARGET_DIR set: the lanes still build in their own folders (runners/rust.py `env`),
    so they run at once, agree with one lane, and build nothing in the user's folder."""
    from bench.bench_audit import build_history

    user = tmp_path / "user-target"
    monkeypatch.setenv("CARGO_TARGET_DIR", str(user))
    repo = build_history(tmp_path, commits=4)
    sequential = report(repo, "--jobs", "1", "--fresh")
    result = audit(repo, "--jobs", "2", "--fresh")
    assert "one tree at a time" not in result.output
    assert result.exit_code == 1  # the history has a fmt-only red commit
    assert per_commit(report(repo, "--jobs", "2", "--fresh")) == per_commit(sequential)
    assert not user.exists()


def test_every_snapshot_kind_builds_into_its_own_target_folder(make_repo: MakeRepo) -> None:
    from tddhooks.commands.audit_gate import lane_name
    from tddhooks.policy.snapshot import gate_dirs

    repo = make_repo(FILES)
    kinds = ["snapshot", *(lane_name(number) for number in range(3))]
    targets = [gate_dirs(repo, kind)[1] for kind in kinds]
    assert len(set(targets)) == len(kinds)
    assert [gate_dirs(repo, kind)[0].name for kind in kinds] == kinds


def test_the_default_lanes_follow_the_usable_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    from tddhooks.commands.audit_gate import default_jobs

    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0}, raising=False)
    assert default_jobs() == 1
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: set(range(64)), raising=False)
    assert default_jobs() == 4
