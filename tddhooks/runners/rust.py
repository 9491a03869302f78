"""The Rust runner: cargo fmt, cargo clippy -D warnings, cargo test; a zero-dependency scaffold."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from tddhooks.runners.common import FALLBACK_NAME, name_words, write_scaffold

TYPE_CHECKING = False  # not typing's: importing typing costs the hook path ~10 ms; mypy reads it
if TYPE_CHECKING:
    from tddhooks.runners.base import RunnerCommands, TestReport

# cargo refuses these as package names (keywords, the built-in crates, its own directories)
_RESERVED = frozenset((
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum",
    "extern", "false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move",
    "mut", "pub", "ref", "return", "self", "super", "static", "struct", "trait", "true", "type",
    "unsafe", "use", "where", "while", "abstract", "become", "box", "do", "final", "gen", "macro",
    "override", "priv", "try", "typeof", "unsized", "virtual", "yield", "test", "core", "std",
    "alloc", "proc_macro", "proc-macro", "deps", "examples", "build", "incremental", "con", "prn",
    "aux", "nul", "com1", "lpt1",
))  # fmt: skip


def code_only(text: str) -> str:
    """Rust source with comments removed and string/char literals emptied."""
    from tddhooks.runners.rust_lexer import NOISE, block_comment_end

    parts: list[str] = []
    position = 0
    while match := NOISE.search(text, position):
        parts.append(text[position : match.start()])
        token = match.group(0)
        if token == "/*":
            position = block_comment_end(text, match.end())
            parts.append(" ")
            continue
        parts.append(" " if token.startswith("//") else '""')
        position = match.end()
    parts.append(text[position:])
    return "".join(parts)


def rust_test_names(files: Mapping[str, str]) -> set[str]:
    """'<path>::<module path in the file>::<fn>' for every #[test] function in the .rs files
    given (path -> text) that cargo builds from the top (runners/rust_workspace.py, when the
    manifests are among them): `src/lib.rs::tests::adds_two`, `tests/add.rs::adds_two`."""
    from tddhooks.runners.rust_items import read_items
    from tddhooks.runners.rust_workspace import built_files

    names: set[str] = set()
    for path, text in built_files(files).items():
        if path.endswith(".rs") and "test" in text:
            names.update(f"{path}::{test.name}" for test in read_items(text).tests)
    return names


def crate_name(project_name: str) -> str:
    """A package name cargo accepts: "Bowling Kata!" -> "bowling-kata", "2048" -> "kata-2048"."""
    name = "-".join(name_words(project_name)) or FALLBACK_NAME
    if name[0].isdigit():
        name = f"{FALLBACK_NAME}-{name}"
    if name in _RESERVED:
        name = f"{name}-{FALLBACK_NAME}"
    return name


@cache
def _toolchain_version() -> str:
    from tddhooks import proc

    parts = []
    for tool in ("rustc", "cargo"):
        result = proc.run([tool, "--version"], timeout_s=60)
        parts.append(result.stdout.strip() if result.ok else f"{tool}: unavailable")
    return "; ".join(parts)


class RustRunner:
    """cargo, rustfmt and clippy; tests live in tests/*.rs and in `#[cfg(test)]` modules."""

    name = "rust"
    test_globs: tuple[str, ...] = ("tests/**",)
    source_globs: tuple[str, ...] = ("src/**", "Cargo.toml")
    skip_markers: tuple[re.Pattern[str], ...] = (
        re.compile(r"#\s*!?\s*\[\s*ignore\b"),  # also `#[ignore = "why"]`
        re.compile(r"#\s*!?\s*\[\s*cfg_attr\s*\(.*\bignore\b"),
        # a test compiled out: `#[cfg(any())]`, `#[cfg(not(all()))]`
        re.compile(r"#\s*!?\s*\[\s*cfg\s*\(\s*(?:any\s*\(\s*\)|not\s*\(\s*all\s*\(\s*\)\s*\))"),
    )
    tool_names: tuple[str, ...] = ("cargo", "cargo-clippy", "rustfmt")

    def default_commands(self) -> RunnerCommands:
        """cargo fmt --check, clippy with warnings as errors, and every test binary."""
        from tddhooks.runners.base import RunnerCommands

        return RunnerCommands(
            fmt_check=("cargo", "fmt", "--all", "--", "--check"),
            fmt_fix=("cargo", "fmt", "--all"),
            lint=("cargo", "clippy", "--all-targets", "--quiet", "--", "-D", "warnings"),
            # --no-fail-fast: every binary runs, so every failing test is named, not just the first
            test=("cargo", "test", "--all", "--no-fail-fast"),
            timeout_s=300.0,
            # the lib and bin targets only: never a test file (the tester's). --broken-code:
            # rustc's machine-applicable suggestions for errors too (`*roll == 0` for
            # `roll == 0` on a `&u32`, a missing `mut`); without it nothing is fixed while the
            # code does not compile (docs/runners.md)
            lint_fix=(
                "cargo",
                "clippy",
                "--fix",
                "--broken-code",
                "--allow-dirty",
                "--allow-staged",
                "--allow-no-vcs",
                "--quiet",
            ),
        )

    def env(self, target_dir: Path | None) -> dict[str, str]:
        """Plain, parseable output, built into `target_dir` whatever CARGO_TARGET_DIR says: cargo's
        fingerprints do not name the package's folder, so in a folder shared with the work tree
        (or another kata) the snapshot's older sources counted as built, and the person's own
        `cargo test` of unstaged code passed for the staged tree (docs/runners.md). Cargo's
        `build.build-dir` (stable since 1.91; the variable or a config file) keeps the
        fingerprints, so it goes to the same folder (its default), overriding any setting."""
        # CARGO_NET_RETRY=0: offline, a dependency fetch fails in a second instead of ~12 s of
        # retries per step; the gate reports it as an environment problem (never cached), and
        # `cargo fetch` once while online is the fix (docs/install.md)
        extra = {"CARGO_TERM_COLOR": "never", "RUST_BACKTRACE": "0", "CARGO_NET_RETRY": "0"}
        if target_dir is not None:
            extra["CARGO_TARGET_DIR"] = str(target_dir)
            extra["CARGO_BUILD_BUILD_DIR"] = str(target_dir)
        return extra

    def parse_test_output(self, output: str, exit_code: int) -> TestReport:
        """Counts, names, panics and rustc errors from `cargo test` output."""
        # imported here: the commit-msg hook reads test names, never test output
        from tddhooks.runners.libtest import parse_cargo_test

        return parse_cargo_test(output, exit_code)

    def test_names(self, files: Mapping[str, str]) -> set[str]:
        """Static '<path>::<fn>' names of #[test] functions."""
        return rust_test_names(files)

    def toolchain_version(self) -> str:
        """`rustc --version; cargo --version`, asked once per process."""
        return _toolchain_version()

    def scaffold(self, dest: Path, project_name: str) -> list[str]:
        """Cargo.toml, Cargo.lock, src/lib.rs and tests/.gitkeep: green under fmt, clippy, test."""
        package = crate_name(project_name)
        replacements = {"project": package, "crate": package.replace("-", "_")}
        return write_scaffold("rust", dest, replacements)
