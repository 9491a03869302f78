"""The contract of the drive's Workspace port (docs/dev/contracts.md, "Drive ports"), checked on
the real GitWorkspace (real git, a real repository) and on the in-memory MemoryWorkspace the loop
scenarios use (tests/support/memory_drive.py): the same steps, the same observations, so the fake
cannot drift from git. The gate here judges `# needs:` markers on both sides; the last test checks
that the real gate (a real pytest run) agrees with the marker gate on the files used here."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from support.fake_drive import MarkerGate
from support.memory_drive import MemoryGate, MemoryWorkspace

from tddhooks.agents.edits import EditRefused, FileEdit
from tddhooks.agents.roles import path_policy
from tddhooks.drive.ports import Gate, GitWorkspace, RealGate, Workspace
from tddhooks.policy.handoff import Handoff
from tddhooks.policy.phase import Phase
from tddhooks.policy.settings import PolicySettings, load_settings

SCAFFOLD = {
    "tdd.yaml": "language: python\n",
    "kata.md": "# Adder\n\n## Requirements\n\n1. add(1) is 1.\n",
    "pyproject.toml": '[project]\nname = "kata"\nversion = "0.1.0"\n\n'
    '[tool.pytest.ini_options]\npythonpath = ["src"]\n',
    "src/kata/__init__.py": '"""The kata."""\n',
    "tests/.gitkeep": "",
    ".gitignore": ".tdd/\n",
}
TEST = "tests/test_add.py"
TEST_ADD = (  # fails (not a collection error) while kata has no add
    "import kata\n\n\ndef test_add_one() -> None:  # needs: def add\n    assert kata.add(1) == 1\n"
)
SOURCE = "src/kata/__init__.py"
SOURCE_ADD = '"""The kata."""\n\n\ndef add(*numbers: int) -> int:\n    return sum(numbers)\n'


@dataclass
class Repo:
    """One side of the contract: a workspace, its gate, the root and settings."""

    ws: Workspace
    gate: Gate
    root: Path
    settings: PolicySettings

    def write(self, path: str, text: str) -> None:
        target = self.root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")

    def add(self, path: str, text: str) -> None:
        self.write(path, text)
        self.ws.stage(self.root, [path])

    def phase(self) -> Phase:
        return self.ws.phase(self.root, self.settings, self.gate)[0].phase

    def commit(self, message: str) -> str:
        outcome = self.ws.commit(self.root, message, self.settings)
        assert outcome.ok, outcome.output
        assert outcome.sha is not None
        return outcome.sha


def _git_repo(root: Path) -> Repo:
    root.mkdir()
    for path, text in SCAFFOLD.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "chore: scaffold the kata"]):
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)
    return Repo(GitWorkspace(), MarkerGate(), root, load_settings(root))


def _memory_repo(root: Path) -> Repo:
    ws = MemoryWorkspace(root, dict(SCAFFOLD), "chore: scaffold the kata")
    return Repo(ws, MemoryGate(ws), root, load_settings(root))


@pytest.fixture(params=["git", "memory"])
def repo(request: pytest.FixtureRequest, tmp_path: Path) -> Repo:
    return (_git_repo if request.param == "git" else _memory_repo)(tmp_path / "kata")


def test_a_fresh_scaffold_is_green_clean_and_at_cycle_zero(repo: Repo) -> None:
    info, verdict = repo.ws.phase(repo.root, repo.settings, repo.gate)
    assert (info.phase, info.next_actor, info.cycle, verdict) == (Phase.GREEN, "tester", 1, None)
    assert repo.ws.head(repo.root) is not None
    assert repo.ws.staged_paths(repo.root) == []


def test_a_staged_failing_test_is_red_and_restoring_it_removes_it(repo: Repo) -> None:
    repo.add(TEST, TEST_ADD)
    assert repo.ws.staged_paths(repo.root) == [TEST]
    info, verdict = repo.ws.phase(repo.root, repo.settings, repo.gate)
    assert info.phase is Phase.RED
    assert verdict is not None
    assert not verdict.green
    assert repo.ws.blob_ids(repo.root, ":", [TEST]).keys() == {TEST}
    assert repo.ws.blob_ids(repo.root, "HEAD", [TEST]) == {}

    repo.ws.restore_to_head(repo.root, [TEST])

    assert not (repo.root / TEST).exists()
    assert repo.ws.staged_paths(repo.root) == []
    assert repo.phase() is Phase.GREEN


def test_a_staged_passing_test_is_an_overshoot(repo: Repo) -> None:
    repo.add(TEST, TEST_ADD.replace("# needs: def add", "# needs: The kata"))
    assert repo.phase() is Phase.OVERSHOOT


def test_restoring_a_changed_committed_file_brings_back_heads_copy(repo: Repo) -> None:
    repo.add(SOURCE, SOURCE_ADD)
    assert repo.ws.staged_paths(repo.root) == [SOURCE]
    repo.ws.restore_to_head(repo.root, [SOURCE])
    assert (repo.root / SOURCE).read_text(encoding="utf-8") == SCAFFOLD[SOURCE]
    assert repo.ws.staged_paths(repo.root) == []


def test_a_persons_untracked_file_is_never_removed_and_makes_the_tree_dirty(repo: Repo) -> None:
    repo.write("notes.txt", "mine\n")
    assert repo.phase() is Phase.DIRTY
    repo.ws.restore_to_head(repo.root, ["notes.txt"])
    assert (repo.root / "notes.txt").read_text(encoding="utf-8") == "mine\n"
    assert repo.phase() is Phase.DIRTY


def test_staged_tests_with_unstaged_or_staged_code_are_dirty_or_mixed(repo: Repo) -> None:
    repo.add(TEST, TEST_ADD)
    repo.write(SOURCE, SOURCE_ADD)
    assert repo.phase() is Phase.DIRTY
    repo.ws.stage(repo.root, [SOURCE])
    assert repo.phase() is Phase.MIXED


def test_a_commit_moves_head_empties_the_stage_and_closes_a_cycle(repo: Repo) -> None:
    before = repo.ws.head(repo.root)
    nothing = repo.ws.commit(repo.root, "feat(add): nothing", repo.settings)
    assert (nothing.ok, nothing.sha, repo.ws.head(repo.root)) == (False, None, before)

    repo.add(TEST, TEST_ADD)
    repo.add(SOURCE, SOURCE_ADD)
    sha = repo.commit("feat(add): add one number")

    assert repo.ws.head(repo.root) == sha != before
    assert repo.ws.staged_paths(repo.root) == []
    info, _verdict = repo.ws.phase(repo.root, repo.settings, repo.gate)
    assert (info.phase, info.next_actor, info.cycle) == (Phase.GREEN_FEATURE, "refactorer", 1)
    assert repo.ws.blob_ids(repo.root, "HEAD", [TEST]) == repo.ws.blob_ids(repo.root, ":", [TEST])


def test_notes_hold_while_head_stays_and_lapse_when_it_moves(repo: Repo) -> None:
    root, ws = repo.root, repo.ws
    repo.add(TEST, TEST_ADD)
    handoff = Handoff(
        head=ws.head(root), intent="add one", test_names=["tests/test_add.py::test_add_one"],
        red_output="red", test_blobs=ws.blob_ids(root, ":", [TEST]), by="tester", created_at=1.0,
    )  # fmt: skip
    ws.write_handoff(root, handoff)
    assert ws.read_handoff(root) == handoff
    ws.clear_handoff(root)
    assert ws.read_handoff(root) is None
    ws.write_handoff(root, handoff)
    repo.add(SOURCE, SOURCE_ADD)
    repo.commit("feat(add): add one number")
    assert ws.read_handoff(root) is None  # stale: HEAD moved

    ws.mark_refactor_turn(root)
    assert ws.refactor_turn_taken(root)
    assert repo.phase() is Phase.GREEN  # the refactorer had its turn on this feature
    ws.mark_done(root, "all requirements covered")
    info, _verdict = ws.phase(root, repo.settings, repo.gate)
    assert (info.phase, info.reason) == (Phase.DONE, "kata complete: all requirements covered")

    repo.add("src/kata/more.py", "X = 1\n")
    repo.commit("refactor(add): a module more")
    assert not ws.refactor_turn_taken(root)
    assert repo.phase() is Phase.GREEN


def test_a_set_aside_test_leaves_the_tree_clean_and_comes_back_staged(repo: Repo) -> None:
    repo.add(TEST, TEST_ADD)
    staged = repo.ws.blob_ids(repo.root, ":", [TEST])

    directory = repo.ws.set_aside(repo.root, 1, [TEST])

    assert directory == repo.root / ".tdd" / "set-aside" / "1"
    assert (directory / TEST).read_text(encoding="utf-8") == TEST_ADD
    assert not (repo.root / TEST).exists()
    assert repo.ws.staged_paths(repo.root) == []
    assert repo.phase() is Phase.GREEN

    repo.ws.bring_back(repo.root, directory, [TEST])

    assert repo.ws.staged_paths(repo.root) == [TEST]
    assert repo.ws.blob_ids(repo.root, ":", [TEST]) == staged
    assert repo.phase() is Phase.RED


def test_equal_content_has_equal_ids_and_different_content_different_ones(repo: Repo) -> None:
    repo.add("tests/a.py", "A = 1\n")
    repo.add("tests/b.py", "A = 1\n")
    repo.add("tests/c.py", "A = 2\n")
    ids = repo.ws.blob_ids(repo.root, ":", ["tests/a.py", "tests/b.py", "tests/c.py", "nope"])
    assert ids["tests/a.py"] == ids["tests/b.py"] != ids["tests/c.py"]
    assert "nope" not in ids


@pytest.mark.parametrize("gate", [pytest.param("real", marks=pytest.mark.pygate), "memory"])
def test_the_marker_gate_agrees_with_the_real_gate_on_these_files(
    tmp_path: Path, gate: str
) -> None:
    """The verdicts the fakes give (red with the test's name, then green) are the real gate's."""
    side = _git_repo(tmp_path / "kata")
    judge: Gate = RealGate() if gate == "real" else MarkerGate()
    side.add(TEST, TEST_ADD)
    red = judge.staged(side.root, side.settings)
    side.add(SOURCE, SOURCE_ADD)
    green = judge.staged(side.root, side.settings)
    assert (red.green, red.report.failing_tests) == (False, ["tests/test_add.py::test_add_one"])
    assert (green.green, green.report.failing_tests) == (True, [])


def test_a_tree_with_one_file_more_is_judged_without_touching_index_or_files(repo: Repo) -> None:
    """`tree_with_file` (drive/probe.py runs the kata's examples on such trees)."""
    root, ws = repo.root, repo.ws
    repo.add(TEST, TEST_ADD)
    staged = ws.staged_paths(root)
    red = repo.gate.tree(root, ws.tree_with_file(root, ws.head_tree(root), TEST, TEST_ADD),
                         repo.settings)  # fmt: skip
    assert red.report.failing_tests == ["tests/test_add.py::test_add_one"]
    with_source = ws.tree_with_file(root, ":", SOURCE, SOURCE_ADD)  # the index, test staged
    assert repo.gate.tree(root, with_source, repo.settings).green
    assert ws.staged_paths(root) == staged
    assert ws.read_blob(root, ":", SOURCE) == SCAFFOLD[SOURCE]
    assert (root / SOURCE).read_text(encoding="utf-8") == SCAFFOLD[SOURCE]


def test_blobs_listing_and_line_counts_of_the_staged_changes(repo: Repo) -> None:
    root, ws = repo.root, repo.ws
    repo.add(TEST, TEST_ADD)
    repo.add(SOURCE, SOURCE_ADD)
    assert ws.read_blob(root, "HEAD", SOURCE) == SCAFFOLD[SOURCE]
    assert ws.read_blob(root, ":", SOURCE) == SOURCE_ADD
    assert ws.read_blob(root, "HEAD", TEST) is None
    assert ws.listed(root) == sorted({*SCAFFOLD, TEST})
    assert ws.numstat_staged(root) == {SOURCE: (4, 0), TEST: (5, 0)}


def test_the_last_commit_is_its_whole_message_and_a_diff_naming_its_files(repo: Repo) -> None:
    repo.add(SOURCE, SOURCE_ADD)
    repo.commit("feat(add): add numbers\n\nRationale:\n- because\n")
    message, diff = repo.ws.last_commit(repo.root)
    assert message == "feat(add): add numbers\n\nRationale:\n- because"
    assert f"b/{SOURCE}" in diff
    assert "+def add(*numbers: int) -> int:" in diff
    assert repo.ws.read_blob(repo.root, "HEAD", SOURCE) == SOURCE_ADD
    verdict = repo.gate.tree(repo.root, repo.ws.head_tree(repo.root), repo.settings)
    assert verdict.green


def test_agents_write_new_and_committed_paths_never_a_persons_uncommitted_file(
    repo: Repo,
) -> None:
    root, ws = repo.root, repo.ws
    policy = path_policy("tester", repo.settings)
    repo.write("tests/mine.py", "X = 1\n")  # untracked: a person's
    repo.add("tests/staged.py", "Y = 1\n")  # staged, never committed: someone's
    for path in ("tests/mine.py", "tests/staged.py"):
        with pytest.raises(EditRefused, match="not committed"):
            ws.check_edits(root, [FileEdit(path=path, content="Z = 1\n")], policy)
    assert (root / "tests/mine.py").read_text(encoding="utf-8") == "X = 1\n"

    written = ws.apply_edits(
        root,
        [FileEdit(path=TEST, content=TEST_ADD), FileEdit(path="tests/.gitkeep", content="k")],
        policy,
    )

    assert written == [TEST, "tests/.gitkeep"]
    assert (root / TEST).read_text(encoding="utf-8") == TEST_ADD
    assert (root / "tests/.gitkeep").read_text(encoding="utf-8") == "k\n"
    # a source file: only its test items are the tester's (agents/itemedits.py)
    with pytest.raises(EditRefused, match="the tester may change only its test items"):
        ws.apply_edits(root, [FileEdit(path=SOURCE, content="")], policy)
