"""The git hooks stay cheap on an already-verified tree: none of them imports click, pydantic,
rich, openai, diskcache or PyYAML, nor the gate (policy/gate.py: threads, locks, snapshots), nor
the validated config, nor the runner of a language the kata does not use, nor shutil, nor
dataclasses (with inspect: the hook path's value types are NamedTuples). hashlib (~3 ms, OpenSSL)
is the one cost kept: a stored verdict is trusted only when its seal verifies (tddhooks/seal.py).
A Rust kata's hooks do not load tomllib or typing either: a manifest is parsed only when its text
may name a file the build reads (policy/build_inputs.py), and tddhooks/records.py makes the
NamedTuples without typing. (A Python kata loads tomllib, and typing with it: pytest's
python_files is read from pyproject.toml.)
A structural check of what the hook path loads, not a timed one (the timings are in
tests/bench/bench_hooks.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support.hookkit import CRATE, tdd_message
from support.hookkit import SUB_CODE as RUST_CODE
from support.hookkit import SUB_TEST as RUST_TEST
from support.pykata import FILES, feat_message

HEAVY = (
    "click",
    "pydantic",
    "rich",
    "openai",
    "diskcache",
    "yaml",
    "git",  # GitPython
    "tddhooks.policy.gate",
    "tddhooks.policy.verdicts",
    "tddhooks.policy.snapshot",
    "tddhooks.config",
    "tddhooks.runners.rust",  # a Python kata's hooks never need the Rust runner
    "tddhooks.runners.base",
    "tddhooks.llm",
    "tddhooks.drive",
    "shutil",  # stdlib, but ~3 ms with its compression modules (policy/stored.which)
    "dataclasses",  # with inspect, ~10 ms, and ~1 ms per class for its generated methods
    "inspect",
)
# a Rust kata's hooks load no typing either (~5 ms, and its NamedTuple ~0.3 ms a class:
# tddhooks/records.py makes them without it); a Python kata's do, through tomllib
RUST_ALSO = ("tomllib", "typing")
# what each hook does not need either, on a verified tree and a `-F` message
NOT_NEEDED = {
    "pre-commit": ("tddhooks.policy.message", "tddhooks.policy.rules", "tddhooks.runners"),
    "commit-msg": (),
    "prepare-commit-msg": ("tddhooks.policy.rules", "tddhooks.runners"),
}
PROBE = """
import json, sys
from tddhooks.commands.hook import main
code = main(sys.argv[1:])
heavy = sorted(
    {h for h in %r for name in sys.modules if name == h or name.startswith(h + ".")}
)
sys.stderr.write("PROBE=" + json.dumps({"code": code, "heavy": heavy}) + "\\n")
"""
SUB_CODE = "\n\ndef sub(a: int, b: int) -> int:\n    return a - b\n"
SUB_TEST = "from calc import sub\n\n\ndef test_subtracts() -> None:\n    assert sub(5, 3) == 2\n"


def _run(repo: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=repo, capture_output=True, text=True, input=stdin)


IDENTITY = ("-c", "user.name=Test Person", "-c", "user.email=person@example.com")


def _installed_repo(repo: Path, files: dict[str, str]) -> Path:
    """`files` in a new git repository with the default install (our own shims)."""
    repo.mkdir()
    for relative, text in files.items():
        (repo / relative).parent.mkdir(parents=True, exist_ok=True)
        (repo / relative).write_text(text, encoding="utf-8")
    _run(repo, "git", "init", "-q", "-b", "main")
    installed = _run(repo, "tddhooks", "install")
    assert installed.returncode == 0, installed.stdout + installed.stderr
    return repo


@pytest.fixture(scope="module")
def verified_kata(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A Python kata with the default install whose staged feature went through a real
    `git commit` (so its tree is verified) and was then uncommitted again; and its message."""
    repo = _installed_repo(tmp_path_factory.mktemp("imports") / "kata", FILES)
    identity = IDENTITY
    _run(repo, "git", "add", "-A")
    scaffold = _run(repo, "git", *identity, "commit", "-q", "--no-verify", "-m", "chore: kata")
    assert scaffold.returncode == 0, scaffold.stderr
    source = repo / "src/calc/__init__.py"
    source.write_text(source.read_text(encoding="utf-8") + SUB_CODE, encoding="utf-8")
    (repo / "tests/test_sub.py").write_text(SUB_TEST, encoding="utf-8")
    _run(repo, "git", "add", "-A")
    message = feat_message("subtract two numbers", 1, ["src/calc/__init__.py", "tests/test_sub.py"])
    committed = _run(repo, "git", *identity, "commit", "-q", "-F", "-", stdin=message)
    assert committed.returncode == 0, committed.stdout + committed.stderr
    assert _run(repo, "git", "reset", "-q", "--soft", "HEAD~1").returncode == 0
    message_file = repo / ".git" / "PROBE_MSG"
    message_file.write_text(message, encoding="utf-8")
    return repo, message_file


