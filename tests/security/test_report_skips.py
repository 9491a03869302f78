"""Red team, issue 7 class 5 (runner-report part): a skip is caught from the runner's own report,
however it is spelled, when the text check on the diff cannot see it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support.hookkit import (
    CRATE,
    commit,
    git,
    head,
    install_shims,
    kata,
    kata_template,
    run,
    tdd_message,
    write,
)
from support.pykata import FILES

__all__ = ["kata", "kata_template"]  # fixtures

TEST_MSG = tdd_message("test", "tidy the tests", role="Tester", diff="- tests: tidy")


def _rejected_for_skip(repo: Path, before: str, result: subprocess.CompletedProcess[str],
                       name: str) -> None:  # fmt: skip
    assert result.returncode == 1, result.stderr
    # the text check may see the marker first (then it names the file); else the report does
    assert "[no-skip]" in result.stderr
    assert name in result.stderr or f"[no-skip] {name.split('::')[0]}" in result.stderr
    assert head(repo) == before


# --- Rust -------------------------------------------------------------------------------------

IGNORE_BY_MACRO = """\
macro_rules! with {
    ($a:meta; $i:item) => {
        #[$a]
        $i
    };
}

with! { ignore;
    #[test]
    fn adds() {
        assert_eq!(hookkata::add(1, 2), 3);
    }
}
"""
IGNORE_BY_SPLIT_CFG_ATTR = """\
#[test]
#[cfg_attr(
    all(
        not(target_os = "windows"),
        not(target_os = "macos"),
        not(target_os = "freebsd")
    ),
    ignore
)]
fn adds() {
    assert_eq!(hookkata::add(1, 2), 3);
}
"""


@pytest.mark.cargo
@pytest.mark.parametrize(
    "text", [IGNORE_BY_MACRO, IGNORE_BY_SPLIT_CFG_ATTR], ids=["macro", "split-cfg-attr"]
)
def test_rust_ignore_the_text_check_cannot_see_is_rejected(kata: Path, text: str) -> None:
    write(kata, {"tests/add.rs": text})
    git(kata, "add", "-A")
    before = head(kata)

    result = commit(kata, TEST_MSG)

    _rejected_for_skip(kata, before, result, "tests/add.rs::adds")
    assert (kata / "tests/add.rs").read_text(encoding="utf-8") == text


@pytest.mark.cargo
def test_a_new_rust_test_arriving_ignored_through_a_macro_is_rejected(kata: Path) -> None:
    write(kata, {"tests/more.rs": IGNORE_BY_MACRO.replace("fn adds", "fn adds_more")})
    git(kata, "add", "-A")
    before = head(kata)

    _rejected_for_skip(kata, before, commit(kata, TEST_MSG), "tests/more.rs::adds_more")


@pytest.mark.cargo
def test_an_ignored_test_already_in_the_parent_does_not_block_later_commits(kata: Path) -> None:
    write(kata, {"tests/add.rs": IGNORE_BY_MACRO})
    git(kata, "add", "-A")
    git(kata, "commit", "-q", "--no-verify", "-m", "test: an ignored test from long ago")
    write(
        kata,
        {"tests/other.rs": "#[test]\nfn other() {\n    assert_eq!(hookkata::add(0, 0), 0);\n}\n"},
    )
    git(kata, "add", "-A")

    result = commit(kata, TEST_MSG)

    assert result.returncode == 0, result.stderr


@pytest.mark.cargo
def test_audit_flags_a_macro_ignore_that_landed_without_hooks(kata: Path) -> None:
    write(kata, {"tests/add.rs": IGNORE_BY_MACRO})
    git(kata, "add", "-A")
    git(kata, "commit", "-q", "--no-verify", "-m", TEST_MSG)

    result = run(kata, "tddhooks", "audit", "--json", "HEAD~1..HEAD")

    assert result.returncode == 1, result.stderr
    rules = {
        (v["rule"], "tests/add.rs::adds" in v["message"])
        for v in json.loads(result.stdout)["violations"]
    }
    assert ("no-skip", True) in rules


# --- Python -----------------------------------------------------------------------------------

# spelling -> (imports, decoration above the test, first line of its body)
PY_SPELLINGS = {
    "from-import-mark": ("from pytest import mark", "@mark.skip", ""),
    "alias-pt": ("import pytest as pt", "@pt.mark.skip", ""),
    "xfail-m": ("from pytest import mark as m", "@m.xfail(run=False)", ""),
    "skip-inside": ("from pytest import skip", "", 'skip("later")'),
    "module-mark": ("from pytest import mark\n\npytestmark = [mark.skip]", "", ""),
}


def _py_test(spelling: str) -> str:
    imports, decoration, first = PY_SPELLINGS[spelling]
    above = f"{decoration}\n" if decoration else ""
    body = f"    {first}\n" if first else ""
    return (
        f"{imports}\n\nfrom calc import add\n\n\n{above}def test_adds_two_numbers() -> None:\n"
        f"{body}    assert add(2, 3) == 5\n"
    )


PY_NODE = "tests/test_calc.py::test_adds_two_numbers"


def _python_kata(make_repo: object) -> Path:
    repo: Path = make_repo(FILES)  # type: ignore[operator]
    install_shims(repo)
    return repo


def _py_message() -> str:
    return (
        "test: tidy the tests\n\nContext:\n- Role: Tester\n- Step: 1\n"
        "- Kata goal: Add two numbers.\n\nRationale:\n- tidy\n\nDiff summary:\n"
        "- tests/test_calc.py: tidy\n\nVerification:\n- pytest: all passed\n"
    )


@pytest.mark.pygate
@pytest.mark.parametrize("spelling", sorted(PY_SPELLINGS))
def test_python_skip_however_spelled_is_rejected(make_repo: object, spelling: str) -> None:
    repo = _python_kata(make_repo)
    write(repo, {"tests/test_calc.py": _py_test(spelling)})
    git(repo, "add", "-A")
    before = head(repo)

    result = commit(repo, _py_message())

    _rejected_for_skip(repo, before, result, PY_NODE)


@pytest.mark.pygate
def test_python_skip_from_an_added_conftest_hook_is_rejected(make_repo: object) -> None:
    # a policy that allows runner hooks (policy/runner_hooks.py) still keeps the no-skip rule
    repo: Path = make_repo(  # type: ignore[operator]
        {**FILES, "tdd.yaml": "language: python\npython:\n  runner_hooks: allow\n"}
    )
    install_shims(repo)
    write(repo, {"tests/conftest.py": (
        "import pytest\n\n\ndef pytest_collection_modifyitems(items: list[pytest.Item]) -> None:\n"
        "    for item in items:\n        item.add_marker(\"skip\")\n"
    )})  # fmt: skip
    git(repo, "add", "-A")
    before = head(repo)

    _rejected_for_skip(repo, before, commit(repo, _py_message()), PY_NODE)


@pytest.mark.pygate
def test_python_commit_that_skips_nothing_lands(make_repo: object) -> None:
    repo = _python_kata(make_repo)
    more = "from calc import add\n\n\ndef test_zero() -> None:\n    assert add(0, 0) == 0\n"
    write(repo, {"tests/test_more.py": more})
    git(repo, "add", "-A")

    result = commit(repo, _py_message())

    assert result.returncode == 0, result.stderr


def test_the_gate_runs_pytest_verbose_so_skips_have_names() -> None:
    from tddhooks.runners.python import PythonRunner

    assert "-v" in PythonRunner().default_commands().test
    assert sys.executable in PythonRunner().default_commands().test


def test_rust_fixture_is_unchanged() -> None:
    assert "fn adds()" in CRATE["tests/add.rs"]
