"""A refactor that moves the kata's messages into more functions is sent back, in a kata whose
results are ordered lists of messages (drive/together.py). Measured (r53, Password Validation):
the cycle-4 refactorer moved the uppercase rule into `fn validate_rules(password, &mut errors)`,
and the implementor lost both later cycles on it. The drive test runs the real pytest gate."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import loop_scenarios as scenarios
from support.fake_drive import HooklessWorkspace
from support.loop_scenarios import STOP, Side, drive_once, fake_models, plan_answer

from tddhooks.agents.examples import kata_examples
from tddhooks.drive.ports import RealGate
from tddhooks.drive.together import MODULE, holders, ordered_messages, spread_messages
from tddhooks.policy.compose import kata_requirements
from tddhooks.resources import read_template

PV = read_template("katas/password-validation.md")
PYPROJECT = read_template("scaffolds/python/pyproject.toml").replace("{project}", "kata")
FB = read_template("katas/fizzbuzz.md")
SHORT, DIGIT = "must be at least 8 characters", "must contain a digit"
MESSAGES = frozenset({SHORT, DIGIT})
ONE_RUST = (
    "pub fn validate(password: &str) -> Vec<String> {\n    let mut errors = Vec::new();\n"
    f'    if password.len() < 8 {{\n        errors.push("{SHORT}".to_string());\n    }}\n'
    "    if !password.chars().any(|c| c.is_ascii_digit()) {\n"
    f'        errors.push("{DIGIT}".to_string());\n    }}\n    errors\n}}\n'
)
HELPER_RUST = (
    "pub fn validate(password: &str) -> Vec<String> {\n    let mut errors = Vec::new();\n"
    f'    if password.len() < 8 {{\n        errors.push("{SHORT}".to_string());\n    }}\n'
    "    validate_rules(password, &mut errors);\n    errors\n}\n\n"
    "fn validate_rules(password: &str, errors: &mut Vec<String>) {\n"
    "    if !password.chars().any(|c| c.is_ascii_digit()) {\n"
    f'        errors.push("{DIGIT}".to_string());\n    }}\n}}\n'
)
ONE_PY = (
    "def validate(password: str) -> list[str]:\n    errors = []\n"
    f'    if len(password) < 8:\n        errors.append("{SHORT}")\n'
    f'    if not any(c.isdigit() for c in password):\n        errors.append("{DIGIT}")\n'
    "    return errors\n"
)
HELPER_PY = (
    "def validate(password: str) -> list[str]:\n    errors = []\n"
    f'    if len(password) < 8:\n        errors.append("{SHORT}")\n'
    "    _digit(password, errors)\n    return errors\n\n\n"
    "def _digit(password: str, errors: list[str]) -> None:\n"
    f'    if not any(c.isdigit() for c in password):\n        errors.append("{DIGIT}")\n'
)


def _examples(kata: str) -> list:  # type: ignore[type-arg]
    return kata_examples(kata_requirements(kata, whole=True))


def test_only_a_kata_of_ordered_message_lists_is_read() -> None:
    assert SHORT in ordered_messages(_examples(PV))
    assert ordered_messages(_examples(FB)) == frozenset()  # one value per example
    one_message_each = PV.split("8. Every broken rule", 1)[0]
    assert ordered_messages(_examples(one_message_each)) == frozenset()


def test_the_functions_that_hold_the_messages_are_read_in_rust_and_python() -> None:
    assert holders(ONE_RUST, MESSAGES, "rust") == {"validate": [SHORT, DIGIT]}
    assert holders(HELPER_RUST, MESSAGES, "rust") == {
        "validate": [SHORT], "validate_rules": [DIGIT]
    }  # fmt: skip
    assert holders(ONE_PY, MESSAGES, "python") == {"validate": [SHORT, DIGIT]}
    assert holders(HELPER_PY, MESSAGES, "python") == {"validate": [SHORT], "_digit": [DIGIT]}
    single = HELPER_PY.replace(f'"{DIGIT}"', f"'{DIGIT}'")
    assert holders(single, MESSAGES, "python") == {"validate": [SHORT], "_digit": [DIGIT]}
    table = f'const RULES: [&str; 2] = ["{SHORT}", "{DIGIT}"];\n'
    assert holders(table, MESSAGES, "rust") == {MODULE: [SHORT, DIGIT]}


def test_a_message_in_a_comment_or_a_body_less_signature_is_no_holder() -> None:
    commented = ONE_RUST + f'\n// fn later() {{ "{DIGIT}" }}\n/* "{SHORT}" */\n'
    assert holders(commented, MESSAGES, "rust") == {"validate": [SHORT, DIGIT]}
    trait = f"trait Rule {{\n    fn check(&self) -> bool;\n}}\n{ONE_RUST}"
    assert holders(trait, MESSAGES, "rust") == {"validate": [SHORT, DIGIT]}
    python_comment = ONE_PY + f'\n# def later(): return "{DIGIT}"\n'
    assert holders(python_comment, MESSAGES, "python") == {"validate": [SHORT, DIGIT]}


def test_a_helper_that_takes_a_rules_message_is_named_in_the_refusal() -> None:
    why = spread_messages({"src/lib.rs": ONE_RUST}, {"src/lib.rs": HELPER_RUST}, _examples(PV),
                          "rust")  # fmt: skip
    assert why is not None
    assert why.startswith(
        f'the refactor moves the kata\'s message "{DIGIT}" out of `validate` into '
        "`validate_rules`: the kata lists every broken rule in a set order"
    )


def test_a_refactor_inside_one_function_or_of_another_kata_passes() -> None:
    renamed = ONE_RUST.replace("errors", "broken")
    assert spread_messages({"a": ONE_RUST}, {"a": renamed}, _examples(PV), "rust") is None
    # the messages back together in one function: fewer holders
    assert spread_messages({"a": HELPER_RUST}, {"a": ONE_RUST}, _examples(PV), "rust") is None
    assert spread_messages({"a": ONE_RUST}, {"a": HELPER_RUST}, _examples(FB), "rust") is None


def test_a_helper_beside_a_renamed_function_is_the_one_named() -> None:
    renamed = HELPER_RUST.replace("pub fn validate(", "pub fn check_password(")
    why = spread_messages({"a": ONE_RUST}, {"a": renamed}, _examples(PV), "rust")
    assert why is not None
    assert f'"{DIGIT}" out of `validate` into `validate_rules`' in why


def test_a_message_moved_to_a_new_file_counts_too() -> None:
    rules = f'pub fn digit(password: &str) -> Option<String> {{\n    Some("{DIGIT}".into())\n}}\n'
    why = spread_messages({"src/lib.rs": ONE_RUST},
                          {"src/lib.rs": ONE_RUST.replace(f'"{DIGIT}"', "x"),
                           "src/rules.rs": rules}, _examples(PV), "rust")  # fmt: skip
    assert why is not None
    assert "into `digit`" in why


@pytest.mark.pygate
def test_a_drive_sends_the_helper_refactor_back_and_the_refactorer_tries_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The whole refactorer turn with the real pytest gate: its first answer moves the digit
    rule into a helper and is sent back with the refusal; its second tidies in place and lands."""
    one = ONE_PY.replace(
        f'    if not any(c.isdigit() for c in password):\n        errors.append("{DIGIT}")\n', ""
    )
    monkeypatch.setitem(scenarios.FILES, "kata.md", PV)
    monkeypatch.setitem(scenarios.FILES, "pyproject.toml", PYPROJECT)
    monkeypatch.setitem(scenarios.FILES, "src/kata/__init__.py", one)
    side = Side("git", tmp_path)
    test = (
        "from kata import validate\n\n\ndef test_digit():\n"
        f'    assert validate("Abcdefg!") == ["{DIGIT}"]\n'
    )
    models = fake_models()
    models["tester"].enqueue(plan_answer("digit", "tests/test_digit.py", test), STOP)
    commit = {"scope": "validate", "summary": "a password without a digit is refused"}
    models["implementor"].enqueue(
        plan_answer("digit", "src/kata/__init__.py", ONE_PY, commit=commit)
    )
    tidy = {"scope": "validate", "summary": "name the list of errors"}
    helper = HELPER_PY.replace("_digit", "_digit_rule")
    renamed = ONE_PY.replace("errors", "broken")
    models["refactorer"].enqueue(
        plan_answer("a helper", "src/kata/__init__.py", helper, commit=tidy),
        plan_answer("rename", "src/kata/__init__.py", renamed, commit=tidy),
    )
    monkeypatch.setattr(Side, "ports", lambda self: {"gate": RealGate(),
                                                     "workspace": HooklessWorkspace()})  # fmt: skip

    drive_once(side, models, steps=1)

    asked = models["refactorer"].asked
    assert len(asked) == 2
    assert (
        f'the refactor moves the kata\'s message "{DIGIT}" out of `validate` into `_digit_rule`'
        in asked[1].user
    )
    assert side.subjects()[0] == "refactor(validate): name the list of errors"
    assert "_digit_rule" not in (side.root / "src/kata/__init__.py").read_text(encoding="utf-8")
    logs = sorted((side.root / ".tdd" / "logs").glob("step-*-refactorer*.json"))
    assert logs
    assert '"messages-spread"' in logs[-1].read_text(encoding="utf-8")


