"""Blob texts read in a few `cat-file --batch` processes however many there are, and read once
per process (an audit meets the same unchanged files in every commit)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tddhooks import git, proc
from tddhooks.policy import facts
from tddhooks.policy.facts import blob_batches, read_blobs, tree_files


def test_blob_batches_keep_each_batch_within_the_budget() -> None:
    sizes = [("a" * 40, 60), ("b" * 40, 60), ("c" * 40, 500), ("d" * 40, 10)]
    assert blob_batches(sizes, 200) == [["a" * 40], ["b" * 40], ["c" * 40], ["d" * 40]]
    assert blob_batches(sizes, 300) == [["a" * 40, "b" * 40], ["c" * 40], ["d" * 40]]
    assert blob_batches([], 300) == []


def test_more_text_than_one_output_holds_is_read_in_a_few_batches(
    make_repo: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    size = proc.DEFAULT_OUTPUT_CAP // 20  # 60 files: three outputs' worth of text
    files = {f"src/f{n:02}.rs": f"// {n}\n" + "x" * size + "\n" for n in range(60)}
    repo = make_repo(files)
    blobs = {path: blob for path, (_mode, blob) in tree_files(repo, "HEAD").items()}
    monkeypatch.setattr(facts, "_BLOB_TEXTS", {})
    calls: list[list[str]] = []
    real = git.run_git

    def counting(args: list[str], *rest: object, **named: object) -> proc.ProcResult:
        calls.append(list(args))
        return real(args, *rest, **named)  # type: ignore[arg-type]

    monkeypatch.setattr(git, "run_git", counting)
    texts = read_blobs(repo, sorted(blobs.values()))
    assert {path: texts[blob] for path, blob in blobs.items()} == files
    assert len(calls) <= 10, calls  # not one process per blob
    assert not any(call[:2] == ["cat-file", "blob"] for call in calls)

    calls.clear()
    again = read_blobs(repo, sorted(blobs.values()))
    assert again == texts
    assert calls == []  # read once per process
