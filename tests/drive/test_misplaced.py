"""A green implementor change that gives an example of the kata another example's message is sent
back (drive/misplaced.py). Measured (r52, Password Validation cycle 2): the length check joined to
three invented ones with `||` gave "Abcdefg!" the length message; the next turn failed on it.
Real git and the real gate (pytest; cargo where marked)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from drive.test_e2e_kit import git, write_files
from drive.test_refactor_probe import _crew

from tddhooks.drive.probe import broken_examples, build_probe, python_package, unchecked
from tddhooks.policy.compose import kata_requirements
from tddhooks.resources import read_template

MakeRepo = Callable[..., Path]
PV = read_template("katas/password-validation.md")
SHORT = "must be at least 8 characters"
PYPROJECT = read_template("scaffolds/python/pyproject.toml").replace("{project}", "pv")
EMPTY_PY = "def validate(password: str) -> list[str]:\n    return []\n"
SHORT_TEST_PY = (
    f'from pv import validate\n\n\ndef test_short():\n    assert validate("Abc1!") == ["{SHORT}"]\n'
)
JOINED_PY = (
    "def validate(password: str) -> list[str]:\n"
    "    if len(password) < 8 or not any(c.isdigit() for c in password):\n"
    f'        return ["{SHORT}"]\n    return []\n'
)
OWN_PY = (
    "def validate(password: str) -> list[str]:\n"
    f'    if len(password) < 8:\n        return ["{SHORT}"]\n    return []\n'
)


def _judge(
    repo: Path, path: str, source: str, staged_test: str, test: str, kata: str = PV
) -> str | None:
    """The implementor's change (`source` at `path`, with its staged test) judged by the probe."""
    write_files(repo, {path: source, staged_test: test})
    git(repo, "add", "-A")
    crew = _crew(repo)
    verdict = crew.gate.staged(repo, crew.settings)
    assert verdict.green  # the gate alone lets it land
    language = crew.settings.language
    listed = crew.workspace.listed(repo)
    project = "pv" if language == "rust" else python_package(listed)
    probe = build_probe(kata, kata_requirements(kata, whole=True), language, project, listed)
    assert probe is not None
    probe = unchecked(probe, [test], language)
    assert probe is not None
    head = crew.workspace.head_tree(repo)
    return broken_examples(crew, probe, head, verdict.tree, "implementor", lambda _text: "")


def _python_repo(make_repo: MakeRepo) -> Path:
    return make_repo({"tdd.yaml": "language: python\n", "pyproject.toml": PYPROJECT,
                      "src/pv/__init__.py": EMPTY_PY, "kata.md": PV,
                      "tests/.gitkeep": ""})  # fmt: skip


def test_another_examples_message_is_sent_back_with_the_call_and_what_the_kata_says(
    make_repo: MakeRepo,
) -> None:
    repo = _python_repo(make_repo)

    why = _judge(repo, "src/pv/__init__.py", JOINED_PY, "tests/test_short.py", SHORT_TEST_PY)

    assert why is not None
    assert why.startswith(
        f'the change makes the staged test pass, but it gives "{SHORT}" for '
        '`validate("Abcdefg!")`, where requirement 3 says "Abcdefg!" gives exactly that one '
        f'error: "{SHORT}" is the kata\'s message for other inputs (now it gives ["{SHORT}"]). '
        f'The check that gives "{SHORT}" must not hold for `validate("Abcdefg!")`'
    )


def test_a_check_that_holds_only_for_its_own_inputs_passes(make_repo: MakeRepo) -> None:
    """Fewer messages than the kata gives (requirements not built yet) are no misplaced one."""
    repo = _python_repo(make_repo)
    assert _judge(repo, "src/pv/__init__.py", OWN_PY, "tests/test_short.py", SHORT_TEST_PY) is None


def test_a_message_head_already_gave_there_is_not_this_changes(make_repo: MakeRepo) -> None:
    repo = _python_repo(make_repo)
    write_files(repo, {"src/pv/__init__.py": JOINED_PY})
    git(repo, "commit", "-qam", "feat: joined")
    # the next change keeps the same `or`, and adds nothing for "Abcdefg!"
    kept = JOINED_PY.replace("return []", "return list[str]()")
    digit_test = (
        'from pv import validate\n\n\ndef test_ok():\n    assert validate("Abcdef1!") == []\n'
    )
    assert _judge(repo, "src/pv/__init__.py", kept, "tests/test_ok.py", digit_test) is None


def test_a_message_head_gave_out_of_sight_of_its_cut_diff_is_not_this_changes(
    make_repo: MakeRepo,
) -> None:
    """pytest -v cuts a long diff ("Full output truncated"): HEAD gave the length message for
    "Abcdefg!" after four others, on a line it hid; the change drops the four."""
    repo = _python_repo(make_repo)
    others = ["must contain an uppercase letter", "must contain a lowercase letter",
              "must contain a special character", "must not contain spaces"]  # fmt: skip
    many = ", ".join(f'"{message}"' for message in [*others, SHORT])
    head = (
        "def validate(password: str) -> list[str]:\n"
        f"    if not any(c.isdigit() for c in password):\n        return [{many}]\n"
        "    return []\n"
    )
    write_files(repo, {"src/pv/__init__.py": head})
    git(repo, "commit", "-qam", "feat: many")
    assert (
        _judge(repo, "src/pv/__init__.py", JOINED_PY, "tests/test_short.py", SHORT_TEST_PY) is None
    )


def test_the_message_of_the_staged_tests_own_example_is_the_katas_too(make_repo: MakeRepo) -> None:
    """The staged test calls `validate("Abc1!")`, so its example leaves the probe; without the
    kata's "abc" example (requirement 8) no other example names the length message."""
    repo = _python_repo(make_repo)
    kata = PV.split("8. Every broken rule", 1)[0] + "## Notes" + PV.split("## Notes", 1)[1]
    assert '"abc" gives' not in kata

    why = _judge(repo, "src/pv/__init__.py", JOINED_PY, "tests/test_short.py", SHORT_TEST_PY, kata)

    assert why is not None
    assert f'it gives "{SHORT}" for `validate("Abcdefg!")`' in why


@pytest.mark.cargo
def test_the_r52_change_is_sent_back_in_rust(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CARGO_TARGET_DIR", raising=False)
    manifest = '[package]\nname = "pv"\nversion = "0.1.0"\nedition = "2021"\n'
    head = "pub fn validate(_password: &str) -> Vec<String> {\n    vec![]\n}\n"
    repo = make_repo({"tdd.yaml": "language: rust\n", "Cargo.toml": manifest, "src/lib.rs": head,
                      "kata.md": PV, "tests/.gitkeep": ""})  # fmt: skip
    r52 = (
        "pub fn validate(password: &str) -> Vec<String> {\n"
        "    if password.len() < 8\n"
        "        || !password.chars().any(|c| c.is_uppercase())\n"
        "        || !password.chars().any(|c| c.is_lowercase())\n"
        "        || !password.chars().any(|c| c.is_numeric())\n    {\n"
        f'        vec!["{SHORT}".to_string()]\n    }} else {{\n        Vec::new()\n    }}\n}}\n'
    )
    test = (
        "use pv::validate;\n\n#[test]\nfn short() {\n"
        f'    assert_eq!(validate("Abc1!"), vec!["{SHORT}"]);\n}}\n'
    )

    why = _judge(repo, "src/lib.rs", r52, "tests/short.rs", test)

    assert why is not None
    assert f'it gives "{SHORT}" for `validate("Abcdefg!")`, where requirement 3 says' in why