@pytest.mark.pygate
@pytest.mark.parametrize("hook", ["pre-commit", "commit-msg", "prepare-commit-msg"])
def test_no_heavy_import_on_the_git_hook_path(verified_kata: tuple[Path, Path], hook: str) -> None:
    repo, message = verified_kata
    args = {"pre-commit": [], "commit-msg": [str(message)]}.get(hook, [str(message), "message"])
    # the hooks ran under the `tddhooks` script's interpreter: a Python kata's default commands
    # name it, so the first hook under another one validates tdd.yaml once (pydantic) and caches it
    for _ in range(2):
        result = _run(repo, sys.executable, "-c", PROBE % (HEAVY + NOT_NEEDED[hook],), hook, *args)
    line = next((ln for ln in result.stderr.splitlines() if ln.startswith("PROBE=")), None)
    assert line is not None, result.stdout + result.stderr
    probe = json.loads(line.removeprefix("PROBE="))

    assert probe == {"code": 0, "heavy": []}


@pytest.mark.pygate
def test_the_probe_sees_a_heavy_import(verified_kata: tuple[Path, Path]) -> None:
    """The probe itself can fail: a hook that needs the gate (a tree never verified) loads it."""
    repo, _message = verified_kata
    (repo / "tests/test_sub.py").write_text(SUB_TEST + "\n# changed\n", encoding="utf-8")
    _run(repo, "git", "add", "tests/test_sub.py")
    try:
        code = PROBE % (("tddhooks.policy.gate",),)
        result = _run(repo, sys.executable, "-c", code, "pre-commit")
    finally:
        (repo / "tests/test_sub.py").write_text(SUB_TEST, encoding="utf-8")
        _run(repo, "git", "add", "tests/test_sub.py")
    line = next(ln for ln in result.stderr.splitlines() if ln.startswith("PROBE="))
    assert json.loads(line.removeprefix("PROBE="))["heavy"] == ["tddhooks.policy.gate"]


