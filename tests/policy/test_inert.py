"""A change of documentation that nothing in the tree names takes the parent tree's verdict
(real git trees; no gate runs)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tddhooks.policy.inert import inert_change
from tddhooks.policy.settings import settings_from_text

RUST = settings_from_text("language: rust\n")
PYTHON = settings_from_text("language: python\n")


def _tree(repo: Path, files: dict[str, str]) -> str:
    for relative, text in files.items():
        path = repo / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    return subprocess.run(
        ["git", "write-tree"], cwd=repo, check=True, capture_output=True, text=True
    ).stdout.strip()


def test_only_unread_documentation_is_inert(make_repo: object) -> None:
    repo = make_repo()  # type: ignore[operator]
    base = _tree(repo, {"src/lib.rs": "pub fn f() {}\n", "README.md": "# kata\n"})
    readme = _tree(repo, {"README.md": "# kata\n\nmore words\n", "docs/notes.rst": "x\n"})
    assert inert_change(repo, base, readme, RUST)
    code = _tree(repo, {"src/lib.rs": "pub fn g() {}\n"})
    assert not inert_change(repo, readme, code, RUST)
    # a doc test reads the README: a change of it is a change of the tests
    included = _tree(repo, {"src/lib.rs": '#![doc = include_str!("../README.md")]\n'})
    edited = _tree(repo, {"README.md": "# kata\n\n```\nassert!(false);\n```\n"})
    assert not inert_change(repo, included, edited, RUST)


def test_globs_test_data_and_build_files_are_not_inert(make_repo: object) -> None:
    repo = make_repo()  # type: ignore[operator]
    config = '[tool.pytest.ini_options]\naddopts = "--doctest-glob=*.md"\n'
    base = _tree(repo, {"pyproject.toml": config, "a.md": "x\n"})
    assert not inert_change(repo, base, _tree(repo, {"a.md": "y\n"}), PYTHON)  # *.md is named
    plain = make_repo(name="plain")  # type: ignore[operator]
    first = _tree(plain, {"requirements.txt": "\n", "tests/data.txt": "1\n", "m.py": "X = 1\n"})
    assert not inert_change(plain, first, _tree(plain, {"requirements.txt": "pytest\n"}), PYTHON)
    assert not inert_change(plain, first, _tree(plain, {"tests/data.txt": "2\n"}), PYTHON)
