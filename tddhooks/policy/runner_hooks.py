"""Committed test-runner hooks need the policy's consent (Python katas; reads the snapshot).

A committed `conftest.py`, or a plugin module one loads (`pytest_plugins`, `-p` in the tree's
pytest `addopts`), runs inside pytest with every test object in reach: a hook that swaps each
test's `item.obj.__code__` for a no-op makes a red tree green, and so does the next spelling of it.
So such a module may hold fixtures, constants and imports, but no pytest hook function and no
reach into test objects, unless the parent commit's `tdd.yaml` says `python.runner_hooks: allow`.
And no file of the tree may rewrite a function's code (`__code__`, `__globals__`, …). Decided
from each module's syntax tree, not its text (docs/gate.md, "Committed test-runner hooks").
"""

from __future__ import annotations

import ast
import shlex
from collections.abc import Iterator, Mapping
from pathlib import Path

from tddhooks.limits import read_tree_file

# what a function is made of: whoever rewrites it decides what a test runs
_FUNCTION_PARTS = frozenset(
    {"__code__", "__globals__", "__closure__", "__defaults__", "__kwdefaults__", "__func__"}
)
# pytest's objects that run or report a test: items, their functions, reports, outcomes, the hooks
_RUNNER_PARTS = frozenset(
    {
        "obj",
        "_obj",
        "callobj",
        "runtest",
        "ihook",
        "hook",
        "pluginmanager",
        "outcome",
        "longrepr",
        "wasxfail",
        "get_result",
        "force_result",
        "hookimpl",
        "hookwrapper",
        "from_parent",
        "add_marker",
    }
)
_DYNAMIC = frozenset({"exec", "eval", "compile", "__import__", "setattr", "delattr"})
_RUNNER_INTERNALS = ("_pytest", "pluggy")
_ADVICE = (
    "test-runner hooks are code the policy must allow: remove it, or commit "
    "`python.runner_hooks: allow` in tdd.yaml first (docs/policy.md)"
)


def runner_hook_findings(
    files: Mapping[str, str], addopts: str = "", *, hooks_allowed: bool = False
) -> list[str]:
    """One sentence per finding, with its fix: pytest hooks or reaches into test objects in the
    tree's conftest files and the plugins they load (unless hooks_allowed), and any file that
    rewrites a function's code. `files` maps "/"-separated paths to Python source; `addopts` is
    the tree's pytest addopts."""
    found: list[str] = []
    if not hooks_allowed:
        for path in sorted(_runner_modules(files, addopts)):
            found += [
                f"the committed {path} {what}; {_ADVICE}" for what in _runner_uses(files[path])
            ]
    for path, text in sorted(files.items()):
        if path.endswith(".py"):
            found += [
                f"the committed {path} {what}; a test must run the code it names, so no file may "
                "rewrite a function's parts"
                for what in _surgery(text)
            ]
    return list(dict.fromkeys(found))


def tree_addopts(workdir: Path) -> str:
    """The addopts of the pytest configuration the gate pins for the tree at workdir."""
    from tddhooks.runners.python_pins import pytest_config

    config = pytest_config(workdir)
    if config is None:
        return ""
    text = read_tree_file(config, workdir)
    if text is None:
        return ""
    if config.suffix == ".toml":
        import tomllib

        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            return ""
        tool = data.get("tool", {}) if config.name == "pyproject.toml" else {"pytest": data}
        section = tool.get("pytest", {}) if isinstance(tool, dict) else {}
        if isinstance(section, dict) and isinstance(section.get("ini_options"), dict):
            section = section["ini_options"]
        value = section.get("addopts", "") if isinstance(section, dict) else ""
        return " ".join(value) if isinstance(value, list) else str(value)
    import configparser

    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error:
        return ""
    for section in ("pytest", "tool:pytest"):
        if parser.has_option(section, "addopts"):
            return parser.get(section, "addopts")
    return ""


def _runner_modules(files: Mapping[str, str], addopts: str) -> set[str]:
    """conftest.py files, and the tree's modules they or addopts load as plugins (transitively)."""
    pending = [path for path in files if Path(path).name == "conftest.py"]
    pending += [path for name in _addopts_plugins(addopts) for path in _module_files(files, name)]
    seen: set[str] = set()
    while pending:
        path = pending.pop()
        if path in seen:
            continue
        seen.add(path)
        for name in _declared_plugins(files[path]):
            pending += _module_files(files, name)
    return seen


