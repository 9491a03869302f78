"""Whether two trees differ only in documentation nothing in the tree reads (docs/policy.md,
"Docs-only commits"): then the gate's verdict of one is the verdict of the other.

A changed file is inert when it is documentation by its name (`*.md`, `*.rst`, `*.adoc`,
`*.txt`), is neither a test path nor a build file of the language, and neither its name nor a
glob of its kind (`*.md`) appears in any other file of the new tree: a Rust
`include_str!("../README.md")` doc test, pytest's `--doctest-glob='*.md'`, a test that opens
the file, all name it. One `git diff` and one `git grep`.
"""

from __future__ import annotations

from pathlib import Path

from tddhooks import git
from tddhooks.policy.globs import matches_any
from tddhooks.policy.settings import PolicySettings
from tddhooks.vocabulary import BUILD_FILES

DOC_SUFFIXES = (".md", ".markdown", ".rst", ".adoc", ".txt")


def is_doc_path(path: str, settings: PolicySettings) -> bool:
    """Documentation by its name, and no test path or build file (requirements.txt is one)."""
    return (
        path.lower().endswith(DOC_SUFFIXES)
        and not matches_any(path, settings.test_paths)
        and not matches_any(path, BUILD_FILES.get(settings.language, ()))
    )


def inert_change(root: Path, old_tree: str, new_tree: str, settings: PolicySettings) -> bool:
    """Whether new_tree differs from old_tree only in documentation that nothing in new_tree
    names (so no build, lint or test of it can read it)."""
    listed = git.run_git(
        ["diff", "--name-only", "-z", "--no-renames", old_tree, new_tree], root, check=False
    )
    paths = [path for path in listed.stdout.split("\0") if path]
    if not listed.ok or not paths or not all(is_doc_path(path, settings) for path in paths):
        return False
    names = {path.rsplit("/", 1)[-1] for path in paths}
    kinds = {"*" + Path(name).suffix for name in names if Path(name).suffix}
    patterns = [arg for text in sorted(names | kinds) for arg in ("-e", text)]
    excluded = [f":(exclude,glob,icase)**/*{suffix}" for suffix in DOC_SUFFIXES]
    found = git.run_git(
        ["grep", "-q", "-I", "-F", *patterns, new_tree, "--", ".", *excluded], root, check=False
    )
    return found.returncode == 1  # 1: no file names them; 0 found, >1 an error