def test_a_semicolon_inside_a_signatures_brackets_ends_no_header() -> None:
    """`-> [&str; 2]` or `rules: [Rule; 4]` is a signature with a body, not a trait's
    declaration: its messages are its own, not the module's."""
    array = (
        "fn validate(password: &str) -> [Option<&'static str>; 2] {\n"
        f'    [(password.len() < 8).then_some("{SHORT}"), None]\n}}\n'
        f'fn digit() -> &\'static str {{\n    "{DIGIT}"\n}}\n'
    )
    assert holders(array, MESSAGES, "rust") == {"validate": [SHORT], "digit": [DIGIT]}
    declared = f"trait Rule {{\n    fn check(&self, rules: [u8; 2]) -> bool;\n}}\n{ONE_RUST}"
    assert holders(declared, MESSAGES, "rust") == {"validate": [SHORT, DIGIT]}


def test_a_megabyte_of_rust_is_read_in_well_under_a_second() -> None:
    """Measured: 10,000 functions each holding a message (1.2 MB) took 6 s, each message
    looked up among every function; 20,000 messages in one function beside 10,000 empty ones
    took 12 s. Now each is well under a second."""
    import time

    many = "".join(
        f"fn rule{i}(password: &str) -> Vec<&'static str> {{\n"
        f'    if password.len() < {i} {{ return vec!["{SHORT}"]; }} // {{ "\n    vec![]\n}}\n'
        for i in range(10_000)
    )
    one = (
        "fn validate(p: &str) -> Vec<&'static str> {\n    let mut e = vec![];\n"
        + "".join(f'    if p.len() < {i} {{ e.push("{DIGIT}"); }}\n' for i in range(20_000))
        + "    e\n}\n"
        + "".join(f"fn empty{i}() {{}}\n" for i in range(10_000))
    )
    for text, expected in ((many, 10_000), (one, 1)):
        started = time.perf_counter()
        found = holders(text, MESSAGES, "rust")
        assert time.perf_counter() - started < 2.0
        assert len(found) == expected


