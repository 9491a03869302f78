"""`tddhooks cache stats|clear` through the real CLI."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from tddhooks import output
from tddhooks.cli import cli
from tddhooks.commands.cache import human_size
from tddhooks.llm.cache import AnswerCache, CachedAnswer


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "llm-cache"
    monkeypatch.setenv("TDDHOOKS_CACHE_DIR", str(directory))
    return directory


def run(*args: str) -> tuple[int, str]:
    runner = CliRunner()
    output.use_streams()  # the consoles follow click's captured streams
    result = runner.invoke(cli, list(args))
    return result.exit_code, result.output


def fill(directory: Path) -> None:
    cache = AnswerCache(directory)
    for index in range(3):
        cache.put(f"key-{index}", CachedAnswer("ä" * 100, 10, 5, "stop"))
    cache.get("key-0")
    cache.get("key-1")
    cache.get("missing")
    cache.close()


def test_stats_of_an_empty_cache(cache_dir: Path) -> None:
    code, text = run("cache", "stats")
    assert code == 0
    assert str(cache_dir) in text
    assert "entries" in text
    assert "no drive has used the cache yet" in text
    assert not cache_dir.exists()  # looking does not create it


def test_stats_show_entries_and_the_last_drive(cache_dir: Path) -> None:
    fill(cache_dir)
    code, text = run("cache", "stats")
    assert code == 0
    assert re.search(r"entries\s*│\s*3\s*│", text)
    assert re.search(r"size\s*│\s*\d+\.\d KB", text)
    assert "2 hits, 1 misses (67% hits)" in text


def test_clear_empties_the_cache(cache_dir: Path) -> None:
    fill(cache_dir)
    code, text = run("cache", "clear")
    assert code == 0
    assert "cleared 3 cached answers" in text
    assert AnswerCache(cache_dir).stats().entries == 0
    code, text = run("cache", "clear")
    assert "already empty" in text
    _, stats = run("cache", "stats")
    assert "no drive has used the cache yet" in stats


@pytest.mark.parametrize(
    ("size", "text"),
    [(0, "0 B"), (1023, "1023 B"), (1024, "1.0 KB"), (5 * 1024 * 1024, "5.0 MB"),
     (3 * 1024**4, "3072.0 GB")],
)  # fmt: skip
def test_human_size(size: int, text: str) -> None:
    assert human_size(size) == text
