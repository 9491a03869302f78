"""Red-team cases for structured answers, the cache's replay rule, derived commit fields and the
bench: each attack variant with its exact outcome."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from support.fake_openai import Fail, FakeOpenAI, fake_openai  # noqa: F401

from tddhooks.agents.edits import AnswerInvalid, parse_answer
from tddhooks.agents.schemas import answer_schema
from tddhooks.bench.katas import resolve_bench_kata
from tddhooks.bench.run import KEY_VARIABLE, RunSpec, drive_command
from tddhooks.commands.bench import BenchLLM, plan
from tddhooks.drive.messages import usable_scope, usable_summary
from tddhooks.errors import UsageError
from tddhooks.llm.cache import AnswerCache
from tddhooks.llm.client import ChatClient
from tddhooks.llm.settings import ModelSettings

SECRET = "sk-redteam-LLM-77c1-never-anywhere"


# ------------------------------------------------------------------ answers and schemas


@pytest.mark.parametrize(
    "answer",
    [
        {"plan": "p", "edits": [], "done": True, "reason": "finished"},
        {"plan": "p", "edits": [], "done": True, "reason": "x", "commit": {"summary": "s"}},
    ],
)
def test_an_implementor_cannot_end_the_kata_by_any_spelling(answer: dict[str, object]) -> None:
    with pytest.raises(AnswerInvalid, match="the implementor cannot end the kata"):
        parse_answer(json.dumps(answer), "implementor")


@pytest.mark.parametrize(
    "extra",
    [{"role": "tester"}, {"edits_extra": []}, {"done": "true"}],
)
def test_a_schema_never_replaces_the_validator(extra: dict[str, object]) -> None:
    """Whatever an endpoint claims to enforce, unknown keys and wrong types are still refused."""
    answer = {"plan": "p", "edits": [], "commit": {"summary": "s"}, **extra}
    with pytest.raises(AnswerInvalid):
        parse_answer(json.dumps(answer), "implementor")


def test_an_edit_action_outside_the_schema_is_refused() -> None:
    enum = answer_schema("implementor")["properties"]["edits"]["items"]["properties"]["action"]
    assert enum["enum"] == ["upsert", "delete"]
    for action in ("insert", "add", "append", "patch"):
        text = json.dumps({"plan": "p", "edits": [{"path": "src/lib.rs", "action": action,
                                                   "content": "x"}]})  # fmt: skip
        with pytest.raises(AnswerInvalid, match=r"edits\.0\.action"):
            parse_answer(text, "implementor")


# ------------------------------------------------------------------ commit fields


@pytest.mark.parametrize(
    "scope",
    ["add): evil\n\nfeat(x", "../src/lib.rs", "src\\lib.rs", "add; rm -rf /", "$(whoami)",
     "add\nSigned-off-by: x", " ", "ä"],
)  # fmt: skip
def test_a_scope_that_is_not_one_plain_word_is_never_used(scope: str) -> None:
    assert usable_scope(scope) is None


def test_a_summary_cannot_smuggle_a_trailer_or_a_second_header() -> None:
    text = "sum two numbers\n\nSigned-off-by: Mallory <m@x>\nfeat(x): more"
    summary = usable_summary(text, "implementor")
    assert summary is not None
    assert "\n" not in summary


# ------------------------------------------------------------------ the cache's replay rule


def test_a_rejected_answer_is_never_served_to_the_retry_of_the_same_drive(
    fake_openai: FakeOpenAI,  # noqa: F811
    tmp_path: Path,
) -> None:
    fake_openai.enqueue("bad answer", "good answer")
    settings = ModelSettings("custom", "m", fake_openai.base_url, role="tester", max_retries=0)
    cache = AnswerCache(tmp_path / "c")
    try:
        client = ChatClient(settings, cache)
        messages = [{"role": "user", "content": "same request"}]
        first = client.complete(messages, role="tester").content
        second = client.complete(messages, role="tester").content
    finally:
        cache.close()
    assert (first, second) == ("bad answer", "good answer")
    assert len(fake_openai.chat_requests) == 2


def test_the_api_key_is_not_part_of_a_cache_slot(fake_openai: FakeOpenAI, tmp_path: Path) -> None:  # noqa: F811
    fake_openai.enqueue("answer")
    settings = ModelSettings("custom", "m", fake_openai.base_url, api_key=SECRET, role="tester")
    cache = AnswerCache(tmp_path / "c")
    try:
        result = ChatClient(settings, cache).complete([{"role": "user", "content": "x"}],
                                                      role="tester")  # fmt: skip
    finally:
        cache.close()
    assert SECRET not in result.cache_key
    for path in (tmp_path / "c").rglob("*"):
        if path.is_file():
            assert SECRET.encode() not in path.read_bytes()


# ------------------------------------------------------------------ the bench


def test_a_literal_key_never_reaches_the_child_drives_argv(tmp_path: Path) -> None:
    spec = RunSpec(
        model="custom:m", kata=resolve_bench_kata("bowling"), run=1, language="rust", steps=1,
        work_dir=tmp_path / "run-1", llm_args=BenchLLM(api_key=SECRET).args(),
        api_key=BenchLLM(api_key=SECRET).key_value(),
    )  # fmt: skip
    cmd, env = drive_command(spec)
    assert SECRET not in " ".join(cmd)
    assert cmd[cmd.index("--api-key") + 1] == KEY_VARIABLE
    assert env[KEY_VARIABLE] == SECRET
    assert os.environ.get(KEY_VARIABLE) != SECRET  # the bench's own environment is untouched


def test_a_bench_never_drives_into_a_persons_work(tmp_path: Path) -> None:
    mine = tmp_path / "custom_m" / "bowling" / "run-1"
    mine.mkdir(parents=True)
    (mine / "notes.txt").write_text("uncommitted thoughts", encoding="utf-8")
    with pytest.raises(UsageError, match="a bench never drives into existing work"):
        plan(["bowling"], ["custom:m"], 1, 1, "rust", tmp_path,
             BenchLLM(base_url="http://127.0.0.1:9/v1"))  # fmt: skip
    assert (mine / "notes.txt").read_text(encoding="utf-8") == "uncommitted thoughts"
    assert sorted(p.name for p in mine.iterdir()) == ["notes.txt"]


def test_a_users_kata_cannot_name_files_outside_its_acceptance_folder(tmp_path: Path) -> None:
    (tmp_path / "kata.md").write_text("# K\n", encoding="utf-8")
    (tmp_path / "acceptance").mkdir()
    (tmp_path / "acceptance" / "test_ok.py").write_text("def test_a():\n    pass\n", "utf-8")
    (tmp_path / "outside.py").write_text("def test_b():\n    pass\n", "utf-8")
    os.symlink(tmp_path / "outside.py", tmp_path / "acceptance" / "link.txt")
    kata = resolve_bench_kata(str(tmp_path))
    assert [f.name for f in kata.suite("python")] == ["test_ok.py"]
