"""A Python kata that already uses the pre-commit framework with hooks of its own (`meta`, a
`pygrep` check, `ruff format` and pytest as `repo: local` system hooks), installed with
`pre-commit install`: install chains it, then a red start, a red test, feat, refactor with an
unstaged edit, and audit (real git, pre-commit, pytest and ruff, the real `tddhooks`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.shapekit import make, message, run, write

pytestmark = pytest.mark.pygate

CONFIG = """repos:
  - repo: meta
    hooks:
      - id: check-useless-excludes
  - repo: local
    hooks:
      - id: no-print
        name: no print statements
        entry: '^\\s*print\\('
        language: pygrep
        types: [python]
        exclude: ^tests/
      - id: ruff-format
        name: ruff format
        entry: ruff format
        language: system
        types: [python]
      - id: pytest
        name: pytest
        entry: python -m pytest -q
        language: system
        pass_filenames: false
        always_run: true
"""
KATA = {
    ".pre-commit-config.yaml": CONFIG,
    ".gitignore": "__pycache__/\n",
    "pyproject.toml": '[project]\nname = "money"\nversion = "0.1.0"\n\n'
    '[tool.pytest.ini_options]\npythonpath = ["src"]\n',
    "src/money/__init__.py": "def dollars(amount):\n    return amount * 100\n",
    # unformatted, as found: the red start is format only
    "tests/test_money.py": "from money import dollars\n\n\ndef test_cents():\n"
    "    assert dollars( 5 )==500\n",
}
RED = "\n\ndef test_negate():\n    assert negate(500) == -500\n"
CODE = "\n\ndef negate(cents):\n    return -cents\n"


def _append(repo: Path, path: str, text: str) -> None:
    write(repo, {path: (repo / path).read_text(encoding="utf-8") + text})


def test_a_kata_with_its_own_framework_hooks_through_a_whole_cycle(tmp_path: Path) -> None:
    repo = make(tmp_path / "money", KATA)
    start = run(repo, "git", "rev-parse", "HEAD").stdout.strip()
    framework = run(repo, "pre-commit", "install")
    assert framework.returncode == 0, framework.stdout + framework.stderr
    installed = run(repo, "tddhooks", "install")
    said = installed.stdout + installed.stderr
    assert installed.returncode == 0, said
    assert "pre-commit's own hooks run after it" in said, said
    assert "fmt only" in said, said
    assert "ruff format" in said
    doctor = run(repo, "tddhooks", "doctor", "--offline")
    hooks_row = next(line for line in doctor.stdout.splitlines() if "hooks" in line)
    assert "ok" in hooks_row, doctor.stdout

    # the red start: formatting the test file lands as style, then pre-commit's hooks run
    assert run(repo, "ruff", "format", ".").returncode == 0
    style = run(repo, "git", "commit", "-am", "style: ruff format")
    assert style.returncode == 0, style.stdout + style.stderr
    assert "no print statements" in style.stdout + style.stderr  # the framework ran after us

    # tester: a failing test; implementor: the code; both with one-line messages
    test_file, code_file = "tests/test_money.py", "src/money/__init__.py"
    _append(repo, test_file, RED)
    write(repo, {test_file: (repo / test_file).read_text("utf-8").replace(
        "import dollars", "import dollars, negate")})  # fmt: skip
    run(repo, "git", "add", test_file)
    status = " ".join(run(repo, "tddhooks", "status").stdout.split())
    assert "phase red" in status, status
    assert "implementor" in status, status
    _append(repo, code_file, CODE)
    run(repo, "git", "add", code_file)
    feat = run(repo, "git", "commit", "-m", "feat(money): negate an amount")
    assert feat.returncode == 0, feat.stdout + feat.stderr
    assert "- Role: Implementor\n" in message(repo)

    # refactor with an unstaged edit elsewhere: pre-commit stashes it for its own hooks and
    # puts it back; ours judged the staged tree and moved nothing
    write(repo, {code_file: (repo / code_file).read_text("utf-8").replace("-cents", "0 - cents")})
    run(repo, "git", "add", code_file)
    _append(repo, "pyproject.toml", "# a note not staged\n")
    refactor = run(repo, "git", "commit", "-m", "refactor(money): negate by subtraction")
    assert refactor.returncode == 0, refactor.stdout + refactor.stderr
    assert "- Role: Refactorer\n" in message(repo)
    assert "a note not staged" in (repo / "pyproject.toml").read_text(encoding="utf-8")
    assert run(repo, "git", "status", "--porcelain").stdout.strip() == "M pyproject.toml"

    audit = run(repo, "tddhooks", "audit", "--since", start)
    assert audit.returncode == 0, audit.stdout + audit.stderr


def test_a_chained_hook_that_fails_is_named_as_the_one_that_refused(tmp_path: Path) -> None:
    """The gate is green, the framework's own hook is not (offline, say): the refusal is
    attributed to the chained hook, never to the gate."""
    failing = CONFIG + (
        "      - id: needs-network\n        name: needs network\n"
        "        entry: \"sh -c 'echo Could not resolve host github.com; exit 3'\"\n"
        "        language: system\n        pass_filenames: false\n        always_run: true\n"
    )
    formatted = "from money import dollars\n\n\ndef test_cents():\n    assert dollars(5) == 500\n"
    files = {**KATA, ".pre-commit-config.yaml": failing, "tests/test_money.py": formatted}
    repo = make(tmp_path / "money", files)
    assert run(repo, "pre-commit", "install").returncode == 0
    assert run(repo, "tddhooks", "install").returncode == 0
    _append(repo, "src/money/__init__.py", "\n\nHUNDRED = 100\n")
    done = run(repo, "git", "commit", "-am", "refactor(money): name the hundred")
    said = done.stdout + done.stderr
    assert done.returncode == 1, said
    assert "tddhooks: green" in said
    assert "Could not resolve host" in said
    assert "tddhooks: the gate passed; the hook chained after it failed (exit 1)" in said, said
    assert "pre-commit.tddhooks-chained" in said
