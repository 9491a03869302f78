"""Rust kata repositories for drive tests that run the real gate: each builds into its own target
folder (no shared CARGO_TARGET_DIR), as a person's gate does, and a crew of the real ports."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest

from support.fake_model import FakeModel
from support.repo import git, write_files
from tddhooks.drive.crew import Crew
from tddhooks.drive.ports import GitWorkspace, RealGate
from tddhooks.policy.settings import load_settings
from tddhooks.resources import read_template

MakeRepo = Callable[..., Path]
FIZZ_MANIFEST = '[package]\nname = "fizz"\nversion = "0.1.0"\nedition = "2021"\n'
PV_MANIFEST = FIZZ_MANIFEST.replace('"fizz"', '"pv"')
PV_KATA = read_template("katas/password-validation.md")


def probe_crew(repo: Path) -> Crew:
    """The real gate and git workspace with the repository's settings (what a probe reads)."""
    fields = {"gate": RealGate(), "workspace": GitWorkspace(), "root": repo,
              "settings": load_settings(repo)}  # fmt: skip
    return cast(Crew, SimpleNamespace(**fields))


def crate(
    make_repo: MakeRepo,
    monkeypatch: pytest.MonkeyPatch,
    lib: str,
    files: dict[str, str],
    manifest: str = FIZZ_MANIFEST,
) -> Path:
    """A Rust kata repository: `lib` as src/lib.rs, `files` beside it (its tests, kata.md)."""
    monkeypatch.delenv("CARGO_TARGET_DIR", raising=False)
    return make_repo({"tdd.yaml": "language: rust\n", "Cargo.toml": manifest, "src/lib.rs": lib,
                      **files})  # fmt: skip


LINT_MANIFEST = '[package]\nname = "lintfix"\nversion = "0.1.0"\nedition = "2021"\n'
LINT_ZERO = "pub fn score(_rolls: &[u32]) -> u32 {\n    0\n}\n"
# the tester's staged test, with a lint of its own: never the implementor's to change
LINT_TEST = (
    "use lintfix::score;\n\n#[test]\nfn zero() {\n    let rolls = vec![0; 20];\n"
    "    return assert_eq!(score(&rolls), 0);\n}\n"
)


def rust_repo_with_staged_test(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch, source: str
) -> Path:
    """A crate whose tester staged tests/zero.rs (with a lint of its own) and whose implementor
    left `source` in src/lib.rs, unstaged."""
    monkeypatch.delenv("CARGO_TARGET_DIR", raising=False)
    repo = make_repo(
        {"tdd.yaml": "language: rust\n", "Cargo.toml": LINT_MANIFEST, "src/lib.rs": LINT_ZERO}
    )
    write_files(repo, {"tests/zero.rs": LINT_TEST})
    git(repo, "add", "tests/zero.rs")
    write_files(repo, {"src/lib.rs": source})
    return repo


VALIDATE_SOURCE = "pub fn validate(_password: &str) -> Vec<String> {\n    vec![]\n}\n"


def validate_crate(make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A Rust kata crate `pv` whose `validate` returns an empty list."""
    monkeypatch.delenv("CARGO_TARGET_DIR", raising=False)
    files = {
        "tdd.yaml": "language: rust\n",
        "Cargo.toml": PV_MANIFEST,
        "src/lib.rs": VALIDATE_SOURCE,
    }
    return make_repo(files)


PV_TEST = (
    "use pv::validate;\n\n#[test]\nfn short_password() {\n"
    '    assert_eq!(validate("Abc1!"), vec!["must be at least 8 characters"]);\n}\n'
)
PV_KEPT = (
    "pub fn validate(password: &str) -> Vec<String> {\n"
    "    if password.chars().count() < 8 {\n"
    '        return vec!["must be at least 8 characters".to_string()];\n'
    "    }\n    vec![]\n}\n"
)


def pv_models(
    sources: tuple[str, ...],
    refactors: tuple[str, ...] = (),
    tests: tuple[str, ...] = (PV_TEST,),
    test_path: str = "tests/short_password.rs",
) -> dict[str, FakeModel]:
    """The tester's `tests` in turn, the implementor's `sources`, the refactorer's `refactors`
    and then nothing to tidy, each answer queued (tests/support/fake_model.py)."""
    models = {role: FakeModel(role) for role in ("tester", "implementor", "refactorer")}
    models["tester"].enqueue(*(
        {"plan": "the next rule", "edits": [{"path": test_path, "content": test}]}
        for test in tests
    ))  # fmt: skip
    commit = {"type": "feat", "scope": "length", "summary": "a short password is refused"}
    models["implementor"].enqueue(*(
        {"plan": "check the length", "edits": [{"path": "src/lib.rs", "content": source}],
         "commit": commit}
        for source in sources
    ))  # fmt: skip
    models["refactorer"].enqueue(*(
        {"plan": "tidy", "edits": [{"path": "src/lib.rs", "content": source}],
         "commit": {"type": "refactor", "scope": "length", "summary": "tidy the check"}}
        for source in refactors
    ), {"plan": "nothing to tidy", "edits": []})  # fmt: skip
    return models


def pv_repo(make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch, lib: str) -> Path:
    """The password-validation kata as a crate `pv` with `lib` as src/lib.rs."""
    monkeypatch.delenv("CARGO_TARGET_DIR", raising=False)
    return make_repo(
        {"tdd.yaml": "language: rust\n", "Cargo.toml": PV_MANIFEST, "src/lib.rs": lib,
         "kata.md": PV_KATA}
    )  # fmt: skip
