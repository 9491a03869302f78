"""Scoring a driven kata with its hidden acceptance tests: copied in after the drive (never
committed), run once, counted. A suite that does not compile scores 0 of its tests."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from tddhooks.bench.katas import CRATE, PACKAGE, AcceptanceFile

ACCEPTANCE_TIMEOUT_S = 600.0
_RUST_TEST = re.compile(r"^\s*#\[test\]", re.MULTILINE)
_PY_TEST = re.compile(r"^[ \t]*(?:async[ \t]+)?def test_\w*\(", re.MULTILINE)
_CARGO_RESULT = re.compile(r"test result: \w+\. (\d+) passed; (\d+) failed")
_PYTEST_PASSED = re.compile(r"(\d+) passed")
# pytest's summary line: each outcome of a test that ran (an error in collection counts none)
_PYTEST_RAN = re.compile(r"(\d+) (passed|failed|skipped|xfailed|xpassed)\b")


@dataclass(frozen=True)
class AcceptanceScore:
    passed: int
    total: int
    output_tail: str = ""


def count_tests(file: AcceptanceFile, language: str) -> int:
    pattern = _RUST_TEST if language == "rust" else _PY_TEST
    return len(pattern.findall(file.text))


def project_name(root: Path, language: str) -> str:
    """The crate (Rust) or package (Python) the tests import."""
    if language == "rust":
        from tddhooks.agents.context import crate_name

        return crate_name((root / "Cargo.toml").read_text(encoding="utf-8")) or "kata"
    packages = sorted(p.parent.name for p in (root / "src").glob("*/__init__.py"))
    return packages[0] if packages else "kata"


def install(root: Path, files: tuple[AcceptanceFile, ...], language: str) -> list[Path]:
    """Write the suite into tests/ with the kata's crate/package name; returns the paths."""
    name = project_name(root, language)
    written = []
    for file in files:
        target = root / "tests" / file.name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(file.text.replace(CRATE, name).replace(PACKAGE, name), encoding="utf-8")
        written.append(target)
    return written


def parse_passed(output: str, language: str) -> int:
    if language == "rust":
        return sum(int(match.group(1)) for match in _CARGO_RESULT.finditer(output))
    found = _PYTEST_PASSED.findall(output)
    return int(found[-1]) if found else 0


def parse_ran(output: str, language: str) -> int:
    """How many tests ran, whatever their outcome: a parametrized test counts each case."""
    if language == "rust":
        return sum(int(m.group(1)) + int(m.group(2)) for m in _CARGO_RESULT.finditer(output))
    lines = [line for line in output.splitlines() if _PYTEST_RAN.search(line)]
    return sum(int(count) for count, _ in _PYTEST_RAN.findall(lines[-1])) if lines else 0


def own_cargo(environ: Mapping[str, str]) -> dict[str, str]:
    """`environ` without CARGO_TARGET_DIR: every bench run's crate is `run_<N>`, and in one shared
    cargo folder a run built second took the first run's fresh build for its own (cargo's
    fingerprints do not name the package folder; measured with cargo 1.95, docs/runners.md).
    Without it each run builds in its own folders: the gate's, the audit's, its `target/`."""
    return {name: value for name, value in environ.items() if name != "CARGO_TARGET_DIR"}


def score(
    root: Path, files: tuple[AcceptanceFile, ...], language: str, log: Path | None = None
) -> AcceptanceScore:
    """Install the suite, run it once, count what passed of what ran (at least the tests the files
    define: a suite that does not compile or collect scores 0 of them). `log` keeps the whole
    output of that run, so a low score can be read (`run-N.acceptance.txt` beside the run)."""
    from tddhooks import proc

    total = sum(count_tests(file, language) for file in files)
    paths = install(root, files, language)
    if language == "rust":
        cmd = ["cargo", "test", "--no-fail-fast"]
        for path in paths:
            cmd += ["--test", path.stem]
    else:
        cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
               *(str(path.relative_to(root)) for path in paths)]  # fmt: skip
    result = proc.run(cmd, cwd=root, env=own_cargo(os.environ), timeout_s=ACCEPTANCE_TIMEOUT_S)
    if log is not None:
        log.write_text(f"$ {' '.join(cmd)}\n{result.output}", encoding="utf-8")
    # what ran, when more than the files show (a parametrized or class-based test): the total
    total = max(total, parse_ran(result.output, language))
    passed = min(parse_passed(result.output, language), total)
    return AcceptanceScore(passed, total, result.output[-2000:])
