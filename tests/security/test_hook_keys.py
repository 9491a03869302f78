"""Red team: a key variable named in tdd.yaml never reaches a child of the hooks (issue 34,
item 9). The hook path reads the parent's tdd.yaml anyway (policy/settings.py); every name it
says holds a key is registered with tddhooks/keys.py there, so the gate's commands (and every
other child) get neither the variable nor its value under another name. Real git, real pytest."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support.gatekit import commit, git, head, landed, message, python_kata, write

from tddhooks import git as tgit
from tddhooks import keys
from tddhooks.policy.settings import settings_at

SECRET = "s3cr3t-Xq7Lm2Vb9Nc4"
DUMP_TEST = """import json
import os
from pathlib import Path


def test_dump_environment() -> None:
    Path({where!r}).write_text(json.dumps(dict(os.environ)), encoding="utf-8")
"""


@pytest.fixture
def kata(tmp_path: Path, session_dir: Path) -> Path:
    repo = python_kata(tmp_path, session_dir)
    yaml = repo / "tdd.yaml"
    text = yaml.read_text(encoding="utf-8")
    text = text.replace("  api_key_env: null", "  api_key_env: LLMCRED")
    text = text.replace("  env: []", "  env: [KATA_NOTE]")
    yaml.write_text(text, encoding="utf-8")
    git(repo, "add", "tdd.yaml")
    before = head(repo)
    landed(commit(repo, "chore: the kata's key variable and note\n"), before, repo)
    return repo


@pytest.mark.pygate
def test_the_configured_key_and_its_value_are_absent_from_the_gates_children(
    kata: Path, tmp_path: Path
) -> None:
    dump = tmp_path / "environment.json"
    write(kata, {"tests/test_dump.py": DUMP_TEST.format(where=str(dump))})
    subprocess.run([sys.executable, "-m", "ruff", "format", "-q", "tests"], cwd=kata, check=True)
    git(kata, "add", "-A")
    before = head(kata)
    # KATA_NOTE is one the policy lets in; here it carries a copy of the key
    env = {"LLMCRED": SECRET, "KATA_NOTE": SECRET}

    landed(commit(kata, message("test", "dump", "Tester"), env=env), before, kata)

    seen = json.loads(dump.read_text(encoding="utf-8"))
    assert "LLMCRED" not in seen
    assert "KATA_NOTE" not in seen  # scrubbed by value: it holds the key
    assert SECRET not in json.dumps(seen)


@pytest.mark.pygate
def test_reading_the_policy_registers_its_key_variable(
    kata: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LLMCRED", SECRET)
    monkeypatch.setenv("HARMLESS", "kept")
    assert "LLMCRED" in tgit.clean_env()  # not a key by its name alone

    settings = settings_at(kata, tgit.head(kata))

    assert settings.key_names == ("LLMCRED",)
    assert keys.is_key_name("LLMCRED")
    env = tgit.clean_env({"COPY": SECRET})
    assert "LLMCRED" not in env
    assert "COPY" not in env
    assert env["HARMLESS"] == "kept"
