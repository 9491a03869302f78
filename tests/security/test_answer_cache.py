"""Red team: the LLM answer cache never runs code and is this user's alone (issue 34, item 10).

diskcache's own Disk unpickles a row whose mode says pickle; the cache stores JSON text through
llm/jsondisk.py, which refuses every other kind of row with a clear error. A cache folder another
user owns, or others may write, is refused with the fix (exit 3). Real diskcache, real sqlite,
the real console script."""

from __future__ import annotations

import os
import pickle
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tddhooks.errors import EnvironmentProblem
from tddhooks.llm.cache import AnswerCache, CachedAnswer, open_store

ANSWER = CachedAnswer(
    content='{"plan": "x"}', prompt_tokens=3, completion_tokens=4, finish_reason="stop"
)


class _MakesAFolder:
    """Unpickling this creates a folder: proof that code ran."""

    def __init__(self, where: Path) -> None:
        self.where = where

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return os.mkdir, (str(self.where),)


def _rewrite(directory: Path, key: str, mode: int, value: object) -> None:
    with sqlite3.connect(directory / "cache.db") as db:
        db.execute("UPDATE Cache SET mode = ?, value = ?, filename = NULL WHERE key = ?",
                   (mode, value, key))  # fmt: skip


def _stored(directory: Path) -> str:
    cache = AnswerCache(directory)
    key = AnswerCache.key_for("http://x/v1", "m", 0.2, [{"role": "user", "content": "hi"}], None)
    assert cache.put(key, ANSWER)
    assert cache.get(key) == ANSWER
    cache.close()
    return key


def test_a_row_rewritten_to_a_pickle_is_refused_and_never_unpickled(tmp_path: Path) -> None:
    directory = tmp_path / "cache"
    key = _stored(directory)
    proof = tmp_path / "code-ran"
    _rewrite(directory, key, 4, pickle.dumps(_MakesAFolder(proof)))  # diskcache's MODE_PICKLE
    cache = AnswerCache(directory)

    with pytest.raises(EnvironmentProblem) as caught:
        cache.get(key)

    assert not proof.exists()
    assert "not text" in str(caught.value)
    assert "tddhooks cache clear" in (caught.value.fix or "")


def test_a_pickled_row_stored_as_a_file_is_refused_too(tmp_path: Path) -> None:
    directory = tmp_path / "cache"
    key = _stored(directory)
    proof = tmp_path / "code-ran"
    (directory / "evil.val").write_bytes(pickle.dumps(_MakesAFolder(proof)))
    with sqlite3.connect(directory / "cache.db") as db:
        db.execute("UPDATE Cache SET mode = 4, value = NULL, filename = 'evil.val' WHERE key = ?",
                   (key,))  # fmt: skip

    with pytest.raises(EnvironmentProblem):
        AnswerCache(directory).get(key)

    assert not proof.exists()


def test_a_text_row_pointing_outside_the_cache_is_refused(tmp_path: Path) -> None:
    directory = tmp_path / "cache"
    key = _stored(directory)
    (tmp_path / "outside.val").write_text('{"content": "planted"}', encoding="utf-8")
    with sqlite3.connect(directory / "cache.db") as db:
        db.execute("UPDATE Cache SET mode = 3, value = NULL, filename = '../outside.val' "
                   "WHERE key = ?", (key,))  # fmt: skip

    with pytest.raises(EnvironmentProblem):
        AnswerCache(directory).get(key)


def test_only_text_is_ever_stored(tmp_path: Path) -> None:
    store = open_store(tmp_path / "cache")

    with pytest.raises(TypeError):
        store.set("k", {"not": "text"})


def _cache_stats(directory: Path) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).parent / "tddhooks"
    env = {**os.environ, "TDDHOOKS_CACHE_DIR": str(directory)}
    return subprocess.run([str(script), "cache", "stats"], capture_output=True, text=True, env=env)


def test_a_cache_folder_others_may_write_is_refused_with_the_fix(tmp_path: Path) -> None:
    directory = tmp_path / "cache"
    _stored(directory)
    directory.chmod(0o777)

    result = _cache_stats(directory)

    assert result.returncode == 3, result.stdout + result.stderr
    assert "can be written by other users" in result.stderr
    assert f"chmod go-w {directory}" in result.stderr
    directory.chmod(0o700)
    assert _cache_stats(directory).returncode == 0


@pytest.mark.skipif(os.getuid() != 0, reason="giving a folder to another user needs root")
def test_a_cache_folder_another_user_owns_is_refused_with_the_fix(tmp_path: Path) -> None:
    directory = tmp_path / "cache"
    _stored(directory)
    os.chown(directory, 65534, 65534)

    result = _cache_stats(directory)

    assert result.returncode == 3, result.stdout + result.stderr
    assert "belongs to another user" in result.stderr
    assert "TDDHOOKS_CACHE_DIR" in result.stderr
