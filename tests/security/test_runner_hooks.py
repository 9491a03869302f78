"""Red team: committed test-runner hooks need the policy's consent (issue 34, item 6).

A committed conftest.py (or a plugin it loads) runs inside pytest with every test in reach: a
`pytest_collection_modifyitems` that swaps each test's `item.obj.__code__` for a no-op made a
red tree green, and `audit` agreed. Such a module may hold fixtures, constants and imports; hook
functions and reaches into test objects make the gate red unless the parent's tdd.yaml says
`python.runner_hooks: allow` (policy/runner_hooks.py, decided from the syntax tree). Real git,
the real hooks, real pytest."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from support.gatekit import (
    RED_TEST,
    commit,
    git,
    head,
    landed,
    message,
    python_kata_fixture,
    refused,
    unhooked_commit,
    write,
)

from tddhooks.policy.runner_hooks import runner_hook_findings

__all__ = ["python_kata_fixture"]  # the `kata` fixture

CODE_SWAP = """def _nothing():
    pass


def pytest_collection_modifyitems(items):
    for item in items:
        item.obj.__code__ = _nothing.__code__
"""
SPECNAME = """import pytest


@pytest.hookimpl(specname="pytest_collection_modifyitems")
def tidy(items):
    for item in items:
        item.obj.__code__ = (lambda: None).__code__
"""
FIXTURES = """import pytest

LIMIT = 3


@pytest.fixture
def numbers() -> list[int]:
    return [1, 2, LIMIT]
"""
BENIGN_HOOK = """def pytest_configure(config):
    config.addinivalue_line("markers", "slow: a slow test")
