"""No module of the package imports another module's private (`_name`) names, at the top or
inside a function: a name another module needs is public (docs/dev/layers.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import tddhooks

PACKAGE = Path(tddhooks.__file__).parent


def private_imports(source: str) -> list[str]:
    """`module._name` for each private name `source` imports from the package (pure)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tddhooks"):
            found += [
                f"{node.module}.{alias.name}"
                for alias in node.names
                if alias.name.startswith("_") and not alias.name.startswith("__")
            ]
        elif isinstance(node, ast.Import):
            found += [
                alias.name
                for alias in node.names
                if alias.name.startswith("tddhooks")
                and any(part.startswith("_") and not part.startswith("__")
                        for part in alias.name.split("."))
            ]  # fmt: skip
    return found


def test_the_reader_finds_private_names_wherever_they_are_imported() -> None:
    source = (
        "from tddhooks.policy.facts import _header_path, staged_facts\n"
        "def f():\n    from tddhooks.runners.rust import _NOISE as noise\n"
        "import tddhooks.drive._hidden\nfrom tddhooks import __version__\nfrom os import _exit\n"
    )
    assert sorted(private_imports(source)) == [
        "tddhooks.drive._hidden",
        "tddhooks.policy.facts._header_path",
        "tddhooks.runners.rust._NOISE",
    ]


def test_no_module_imports_another_modules_private_names() -> None:
    found = {
        str(path.relative_to(PACKAGE)): names
        for path in sorted(PACKAGE.rglob("*.py"))
        if (names := private_imports(path.read_text(encoding="utf-8")))
    }
    assert found == {}
