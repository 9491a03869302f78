"""Python repositories in the shapes met in the wild (issue 36), each taken once through what a
person types: install → doctor → a staged red test → feat → refactor → style → audit (real git,
the real `tddhooks` executable, real pytest and ruff; commits with a person's one-line `-m`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.shapekit import make, message, run, write

pytestmark = pytest.mark.pygate

LEAP = "def is_leap(year):\n    return year % 4 == 0\n"
LEAP_400 = "def is_leap(year):\n    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)\n"
LEAP_TIDY = (
    "def divides(n, year):\n    return year % n == 0\n\n\n"
    "def is_leap(year):\n"
    "    return divides(4, year) and (not divides(100, year) or divides(400, year))\n"
)
UNITTEST = (
    "import unittest\n\nfrom {module} import is_leap\n\n\n"
    "class LeapTest(unittest.TestCase):\n"
    "    def test_1996(self):\n        self.assertTrue(is_leap(1996))\n"
)
UGLY_TEST = UNITTEST.replace("assertTrue(is_leap(1996))", "assertTrue( is_leap( 1996 ) )")
RED = "\n    def test_1900(self):\n        self.assertFalse(is_leap(1900))\n"


def _shape(name: str) -> dict[str, object]:
    """One shape: its files, where the test and the code live, what install says first."""
    if name == "no-manifest":  # Gilded Rose style: no pyproject, no requirements, test_*.py
        return {
            "files": {"leap.py": LEAP, "test_leap.py": UGLY_TEST.format(module="leap")},
            "test": "test_leap.py",
            "code": "leap.py",
            "detected": "no manifest",
        }
    if name == "unittest-style":  # requirements.txt, `tests.py` beside the code
        return {
            "files": {
                "requirements.txt": "\n",
                "leapyear/__init__.py": "",
                "leapyear/leap.py": LEAP,
                "leapyear/tests.py": UNITTEST.format(module="leapyear.leap"),
            },
            "test": "leapyear/tests.py",
            "code": "leapyear/leap.py",
            "detected": "requirements.txt",
        }
    if name == "poetry-beside":  # Poetry, tests beside the code in the package
        return {
            "files": {
                "pyproject.toml": '[tool.poetry]\nname = "leap"\nversion = "0.1.0"\n',
                "leap/__init__.py": "",
                "leap/leap.py": LEAP,
                "leap/test_leap.py": UGLY_TEST.format(module="leap.leap"),
            },
            "test": "leap/test_leap.py",
            "code": "leap/leap.py",
            "detected": "pyproject.toml",
        }
    assert name == "framework"  # a template that already uses the pre-commit framework
    config = (
        "repos:\n- repo: local\n  hooks:\n  - id: own\n    name: own\n    entry: 'true'\n"
        "    language: system\n    pass_filenames: false\n"
    )
    return {
        "files": {
            "pyproject.toml": '[project]\nname = "leap"\nversion = "0.1.0"\n',
            ".pre-commit-config.yaml": config,
            "leap.py": LEAP,
            "tests/test_leap.py": UGLY_TEST.format(module="leap"),
        },
        "test": "tests/test_leap.py",
        "code": "leap.py",
        "detected": "pyproject.toml",
    }


def _commit(repo: Path, subject: str) -> str:
    done = run(repo, "git", "commit", "-m", subject)
    assert done.returncode == 0, f"{subject}:\n{done.stdout}{done.stderr}"
    return done.stderr


@pytest.mark.parametrize("name", ["no-manifest", "unittest-style", "poetry-beside", "framework"])
def test_a_shape_from_install_to_audit(tmp_path: Path, name: str) -> None:
    shape = _shape(name)
    files = dict(shape["files"])  # type: ignore[call-overload]
    test, code = str(shape["test"]), str(shape["code"])
    repo = make(tmp_path / name, files)
    start = run(repo, "git", "rev-parse", "HEAD").stdout.strip()
    if name == "framework":
        assert run(repo, "pre-commit", "install").returncode == 0

    installed = run(repo, "tddhooks", "install", "--direct")
    said = installed.stdout + installed.stderr
    assert installed.returncode == 0, said
    assert "cargo" not in said
    assert "Cargo.toml" not in said
    assert "chore: install tddhooks hooks" not in said  # install made nothing to commit
    doctor = run(repo, "tddhooks", "doctor", "--offline")
    runner_row = next(line for line in doctor.stdout.splitlines() if "runner" in line)
    assert "python:" in runner_row, doctor.stdout
    assert str(shape["detected"]) in runner_row, doctor.stdout

    if name == "unittest-style":
        # pytest collects nothing: never green, and the fix names the line to add
        assert "no tests found: pytest does not collect leapyear/tests.py" in said
        write(repo, {"pyproject.toml": '[tool.pytest.ini_options]\npython_files = '
                     '["test_*.py", "*_test.py", "test*.py"]\n'})  # fmt: skip
        run(repo, "git", "add", "pyproject.toml")
        _commit(repo, "build: let pytest collect tests.py")
    else:
        # the test file is not formatted: a style: commit may format it, tests included
        assert "red because of fmt only" in said, said
        assert "style: ruff format" in said, said
        assert run(repo, "ruff", "format", ".").returncode == 0
        run(repo, "git", "add", "-A")
        _commit(repo, "style: ruff format")

    formatted = (repo / test).read_text(encoding="utf-8")
    write(repo, {test: formatted + RED})
    run(repo, "git", "add", test)
    status = " ".join(run(repo, "tddhooks", "status").stdout.split())
    assert "staged tree: red" in status, status
    if name != "no-manifest":  # without a manifest, the scaffold check is the phase model's
        assert "phase red next implementor" in status, status
    assert f"failing tests: {test}::LeapTest::test_1900" in status, status

    write(repo, {code: LEAP_400})
    run(repo, "git", "add", code)
    gate = _commit(repo, "feat(leap): centuries are not leap years")
    assert "pytest: 2 passed" in gate
    text = message(repo)
    assert "- Role: Implementor\n" in text
    assert f"- {test}: changed" in text

    write(repo, {code: LEAP_TIDY})
    run(repo, "git", "add", code)
    _commit(repo, "refactor(leap): name the divisibility")
    # a style: commit that changes more than formatting is refused
    write(repo, {test: formatted + RED.replace("1900", "1800")})
    run(repo, "git", "add", test)
    refused = run(repo, "git", "commit", "-m", "style: tidy")
    assert refused.returncode == 1
    assert "only as `ruff format` formats them" in refused.stderr
    run(repo, "git", "reset", "-q", "--hard")

    audit = run(repo, "tddhooks", "audit", f"{start}..HEAD")
    assert audit.returncode == 0, audit.stdout + audit.stderr


GILDED = (
    "import os\n\n\nclass GildedRose:\n    def __init__(self, items):\n"
    "        self.items = items\n\n    def update_quality(self):\n"
    "        for item in self.items:\n            if item.name != None:\n"
    "                if item.quality > 0:\n                    item.quality = item.quality - 1\n"
)
GILDED_TEST = (
    "from gilded_rose import GildedRose\n\n\nclass Item:\n"
    "    def __init__(self, name, quality):\n        self.name = name\n"
    "        self.quality = quality\n"
)
GILDED_PIN = (
    "\n\ndef test_quality_drops():\n    items = [Item('foo', 3)]\n"
    "    GildedRose(items).update_quality()\n    assert items[0].quality == 2\n"
)


def test_a_legacy_kata_starts_with_the_lint_ratchet(tmp_path: Path) -> None:
    repo = make(tmp_path / "gilded", {"gilded_rose.py": GILDED, "test_gilded_rose.py": GILDED_TEST})
    start = run(repo, "git", "rev-parse", "HEAD").stdout.strip()
    installed = run(repo, "tddhooks", "install", "--direct")
    said = installed.stdout + installed.stderr
    assert "red because of lint only" in said, said
    assert "add `lint: ratchet` to tdd.yaml" in said
    write(repo, {"tdd.yaml": "lint: ratchet\n"})
    run(repo, "git", "add", "tdd.yaml")
    _commit(repo, "chore: lint ratchet")  # a red start: only tddhooks' own file

    write(repo, {"test_gilded_rose.py": GILDED_TEST + GILDED_PIN.replace("'", '"')})
    run(repo, "git", "add", "-A")
    pinned = _commit(repo, "test(gilded): quality drops by one")  # the legacy findings stay
    assert "pytest: 1 passed" in pinned

    write(
        repo, {"test_gilded_rose.py": "import sys\n" + GILDED_TEST + GILDED_PIN.replace("'", '"')}
    )
    run(repo, "git", "add", "-A")
    more = run(repo, "git", "commit", "-m", "test(gilded): one more import")
    assert more.returncode == 1
    assert "lint: ratchet: this commit adds lint findings to test_gilded_rose.py: 0 → 2" in (
        more.stderr
    )
    run(repo, "git", "reset", "-q", "--hard")

    write(repo, {"gilded_rose.py": GILDED.removeprefix("import os\n\n\n")})
    run(repo, "git", "add", "-A")
    _commit(repo, "refactor(gilded): drop an unused import")  # findings go down

    audit = run(repo, "tddhooks", "audit", f"{start}..HEAD")
    assert audit.returncode == 0, audit.stdout + audit.stderr