"""


def _stage(repo: Path, files: dict[str, str]) -> str:
    write(repo, files)
    git(repo, "add", "-A")
    return head(repo)


@pytest.mark.pygate
@pytest.mark.parametrize(
    ("files", "said"),
    [
        (
            {"tests/conftest.py": CODE_SWAP},
            "tests/conftest.py implements the pytest hook pytest_collection_modifyitems",
        ),
        (
            {"tests/conftest.py": SPECNAME},
            "tests/conftest.py names a pytest hook through specname=",
        ),
        (
            {
                "tests/conftest.py": 'pytest_plugins = ["tests.tidy"]\n',
                "tests/tidy.py": CODE_SWAP,
            },
            "tests/tidy.py implements the pytest hook pytest_collection_modifyitems",
        ),
    ],
    ids=["code-swap", "specname", "plugin-module"],
)
def test_a_committed_runner_hook_makes_a_red_tree_red(
    kata: Path, files: dict[str, str], said: str
) -> None:
    before = _stage(kata, {**files, "tests/test_one.py": RED_TEST})

    text = refused(commit(kata, message("test", "one", "Tester")), "[green]", before, kata)

    assert said in text
    assert "runner_hooks: allow" in text


@pytest.mark.pygate
def test_a_plugin_named_in_the_trees_addopts_is_a_runner_module(kata: Path) -> None:
    pyproject = (kata / "pyproject.toml").read_text(encoding="utf-8")
    before = _stage(
        kata,
        {
            "pyproject.toml": pyproject.replace(
                "[tool.pytest.ini_options]\n", '[tool.pytest.ini_options]\naddopts = "-p tidy"\n'
            ),
            "tidy.py": CODE_SWAP,
            "tests/test_one.py": RED_TEST,
        },
    )

    text = refused(commit(kata, message("test", "one", "Tester")), "[green]", before, kata)

    assert "tidy.py implements the pytest hook pytest_collection_modifyitems" in text


@pytest.mark.pygate
def test_code_that_rewrites_a_test_function_is_refused_wherever_it_lives(kata: Path) -> None:
    swap = (
        "import sys\n\n\ndef add(text: str) -> int:\n    return 0\n\n\n"
        "def quiet(name: str) -> None:\n"
        "    module = sys.modules[name]\n"
        "    module.test_one.__code__ = add.__code__\n"
    )
    before = _stage(kata, {"src/kata/__init__.py": swap, "tests/test_one.py": RED_TEST})

    text = refused(commit(kata, message("feat", "one")), "[green]", before, kata)

    assert "src/kata/__init__.py rewrites or reads a function's __code__" in text


@pytest.mark.pygate
def test_fixtures_constants_and_imports_stay_fine(kata: Path) -> None:
    before = _stage(kata, {"tests/conftest.py": FIXTURES})

    landed(commit(kata, message("test", "shared numbers", "Tester")), before, kata)


@pytest.mark.pygate
def test_a_policy_that_allows_runner_hooks_lets_one_in(kata: Path) -> None:
    yaml = kata / "tdd.yaml"
    text = yaml.read_text(encoding="utf-8").replace("runner_hooks: refuse", "runner_hooks: allow")
    _stage(kata, {"tdd.yaml": text})
    unhooked_commit(kata, "chore: runner hooks allowed\n")
    before = _stage(kata, {"tests/conftest.py": BENIGN_HOOK})

    landed(commit(kata, message("test", "a marker", "Tester")), before, kata)


@pytest.mark.pygate
def test_the_same_commit_cannot_allow_its_own_hooks(kata: Path) -> None:
    yaml = kata / "tdd.yaml"
    text = yaml.read_text(encoding="utf-8").replace("runner_hooks: refuse", "runner_hooks: allow")
    before = _stage(
        kata, {"tdd.yaml": text, "tests/conftest.py": CODE_SWAP, "tests/test_one.py": RED_TEST}
    )

    refused(commit(kata, message("test", "one", "Tester")), "[green]", before, kata)


@pytest.mark.pygate
def test_audit_agrees_with_the_hook(kata: Path) -> None:
    write(kata, {"tests/conftest.py": CODE_SWAP, "tests/test_one.py": RED_TEST})
    git(kata, "add", "-A")
    start = head(kata)
    # every hook off (the reference-transaction hook would refuse it too): audit alone judges
    unhooked_commit(kata, "test: one\n")
    script = Path(sys.executable).parent / "tddhooks"

    audit = subprocess.run(
        [str(script), "audit", "--json", f"{start}..HEAD"], cwd=kata, capture_output=True, text=True
    )

    assert audit.returncode == 1, audit.stdout + audit.stderr
    assert "implements the pytest hook pytest_collection_modifyitems" in audit.stdout + audit.stderr


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("def pytest_runtest_call(item):\n    pass\n", "pytest hook pytest_runtest_call"),
        ("def f(item):\n    getattr(item, 'o' + 'bj')\n", "computed attribute name"),
        ("def f(item):\n    getattr(item, 'runtest')()\n", "runtest through getattr()"),
        ("import _pytest.runner\n", "internals (_pytest.runner"),
        ("from pytest import hookimpl\n", "internals (hookimpl"),
        ("exec('x = 1')\n", "exec()"),
        ("class P:\n    def pytest_configure(self, config):\n        pass\n", "pytest_configure"),
        ("def f(report):\n    report.outcome = 'passed'\n", ".outcome"),
    ],
)
def test_runner_uses_in_a_conftest(text: str, said: str) -> None:
    found = runner_hook_findings({"tests/conftest.py": text})

    assert any(said in line for line in found), found
    assert runner_hook_findings({"tests/conftest.py": text}, hooks_allowed=True) == []


@pytest.mark.parametrize(
    "text",
    [
        FIXTURES,
        "import pytest\n\n\n@pytest.fixture\ndef name(request):\n    return request.node.name\n",
        "import pytest\n\n\n@pytest.fixture\ndef env(monkeypatch):\n"
        "    monkeypatch.setattr('os.sep', '/')\n    monkeypatch.setenv('A', '1')\n",
        'pytest_plugins = ["pytester"]\n',
    ],
)
def test_ordinary_conftests_have_no_finding(text: str) -> None:
    assert runner_hook_findings({"tests/conftest.py": text}) == []


def test_a_test_module_is_not_a_runner_module() -> None:
    text = "def pytest_generate_tests(metafunc):\n    pass\n\n\ndef test_x():\n    pass\n"

    assert runner_hook_findings({"tests/test_x.py": text}) == []