@pytest.fixture(scope="module")
def rust_kata(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A Rust kata (default install, scaffold committed) with a green feature staged, and its
    message; commit-msg judges it without running cargo."""
    repo = _installed_repo(tmp_path_factory.mktemp("rust-imports") / "kata", CRATE)
    identity = IDENTITY
    _run(repo, "git", "add", "-A")
    scaffold = _run(repo, "git", *identity, "commit", "-q", "--no-verify", "-m", "chore: kata")
    assert scaffold.returncode == 0, scaffold.stderr
    for relative, text in {**RUST_TEST, **RUST_CODE}.items():
        (repo / relative).write_text(text, encoding="utf-8")
    _run(repo, "git", "add", "-A")
    message_file = repo / ".git" / "PROBE_MSG"
    message_file.write_text(tdd_message("feat", "subtract"), encoding="utf-8")
    return repo, message_file


def _probe(repo: Path, watched: tuple[str, ...], *args: str) -> dict[str, object]:
    for _ in range(2):  # the first run may validate tdd.yaml (pydantic) and cache it
        result = _run(repo, sys.executable, "-c", PROBE % (watched,), *args)
    line = next((ln for ln in result.stderr.splitlines() if ln.startswith("PROBE=")), None)
    assert line is not None, result.stdout + result.stderr
    found: dict[str, object] = json.loads(line.removeprefix("PROBE="))
    return found


@pytest.mark.parametrize("hook", ["commit-msg", "prepare-commit-msg"])
def test_a_rust_kata_hook_loads_no_toml_parser_nor_typing(
    rust_kata: tuple[Path, Path], hook: str
) -> None:
    repo, message = rust_kata
    args = [str(message)] if hook == "commit-msg" else [str(message), "message"]

    watched = tuple(name for name in HEAVY if name != "tddhooks.runners.rust")  # its own runner

    probe = _probe(repo, (*watched, *RUST_ALSO), hook, *args)

    assert probe == {"code": 0, "heavy": []}


def test_the_records_namedtuple_behaves_as_typings() -> None:
    """tddhooks/records.py stands in for typing.NamedTuple on the hook path: same fields,
    defaults, methods, properties, docstring, pickling and errors."""
    import pickle

    from tddhooks.proc import ProcResult

    result = ProcResult(("git",), 0, "out", "", 0.5)
    assert result._fields == ("cmd", "returncode", "stdout", "stderr", "duration_s", "timed_out")
    assert result.timed_out is False
    assert result.ok
    assert result.output == "out"
    assert result._replace(returncode=1).ok is False
    assert pickle.loads(pickle.dumps(result)) == result
    assert ProcResult.__doc__ == "What a finished (or killed) command left behind."
    assert ProcResult.__module__ == "tddhooks.proc"
    assert ProcResult.__qualname__ == "ProcResult"
    assert "stdout" in ProcResult.__annotations__
    with pytest.raises(TypeError):
        ProcResult(("git",))  # type: ignore[call-arg]

    from tddhooks.records import NamedTuple

    with pytest.raises(TypeError, match="follows one with a default"):

        class Bad(NamedTuple):
            first: int = 0
            second: int  # type: ignore[misc]

    with pytest.raises(AttributeError, match="_replace"):

        class Clash(NamedTuple):
            value: int

            def _replace(self) -> None:  # type: ignore[misc]
                pass


def test_a_manifest_that_names_a_file_is_parsed(rust_kata: tuple[Path, Path]) -> None:
    """The other side of the pre-check: a manifest naming the library's path (an escaped key,
    as TOML allows) is parsed, and the probe sees tomllib."""
    repo, message = rust_kata
    manifest = repo / "Cargo.toml"
    plain = manifest.read_text(encoding="utf-8")
    manifest.write_text(plain + '\n[lib]\n"p\\u0061th" = "src/lib.rs"\n', encoding="utf-8")
    _run(repo, "git", "add", "Cargo.toml")
    try:
        probe = _probe(repo, ("tomllib", "dataclasses"), "commit-msg", str(message))
    finally:
        manifest.write_text(plain, encoding="utf-8")
        _run(repo, "git", "add", "Cargo.toml")

    assert probe == {"code": 0, "heavy": ["tomllib"]}


GC_PROBE = """
import gc, json, sys
from tddhooks.entry import main
before = sum(generation["collections"] for generation in gc.get_stats())
sys.argv = ["tddhooks", *sys.argv[1:]]
try:
    main()
except SystemExit as done:
    code = done.code
after = sum(generation["collections"] for generation in gc.get_stats())
sys.stderr.write("PROBE=" + json.dumps({"code": code, "collections": after - before}) + "\\n")
"""


def test_a_hook_process_runs_no_cyclic_garbage_collection(rust_kata: tuple[Path, Path]) -> None:
    """The console script raises the collector's threshold for a hook (entry.py): importing
    the hook path would otherwise pay ~19 collections. The CLI keeps Python's default."""
    repo, message = rust_kata
    hook = _run(repo, sys.executable, "-c", GC_PROBE, "hook", "commit-msg", str(message))
    cli = _run(repo, sys.executable, "-c", GC_PROBE, "--version")

    found = [json.loads(next(ln for ln in r.stderr.splitlines() if ln.startswith("PROBE="))[6:])
             for r in (hook, cli)]  # fmt: skip

    assert found[0] == {"code": 0, "collections": 0}
    assert found[1]["code"] == 0
    assert found[1]["collections"] > 0  # click's import: the probe can see collections
