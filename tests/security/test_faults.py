"""Red team, faults: a broken environment is exit 3 with its fix and never a cached red verdict;
an unforeseen error is exit 3 with a log path, never a traceback and never exit 1; hostile input
(alias bombs, huge files, megabytes of output) is refused or capped with bounded memory."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.gatekit import rust_kata
from support.repo import git
from support.security_kit import tddhooks

from tddhooks import errors
from tddhooks.config import MAX_CONFIG_BYTES, parse_config
from tddhooks.errors import EXIT_ENVIRONMENT, ConfigError, TddhooksError, error_handler
from tddhooks.llm.cache import AnswerCache, CachedAnswer, cache_stats

TRACEBACK = "Traceback (most recent call last)"


def _reported() -> tuple[list[TddhooksError], errors.Reporter]:
    seen: list[TddhooksError] = []
    return seen, seen.append


# --- unforeseen errors -----------------------------------------------------------------------


def test_an_unforeseen_error_is_exit_3_with_a_log_path_never_1(tmp_path: Path) -> None:
    seen, report = _reported()
    with error_handler(report) as result:
        raise RuntimeError("something nobody planned for")
    assert result[0] == EXIT_ENVIRONMENT
    (problem,) = seen
    assert "unexpected error: RuntimeError: something nobody planned for" in problem.message
    assert problem.fix is not None
    log = Path(problem.fix.split("the traceback is in ", 1)[1].split(";", 1)[0])
    assert log.is_relative_to(Path(os.environ["TDDHOOKS_HOME"]) / "logs")
    assert TRACEBACK in log.read_text(encoding="utf-8")


def test_the_crash_log_and_the_line_hold_no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    secret = "sk-Fq2Wd4Rt6Yh8Jk0Lz3Xc"
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    seen, report = _reported()
    with error_handler(report) as result:
        raise ValueError(f"bad value {secret[:14]}")
    assert result[0] == EXIT_ENVIRONMENT
    assert secret[:8] not in str(seen[0])
    logs = list((Path(os.environ["TDDHOOKS_HOME"]) / "logs").iterdir())
    assert all(secret[:8] not in path.read_text(encoding="utf-8") for path in logs)


def test_an_unwritable_state_home_still_gives_a_log_path(monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:  # fmt: skip
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x", encoding="utf-8")
    monkeypatch.setenv("TDDHOOKS_HOME", str(blocker / "home"))
    seen, report = _reported()
    with error_handler(report) as result:
        raise KeyError("boom")
    assert result[0] == EXIT_ENVIRONMENT
    assert "the traceback is in " in (seen[0].fix or "")


@pytest.mark.cargo
def test_a_crash_in_a_real_command_is_one_line_and_exit_3(
    tmp_path: Path, session_dir: Path
) -> None:
    repo = rust_kata(tmp_path, session_dir)
    # a state file of the wrong type where tddhooks expects a directory
    (repo / ".git" / "tddhooks").rename(repo / ".git" / "tddhooks-moved")
    (repo / ".git" / "tddhooks").write_text("not a directory", encoding="utf-8")
    result = tddhooks(repo, "status")
    assert result.returncode == EXIT_ENVIRONMENT
    assert TRACEBACK not in result.stderr
    assert ".git/tddhooks is a file where tddhooks needs a directory" in result.stderr
    assert "mv " in result.stderr
    assert (repo / ".git" / "tddhooks").read_text(encoding="utf-8") == "not a directory"


@pytest.mark.cargo
def test_git_tddhooks_as_a_file_makes_the_hook_exit_3_and_keeps_the_work(
    tmp_path: Path, session_dir: Path
) -> None:
    repo = rust_kata(tmp_path, session_dir)
    (repo / ".git" / "tddhooks").rename(repo / ".git" / "tddhooks-moved")
    (repo / ".git" / "tddhooks").write_text("x", encoding="utf-8")
    (repo / "src" / "lib.rs").write_text("// my work\n", encoding="utf-8")
    git(repo, "add", "src/lib.rs")
    result = tddhooks(repo, "hook", "pre-commit")
    assert result.returncode == EXIT_ENVIRONMENT, result.stderr
    assert TRACEBACK not in result.stderr
    assert (repo / "src" / "lib.rs").read_text(encoding="utf-8") == "// my work\n"


# --- the LLM cache ---------------------------------------------------------------------------


def _answer() -> CachedAnswer:
    return CachedAnswer("the answer", 1, 2, "stop")


def test_a_corrupted_cache_is_moved_aside_and_a_new_one_works(tmp_path: Path) -> None:
    directory = tmp_path / "cache"
    directory.mkdir()
    (directory / "cache.db").write_bytes(os.urandom(20_000))
    cache = AnswerCache(directory)
    assert cache.get("k") is None
    assert cache.put("k", _answer())
    assert cache.get("k") == _answer()
    kept = list(directory.glob("cache.db.damaged-*"))
    assert len(kept) == 1, "the damaged file must be kept, not deleted"


def test_cache_stats_on_a_corrupted_cache_is_not_a_traceback(tmp_path: Path) -> None:
    directory = Path(os.environ["TDDHOOKS_CACHE_DIR"])
    directory.mkdir(parents=True)
    (directory / "cache.db").write_bytes(b"SQLite format 3\x00" + os.urandom(5000))
    result = tddhooks(tmp_path, "cache", "stats")
    assert TRACEBACK not in result.stderr
    assert result.returncode in (0, EXIT_ENVIRONMENT), result.stderr
    assert cache_stats(directory).entries == 0


def test_a_cache_dir_that_is_a_file_is_exit_3_with_its_fix(tmp_path: Path) -> None:
    directory = Path(os.environ["TDDHOOKS_CACHE_DIR"])
    directory.parent.mkdir(parents=True, exist_ok=True)
    directory.write_text("I am a file", encoding="utf-8")
    with pytest.raises(TddhooksError) as caught:
        AnswerCache(directory)
    assert caught.value.exit_code == EXIT_ENVIRONMENT
    assert "is a file" in caught.value.message
    assert "TDDHOOKS_CACHE_DIR" in (caught.value.fix or "")
    result = tddhooks(tmp_path, "cache", "clear")
    assert result.returncode == EXIT_ENVIRONMENT, result.stderr
    assert TRACEBACK not in result.stderr
    assert directory.read_text(encoding="utf-8") == "I am a file"


def test_a_damaged_entry_is_a_miss(tmp_path: Path) -> None:
    cache = AnswerCache(tmp_path / "cache")
    # text that is not an answer (the cache stores text only: a bytes or pickled row is refused
    # outright, tests/security/test_answer_cache.py)
    cache._store.set("k", "\x80not-json")
    assert cache.get("k") is None


# --- tdd.yaml --------------------------------------------------------------------------------


def _bomb(levels: int = 9) -> str:
    text = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    previous = "a"
    for name in "bcdefghijklm"[: levels - 1]:
        text += f"{name}: &{name} [" + ", ".join([f"*{previous}"] * 9) + "]\n"
        previous = name
    return text


def test_a_yaml_alias_bomb_is_refused_before_it_is_built() -> None:
    with pytest.raises(ConfigError, match="alias bomb"):
        parse_config(_bomb(), Path("tdd.yaml"))


def test_the_alias_bomb_costs_bounded_memory() -> None:
    # tracemalloc counts what parsing allocates; ru_maxrss would also count the pytest parent's
    # peak, which a child inherits across fork and exec
    probe = (
        "import tracemalloc\nfrom pathlib import Path\n"
        "from tddhooks.config import parse_config\n"
        f"text = {_bomb()!r}\n"
        "tracemalloc.start()\n"
        "try:\n    parse_config(text, Path('tdd.yaml'))\n"
        "except Exception as e:\n    print(type(e).__name__)\n"
        "print(tracemalloc.get_traced_memory()[1] // 1024)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60, check=True)  # fmt: skip
    name, peak = done.stdout.split()
    assert name == "ConfigError"
    assert int(peak) < 50_000, f"{peak} kB allocated while parsing"


def test_a_few_honest_aliases_still_work() -> None:
    text = "roles:\n  tester: &r {temperature: 0.1}\n  implementor: *r\n  refactorer: *r\n"
    config = parse_config(text, Path("tdd.yaml"))
    assert config.roles.refactorer.temperature == 0.1


@pytest.mark.cargo
def test_the_bomb_in_a_repository_is_exit_2_from_the_cli(tmp_path: Path, session_dir: Path) -> None:
    repo = rust_kata(tmp_path, session_dir)
    (repo / "tdd.yaml").write_text(_bomb(), encoding="utf-8")
    git(repo, "commit", "-q", "--no-verify", "-am", "chore: a hostile tdd.yaml")
    result = tddhooks(repo, "status", timeout=60)
    assert result.returncode == 2, result.stdout + result.stderr
    assert TRACEBACK not in result.stderr
    assert "alias bomb" in result.stderr
    doctor = tddhooks(repo, "doctor", "--offline", timeout=60)
    assert doctor.returncode == 2, doctor.stdout + doctor.stderr


def test_a_huge_tdd_yaml_is_refused_without_reading_it_whole(tmp_path: Path) -> None:
    from tddhooks.config import load_config

    (tmp_path / "tdd.yaml").write_text("# " + "x" * (MAX_CONFIG_BYTES * 40) + "\n")
    with pytest.raises(ConfigError, match="too large"):
        load_config(tmp_path)


# --- commit messages -------------------------------------------------------------------------


@pytest.mark.cargo
def test_a_megabytes_long_commit_message_is_refused_not_read_whole(
    tmp_path: Path, session_dir: Path
) -> None:
    repo = rust_kata(tmp_path, session_dir)
    message = tmp_path / "message.txt"
    message.write_text("feat(add): x\n\n" + "y" * 8_000_000 + "\n", encoding="utf-8")
    result = tddhooks(repo, "hook", "commit-msg", str(message))
    assert result.returncode == 1, result.stderr
    assert "larger than 1,000,000 bytes" in result.stderr
    assert TRACEBACK not in result.stderr


# --- the toolchain (cargo) -------------------------------------------------------------------


def _stage_change(repo: Path) -> None:
    lib = repo / "src" / "lib.rs"
    lib.write_text(lib.read_text(encoding="utf-8") + "\n// a comment\n", encoding="utf-8")
    git(repo, "add", "src/lib.rs")


def _verdicts(repo: Path) -> set[str]:
    folder = repo / ".git" / "tddhooks" / "verdicts"
    return {path.name for path in folder.iterdir()} if folder.is_dir() else set()


@pytest.mark.cargo
@pytest.mark.parametrize(
    ("variable", "value", "said"),
    [
        ("RUSTUP_TOOLCHAIN", "nightly-2020-01-01", "is not installed"),
        ("HOME_UNUSABLE", "", "rustup could not choose a version"),
    ],
    ids=["missing-toolchain", "unusable-home"],
)
def test_a_broken_toolchain_is_exit_3_and_never_cached(
    tmp_path: Path, session_dir: Path, monkeypatch: pytest.MonkeyPatch,
    variable: str, value: str, said: str,
) -> None:  # fmt: skip
    repo = rust_kata(tmp_path, session_dir)
    _stage_change(repo)
    before = _verdicts(repo)
    with monkeypatch.context() as patched:
        if variable == "HOME_UNUSABLE":
            patched.setenv("HOME", str(tmp_path / "no-such-home"))
            patched.delenv("RUSTUP_HOME")
            patched.delenv("CARGO_HOME")
        else:
            patched.setenv(variable, value)
        result = tddhooks(repo, "hook", "pre-commit")
    assert result.returncode == EXIT_ENVIRONMENT, result.stdout + result.stderr
    assert said in result.stderr
    assert "fix:" in result.stderr
    assert "an environment problem, not your code" in result.stderr
    assert _verdicts(repo) == before, "an environment failure was stored as a verdict"
    # the environment repaired, the same tree is judged afresh (green)
    again = tddhooks(repo, "hook", "pre-commit")
    assert again.returncode == 0, again.stdout + again.stderr


@pytest.mark.cargo
def test_cargo_missing_from_path_is_exit_3(
    tmp_path: Path, session_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = rust_kata(tmp_path, session_dir)
    _stage_change(repo)
    bare = tmp_path / "bin"
    bare.mkdir()
    for tool in ("git", "sh"):
        found = subprocess.run(["which", tool], capture_output=True, text=True).stdout.strip()
        (bare / tool).symlink_to(found)
    monkeypatch.setenv("PATH", f"{bare}{os.pathsep}{Path(sys.executable).parent}")
    result = tddhooks(repo, "hook", "pre-commit")
    assert result.returncode == EXIT_ENVIRONMENT, result.stderr
    assert "command not found" in result.stderr
    assert _verdicts(repo) == set() or all("red" not in name for name in _verdicts(repo))
