"""A green implementor change that gives an example of the kata another example's message is sent
back (drive/misplaced.py). Measured (r52, Password Validation cycle 2): the length check joined to
three invented ones with `||` gave "Abcdefg!" the length message; the next turn failed on it.
Real git and the real gate (pytest; cargo where marked)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from support import loop_scenarios as scenarios
from support.crates import probe_crew as _crew
from support.e2e_kit import git, write_files
from support.fake_drive import HooklessWorkspace
from support.loop_scenarios import STOP, Side, drive_once, fake_models, plan_answer

from tddhooks.drive.misplaced import DISORDERED, MISPLACED, Tells, misplaced_message
from tddhooks.drive.ports import RealGate
from tddhooks.drive.probe import broken_examples, build_probe, python_package, unchecked
from tddhooks.policy.compose import kata_requirements
from tddhooks.policy.verdicts import StepOutcome, Verdict
from tddhooks.resources import read_template
from tddhooks.runners.base import TestReport

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


@pytest.mark.pygate
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


@pytest.mark.pygate
def test_a_check_that_holds_only_for_its_own_inputs_passes(make_repo: MakeRepo) -> None:
    """Fewer messages than the kata gives (requirements not built yet) are no misplaced one."""
    repo = _python_repo(make_repo)
    assert _judge(repo, "src/pv/__init__.py", OWN_PY, "tests/test_short.py", SHORT_TEST_PY) is None


@pytest.mark.pygate
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


@pytest.mark.pygate
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


@pytest.mark.pygate
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


def test_the_refusal_is_said_twice_of_one_call_in_a_turn_then_the_change_may_land() -> None:
    """A kata whose later rule overrides an earlier rule's message for some inputs reads the same
    as r52: told twice, the implementor's change that keeps the message lands."""
    tells = Tells()
    refusal = f'{MISPLACED}"{SHORT}" for `validate("x")`, where … (now it gives ["{SHORT}"]). …'
    other_value = refusal.replace(f'now it gives ["{SHORT}"]', f'now it gives ["{SHORT}", "y"]')
    assert tells.heard(refusal) == refusal
    assert tells.heard(other_value) == other_value  # the same call and message, another value
    assert tells.heard(refusal) is None
    # another call is told on its own; other refusals are never counted
    assert tells.heard(refusal.replace('"x"', '"y"')) is not None
    assert tells.heard("the change makes the staged test pass, but for an example") is not None
    assert tells.heard(None) is None


