"""Red team: a merge cannot smuggle (issue 34, item 7).

During `git merge --no-commit`, what the result holds that neither parent has outside the
conflicts git reports, and any assertion rewritten inside them, is judged like a commit of the
merge message's type on the first parent (policy/merge_own.py): a plain `Merge …` may bring
nothing of its own. `audit` judges a merge made past the hooks the same way. Real git, the real
hooks, real pytest."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support.gatekit import (
    ADD_TEST,
    commit,
    git,
    head,
    landed,
    message,
    python_kata,
    refused,
    unhooked_commit,
    write,
)

from tddhooks.policy.merge_own import resolution_changes

pytestmark = pytest.mark.pygate

CODE = "def add(text: str) -> int:\n    return 0\n"
UNTESTED = CODE + "\n\ndef untested() -> int:\n    return 7\n"
MAIN_TEST = ADD_TEST.replace('assert add("") == 0', 'assert add("") == 0, "empty"')
SIDE_TEST = ADD_TEST.replace('assert add("") == 0', 'assert add("") == 0, "nothing"')
WEAK_TEST = ADD_TEST.replace('assert add("") == 0', 'assert add("") >= 0')


def _commit_on(repo: Path, branch: str, files: dict[str, str], text: str) -> None:
    git(repo, "checkout", "-q", branch)
    write(repo, files)
    git(repo, "add", "-A")
    before = head(repo)
    landed(commit(repo, text), before, repo)


def _diverged(repo: Path, main: dict[str, str], side: dict[str, str]) -> None:
    """A branch `side` and main, each one judged commit past their fork."""
    git(repo, "branch", "side")
    for branch, files in (("main", main), ("side", side)):
        tests_only = all(path.startswith("tests/") for path in files)
        text = message("test", f"{branch}'s wording", "Tester") if tests_only else "docs: notes\n"
        _commit_on(repo, branch, files, text)
    git(repo, "checkout", "-q", "main")


def _side_notes(repo: Path) -> None:
    _diverged(repo, {"tests/test_add.py": MAIN_TEST}, {"README.md": "side notes\n"})


def _side_rewords(repo: Path) -> None:
    _diverged(repo, {"tests/test_add.py": MAIN_TEST}, {"tests/test_add.py": SIDE_TEST})


@pytest.fixture
def notes_side(tmp_path: Path, session_dir: Path) -> Path:
    """The kata, with main rewording its test and a branch `side` adding notes."""
    return python_kata(tmp_path, session_dir, setup=_side_notes)


@pytest.fixture
def rewording_side(tmp_path: Path, session_dir: Path) -> Path:
    """The kata, with main and a branch `side` each rewording the same assertion."""
    return python_kata(tmp_path, session_dir, setup=_side_rewords)


def test_code_smuggled_into_a_merge_outside_the_conflicts_is_refused(notes_side: Path) -> None:
    kata = notes_side
    git(kata, "merge", "--no-commit", "--no-ff", "side")
    write(kata, {"src/kata/__init__.py": UNTESTED})
    git(kata, "add", "-A")
    before = head(kata)

    text = refused(git(kata, "commit", "--no-edit"), "[type-rules]", before, kata)

    assert "a merge changes lines that neither parent has, outside the conflicts git " in text
    assert "src/kata/__init__.py" in text
    assert (kata / "src/kata/__init__.py").read_text(encoding="utf-8") == UNTESTED


def test_an_assertion_weakened_in_a_conflict_resolution_is_refused(rewording_side: Path) -> None:
    kata = rewording_side
    merged = git(kata, "merge", "--no-commit", "side")
    assert merged.returncode != 0  # the conflict git reports
    write(kata, {"tests/test_add.py": WEAK_TEST})
    git(kata, "add", "-A")
    before = head(kata)

    text = refused(git(kata, "commit", "--no-edit"), "[type-rules]", before, kata)

    assert "rewrites test assertions inside the conflicts it resolves" in text
    assert "tests/test_add.py" in text


def test_a_resolution_that_takes_a_side_lands(rewording_side: Path) -> None:
    kata = rewording_side
    git(kata, "merge", "--no-commit", "side")
    write(kata, {"tests/test_add.py": MAIN_TEST})
    git(kata, "add", "-A")
    before = head(kata)

    landed(git(kata, "commit", "--no-edit"), before, kata)


def test_a_feat_merge_may_bring_code_only_with_a_test_of_its_own(notes_side: Path) -> None:
    kata = notes_side
    git(kata, "merge", "--no-commit", "--no-ff", "side")
    write(kata, {"src/kata/__init__.py": UNTESTED})
    git(kata, "add", "-A")
    before = head(kata)

    text = refused(commit(kata, message("feat", "merge side")), "[type-rules]", before, kata)

    assert "feat: merge brings code of its own (src/kata/__init__.py) with no test" in text


def test_audit_judges_a_smuggling_merge_made_past_the_hooks(notes_side: Path) -> None:
    kata = notes_side
    start = git(kata, "rev-parse", "HEAD~1").stdout.strip()  # the fork: main's commit included
    git(kata, "merge", "--no-commit", "--no-ff", "side")
    write(kata, {"src/kata/__init__.py": UNTESTED})
    git(kata, "add", "-A")
    # every hook off (the reference-transaction hook would refuse it too): audit alone judges
    unhooked_commit(kata, "Merge branch 'side'\n")
    script = Path(sys.executable).parent / "tddhooks"

    audit = subprocess.run(
        [str(script), "audit", "--json", f"{start}..HEAD"], cwd=kata, capture_output=True,
        text=True,
    )  # fmt: skip

    assert audit.returncode == 1, audit.stdout + audit.stderr
    found = json.dumps(json.loads(audit.stdout))
    assert "outside the conflicts git reported" in found
    assert "src/kata/__init__.py" in found


@pytest.mark.parametrize(
    ("result", "outside", "assertion"),
    [
        (["a", "ours", "c"], False, False),
        (["a", "theirs", "c"], False, False),
        (["a", "ours", "theirs", "c"], False, False),
        (["a", "assert x >= 0", "c"], False, True),
        (["a", "ours", "c", "smuggled"], True, False),
        (["a2", "ours", "c"], True, False),
    ],
)
def test_a_resolution_is_told_from_a_change_of_its_own(
    result: list[str], outside: bool, assertion: bool
) -> None:
    auto = ["a", "<<<<<<< HEAD", "ours", "=======", "theirs", ">>>>>>> side", "c"]

    assert resolution_changes(auto, result) == (outside, assertion)
