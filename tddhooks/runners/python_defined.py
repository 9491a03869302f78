"""A pytest plugin the gate loads (`-p`) beside python_confine: a collected test runs the function
its file defines under its name, through a `runtest` the tree did not write.

pytest's public API lets a committed conftest point a collected test at another function
(`item.obj = …` in `pytest_collection_modifyitems`, or `request.node.obj = …` in an autouse
fixture) or replace its `runtest`: the test keeps its name and passes, so neither the outcome-hook
rule nor "every test ran" sees it, and a red test reads green. Such a test fails here instead, just
before it would run (docs/gate.md, "Committed tool configuration").

And whatever spelling registered them (a `def`, `globals()[…] = …`, a star import, a plugin
object), every pytest hook implementation whose code is the kata's is listed once collection is
done: unless the policy allows runner hooks (RUNNER_HOOKS_VARIABLE, set by the gate from
`python.runner_hooks: allow`), the test process ends there, exit 4, before any test runs.

An installed plugin's item class keeps its own `runtest` (pytest-asyncio's runs an `async def`
test through an event loop): only a `runtest` whose code lives in the snapshot, or in the work
tree outside the interpreter's own folders, is refused. Runs inside the kata's test process: only
pytest, the standard library and runners/python_places.py are imported.
"""

from __future__ import annotations

import os

import pytest

from tddhooks.runners.python_places import WORK_TREE_VARIABLE, interpreter_folders, within


def _function(obj: object) -> object:
    """A bound method's function; anything else itself."""
    return getattr(obj, "__func__", obj)


def _trees() -> tuple[str, ...]:
    """The folders whose code is the kata's, not the person's toolchain: the snapshot (pytest runs
    in it) and the work tree."""
    trees = [os.path.realpath(os.getcwd())]
    if os.environ.get(WORK_TREE_VARIABLE):
        trees.append(os.path.realpath(os.environ[WORK_TREE_VARIABLE]))
    return tuple(trees)


def _the_katas(code_file: str) -> bool:
    """Whether code from `code_file` is the kata's own (a conftest, a module of the tree), not an
    installed plugin's: a `.venv` inside the repository is the interpreter's, not the kata's."""
    where, trees = os.path.realpath(code_file), _trees()
    if any(within(where, folder) for folder in interpreter_folders(*trees)):
        return False
    return any(within(where, tree) for tree in trees) or not os.path.isabs(code_file)


RUNNER_HOOKS_VARIABLE = "TDDHOOKS_RUNNER_HOOKS"


def kata_hooks(config: pytest.Config) -> list[str]:
    """`<file>: <hook>` for every hook implementation pytest would call whose code is the
    kata's (the snapshot's or the work tree's), however it was registered."""
    manager = config.pluginmanager
    found = []
    for plugin in manager.get_plugins():
        for caller in manager.get_hookcallers(plugin) or ():
            for impl in caller.get_hookimpls():
                if impl.plugin is not plugin:
                    continue
                code = getattr(_function(impl.function), "__code__", None)
                where = code.co_filename if code is not None else ""
                if where and _the_katas(where):
                    shown = os.path.relpath(where) if os.path.isabs(where) else where
                    found.append(f"{shown}: {caller.name}")
    return sorted(set(found))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """End the test process (exit 4) before any test runs when the kata registered pytest hooks
    the policy does not allow: they could decide what a test runs or reports."""
    if os.environ.get(RUNNER_HOOKS_VARIABLE) == "allow":
        return
    found = kata_hooks(session.config)
    if not found:
        return
    import sys

    text = "\n" + "".join(
        f"ERROR the kata registers the pytest hook {item}: test-runner hooks are code the policy "
        "must allow: remove it, or commit `python.runner_hooks: allow` in tdd.yaml first "
        "(docs/policy.md)\n"
        for item in found
    )
    sys.stdout.write(text)
    sys.stdout.flush()
    os._exit(4)


def _runtest_of(item: pytest.Function) -> str | None:
    """Where the `runtest` that will run `item` is defined, when the kata wrote it."""
    if "runtest" in vars(item):
        return "its runtest was replaced"
    code = getattr(_function(type(item).runtest), "__code__", None)
    if code is not None and _the_katas(code.co_filename):
        return "its runtest was replaced"
    return None  # pytest's own, an installed plugin's, or not Python code


def swap(item: pytest.Item) -> str | None:
    """How the test `item` would run something other than the function its file defines for it,
    or None when it runs that function (or is not a pytest function at all: a doctest)."""
    if not isinstance(item, pytest.Function):
        return None
    replaced = _runtest_of(item)
    if replaced is not None:
        return replaced
    defined = getattr(getattr(item.parent, "obj", None), item.originalname, None)
    if defined is None or _function(item.obj) is not _function(defined):
        return "it was pointed at another function after collection"
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_call(item: pytest.Item) -> None:
    """Fail a swapped test before anything of it runs (the tree's own hooks for this call are
    refused by the gate; docs/hooks.md)."""
    how = swap(item)
    if how is None:
        return
    path, _, _ = item.nodeid.partition("::")
    name = getattr(item, "originalname", item.name)
    # with its traceback, so the report carries the whole line (the summary line is cut at 80)
    pytest.fail(
        f"what this test runs is not the function {path} defines as {name}: {how} (a conftest "
        'or fixture did it); the gate runs the tests the tree defines (docs/hooks.md, "Committed '
        'tool configuration")'
    )
