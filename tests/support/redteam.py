"""Data of the Rust red-team tests: tests and code built from one-line bodies, written with the
kata's crate name (the kata, git and commits are support.gatekit's)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from support.gatekit import UNHOOKED, commit, crate_of, git, head, message, refused, write

__all__ = ["UNHOOKED", "commit", "git", "head", "refused"]

SECRET = "sk-Rt7Qm2Xv9Lp4Wn6Kd3"


def msg(kind: str, summary: str) -> str:
    """A commit message with every section the TDD types need, for a Rust kata."""
    return message(kind, summary, check="cargo test")


def rust_test(name: str, text: str, want: int, crate: str = "CRATE") -> str:
    return f"#[test]\nfn {name}() {{\n    assert_eq!({crate}::add({text}), {want});\n}}\n"


def rust_code(body: str, extra: str = "") -> str:
    return f"//! kata\npub fn add(_text: &str) -> i32 {{\n    {body}\n}}\n{extra}"


def write_crate_files(repo: Path, files: Mapping[str, str]) -> None:
    crate = crate_of(repo)
    write(repo, {relative: text.replace("CRATE", crate) for relative, text in files.items()})


RED_ONE = rust_test("red_one", '"1"', 1)  # compiles, fails: add is 0 for everything
UNTESTED = rust_code("0", "\npub fn untested() -> i32 {\n    7\n}\n")
RED_PY = "from calc import add\n\n\ndef test_red_one() -> None:\n    assert add(1, 1) == 3\n"
