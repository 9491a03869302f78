"""The domain's names, in one place: the roles, and the files that make a project of a language.

Stdlib only and free of side effects: the hooks, the policy, the drive and the CLI all read it.
"""

from __future__ import annotations

from collections.abc import Iterable

# role name (CLI, tdd.yaml, step files) -> title (the `Role:` line of a commit message)
ROLE_TITLES = {"tester": "Tester", "implementor": "Implementor", "refactorer": "Refactorer"}
ROLE_NAMES = tuple(ROLE_TITLES)
ROLES = tuple(ROLE_TITLES.values())

# a feat or fix commit closes a red-green cycle
FEATURE_TYPES = ("feat", "fix")

# the manifest that marks a project of the language (scaffold detection, language detection),
# in the order they are looked for
MANIFESTS = {"rust": ("Cargo.toml",), "python": ("pyproject.toml", "setup.py")}

# the files that say a project is written in the language (language detection; a project with
# files of two languages must set `language:`); wider than MANIFESTS, which mark a scaffold
# the drive's scratch folder in a kata repository (step logs, set-aside tests), git-ignored
SCRATCH = ".tdd"

LANGUAGE_FILES = {
    "rust": ("Cargo.toml",),
    "python": ("pyproject.toml", "setup.cfg", "setup.py", "requirements.txt"),
}

# the formatter a person runs, as hints name it (a `style:` commit is what it makes of the code)
FORMATTERS = {"rust": "cargo fmt", "python": "ruff format"}
# the linter's own fixer whose safe fixes a style: commit may apply to tests too
LINT_FIXERS = {"python": "ruff check --fix"}

# the files the language's code and static test names live in
CODE_SUFFIXES = {"rust": (".rs",), "python": (".py",)}
# the files that say which modules hold tests (pytest's python_files: runners/python_items.py;
# cargo's workspace members: runners/rust_workspace.py)
TEST_CONFIG_FILES = {
    "rust": ("Cargo.toml",),
    "python": ("pyproject.toml", "pytest.ini", "tox.ini", "setup.cfg"),
}

# what a `build:` commit may change: manifests, lock files and the toolchain's configuration
# (globs; no '/' matches at any depth). Not build.rs: cargo compiles and runs it before the
# crate, and what it writes (include!(concat!(env!("OUT_DIR"), …))) is the crate's code, so it is
# source code for the type rules (docs/policy.md)
BUILD_FILES = {
    "rust": (
        "Cargo.toml",
        "Cargo.lock",
        "rust-toolchain",
        "rust-toolchain.toml",
        "**/.cargo/config",
        "**/.cargo/config.toml",
        "rustfmt.toml",
        ".rustfmt.toml",
        "clippy.toml",
        ".clippy.toml",
    ),
    "python": (
        "pyproject.toml",
        "setup.py",
        "setup.cfg",
        "requirements*.txt",
        "pytest.ini",
        "tox.ini",
        "ruff.toml",
        ".ruff.toml",
    ),
}


def role_title(role: str) -> str | None:
    """The title of a role given by name or title, any case; None for an unknown role."""
    wanted = role.strip().lower()
    return next((title for title in ROLES if title.lower() == wanted), None)


def languages_of(names: Iterable[str]) -> dict[str, list[str]]:
    """language -> the manifest files among `names` (top-level file names) that point to it
    (pure: callers list a work tree, a commit or the index)."""
    present = set(names)
    found: dict[str, list[str]] = {}
    for language, manifests in LANGUAGE_FILES.items():
        matching = [name for name in manifests if name in present]
        if matching:
            found[language] = matching
    return found


# the project files `tddhooks install --agent` writes (agenthooks/formats.py AGENTS' configs):
# never a person's unfinished work, never held against the agent
AGENT_CONFIG_FILES = frozenset((
    ".claude/settings.json", ".codex/config.toml", ".openhands/hooks.json", ".cursor/hooks.json",
    ".gemini/settings.json", ".aider.conf.yml",
))  # fmt: skip


def languages_by_files(paths: Iterable[str]) -> dict[str, list[str]]:
    """Without a manifest at the top: the language most of the tracked code files are written in
    (a `Cargo.toml` below the top counts for Rust), as language -> [why]; both on a tie, none
    without code (pure: callers list a work tree, a commit or the index)."""
    counts = dict.fromkeys(CODE_SUFFIXES, 0)
    for path in paths:
        name = path.rsplit("/", 1)[-1]
        for language, suffixes in CODE_SUFFIXES.items():
            if name.endswith(suffixes) or name in MANIFESTS[language]:
                counts[language] += 1
    most = max(counts.values(), default=0)
    if not most:
        return {}
    return {
        language: [f"{count} tracked {language} file(s), no manifest at the top"]
        for language, count in counts.items()
        if count == most
    }


def crate_folders(paths: Iterable[str]) -> list[str]:
    """The folders holding a `Cargo.toml` below the top, sorted (pure): without a root one, a
    folder of crates that cargo cannot build as one project."""
    return sorted(
        {path.rsplit("/", 1)[0] for path in paths if path.endswith("/Cargo.toml")},
    )
