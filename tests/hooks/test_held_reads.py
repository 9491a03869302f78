"""What a hook asks git once (git.held_still): HEAD, the index's tree (again after a gate run),
the parent commit's listing; and that the answers from that one listing are the ones the
narrower git calls give outside a hook (policy files, source files, a folder named tdd.yaml)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from support.repo import git, write_files

from tddhooks import git as tgit
from tddhooks.errors import ConfigError, GitError
from tddhooks.policy.facts import locate, staged_facts
from tddhooks.policy.settings import _top_entries, settings_at

MakeRepo = Callable[..., Path]
KATA = {
    "Cargo.toml": '[package]\nname = "k"\nversion = "0.1.0"\nedition = "2021"\n',
    "tdd.yaml": "ci:\n  timeout_s: 9\n",
    "src/lib.rs": "pub fn one() -> u8 {\n    1\n}\n",
    "tests/one.rs": "#[test]\nfn one() {\n    assert_eq!(k::one(), 1);\n}\n",
    "docs/tdd.yaml": "not the policy\n",
    "kata.md": "# One\n",
}


def _head(repo: Path) -> str:
    return git(repo, "rev-parse", "HEAD").stdout.strip()


def test_head_is_asked_once_inside_a_hook_and_afresh_outside(make_repo: MakeRepo) -> None:
    repo = make_repo(KATA)
    first = _head(repo)
    with tgit.held_still():
        assert tgit.head(repo) == first
        git(repo, "commit", "-q", "--allow-empty", "--no-verify", "-m", "chore: moved")
        assert tgit.head(repo) == first  # held: HEAD does not move under a running hook
    assert tgit.head(repo) == _head(repo) != first


def test_locate_tells_head_in_the_same_git_call(make_repo: MakeRepo) -> None:
    repo = make_repo(KATA)
    unborn = make_repo(name="unborn")
    with tgit.held_still():
        root, state = locate(repo)
        assert (root, state) == (repo, repo / ".git" / "tddhooks")
        git(repo, "commit", "-q", "--allow-empty", "--no-verify", "-m", "chore: moved")
        assert tgit.head(root) != _head(repo)  # the id came from locate's own call
        assert locate(unborn)[0] == unborn
        assert tgit.head(unborn) is None
    with pytest.raises(GitError, match="not inside a git repository"):
        locate(repo.parent)


def test_the_index_tree_is_asked_again_after_a_gate_run(make_repo: MakeRepo) -> None:
    repo = make_repo(KATA)
    with tgit.held_still():
        before = tgit.write_tree(repo)
        write_files(repo, {"src/lib.rs": "pub fn one() -> u8 {\n    2\n}\n"})
        git(repo, "add", "src/lib.rs")  # another terminal stages a file while the hook runs
        assert tgit.write_tree(repo) == before
        tgit.forget_index_trees()  # what policy/gate.py does after it ran the tools
        after = tgit.write_tree(repo)
    assert after != before
    assert after == tgit.write_tree(repo)


def test_one_listing_answers_what_the_narrow_calls_answer(make_repo: MakeRepo) -> None:
    repo = make_repo(KATA)
    head = _head(repo)
    write_files(repo, {"tests/two.rs": "#[test]\nfn two() {}\n"})
    git(repo, "add", "-A")
    outside = _top_entries(repo, head, None)
    settings = settings_at(repo, head)
    facts = staged_facts(repo, settings)
    with tgit.held_still():
        assert tgit.held_listing(repo, head) is not None
        assert _top_entries(repo, head, None) == outside
        assert settings_at(repo, head) == settings
        assert staged_facts(repo, settings) == facts
    assert set(outside) == {"Cargo.toml", "tdd.yaml"}  # top level only: not docs/tdd.yaml
    assert facts.test_names_before == {"tests/one.rs::one"}
    assert tgit.held_listing(repo, head) is None  # outside a hook: the narrow calls


def test_a_folder_named_tdd_yaml_is_refused_in_a_hook_too(make_repo: MakeRepo) -> None:
    repo = make_repo({"Cargo.toml": KATA["Cargo.toml"], "tdd.yaml/inner": "x\n"})
    head = _head(repo)
    with pytest.raises(ConfigError, match="not a regular file"):
        settings_at(repo, head)
    with tgit.held_still(), pytest.raises(ConfigError, match="not a regular file"):
        settings_at(repo, head)


def test_prefetched_calls_serve_the_first_identical_call_once(make_repo: MakeRepo) -> None:
    repo = make_repo(KATA)
    args = ["rev-parse", "HEAD"]
    tgit.prefetch(repo, [(args, None)])  # outside a hook: nothing is started or kept
    first = _head(repo)
    with tgit.held_still():
        tgit.prefetch(repo, [(args, None), (["cat-file", "-t", "nonsense"], None)])
        git(repo, "commit", "-q", "--allow-empty", "--no-verify", "-m", "chore: moved")
        assert tgit.out(args, repo) == first  # the prefetched answer, from before the commit
        assert tgit.out(args, repo) == _head(repo) != first  # asked again: once only
        with pytest.raises(GitError):  # a prefetched failure fails the real call as it would
            tgit.run_git(["cat-file", "-t", "nonsense"], repo)
    assert tgit.out(args, repo) == _head(repo)
