"""A Rust implementor change that measures a string parameter in bytes, in a kata that counts
characters, is sent back naming its expression (drive/bytecount.py). Measured (r53, r55,
Password Validation): `password.len() < 8` landed, with the hint in the prompt in r55. The drive
test runs the real cargo gate."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from support.crates import crate as _crate
from support.fake_drive import one_cycle
from support.fake_model import FakeModel

from tddhooks.drive.bytecount import REFACTOR_BYTES, byte_lengths
from tddhooks.drive.misplaced import BYTES, Tells
from tddhooks.resources import read_template

MakeRepo = Callable[..., Path]
PV = read_template("katas/password-validation.md")
SHORT = "must be at least 8 characters"
HEAD = "pub fn validate(_password: &str) -> Vec<String> {\n    Vec::new()\n}\n"


def _lib(length: str) -> str:
    return (
        "pub fn validate(password: &str) -> Vec<String> {\n    let mut errors = Vec::new();\n"
        f'    if {length} < 8 {{\n        errors.push("{SHORT}".to_string());\n    }}\n'
        "    errors\n}\n"
    )


BYTES_LIB, CHARS_LIB = _lib("password.len()"), _lib("password.chars().count()")


def test_a_new_len_of_a_string_parameter_is_named_with_what_to_write() -> None:
    why = byte_lengths(PV, {"src/lib.rs": HEAD}, {"src/lib.rs": BYTES_LIB})
    assert why == (
        f"{BYTES}`password.len()` is the length of `password` in bytes, and the kata counts "
        "characters, not bytes: write `password.chars().count()` there instead, and send the "
        'whole file with "action": "upsert"'
    )


@pytest.mark.parametrize(
    "signature",
    ["password: &str", "password: &'a str", "password: String", "password: &String",
     "password: &mut str", "mut password: String"],
)  # fmt: skip
def test_every_string_parameter_form_counts(signature: str) -> None:
    lib = BYTES_LIB.replace("password: &str", signature)
    assert byte_lengths(PV, {}, {"src/lib.rs": lib}) is not None


def test_what_is_not_read() -> None:
    no_note = PV.replace("Characters are counted, not bytes", "Lengths are what they are")
    assert byte_lengths(no_note, {}, {"src/lib.rs": BYTES_LIB}) is None
    assert byte_lengths(PV, {}, {"src/lib.rs": CHARS_LIB}) is None
    # a `.len()` HEAD had already is not this change's
    assert byte_lengths(PV, {"src/lib.rs": BYTES_LIB}, {"src/lib.rs": BYTES_LIB}) is None
    # a list's length, a comment, a string, a field of another value
    others = (
        "pub fn validate(password: &str) -> Vec<String> {\n    let errors: Vec<String> = "
        'Vec::new();\n    // password.len() counts bytes\n    let _ = "password.len()";\n'
        "    let _ = self_check.password.len();\n    let _ = errors.len();\n"
        "    let _ = password.chars().count();\n    errors\n}\n"
    )
    assert byte_lengths(PV, {}, {"src/lib.rs": others}) is None


def test_it_is_said_twice_in_a_turn_then_the_change_may_land() -> None:
    refusal = byte_lengths(PV, {}, {"src/lib.rs": BYTES_LIB})
    tells = Tells()
    assert tells.heard(refusal) == refusal
    assert tells.heard(refusal) == refusal
    assert tells.heard(refusal) is None


def _short_cycle(
    make_repo: MakeRepo,
    monkeypatch: pytest.MonkeyPatch,
    implementor: tuple[str, ...],
    refactorer: tuple[str, ...],
) -> tuple[Path, dict[str, FakeModel]]:
    """One real cycle on a Password Validation crate: the tester stages the short-password test,
    the implementor answers each of `implementor` as src/lib.rs in turn, the refactorer each of
    `refactorer`, then nothing to tidy."""
    manifest = '[package]\nname = "pv"\nversion = "0.1.0"\nedition = "2021"\n'
    test = (
        "use pv::validate;\n\n#[test]\nfn short() {\n"
        f'    assert_eq!(validate("Abc1!"), vec!["{SHORT}"]);\n}}\n'
    )
    repo = _crate(make_repo, monkeypatch, HEAD, {"kata.md": PV}, manifest)
    models = {role: FakeModel(role) for role in ("tester", "implementor", "refactorer")}
    models["tester"].enqueue({"plan": "short", "edits": [{"path": "tests/short.rs",
                                                          "content": test}]})  # fmt: skip
    commit = {"type": "feat", "scope": "validate", "summary": "a short password is refused"}
    models["implementor"].enqueue(*(
        {"plan": "length", "edits": [{"path": "src/lib.rs", "content": lib}], "commit": commit}
        for lib in implementor
    ))  # fmt: skip
    tidy = {"type": "refactor", "scope": "validate", "summary": "a shorter length"}
    models["refactorer"].enqueue(*(
        {"plan": "tidy", "edits": [{"path": "src/lib.rs", "content": lib}], "commit": tidy}
        for lib in refactorer
    ), {"plan": "nothing to tidy", "edits": []})  # fmt: skip
    one_cycle(repo, models)
    return repo, models


def _refused(repo: Path, model: FakeModel, role: str) -> None:
    """`model` was asked twice, told of `password.len()` the second time; CHARS_LIB landed and
    the role's step file records `counts-bytes`."""
    assert len(model.asked) == 2
    lead = REFACTOR_BYTES if role == "refactorer" else BYTES  # a refactor has no staged test
    assert f"{lead}`password.len()`" in model.asked[1].user
    assert (repo / "src/lib.rs").read_text(encoding="utf-8") == CHARS_LIB
    logs = sorted((repo / ".tdd" / "logs").glob(f"step-*-{role}*.json"))
    assert logs
    assert '"counts-bytes"' in logs[-1].read_text(encoding="utf-8")


@pytest.mark.cargo
def test_a_drive_sends_len_back_and_the_next_answer_lands(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, models = _short_cycle(make_repo, monkeypatch, (BYTES_LIB, CHARS_LIB), ())
    _refused(repo, models["implementor"], "implementor")


@pytest.mark.cargo
def test_a_refactor_from_chars_count_to_len_is_sent_back(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """r57: the implementor landed `password.chars().count() < 8`, and the cycle's refactorer
    made it `password.len() < 8`; no test or example of the kata tells them apart."""
    repo, models = _short_cycle(make_repo, monkeypatch, (CHARS_LIB,), (BYTES_LIB,))
    _refused(repo, models["refactorer"], "refactorer")
