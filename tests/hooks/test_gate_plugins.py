"""The gate's pytest runs without the plugins only tddhooks' own requirements brought into its
Python (runners/python_plugins.py): anyio's is off until the kata declares anyio, while a plugin
installed beside tddhooks for other reasons (pytest-mock here) loads as before."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.gatekit import git, python_kata, write
from support.hookkit import run

pytestmark = pytest.mark.pygate

ASYNC_TEST = """import anyio
import pytest


@pytest.mark.anyio
async def test_sleeping_lets_others_run() -> None:
    await anyio.sleep(0.001)
"""
MOCK_TEST = """from kata import add


def test_a_stand_in_answers_for_add(mocker) -> None:
    stand_in = mocker.Mock(side_effect=add)
    assert stand_in("") == 0
"""


def test_a_brought_plugin_is_off_until_the_kata_declares_its_distribution(
    tmp_path: Path, session_dir: Path
) -> None:
    repo = python_kata(tmp_path, session_dir)
    write(repo, {"tests/test_async.py": ASYNC_TEST, "tests/test_mock.py": MOCK_TEST})
    git(repo, "add", "-A")

    undeclared = run(repo, "tddhooks", "hook", "pre-commit")

    text = undeclared.stdout + undeclared.stderr
    assert undeclared.returncode == 1, text
    assert "test_sleeping_lets_others_run" in text
    # pytest's advice is to install anyio, which is installed: the gate names what it turned off
    assert "the gate ran pytest without the plugin(s) anyio," in text
    assert "platformdirs," not in text  # off too, but nothing in the output names it
    assert "test_a_stand_in_answers_for_add" not in text.split("[test]", 1)[-1]

    project = repo / "pyproject.toml"
    declared = project.read_text(encoding="utf-8").replace(
        "dependencies = []", 'dependencies = ["anyio"]'
    )
    assert declared != project.read_text(encoding="utf-8")
    project.write_text(declared, encoding="utf-8")
    git(repo, "add", "-A")

    green = run(repo, "tddhooks", "hook", "pre-commit")

    assert green.returncode == 0, green.stdout + green.stderr
    assert "pytest: 3 passed, 0 failed" in green.stdout


def test_a_plugin_the_tree_installs_beside_itself_is_refused(
    tmp_path: Path, session_dir: Path
) -> None:
    # a dist-info at the tree's top is found by pytest (the top folder is on sys.path) and its
    # plugin loaded; what it registers is still the kata's code, refused like a conftest's hook
    repo = python_kata(tmp_path, session_dir)
    write(
        repo,
        {
            "tests/test_red.py": "from kata import add\n\n\ndef test_red() -> None:\n"
            '    assert add("1") == 2\n',
            "greenplug-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: greenplug\n"
            "Version: 1.0\n",
            "greenplug-1.0.dist-info/entry_points.txt": "[pytest11]\ngreenplug = greenplug\n",
            "greenplug.py": "import pytest\n\n\n@pytest.hookimpl(wrapper=True)\n"
            "def pytest_runtest_makereport(item, call):\n"
            "    report = yield\n"
            '    report.outcome = "passed"\n'
            "    return report\n",
        },
    )
    git(repo, "add", "-A")

    result = run(repo, "tddhooks", "hook", "pre-commit")

    text = result.stdout + result.stderr
    assert result.returncode == 1, text
    assert "the kata registers the pytest hook greenplug.py" in text
