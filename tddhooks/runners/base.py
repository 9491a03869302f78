"""The Runner protocol every language implements, and the structured test report it returns."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict


class TestReport(BaseModel):
    """What one test-suite run says: counts, failing names, compile errors, the output tail."""

    __test__ = False  # not a pytest class
    model_config = ConfigDict(extra="forbid")

    passed: int = 0
    failed: int = 0
    ignored: int = 0
    passing_tests: list[str] = []
    failing_tests: list[str] = []
    # tests the runner reported as ignored/skipped/xfail (names as in passing/failing_tests)
    ignored_tests: list[str] = []
    compile_errors: list[str] = []
    error_lines: list[str] = []
    output_tail: str = ""
    timed_out: bool = False
    exit_code: int = 0
    # what a compile error is in this language: Rust's do not compile, a Python test module
    # that pytest cannot collect (ModuleNotFoundError, ImportError, SyntaxError) does not import
    error_kind: Literal["compile", "import"] = "compile"
    # the runner found no test at all (pytest's exit 5, cargo's "running 0 tests" everywhere):
    # its own state, never "every test passes" (docs/runners.md, "No tests")
    no_tests: bool = False

    @property
    def build_failure(self) -> str:
        """'does not compile' (Rust) or 'does not import' (pytest's collection errors)."""
        return "does not import" if self.error_kind == "import" else "does not compile"

    @property
    def green(self) -> bool:
        return (
            self.exit_code == 0
            and not self.timed_out
            and self.failed == 0
            and not self.compile_errors
        )

    def summary(self) -> str:
        """One line, e.g. 'cargo test: 7 passed, 0 failed' style counts."""
        if self.timed_out:
            return "timed out"
        if self.compile_errors:
            noun = "collection error(s)" if self.error_kind == "import" else "error(s)"
            return f"{self.build_failure} ({len(self.compile_errors)} {noun})"
        if self.no_tests:
            return "no tests found" + (f" (exit {self.exit_code})" if self.exit_code else "")
        text = f"{self.passed} passed, {self.failed} failed"
        return text + (f", {self.ignored} ignored" if self.ignored else "")


@dataclass(frozen=True)
class RunnerCommands:
    """The concrete commands a gate runs, after tdd.yaml `ci:` overrides."""

    fmt_check: tuple[str, ...]
    fmt_fix: tuple[str, ...]
    lint: tuple[str, ...]
    test: tuple[str, ...]
    timeout_s: float
    lint_fix: tuple[str, ...] = ()  # the linter's safe fixes, for agents before they stage

    def fingerprint_parts(self) -> list[str]:
        return [" ".join(cmd) for cmd in (self.fmt_check, self.lint, self.test)]


class Runner(Protocol):
    """A language: its commands, how to read its test output, and its scaffold."""

    name: str
    test_globs: tuple[str, ...]
    source_globs: tuple[str, ...]
    skip_markers: tuple[re.Pattern[str], ...]
    tool_names: tuple[str, ...]

    def default_commands(self) -> RunnerCommands:
        """Commands used when tdd.yaml `ci:` sets none."""
        ...

    def env(self, target_dir: Path | None) -> dict[str, str]:
        """Extra environment for every command (e.g. CARGO_TARGET_DIR)."""
        ...

    def parse_test_output(self, output: str, exit_code: int) -> TestReport:
        """Turn the test command's combined output into a TestReport (pure)."""
        ...

    def test_names(self, files: Mapping[str, str]) -> set[str]:
        """Names of the tests defined in these files (path -> text), found statically (pure)."""
        ...

    def toolchain_version(self) -> str:
        """A string that changes when the toolchain does (part of the verdict key)."""
        ...

    def scaffold(self, dest: Path, project_name: str) -> list[str]:
        """Write the project skeleton into dest, never overwriting; return paths written."""
        ...