def _addopts_plugins(addopts: str) -> list[str]:
    try:
        words = shlex.split(addopts)
    except ValueError:
        words = addopts.split()
    names = []
    for index, word in enumerate(words):
        if word == "-p" and index + 1 < len(words):
            names.append(words[index + 1])
        elif word.startswith("-p") and len(word) > 2:
            names.append(word[2:])
    return [name for name in names if not name.startswith("no:")]


def _module_files(files: Mapping[str, str], dotted: str) -> list[str]:
    """The tree's files that `import dotted` could load, wherever its import root is."""
    tail = dotted.replace(".", "/")
    endings = (f"{tail}.py", f"{tail}/__init__.py")
    nested = tuple(f"/{ending}" for ending in endings)
    return [path for path in files if path in endings or path.endswith(nested)]


def _parsed(text: str) -> ast.Module | None:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError):
        return None  # pytest reports it itself: the tree is red


def _declared_plugins(text: str) -> list[str]:
    """The names a module's `pytest_plugins = …` declares."""
    tree = _parsed(text)
    if tree is None:
        return []
    names: list[str] = []
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign | ast.AugAssign):
            targets = [node.target]
        if not any(isinstance(t, ast.Name) and t.id == "pytest_plugins" for t in targets):
            continue
        value = getattr(node, "value", None)
        for item in ast.walk(value) if value is not None else ():
            if isinstance(item, ast.Constant) and isinstance(item.value, str):
                names.append(item.value)
    return names


def _runner_uses(text: str) -> Iterator[str]:
    """What in a runner module (a conftest or plugin) is a hook or reaches into the runner."""
    tree = _parsed(text)
    if tree is None:
        return
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            if node.name.startswith("pytest_"):
                yield f"implements the pytest hook {node.name} (line {line})"
        elif isinstance(node, ast.Attribute) and node.attr in _RUNNER_PARTS | _FUNCTION_PARTS:
            yield f"reaches into the test runner's objects (.{node.attr}, line {line})"
        elif isinstance(node, ast.Import | ast.ImportFrom):
            modules = [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom):
                modules.append(node.module or "")
                modules += [alias.name for alias in node.names if alias.name == "hookimpl"]
            for module in modules:
                if module.split(".")[0] in _RUNNER_INTERNALS or module == "hookimpl":
                    yield f"imports the test runner's internals ({module}, line {line})"
        elif isinstance(node, ast.Call):
            yield from _dynamic_call(node, _RUNNER_PARTS | _FUNCTION_PARTS, strict=True)
        elif isinstance(node, ast.keyword) and node.arg == "specname":
            yield f"names a pytest hook through specname= (line {line})"


def _surgery(text: str) -> Iterator[str]:
    """Where any module reads or writes a function's parts (`f.__code__ = …`)."""
    if not any(part in text for part in _FUNCTION_PARTS):
        return  # cheap: nearly every file says none of these names at all
    tree = _parsed(text)
    if tree is None:
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in _FUNCTION_PARTS:
            yield f"rewrites or reads a function's {node.attr} (line {node.lineno})"
        elif isinstance(node, ast.Call):
            yield from _dynamic_call(node, _FUNCTION_PARTS, strict=False)


def _dynamic_call(node: ast.Call, names: frozenset[str], *, strict: bool) -> Iterator[str]:
    """getattr/setattr/… naming one of `names` by a string; strict: any exec, eval, setattr or
    attribute access by a computed name counts too."""
    builtin = isinstance(node.func, ast.Name)
    called = node.func.id if isinstance(node.func, ast.Name) else None
    if isinstance(node.func, ast.Attribute):  # monkeypatch.setattr, importlib.import_module
        called = node.func.attr
    line = node.lineno
    if called in ("getattr", "setattr", "delattr", "hasattr") and len(node.args) >= 2:
        name = node.args[1]
        if isinstance(name, ast.Constant) and isinstance(name.value, str):
            if name.value in names:
                yield f"reaches into {name.value} through {called}() (line {line})"
        elif strict and builtin:
            yield f"calls {called}() with a computed attribute name (line {line})"
        return
    if strict and ((builtin and called in _DYNAMIC) or called == "import_module"):
        yield f"runs code it builds at run time ({called}(), line {line})"
