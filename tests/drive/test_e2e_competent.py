"""End to end under the default `core` profile: a scripted competent model (tests/support/
competent.py) drives two katas the project does not ship, six cycles each, through the real CLI,
hooks and gate. Every cycle lands, no answer is refused, the hidden acceptance suite passes."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from support.competent import KATAS, PIG_LATIN, ROMAN, pig_latin_answers, roman_answers
from support.e2e_kit import Script, assert_audit_clean, assert_clean, drive_args, run_cli
from support.fake_openai import FakeOpenAI

from tddhooks.agents.context import crate_name

pytestmark = pytest.mark.e2e
CYCLES = 6


def _init(directory: Path, kata: Path, language: str) -> Path:
    from tddhooks.commands import init_cmd

    assert init_cmd.run(directory, language=language, kata=str(kata), direct=False) == 0
    return directory


def _attempts(repo: Path) -> list[dict[str, Any]]:
    """Every attempt of every agent turn, from the step files."""
    found = []
    for path in sorted((repo / ".tdd" / "logs").glob("step-*.json")):
        log = json.loads(path.read_text(encoding="utf-8"))
        found += [{"step": path.name, **attempt} for attempt in log["attempts"]]
    return found


def _drive_six(repo: Path, server: FakeOpenAI, script: Script) -> None:
    server.responder = script
    result = run_cli("drive", "-C", str(repo), "--steps", str(CYCLES), *drive_args(server))
    assert result.exit_code == 0, result.output
    refused = [a for a in _attempts(repo) if a.get("failure")]
    assert refused == [], refused  # not one answer sent back
    assert script.left() == {}, script.left()  # every scripted answer was taken, in turn
    subjects = subprocess.run(
        ["git", "log", "--format=%s"], cwd=repo, check=True, capture_output=True, text=True
    ).stdout.splitlines()
    assert sum(subject.startswith("feat") for subject in subjects) == CYCLES, subjects
    assert_clean(repo)
    assert_audit_clean(repo)


def _score(passed: int, failed: int) -> float:
    assert passed + failed > 0
    return passed / (passed + failed)


@pytest.mark.pygate
def test_a_competent_model_drives_pig_latin_in_python_with_a_growing_parametrized_test_file(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    repo = _init(tmp_path / "pig_latin", PIG_LATIN, "python")
    script = Script(pig_latin_answers("pig_latin"))

    _drive_six(repo, fake_openai, script)

    # the tester saw the test file it grows, offered beside the suggested new file
    second = script.prompts("tester")[1]
    assert "Offered paths (a new file is a suggestion" in second
    assert "- tests/test_translate.py" in second
    assert "def test_a_word_beginning_with_a_vowel_gets_ay(" in second
    # one test file that grew, a module the implementor started, one the refactorer extracted
    tracked = subprocess.run(["git", "ls-files"], cwd=repo, check=True, capture_output=True,
                             text=True).stdout.split()  # fmt: skip
    assert [p for p in tracked if p.startswith("tests/") and p.endswith(".py")] == [
        "tests/test_translate.py"
    ]
    assert {"src/pig_latin/onset.py", "src/pig_latin/words.py"} <= set(tracked)
    hidden = repo / "tests" / "test_acceptance_hidden.py"
    hidden.write_text((KATAS / "pig-latin.acceptance.txt").read_text(encoding="utf-8"), "utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(hidden)],
        cwd=repo, capture_output=True, text=True, check=False,
    )  # fmt: skip
    passed = re.search(r"(\d+) passed", run.stdout)
    failed = re.search(r"(\d+) failed", run.stdout)
    score = _score(int(passed[1]) if passed else 0, int(failed[1]) if failed else 0)
    assert score >= 0.8, run.stdout


@pytest.mark.cargo
def test_a_competent_model_drives_roman_numerals_in_rust_with_one_growing_test_file(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    repo = _init(tmp_path / "roman", ROMAN, "rust")
    crate = crate_name((repo / "Cargo.toml").read_text(encoding="utf-8"))
    assert crate
    script = Script(roman_answers(crate))

    _drive_six(repo, fake_openai, script)

    tracked = subprocess.run(["git", "ls-files"], cwd=repo, check=True, capture_output=True,
                             text=True).stdout.split()  # fmt: skip
    assert [path for path in tracked if path.startswith("tests/") and path.endswith(".rs")] == [
        "tests/roman.rs"
    ]
    assert "src/numerals.rs" in tracked
    hidden = repo / "tests" / "acceptance_hidden.rs"
    suite = (KATAS / "roman-numerals.acceptance.rs").read_text(encoding="utf-8")
    hidden.write_text(suite.replace("{crate}", crate), encoding="utf-8")
    run = subprocess.run(
        ["cargo", "test", "--quiet", "--test", "acceptance_hidden", "--no-fail-fast"],
        cwd=repo, capture_output=True, text=True, check=False,
    )  # fmt: skip
    result = re.search(r"(\d+) passed; (\d+) failed", run.stdout)
    assert result is not None, run.stdout + run.stderr
    assert _score(int(result[1]), int(result[2])) >= 0.8, run.stdout
