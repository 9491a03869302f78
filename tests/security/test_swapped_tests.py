"""Red team: a committed conftest that keeps a test's name but runs something else in its place
(pytest's public API allows it) cannot land a red test; tests of every ordinary shape, and an
installed plugin's own item class (pytest-asyncio's runs `async def` tests), still run green
(tddhooks/runners/python_defined.py; docs/gate.md, "Committed tool configuration")."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from support.redteam import RED_PY, commit, git, head, msg, refused

NEUTER_BY_FIXTURE = (
    "import pytest\n\n\n@pytest.fixture(autouse=True)\ndef quiet(request):\n"
    "    request.node.obj = lambda *args, **kwargs: None\n"
)
NEUTER_BY_COLLECTION = (
    "def pytest_collection_modifyitems(items):\n    for item in items:\n"
    "        item.obj = lambda *args, **kwargs: None\n"
)
NEUTER_RUNTEST = (
    "def pytest_collection_modifyitems(items):\n    for item in items:\n"
    "        item.runtest = lambda: None\n"
)
# pytest's own class patched at import, or a class of the conftest's own: the code that runs the
# test is the tree's either way
NEUTER_PYTEST_CLASS = (
    "import _pytest.python\n\n_pytest.python.Function.runtest = lambda self: None\n"
)
NEUTER_BY_SUBCLASS = (
    "import pytest\n\n\nclass Quiet(pytest.Function):\n    def runtest(self):\n        pass\n\n\n"
    "def pytest_collection_modifyitems(items):\n    for i, item in enumerate(items):\n"
    "        items[i] = Quiet.from_parent(\n            item.parent, name=item.name, "
    "callobj=item.obj, originalname=item.originalname\n        )\n"
)


@pytest.mark.pygate
@pytest.mark.parametrize(
    "conftest",
    [
        NEUTER_BY_FIXTURE,
        NEUTER_BY_COLLECTION,
        NEUTER_RUNTEST,
        NEUTER_PYTEST_CLASS,
        NEUTER_BY_SUBCLASS,
    ],
    ids=["autouse-fixture", "collection-hook", "runtest", "pytest-class", "subclass"],
)
def test_a_conftest_that_swaps_the_test_function_cannot_land_a_red_test(
    make_repo: object, conftest: str
) -> None:
    # pytest's public API lets a conftest point a collected test at another function: the test
    # keeps its name and "passes", so neither the outcome-hook rule nor "every test ran" saw it
    from support.hookkit import install_shims
    from support.pykata import FILES

    repo: Path = make_repo(FILES)  # type: ignore[operator]
    install_shims(repo)
    (repo / "tests" / "conftest.py").write_text(conftest, encoding="utf-8")
    (repo / "tests" / "test_red.py").write_text(RED_PY, encoding="utf-8")
    git(repo, "add", "-A")
    before = head(repo)

    text = refused(commit(repo, msg("feat", "a red one")), "[green]", before, repo)

    if "def pytest_" in conftest:  # the hook itself ends the run before any test runs
        assert "the kata registers the pytest hook tests/conftest.py: pytest_" in text
    else:
        assert "tests/test_red.py::test_red_one" in text
        assert "is not the function tests/test_red.py defines as test_red_one" in text


SHAPES_PY = """import functools
import unittest

import pytest

from calc import add


def wrapped(function):
    @functools.wraps(function)
    def inner(*args, **kwargs):
        return function(*args, **kwargs)

    return inner


@pytest.fixture(autouse=True)
def ready():
    yield


class TestAdd:
    def test_method(self) -> None:
        assert add(2, 3) == 5

    @staticmethod
    def test_static() -> None:
        assert add(2, 3) == 5

    @pytest.mark.parametrize("n", [1, 2])
    def test_parametrised(self, n: int) -> None:
        assert add(n, 0) == n


class TestCaseStyle(unittest.TestCase):
    def test_unittest(self) -> None:
        self.assertEqual(add(2, 3), 5)


@wrapped
def test_wrapped() -> None:
    assert add(2, 3) == 5
