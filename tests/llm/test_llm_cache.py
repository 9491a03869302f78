"""The answer cache: stable keys, hits and misses, mark_bad, stats and clear."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pytest

from tddhooks.errors import EnvironmentProblem
from tddhooks.llm.cache import (
    AnswerCache,
    CachedAnswer,
    cache_stats,
    canonical_json,
    clear_cache,
    default_cache_dir,
)

MESSAGES = [{"role": "system", "content": "Du bist Tester."}, {"role": "user", "content": "héllo"}]
BASE: dict[str, Any] = {
    "base_url": "http://x/v1",
    "model": "m",
    "temperature": 0.2,
    "messages": MESSAGES,
    "response_format": {"type": "json_object"},
    "max_tokens": 4096,
}
ANSWER = CachedAnswer('{"plan": "ünïcode"}', 120, 30, "stop")


def key(**changes: Any) -> str:
    values = {**BASE, **changes}
    return AnswerCache.key_for(**values)


def test_canonical_json_sorts_keys_and_is_compact() -> None:
    assert canonical_json({"b": 1, "a": [1, "é"]}) == '{"a":[1,"é"],"b":1}'


def test_the_key_format_is_a_contract() -> None:
    # change this value only on purpose: every cached answer becomes unreachable
    expected = hashlib.sha256(canonical_json({"v": 2, **BASE}).encode("utf-8")).hexdigest()
    assert key() == expected
    pinned = AnswerCache.key_for(
        "http://x/v1",
        "m",
        0.2,
        [{"role": "user", "content": "héllo"}],
        {"type": "json_object"},
        4096,
    )
    assert pinned == "eb2ebe20cc6ea86e4d305c43e300c659668a882876c090f831428b54f24f8c67"


@pytest.mark.parametrize(
    "change",
    [
        {"base_url": "http://y/v1"},
        {"model": "m2"},
        {"temperature": 0.3},
        {"messages": [*MESSAGES, {"role": "user", "content": "again"}]},
        {"messages": [{"role": "system", "content": "Du bist Tester!"}, MESSAGES[1]]},
        {"response_format": None},
    ],
)
def test_every_input_changes_the_key(change: dict[str, Any]) -> None:
    assert key(**change) != key()


def test_trailing_slash_of_the_base_url_does_not_matter() -> None:
    assert key(base_url="http://x/v1/") == key()


def test_dict_order_does_not_matter() -> None:
    reordered = [{"content": m["content"], "role": m["role"]} for m in MESSAGES]
    assert key(messages=reordered) == key()


def test_put_then_get_counts_hits_and_misses(answer_cache: AnswerCache) -> None:
    assert answer_cache.get(key()) is None
    assert answer_cache.put(key(), ANSWER)
    assert answer_cache.get(key()) == ANSWER
    assert (answer_cache.hits, answer_cache.misses) == (1, 1)
    stats = answer_cache.stats()
    assert (stats.entries, stats.hits, stats.misses) == (1, 1, 1)
    assert stats.size_bytes > 0


def test_the_counters_survive_the_process(answer_cache: AnswerCache) -> None:
    answer_cache.put(key(), ANSWER)
    answer_cache.get(key())
    answer_cache.get(key(model="other"))
    answer_cache.close()
    stats = cache_stats(answer_cache.directory)
    assert (stats.entries, stats.hits, stats.misses) == (1, 1, 1)
    assert stats.last_used is not None
    # a new drive starts its own counters
    second = AnswerCache(answer_cache.directory)
    second.get(key())
    assert cache_stats(answer_cache.directory).hits == 1
    assert cache_stats(answer_cache.directory).misses == 0
    second.close()


def test_the_nth_identical_request_of_a_drive_has_its_own_slot(tmp_path: Path) -> None:
    first_drive = AnswerCache(tmp_path)
    slots = [first_drive.next_slot(key()) for _ in range(3)]
    assert slots == [key(), f"{key()}#1", f"{key()}#2"]
    assert first_drive.next_slot(key(temperature=0.9)) == key(temperature=0.9)
    first_drive.close()
    # a new drive (a new AnswerCache) counts from the start again
    again = AnswerCache(tmp_path)
    assert again.next_slot(key()) == key()
    again.close()


def test_every_answer_is_kept_a_rejected_one_too(answer_cache: AnswerCache) -> None:
    bad = CachedAnswer("not json", 1, 1, "stop")
    assert answer_cache.put(key(), bad)
    assert answer_cache.put(f"{key()}#1", ANSWER)
    assert answer_cache.get(key()) == bad
    assert answer_cache.get(f"{key()}#1") == ANSWER
    assert answer_cache.stats().entries == 2


def test_max_tokens_is_part_of_the_key() -> None:
    base = ("http://h/v1", "m", 0.2, [{"role": "user", "content": "x"}], None)
    assert AnswerCache.key_for(*base, 256) != AnswerCache.key_for(*base, 512)


def test_refresh_reads_nothing_but_writes(tmp_path: Path) -> None:
    AnswerCache(tmp_path).put(key(), ANSWER)
    refresh = AnswerCache(tmp_path, read=False)
    assert refresh.get(key()) is None
    newer = CachedAnswer("newer", 1, 1, "stop")
    refresh.put(key(), newer)
    assert AnswerCache(tmp_path).get(key()) == newer


def test_write_false_stores_nothing(tmp_path: Path) -> None:
    cache = AnswerCache(tmp_path, write=False)
    assert not cache.put(key(), ANSWER)
    assert cache.get(key()) is None


def test_an_unreadable_entry_is_a_miss(answer_cache: AnswerCache) -> None:
    answer_cache._store.set(key(), json.dumps({"unexpected": True}))
    assert answer_cache.get(key()) is None


def test_stats_and_clear_do_not_create_a_missing_directory(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    stats = cache_stats(missing)
    assert (stats.entries, stats.size_bytes, stats.hits) == (0, 0, 0)
    assert clear_cache(missing) == (0, 0)
    assert not missing.exists()


def test_clear_removes_answers_and_counters(answer_cache: AnswerCache) -> None:
    answer_cache.put(key(), ANSWER)
    answer_cache.put(key(model="m2"), ANSWER)
    answer_cache.get(key())
    answer_cache.close()
    entries, size = clear_cache(answer_cache.directory)
    assert entries == 2
    assert size > 0
    stats = cache_stats(answer_cache.directory)
    assert (stats.entries, stats.hits, stats.last_used) == (0, 0, None)


def test_default_directory(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TDDHOOKS_CACHE_DIR", str(tmp_path / "mine"))
    assert default_cache_dir() == tmp_path / "mine"
    monkeypatch.delenv("TDDHOOKS_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir() == tmp_path / "xdg" / "tddhooks" / "llm"


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores file permissions")
def test_an_unwritable_directory_says_what_to_do(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        with pytest.raises(EnvironmentProblem) as caught:
            AnswerCache(locked / "llm")
    finally:
        locked.chmod(0o700)
    assert "TDDHOOKS_CACHE_DIR" in (caught.value.fix or "")
    assert "--no-cache" in (caught.value.fix or "")


def test_a_file_in_the_way_says_what_to_do(tmp_path: Path) -> None:
    blocker = tmp_path / "cache-file"
    blocker.write_text("not a directory", encoding="utf-8")
    with pytest.raises(EnvironmentProblem) as caught:
        AnswerCache(blocker)
    assert str(blocker) in caught.value.message
