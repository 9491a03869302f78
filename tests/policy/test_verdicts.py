"""Verdicts: the lines they print, the store on disk, and what the cache key depends on."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import cast

import pytest

from tddhooks.policy.gate import VERIFICATION_FIELD, verdict_file
from tddhooks.policy.settings import PolicySettings
from tddhooks.policy.verdicts import (
    StepOutcome,
    Verdict,
    VerdictStore,
    command_label,
    verdict_key,
)
from tddhooks.runners.base import Runner, TestReport

FMT = ["cargo", "fmt", "--all", "--", "--check"]
LINT = ["cargo", "clippy", "--all-targets", "--", "-D", "warnings"]
TEST = ["cargo", "test", "--all"]
TREE = "1" * 40


def _step(name: str, cmd: list[str], returncode: int = 0, *, output: str = "",
          timed_out: bool = False) -> StepOutcome:  # fmt: skip
    return StepOutcome(name=name, cmd=cmd, returncode=returncode, timed_out=timed_out,
                       duration_s=3.2, output_tail=output)  # fmt: skip


def _verdict(*steps: StepOutcome, report: TestReport | None = None, tree: str = TREE) -> Verdict:
    report = report or TestReport(passed=7)
    green = all(step.ok for step in steps) and report.green
    return Verdict(tree=tree, key="k" * 20, green=green, steps=list(steps), report=report,
                   test_names=["tests/roman.rs::ñ"], duration_s=9.6, created_at=1.0)  # fmt: skip


@pytest.mark.parametrize(
    ("cmd", "full", "label"),
    [
        (TEST, True, "cargo test"),
        (LINT, False, "clippy"),
        (["cargo", "+nightly", "clippy"], False, "clippy"),
        (["pytest", "-q"], True, "pytest"),
        (["python", "-m", "pytest", "-q"], True, "pytest"),
        (["uv", "run", "ruff", "check", "."], False, "ruff"),
        (["/usr/local/bin/ruff", "check"], False, "ruff"),
        (["cargo"], False, "cargo"),
        ([], False, ""),
        (["prüfer", "--alles"], True, "prüfer"),
    ],
)
def test_command_label(cmd: list[str], full: bool, label: str) -> None:
    assert command_label(cmd, full=full) == label


@pytest.mark.parametrize(
    ("steps", "report", "line"),
    [
        (
            [_step("fmt", FMT), _step("lint", LINT), _step("test", TEST)],
            TestReport(passed=7),
            "cargo test: 7 passed, 0 failed; clippy clean; fmt clean",
        ),
        (
            [_step("fmt", FMT, 1), _step("lint", LINT, 101), _step("test", TEST, 101)],
            TestReport(passed=6, failed=1, ignored=2, exit_code=101),
            "cargo test: 6 passed, 1 failed, 2 ignored; clippy failed (exit 101); "
            "fmt failed (exit 1)",
        ),
        (
            [_step("fmt", FMT), _step("lint", LINT), _step("test", TEST, 124, timed_out=True)],
            TestReport(timed_out=True, exit_code=124),
            "cargo test: timed out after 3s; clippy clean; fmt clean",
        ),
        (
            [_step("test", ["pytest"], 2)],
            TestReport(exit_code=2),
            "pytest: 0 passed, 0 failed (exit 2)",
        ),
        ([], TestReport(), None),
    ],
)
def test_verification_lines(steps: list[StepOutcome], report: TestReport, line: str | None) -> None:
    assert _verdict(*steps, report=report).verification_lines() == ([line] if line else [])


def test_failure_excerpt_names_failing_tests_and_skips_progress_noise() -> None:
    output = (
        "   Compiling kata v0.1.0 (/snap)\n    Finished `test` profile\n"
        "     Running tests/roman.rs (target/debug/deps/roman-1)\n\nrunning 2 tests\n"
        "test converts_i ... ok\ntest converts_ñ ... FAILED\n\nfailures:\n\n"
        "---- converts_ñ stdout ----\nassertion `left == right` failed\n  left: 0\n right: 1\n"
    )
    report = TestReport(passed=1, failed=1, failing_tests=["converts_ñ"], exit_code=101)
    verdict = _verdict(
        _step("fmt", FMT), _step("lint", LINT, 101, output="error: unused variable: `x`"),
        _step("test", TEST, 101, output=output), report=report,
    )  # fmt: skip
    excerpt = verdict.failure_excerpt().splitlines()
    assert excerpt[0] == "[test] cargo test --all: failed (exit 101)"
    assert excerpt[1] == "failing tests: converts_ñ"
    assert "---- converts_ñ stdout ----" in excerpt
    assert not any(
        line.lstrip().startswith(("Compiling", "Finished", "Running")) for line in excerpt
    )
    assert "test converts_i ... ok" not in excerpt
    assert "error: unused variable: `x`" in excerpt  # lint failures follow the test failure
    assert len(verdict.failure_excerpt(lines=3).splitlines()) == 3
    green = _verdict(_step("test", TEST))
    assert green.green
    assert green.failure_excerpt() == ""


def test_failure_excerpt_prefers_the_reports_compile_errors() -> None:
    report = TestReport(compile_errors=["error[E0425]: cannot find function `roman`"],
                        exit_code=101)  # fmt: skip
    verdict = _verdict(_step("test", TEST, 101, output="lots of noise"), report=report)
    assert verdict.failure_excerpt().splitlines()[1:] == [
        "error[E0425]: cannot find function `roman`"
    ]


def test_store_round_trip_marks_cached(tmp_path: Path) -> None:
    store = VerdictStore(tmp_path / "verdicts")
    verdict = _verdict(_step("test", TEST))
    assert store.get(TREE, verdict.key) is None
    store.put(verdict)
    loaded = store.get(TREE, verdict.key)
    assert loaded is not None
    assert loaded.cached
    assert loaded == verdict.model_copy(update={"cached": True})
    path = verdict_file(tmp_path / "verdicts", TREE, verdict.key)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert "cached" not in data
    assert data[VERIFICATION_FIELD] == verdict.verification_lines()
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary file left


def test_red_verdicts_are_stored_timed_out_ones_are_not(tmp_path: Path) -> None:
    store = VerdictStore(tmp_path)
    red = _verdict(_step("test", TEST, 101), report=TestReport(failed=1, exit_code=101))
    store.put(red)
    loaded = store.get(TREE, red.key)
    assert loaded is not None
    assert not loaded.green
    hung = _verdict(_step("test", TEST, 124, timed_out=True), tree="2" * 40)
    store.put(hung)
    assert store.get("2" * 40, hung.key) is None


def test_store_ignores_unreadable_or_mismatched_files(tmp_path: Path) -> None:
    store = VerdictStore(tmp_path)
    verdict = _verdict(_step("test", TEST))
    path = verdict_file(tmp_path, TREE, verdict.key)
    path.write_text("{truncated", encoding="utf-8")
    assert store.get(TREE, verdict.key) is None
    store.put(verdict)
    other = "3" * 40
    verdict_file(tmp_path, other, verdict.key).write_text(path.read_text(encoding="utf-8"))
    assert store.get(other, verdict.key) is None  # the file claims another tree


@dataclasses.dataclass
class _Toolchain:
    """Only the part of a Runner that verdict_key reads."""

    version: str

    def toolchain_version(self) -> str:
        return self.version


def test_verdict_key_depends_on_commands_toolchain_and_language() -> None:
    settings = PolicySettings(fmt_check=tuple(FMT), lint=tuple(LINT), test=tuple(TEST))
    runner = cast(Runner, _Toolchain("rustc 1.95.0"))
    key = verdict_key(settings, runner)
    assert key == verdict_key(settings, runner)
    assert len(key) == 20
    variants = [
        (settings._replace(test=("cargo", "test")), runner),
        (settings._replace(lint=("cargo", "clippy")), runner),
        (settings._replace(fmt_check=("rustfmt", "--check")), runner),
        (settings._replace(language="python"), runner),
        (settings, cast(Runner, _Toolchain("rustc 1.96.0"))),
    ]
    keys = {verdict_key(changed, toolchain) for changed, toolchain in variants}
    assert key not in keys
    assert len(keys) == len(variants)
    # what does not change a verdict does not change the key
    assert verdict_key(settings._replace(types=("feat",), timeout_s=1), runner) == key


def test_a_new_gate_revision_changes_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """A verdict stored through an older gate (one that could build in the user's cargo folder,
    or import the work tree's Python) is not reused once the gate changed."""
    from tddhooks.policy import verdicts

    settings = PolicySettings(fmt_check=tuple(FMT), lint=tuple(LINT), test=tuple(TEST))
    runner = cast(Runner, _Toolchain("rustc 1.95.0"))
    key = verdict_key(settings, runner)
    monkeypatch.setattr(verdicts, "GATE_REVISION", verdicts.GATE_REVISION - 1)
    assert verdict_key(settings, runner) != key


def test_a_new_gate_revision_forgets_the_remembered_key(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The key remembered in verdict-key.json is asked again once the gate changed: otherwise
    the old key found the old gate's verdicts (a green one for a tree the new gate finds red)."""
    from tddhooks.policy import stored

    settings = PolicySettings(fmt_check=tuple(FMT), lint=tuple(LINT), test=tuple(TEST))
    stamp = stored.toolchain_stamp(tmp_path, settings, ["cargo"])
    monkeypatch.setattr(stored, "GATE_REVISION", stored.GATE_REVISION - 1)
    assert stored.toolchain_stamp(tmp_path, settings, ["cargo"]) != stamp
