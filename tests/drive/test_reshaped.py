"""A green refactor that changes what an example HEAD got wrong gives is sent back
(drive/reshaped.py). Measured (r66, Password Validation cycle 4 at 66828da): a preparatory
refactor landed an invented message for passwords without a lowercase letter. Real git, real
pytest and cargo, the real gate."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from support.crates import crate as _crate
from support.crates import probe_crew as _crew
from support.e2e_kit import git, write_files

from tddhooks.drive.probe import broken_examples, build_probe, python_package
from tddhooks.drive.reshaped import RESHAPED
from tddhooks.policy.compose import kata_requirements
from tddhooks.resources import read_template

MakeRepo = Callable[..., Path]
PV = read_template("katas/password-validation.md")
PYPROJECT = read_template("scaffolds/python/pyproject.toml").replace("{project}", "pv")
VALID_PY = 'from pv import validate\n\n\ndef test_valid():\n    assert validate("Abcdef1!") == []\n'
HEAD_PY = (
    "def validate(password: str) -> list[str]:\n"
    "    if len(password) < 8:\n"
    '        return ["must be at least 8 characters"]\n'
    "    if not any(c.isdigit() for c in password):\n"
    '        return ["must contain a digit"]\n'
    "    return []\n"
)
LOWER_CHECK = "    if not any(c.islower() for c in password):\n"
R66_PY = HEAD_PY.replace(
    "    return []\n",
    f'{LOWER_CHECK}        return ["must contain a digit and be lowercase"]\n    return []\n',
)
BUILT_PY = HEAD_PY.replace(
    "    return []\n",
    f'{LOWER_CHECK}        return ["must contain a lowercase letter"]\n    return []\n',
)
RENAMED_PY = (
    "def validate(password: str) -> list[str]:\n"
    "    too_short = len(password) < 8\n"
    "    if too_short:\n"
    '        return ["must be at least 8 characters"]\n'
    "    has_digit = any(c.isdigit() for c in password)\n"
    "    if not has_digit:\n"
    '        return ["must contain a digit"]\n'
    "    return []\n"
)
# every broken rule listed: "abc" gave only the length message on HEAD, now two
LISTING_PY = (
    "def validate(password: str) -> list[str]:\n"
    "    errors = []\n"
    "    if len(password) < 8:\n"
    '        errors.append("must be at least 8 characters")\n'
    "    if not any(c.isdigit() for c in password):\n"
    '        errors.append("must contain a digit")\n'
    "    return errors\n"
)


@pytest.fixture
def repo(make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch) -> Path:
    # pytest shows whole diffs on CI and cuts them elsewhere; a cut diff is not read
    # (docs/kata-checks.md, "A refactor that changes what the kata says"): these tests read
    # whole ones
    monkeypatch.setenv("CI", "true")
    return make_repo({"tdd.yaml": "language: python\n", "pyproject.toml": PYPROJECT,
                      "src/pv/__init__.py": HEAD_PY, "kata.md": PV,
                      "tests/test_valid.py": VALID_PY})  # fmt: skip


def _judge(repo: Path, path: str, source: str, role: str = "refactorer") -> str | None:
    """The change (`source` at `path`) judged as a drive judges a refactor (or `role`'s)."""
    write_files(repo, {path: source})
    git(repo, "add", path)
    crew = _crew(repo)
    verdict = crew.gate.staged(repo, crew.settings)
    assert verdict.green, verdict.failure_excerpt()  # the gate alone lets it land
    language = crew.settings.language
    listed = crew.workspace.listed(repo)
    project = "pv" if language == "rust" else python_package(listed)
    probe = build_probe(PV, kata_requirements(PV, whole=True), language, project, listed)
    assert probe is not None
    head = crew.workspace.head_tree(repo)
    invented = (lambda _text: "") if role == "implementor" else None
    return broken_examples(crew, probe, head, verdict.tree, role, invented)


@pytest.mark.pygate
def test_the_r66_refactor_is_sent_back_naming_the_call_and_both_values(repo: Path) -> None:
    why = _judge(repo, "src/pv/__init__.py", R66_PY)

    assert why is not None
    assert why.startswith(
        f'{RESHAPED}`validate("ABCDEF1!")` gave [] before this refactor; now it gives '
        '["must contain a digit and be lowercase"]'
    )
    assert "new behaviour is a feat: commit with the test that asks for it" in why


@pytest.mark.pygate
def test_a_refactor_that_builds_an_untested_requirement_right_is_sent_back(repo: Path) -> None:
    why = _judge(repo, "src/pv/__init__.py", BUILT_PY)

    assert why is not None
    assert why.startswith(f'{RESHAPED}`validate("ABCDEF1!")` gave [] before this refactor; now')
    assert "what requirement 5 says" in why


@pytest.mark.pygate
def test_a_refactor_that_lists_every_broken_rule_changes_abc(repo: Path) -> None:
    """ "abc" failed on HEAD too (the kata lists four messages); listing two is still a change."""
    why = _judge(repo, "src/pv/__init__.py", LISTING_PY)

    assert why is not None
    assert f'{RESHAPED}`validate("abc")` gave ["must be at least 8 characters"]' in why


@pytest.mark.pygate
def test_a_cut_diff_is_not_read(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Off CI pytest cuts the diff of "ABCDEF1!" and "abc" ("Full output truncated"): what HEAD
    or the refactor gave cannot be read whole, so nothing is said."""
    monkeypatch.delenv("CI")
    monkeypatch.delenv("BUILD_NUMBER", raising=False)
    assert _judge(repo, "src/pv/__init__.py", R66_PY) is None


@pytest.mark.pygate
def test_a_refactor_that_keeps_every_output_passes(repo: Path) -> None:
    assert _judge(repo, "src/pv/__init__.py", RENAMED_PY) is None


@pytest.mark.pygate
def test_the_implementor_may_change_what_head_got_wrong(repo: Path) -> None:
    """Building a requirement changes examples HEAD failed: that is the implementor's job (its
    own checks, drive/misplaced.py, read invented values)."""
    write_files(
        repo,
        {
            "tests/test_lower.py": VALID_PY.replace("Abcdef1!", "ABCDEF1!")
            .replace("== []", '== ["must contain a lowercase letter"]')
            .replace("test_valid", "test_lower")
        },
    )
    assert _judge(repo, "src/pv/__init__.py", BUILT_PY, "implementor") is None


HEAD_RS = (
    "pub fn validate(password: &str) -> Vec<String> {\n"
    "    if password.chars().count() < 8 {\n"
    '        vec!["must be at least 8 characters".to_string()]\n'
    "    } else if !password.chars().any(|c| c.is_ascii_digit()) {\n"
    '        vec!["must contain a digit".to_string()]\n'
    "    } else {\n        Vec::new()\n    }\n}\n"
)
# the change as r66 landed it (cycle 4, 66828da)
R66_RS = HEAD_RS.replace(
    "    } else {\n",
    "    } else if !password.chars().any(|c| c.is_lowercase()) {\n"
    '        vec!["must contain a digit and be lowercase".to_string()]\n    } else {\n',
)
VALID_RS = (
    'use pv::validate;\n\n#[test]\nfn valid() {\n    assert!(validate("Abcdef1!").is_empty());\n}\n'
)


@pytest.mark.cargo
def test_the_r66_refactor_is_sent_back_in_rust(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    from support.crates import PV_MANIFEST

    repo = _crate(make_repo, monkeypatch, HEAD_RS, {"kata.md": PV, "tests/valid.rs": VALID_RS},
                  PV_MANIFEST)  # fmt: skip
    why = _judge(repo, "src/lib.rs", R66_RS)

    assert why is not None
    assert why.startswith(
        f'{RESHAPED}`validate("ABCDEF1!")` gave [] before this refactor; now it gives '
        '["must contain a digit and be lowercase"]'
    )