def test_python_is_read_from_its_syntax_tree() -> None:
    """The line reader took a docstring or a trailing comment that quotes a message for one more
    holder (a refactor that adds a module docstring was sent back), read a def whose signature
    runs over several lines (as ruff formats a long one) as the module, and took two classes'
    `check` for one function."""
    documented = f'"""Gives "{SHORT}" first."""\n\n\n' + ONE_PY.replace(
        "    return errors\n", f'    return errors  # "{DIGIT}" last\n'
    )
    assert holders(documented, MESSAGES, "python") == {"validate": [SHORT, DIGIT]}
    assert spread_messages({"a.py": ONE_PY}, {"a.py": documented}, _examples(PV), "python") is None
    wrapped = ONE_PY.replace("(password: str)", "(\n    password: str,\n)") + (
        f'\n\ndef _digit(\n    password: str,\n) -> str:\n    return "{DIGIT}"\n'
    )
    assert holders(wrapped, MESSAGES, "python") == {"validate": [SHORT, DIGIT], "_digit": [DIGIT]}
    classes = (
        f'class Length:\n    def check(self) -> str:\n        return "{SHORT}"\n\n\n'
        f'class Digit:\n    def check(self) -> str:\n        return "{DIGIT}"\n'
    )
    assert holders(classes, MESSAGES, "python") == {"Length.check": [SHORT], "Digit.check": [DIGIT]}
    assert spread_messages({"a.py": ONE_PY}, {"a.py": classes}, _examples(PV), "python")
    broken = "def validate(:\n" + ONE_PY  # not Python: read line by line
    assert holders(broken, MESSAGES, "python") == {"validate": [SHORT, DIGIT]}