"""


@pytest.mark.pygate
def test_tests_of_every_shape_still_run_green(make_repo: object) -> None:
    # the check that a test runs its own function leaves methods, static methods, parametrised,
    # unittest and decorated tests (and an autouse fixture that swaps nothing) alone
    from support.hookkit import install_shims
    from support.pykata import FILES

    repo: Path = make_repo(FILES)  # type: ignore[operator]
    install_shims(repo)
    (repo / "tests" / "test_shapes.py").write_text(SHAPES_PY, encoding="utf-8")
    git(repo, "add", "-A")

    landed = commit(repo, msg("test", "tests of every shape"))

    assert landed.returncode == 0, landed.stdout + landed.stderr
    assert "7 passed" in landed.stderr, landed.stderr


# an installed plugin's item class with its own runtest, as pytest-asyncio's: it runs an
# `async def` test through an event loop by pointing the item at a synchronous wrapper
LOOPED_PLUGIN = """import asyncio
import functools
import inspect

import pytest


class Looped(pytest.Function):
    def runtest(self):
        test = self.obj

        @functools.wraps(test)
        def synchronous(*args, **kwargs):
            return asyncio.run(test(*args, **kwargs))

        self.obj = synchronous
        try:
            super().runtest()
        finally:
            self.obj = test


@pytest.hookimpl(wrapper=True)
def pytest_pycollect_makeitem(collector, name, obj):
    items = yield
    if not inspect.iscoroutinefunction(obj) or not items:
        return items
    return [
        Looped.from_parent(collector, name=item.name, callobj=obj, originalname=item.originalname)
        for item in items
    ]
"""
ASYNC_PY = (
    "import asyncio\n\nfrom calc import add\n\n\nasync def test_async_sum() -> None:\n"
    "    await asyncio.sleep(0)\n    assert add(2, 3) == WANT\n"
)


@pytest.mark.pygate
def test_an_installed_plugins_own_item_class_runs_async_tests_as_they_are(
    make_repo: object, tmp_path: Path
) -> None:
    from support.hookkit import install_shims
    from support.pykata import FILES

    plugins = tmp_path / "site"
    plugins.mkdir()
    (plugins / "looped.py").write_text(LOOPED_PLUGIN, encoding="utf-8")
    env = {"PYTHONPATH": str(plugins), "PYTEST_PLUGINS": "looped"}
    # the policy lets the plugin's variables reach the gate (policy/gate_env.py)
    files = {**FILES, "tdd.yaml": "language: python\ngate:\n  env: [PYTHONPATH, PYTEST_PLUGINS]\n"}
    repo: Path = make_repo(files)  # type: ignore[operator]
    install_shims(repo)
    test = repo / "tests" / "test_async.py"
    test.write_text(ASYNC_PY.replace("WANT", "5"), encoding="utf-8")
    git(repo, "add", "-A")

    landed = commit(repo, msg("test", "an async test"), env=env)

    assert landed.returncode == 0, landed.stdout + landed.stderr
    assert "is not the function" not in landed.stdout + landed.stderr
    # and the plugin really runs the test: a red one is still red
    test.write_text(ASYNC_PY.replace("WANT", "6"), encoding="utf-8")
    git(repo, "add", "-A")
    before = head(repo)
    text = refused(commit(repo, msg("test", "a red async test"), env=env), "[green]", before, repo)
    assert "assert 5 == 6" in text
    assert "is not the function" not in text


def test_a_runtest_in_a_venv_inside_the_repository_is_the_toolchains(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a `.venv` inside the work tree holds installed plugins: their code is not the kata's; a
    # conftest in the snapshot, or a module of the work tree beside the venv, is
    from tddhooks.runners import python_defined
    from tddhooks.runners.python_places import WORK_TREE_VARIABLE

    tree, snapshot = tmp_path / "kata", tmp_path / "snapshot"
    venv = tree / ".venv"
    for folder in (venv, snapshot):
        folder.mkdir(parents=True)
    monkeypatch.setenv(WORK_TREE_VARIABLE, str(tree))
    monkeypatch.chdir(snapshot)
    for name in ("prefix", "exec_prefix"):
        monkeypatch.setattr(sys, name, str(venv))
    plugin = str(venv / "lib" / "python3.11" / "site-packages" / "pytest_asyncio" / "plugin.py")

    assert not python_defined._the_katas(plugin)
    assert python_defined._the_katas(str(snapshot / "tests" / "conftest.py"))
    assert python_defined._the_katas(str(tree / "helpers.py"))
    assert python_defined._the_katas("<string>")
    assert not python_defined._the_katas(str(tmp_path / "elsewhere" / "plugin.py"))