@pytest.mark.pygate
def test_a_drive_sends_the_r52_change_back_twice_and_the_third_attempt_lands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The whole implementor turn with the real pytest gate and the real probe."""
    monkeypatch.setitem(scenarios.FILES, "kata.md", PV)
    monkeypatch.setitem(scenarios.FILES, "pyproject.toml", PYPROJECT.replace('"pv"', '"kata"'))
    monkeypatch.setitem(scenarios.FILES, "src/kata/__init__.py", EMPTY_PY)
    side = Side("git", tmp_path)
    short = SHORT_TEST_PY.replace("from pv", "from kata")
    models = fake_models()
    models["tester"].enqueue(plan_answer("short", "tests/test_short.py", short), STOP)
    commit = {"scope": "validate", "summary": "a short password is refused"}
    joined = plan_answer("join", "src/kata/__init__.py", JOINED_PY, commit=commit)
    models["implementor"].enqueue(joined, joined, joined)
    models["refactorer"].enqueue(plan_answer("nothing to tidy"))
    monkeypatch.setattr(Side, "ports", lambda self: {"gate": RealGate(),
                                                     "workspace": HooklessWorkspace()})  # fmt: skip

    drive_once(side, models, steps=1, profile="small-model")

    asked = models["implementor"].asked
    assert len(asked) == 3
    assert f'{MISPLACED}"{SHORT}" for `validate("Abcdefg!")`' in asked[1].user
    assert f'{MISPLACED}"{SHORT}" for `validate("Abcdefg!")`' in asked[2].user
    assert side.subjects()[0] == "feat(validate): a short password is refused"


DIGIT = "must contain a digit"
UPPER = "must contain an uppercase letter"
RUST_HEAD = "pub fn validate(password: &str) -> Vec<String> {\n    let mut errors = Vec::new();\n"
RUST_SHORT = f'    if password.len() < 8 {{\n        errors.push("{SHORT}".to_string());\n    }}\n'
RUST_DIGIT = (
    "    if !password.chars().any(|c| c.is_ascii_digit()) {\n"
    f'        errors.push("{DIGIT}".to_string());\n    }}\n'
)
RUST_UPPER = (
    "    if !password.chars().any(|c| c.is_uppercase()) {\n"
    f'        errors.push("{UPPER}".to_string());\n    }}\n'
)


def _rust_lib(*checks: str) -> str:
    return RUST_HEAD + "".join(checks) + "    errors\n}\n"


def _rust_test(name: str, given: str, message: str) -> str:
    call, value = f'validate("{given}")', f'vec!["{message}"]'
    # as rustfmt writes it: a macro call's arguments wider than 60 columns go one to a line
    one_line = len(call) + len(value) + 2 <= 60
    checked = f"{call}, {value}" if one_line else f"\n        {call},\n        {value}\n    "
    return f"use pv::validate;\n\n#[test]\nfn {name}() {{\n    assert_eq!({checked});\n}}\n"


def _judge_rust(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch, head: str, change: str, test: str
) -> str | None:
    monkeypatch.delenv("CARGO_TARGET_DIR", raising=False)
    manifest = '[package]\nname = "pv"\nversion = "0.1.0"\nedition = "2021"\n'
    repo = make_repo({"tdd.yaml": "language: rust\n", "Cargo.toml": manifest, "src/lib.rs": head,
                      "kata.md": PV, "tests/.gitkeep": ""})  # fmt: skip
    return _judge(repo, "src/lib.rs", change, "tests/staged.rs", test)


@pytest.mark.cargo
def test_a_new_check_above_an_earlier_rules_is_sent_back_with_the_katas_order(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """r53's cycle 3: "abc" (requirement 8: every broken rule in the order of the rules) gave
    the digit message before the length message."""
    test = _rust_test("digit", "Abcdefg!", DIGIT)
    why = _judge_rust(
        make_repo, monkeypatch, _rust_lib(RUST_SHORT), _rust_lib(RUST_DIGIT, RUST_SHORT), test
    )

    assert why is not None
    assert why.startswith(
        f'{DISORDERED}the kata\'s messages for `validate("abc")` in another order than the '
        'kata\'s: requirement 8 says "abc" gives'
    )
    assert f'(now it gives ["{DIGIT}", "{SHORT}"])' in why
    assert f'"{SHORT}" comes before "{DIGIT}" in the kata' in why


@pytest.mark.cargo
def test_a_new_check_below_the_earlier_rules_passes(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    test = _rust_test("digit", "Abcdefg!", DIGIT)
    head, change = _rust_lib(RUST_SHORT), _rust_lib(RUST_SHORT, RUST_DIGIT)
    assert _judge_rust(make_repo, monkeypatch, head, change, test) is None


@pytest.mark.cargo
def test_an_order_head_had_wrong_already_is_not_this_changes(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    test = _rust_test("upper", "abcdef1!", UPPER)
    head = _rust_lib(RUST_DIGIT, RUST_SHORT)
    change = _rust_lib(RUST_DIGIT, RUST_SHORT, RUST_UPPER)
    assert _judge_rust(make_repo, monkeypatch, head, change, test) is None


@pytest.mark.pygate
@pytest.mark.parametrize("on_ci", [False, True])
def test_pytests_diff_is_judged_for_order_only_where_it_is_whole(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch, on_ci: bool
) -> None:
    """pytest -v cuts the diff of a four-message list ("Full output truncated"): what the call
    gives cannot be read whole, so the order is not judged. On CI (`CI` or `BUILD_NUMBER` set)
    pytest cuts nothing, and the Python change is sent back as the Rust one (docs/agents.md)."""
    for name in ("CI", "BUILD_NUMBER"):
        monkeypatch.delenv(name, raising=False)
    if on_ci:
        monkeypatch.setenv("CI", "true")
    repo = _python_repo(make_repo)
    listed = (
        "def validate(password: str) -> list[str]:\n    errors = []\n"
        f'    if len(password) < 8:\n        errors.append("{SHORT}")\n    return errors\n'
    )
    write_files(repo, {"src/pv/__init__.py": listed})
    git(repo, "commit", "-qam", "feat: short")
    digit = f'    if not any(c.isdigit() for c in password):\n        errors.append("{DIGIT}")\n'
    above = listed.replace("    if len(", digit + "    if len(", 1)
    test = (
        "from pv import validate\n\n\ndef test_digit():\n"
        f'    assert validate("Abcdefg!") == ["{DIGIT}"]\n'
    )

    why = _judge(repo, "src/pv/__init__.py", above, "tests/test_digit.py", test)

    if not on_ci:
        assert why is None
        return
    assert why is not None
    assert why.startswith(f'{DISORDERED}the kata\'s messages for `validate("abc")`')
    assert f'(now it gives ["{DIGIT}", "{SHORT}"])' in why


def test_the_order_refusal_is_said_twice_of_one_call_in_a_turn_then_the_change_may_land() -> None:
    tells = Tells()
    refusal = f'{DISORDERED}the kata\'s messages for `validate("abc")` … (now it gives ["a", "b"]).'
    assert tells.heard(refusal) == refusal
    assert tells.heard(refusal) == refusal
    assert tells.heard(refusal) is None


def test_a_message_the_kata_lists_twice_or_the_code_repeats_is_no_disorder() -> None:
    """`said.index` placed both "a"s of a kata's `["a", "b", "a"]` first, so the kata's own list
    read as out of order and a change that gave it was sent back."""
    from tddhooks.drive.misplaced import _out_of_order

    assert _out_of_order(["a", "b", "a"], ["a", "b", "a"]) is None
    assert _out_of_order(["b", "a"], ["a", "b", "a"]) is None  # "b" then the second "a"
    assert _out_of_order(["a", "a", "b", "x"], ["a", "b"]) is None  # a repeat, a stray string
    assert _out_of_order([DIGIT, SHORT], [SHORT, DIGIT]) == (SHORT, DIGIT)
    assert _out_of_order(["b", "a", "b", "a", "b"], ["a", "b", "a"]) == ("b", "a")


@pytest.mark.parametrize("indent", [9, 5])
def test_pytests_full_diff_is_read_in_the_column_of_its_header(indent: int) -> None:
    """pytest -v marks a diff line in the column of "Full diff:" (9 spaces after `E`); another
    version or verbosity indents it otherwise (5): the left side is read the same."""
    from tddhooks.drive.misplaced import shown_strings

    pad = " " * indent
    own = (
        f"E       AssertionError: assert [...] == [...]\nE{pad}\n"
        f"E{pad}Full diff: (-: missing in left side, +: extra in left side)\n"
        f"E{pad}  [\nE{pad}+     '{DIGIT}',\nE{pad}      '{SHORT}',\nE{pad}-     '{UPPER}',\n"
        f"E{pad}  ]\n"
    )
    assert shown_strings(own, "python") == [DIGIT, SHORT]


def _rust_verdict(output: str, failing: list[str]) -> Verdict:
    step = StepOutcome(name="test", cmd=["cargo", "test"], returncode=101, timed_out=False,
                       duration_s=0.0, output_tail=output)  # fmt: skip
    report = TestReport(failing_tests=failing, exit_code=101)
    return Verdict(tree="t", key="k", green=False, steps=[step], report=report, test_names=[],
                   duration_s=0.0, created_at=0.0)  # fmt: skip


def _block(name: str, left: list[str], right: list[str]) -> str:
    """libtest's block of one failing probe case."""
    shown = (", ".join(f'"{m}"' for m in side) for side in (left, right))
    first, second = (f"[{text}]" for text in shown)
    return (
        f"---- {name} stdout ----\n"
        f"thread '{name}' panicked at tests/tddhooks_examples.rs:9:5:\n"
        f"assertion `left == right` failed\n  left: {first}\n right: {second}\n\n"
    )


@pytest.mark.parametrize("seen", [True, False])
def test_a_failure_head_gave_out_of_the_kept_output_is_no_misplaced_message(seen: bool) -> None:
    """The gate keeps the end of the output: with many examples HEAD does not build yet, the
    block of an early one falls out (on CI, after Password Validation got "Abcdefg1?"). What HEAD
    gave there is unknown, so the length message the change gives it is not called misplaced."""
    probe = build_probe(PV, kata_requirements(PV, whole=True), "rust", "pv", ["Cargo.toml"])
    assert probe is not None
    digit = next(case for case in probe.cases if case.call == 'validate("Abcdefg!")')
    name = f"{probe.path}::{digit.name}"
    said = ["must contain a digit"]
    before_output = _block(digit.name, [], said) if seen else "…(cut)…\n"
    before = _rust_verdict(before_output, [name])
    after = _rust_verdict(_block(digit.name, [SHORT], said), [name])

    found = misplaced_message(before, after, probe, {digit.name}, "rust")

    if seen:  # HEAD gave nothing there, so the length message is this change's
        assert found is not None
        assert found.startswith(MISPLACED), found
    else:
        assert found is None
