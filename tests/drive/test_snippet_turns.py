"""An implementor's snippet answer (`"action": "insert"` with only its function) is merged into
the file as the index holds it and judged as a whole-file upsert (agents/snippets.py,
drive/asking.py) under check `snippet-merge` (small-model); under `core` it goes back to the
model. FakeModel drives (tests/support/loop_scenarios.py): milliseconds, no cargo."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from support.loop_scenarios import (
    FEAT_ADD,
    SOURCE_ADD,
    TEST_ADD,
    Side,
    cycle_models,
    drive_once,
    plan_answer,
)

from tddhooks.drive.asking import _reader
from tddhooks.drive.ports import GitWorkspace


def _insert(path: str, content: str, action: str = "insert") -> dict[str, object]:
    answer = plan_answer("define add", commit=FEAT_ADD)
    answer["edits"] = [{"path": path, "action": action, "content": content}]
    return answer


def _head(side: Side, path: str) -> str:
    if side.memory is not None:
        return side.memory.commits[-1].files[path]
    from support.loop_scenarios import git_stdout

    return git_stdout(side.root, "show", f"HEAD:{path}")


@pytest.mark.parametrize("kind", ["memory"])
def test_an_inserted_function_is_merged_and_the_cycle_lands(kind: str, tmp_path: Path) -> None:
    side = Side(kind, tmp_path)
    indented = "    " + SOURCE_ADD.replace("\n    ", "\n        ")  # dedented before the merge
    models = cycle_models(_insert("src/kata/__init__.py", indented))

    summary, _crew = drive_once(side, models, profile="small-model")

    assert len(models["implementor"].asked) == 1
    assert side.subjects()[0] == "feat(add): add exists"
    head = _head(side, "src/kata/__init__.py")
    assert head.startswith('"""The kata."""\n')  # merged into the file, not written over it
    assert "def add(*numbers: int) -> int:\n    return sum(numbers)\n" in head
    assert summary.stop_reason == "steps"


@pytest.mark.parametrize("kind", ["memory"])
def test_under_core_a_snippet_is_not_merged_and_goes_back_to_the_model(
    kind: str, tmp_path: Path
) -> None:
    side = Side(kind, tmp_path)
    models = cycle_models(
        _insert("src/kata/__init__.py", SOURCE_ADD),
        plan_answer("define add", "src/kata/__init__.py", SOURCE_ADD, commit=FEAT_ADD),
    )

    _summary, _crew = drive_once(side, models)

    told = "'edits.0.action': input should be 'upsert' or 'delete' (got 'insert')"
    assert told in models["implementor"].asked[1].user
    assert side.subjects()[0] == "feat(add): add exists"
    assert _head(side, "src/kata/__init__.py") == SOURCE_ADD


@pytest.mark.parametrize("kind", ["memory"])
@pytest.mark.parametrize(
    ("path", "snippet", "told"),
    [
        # statements in a Python file are not merged: the answer stays invalid
        ("src/kata/__init__.py", "return sum(numbers)\n",
         "'edits.0.action': input should be 'upsert' or 'delete' (got 'insert')"),
        # merged, the edit is a whole-file upsert, and the path rules judge it as one
        ("tests/test_add.py", "def test_more():\n    assert True\n",
         "the implementor may not write it: it is a test file"),
    ],
)  # fmt: skip
def test_a_snippet_that_cannot_land_goes_back_to_the_model_and_nothing_is_written(
    kind: str, tmp_path: Path, path: str, snippet: str, told: str
) -> None:
    side = Side(kind, tmp_path)
    models = cycle_models(
        _insert(path, snippet),
        plan_answer("define add", "src/kata/__init__.py", SOURCE_ADD, commit=FEAT_ADD),
    )

    _summary, _crew = drive_once(side, models, profile="small-model")

    assert told in models["implementor"].asked[1].user
    assert side.subjects()[0] == "feat(add): add exists"
    assert _head(side, "tests/test_add.py") == TEST_ADD


def test_the_drive_reads_a_snippets_file_from_the_index_and_only_inside_the_repository(
    tmp_path: Path,
) -> None:
    side = Side("git", tmp_path)
    (side.root / "src" / "kata" / "__init__.py").write_text("# unstaged\n", encoding="utf-8")
    (tmp_path / "outside.py").write_text("def secret():\n    pass\n", encoding="utf-8")
    crew = SimpleNamespace(root=side.root, workspace=GitWorkspace())

    read = _reader(crew)  # type: ignore[arg-type]

    assert read("src/kata/__init__.py") == '"""The kata."""\n'  # the index, not the work tree
    assert read("./src/kata/__init__.py") == '"""The kata."""\n'
    assert read("../outside.py") is None
    assert read("/etc/passwd") is None
    assert read("src/kata/missing.py") is None
