"""The git hooks stay cheap on an already-verified tree: none of them imports click, pydantic,
rich, openai, diskcache or PyYAML, nor the gate (policy/gate.py: threads, locks, snapshots), nor
the validated config, nor the runner of a language the kata does not use, nor shutil. (typing is
loaded in a Python kata: tomllib needs it to read pytest's python_files from pyproject.toml.)
A structural check of what the hook path loads, not a timed one (the timings are in
tests/bench/bench_hooks.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from commands.pykata import FILES, feat_message

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
)
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


@pytest.fixture(scope="module")
def verified_kata(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A Python kata with the default install whose staged feature went through a real
    `git commit` (so its tree is verified) and was then uncommitted again; and its message."""
    repo = tmp_path_factory.mktemp("imports") / "kata"
    repo.mkdir()
    for relative, text in FILES.items():
        (repo / relative).parent.mkdir(parents=True, exist_ok=True)
        (repo / relative).write_text(text, encoding="utf-8")
    identity = ("-c", "user.name=Test Person", "-c", "user.email=person@example.com")
    _run(repo, "git", "init", "-q", "-b", "main")
    installed = _run(repo, "tddhooks", "install")  # the default install: our own shims
    assert installed.returncode == 0, installed.stdout + installed.stderr
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
