"""The implementor and the refactorer keep the kata's Interface section (drive/interface.py
`broken_interface`), and the implementor is told its signature rather than a guess from the test
(agents/expectations.py). Measured: told `Vec<&str>` (guessed from `vec!["…"]`), the 1.5B
implementor's first Password Validation commit declared it where the kata says `Vec<String>`;
every later `assert_eq!(validate(…), vec![])` failed with E0282, which no code can fix, and the
hidden acceptance tests could not call it. Real git, cargo and gate; the models' answers queued."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from support.crates import PV_KATA as KATA
from support.crates import PV_KEPT as KEPT
from support.crates import PV_TEST as TEST
from support.crates import pv_models as _models
from support.crates import pv_repo as _repo
from support.e2e_kit import git
from support.fake_drive import one_cycle
from support.fake_model import FakeModel

MakeRepo = Callable[..., Path]
# green against TEST as well: only the interface tells them apart
BROKEN = (
    "pub fn validate(password: &str) -> Vec<&str> {\n"
    "    if password.chars().count() < 8 {\n"
    '        return vec!["must be at least 8 characters"];\n'
    "    }\n    vec![]\n}\n"
)
RENAMED = KEPT.replace("(password: &str)", "(_password: &str)").replace(
    "password.chars()", "_password.chars()"
)
WANTED = "pub fn validate(password: &str) -> Vec<String>"


@pytest.mark.cargo
def test_an_implementor_changing_the_katas_types_is_refused_and_told_the_signature(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(make_repo, monkeypatch, "//! The pv kata.\n")
    models = _models((BROKEN, KEPT), refactors=(BROKEN,))

    one_cycle(repo, models)

    first, second = (asked.user for asked in models["implementor"].asked)
    assert f"The kata's Interface section fixes its signature: `{WANTED}`" in first
    assert "types guessed from the test" not in first
    assert "src/lib.rs declares `pub fn validate(password: &str) -> Vec<&str>`" in second
    assert f"the kata's Interface section fixes `{WANTED}`" in second
    assert git(repo, "log", "-1", "--format=%s").stdout.startswith("feat(length): ")
    assert git(repo, "show", "HEAD:src/lib.rs").stdout == KEPT
    # the refactorer may not change it either: refused, and the tree stays at the commit
    assert len(models["refactorer"].asked) == 2
    assert "declares `pub fn validate(password: &str) -> Vec<&str>`" in (
        models["refactorer"].asked[1].user
    )
    assert (repo / "src/lib.rs").read_text(encoding="utf-8") == KEPT
    assert git(repo, "status", "--porcelain", "--untracked-files=no").stdout == ""


@pytest.mark.cargo
def test_other_parameter_names_keep_the_interface(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(make_repo, monkeypatch, "//! The pv kata.\n")
    models = _models((RENAMED,))

    one_cycle(repo, models)

    assert len(models["implementor"].asked) == 1
    assert git(repo, "show", "HEAD:src/lib.rs").stdout == RENAMED


@pytest.mark.cargo
def test_a_library_a_person_already_changed_is_not_second_guessed(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    persons = "pub fn validate(password: &str) -> Vec<&str> {\n    let _ = password;\n    vec![]\n}"
    repo = _repo(make_repo, monkeypatch, persons)
    models = _models((BROKEN,))

    one_cycle(repo, models)

    assert len(models["implementor"].asked) == 1
    assert git(repo, "show", "HEAD:src/lib.rs").stdout == BROKEN
    assert "types guessed from the test" in models["implementor"].asked[0].user
    assert "Interface section fixes its signature" not in models["implementor"].asked[0].user


@pytest.mark.cargo
@pytest.mark.parametrize("lib", [KEPT, RENAMED])
def test_a_tester_comparing_with_an_untyped_empty_vec_is_told_how_to_type_it(
    lib: str, make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """E0282 in the test itself: no implementation can fix it. Measured twice in one drive, on a
    library whose only difference from the kata was `_password`, which turned the check off."""
    from support.e2e_kit import write_files

    from tddhooks.drive.interface import interface_mismatch
    from tddhooks.drive.ports import RealGate
    from tddhooks.policy.settings import load_settings

    repo = _repo(make_repo, monkeypatch, lib)
    untyped = TEST.replace('validate("Abc1!"), vec!["must be at least 8 characters"]',
                           'validate("Abcdef1!"), vec![]')  # fmt: skip
    write_files(repo, {"tests/short_password.rs": untyped})
    git(repo, "add", "tests/short_password.rs")
    settings = load_settings(repo)
    verdict = RealGate().staged(repo, settings)
    paths = ["tests/short_password.rs"]

    why = interface_mismatch(RealGate(), repo, settings, KATA, paths, verdict)

    assert why is not None
    assert "error[E0282]" in why
    assert "write the expected value with its type (`Vec::<String>::new()`)" in why


@pytest.mark.cargo
def test_a_refused_edit_puts_back_the_handed_over_unit_test_beside_the_code(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The test lives in src/lib.rs (`#[cfg(test)] mod tests`), the file the refused edit wrote:
    after the refusal the staged test is there again, in the index and the work tree."""
    from support.shapekit import RUST_UNIT, SUB_CODE, SUB_TEST

    lib = RUST_UNIT["src/lib.rs"]
    with_test = lib.removesuffix("    }\n}\n") + "    }\n" + SUB_TEST
    with_code = with_test.replace("\n#[cfg(test)]", SUB_CODE + "\n#[cfg(test)]")
    wider = with_code.replace("sub(a: i32, b: i32) -> i32", "sub(a: i64, b: i64) -> i64")
    without_test = lib.replace("\n#[cfg(test)]", SUB_CODE + "\n#[cfg(test)]")
    monkeypatch.delenv("CARGO_TARGET_DIR", raising=False)
    kata = "# Calc\n\n## Interface\n\n- Rust: `pub fn sub(a: i32, b: i32) -> i32`.\n\n"
    kata += "## Requirements\n\n1. Subtract two numbers.\n"
    repo = make_repo({"tdd.yaml": "language: rust\n", "Cargo.toml": RUST_UNIT["Cargo.toml"],
                      "src/lib.rs": lib, "kata.md": kata})  # fmt: skip
    models = {role: FakeModel(role) for role in ("tester", "implementor", "refactorer")}
    models["tester"].enqueue(
        {"plan": "sub", "edits": [{"path": "src/lib.rs", "content": with_test}]}
    )
    commit = {"type": "feat", "scope": "sub", "summary": "subtract two numbers"}
    models["implementor"].enqueue(*(
        {"plan": plan, "edits": [{"path": "src/lib.rs", "content": source}], "commit": commit}
        for plan, source in (("wider", wider), ("code only", without_test), ("sub", with_code))
    ))  # fmt: skip
    models["refactorer"].enqueue({"plan": "nothing to tidy", "edits": []})

    one_cycle(repo, models)

    asked = [question.user for question in models["implementor"].asked]
    assert len(asked) == 3
    assert "declares `pub fn sub(a: i64, b: i64) -> i64`" in asked[1]
    # the second attempt dropped the test: refused only because the first put it back
    assert "it changes the tests in src/lib.rs" in asked[2]
    assert git(repo, "show", "HEAD:src/lib.rs").stdout == with_code
    assert git(repo, "status", "--porcelain", "--untracked-files=no").stdout == ""
