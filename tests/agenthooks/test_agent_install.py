"""`tddhooks install --agent` merges into what is there, twice is once, and `uninstall --agent`
takes out only our entries."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from tddhooks.agenthooks.formats import AGENTS

EXISTING = {
    "claude-code": json.dumps(
        {
            "permissions": {"allow": ["Bash(cargo test:*)"]},
            "hooks": {
                "PreToolUse": [
                    {"matcher": "Bash", "hooks": [{"type": "command", "command": "./audit.sh"}]}
                ]
            },
        },
        indent=2,
    ),
    "codex": (
        '# my settings\nmodel = "gpt-5-codex"\n\n[[hooks.Stop]]\n\n'
        '[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "./notify.sh"\n'
    ),
    "cursor": json.dumps(
        {"version": 1, "hooks": {"beforeShellExecution": [{"command": "./audit.sh"}]}}
    ),
    "gemini": json.dumps({"theme": "Dracula", "hooks": {"SessionEnd": [{"hooks": []}]}}),
    "openhands": json.dumps(
        {"stop": [{"matcher": "*", "hooks": [{"command": ".openhands/hooks/lint.sh"}]}]}
    ),
    "aider": "# mine\nmodel: deepseek/deepseek-coder\ndark-mode: true\n",
}


def tddhooks(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["tddhooks", *args], cwd=repo, capture_output=True, text=True)


def parsed(path: Path) -> object:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".toml":
        return tomllib.loads(text)
    if path.suffix == ".yml":
        return yaml.safe_load(text)
    return json.loads(text)


@pytest.mark.cargo
@pytest.mark.parametrize("agent", list(EXISTING))
def test_install_keeps_everything_is_idempotent_and_uninstall_takes_only_ours(
    make_repo: object, agent: str
) -> None:
    repo = make_repo({"README.md": "kata\n"})  # type: ignore[operator]
    path = repo / AGENTS[agent].config
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(EXISTING[agent], encoding="utf-8")
    before = parsed(path)

    first = tddhooks(repo, "install", "--direct", "--agent", agent)
    assert first.returncode == 0, first.stdout + first.stderr
    installed = path.read_text(encoding="utf-8")
    assert f"tddhooks hook agent {agent}" in installed or agent == "aider"
    assert "./audit.sh" in installed or agent not in {"claude-code", "cursor"}
    assert tddhooks(repo, "install", "--direct", "--agent", agent).returncode == 0
    assert path.read_text(encoding="utf-8") == installed  # twice is once

    removed = tddhooks(repo, "uninstall", "--agent", agent)
    assert removed.returncode == 0, removed.stdout + removed.stderr
    assert parsed(path) == before
    assert "tddhooks hook agent" not in path.read_text(encoding="utf-8")
    assert (repo / ".git/hooks/pre-commit").exists()  # the git hooks stay


@pytest.mark.cargo
def test_the_merged_settings_keep_the_persons_hook_beside_ours(make_repo: object) -> None:
    repo = make_repo({"README.md": "kata\n"})  # type: ignore[operator]
    path = repo / ".claude/settings.json"
    path.parent.mkdir()
    path.write_text(EXISTING["claude-code"], encoding="utf-8")
    assert tddhooks(repo, "install", "--direct", "--agent", "claude-code").returncode == 0
    data = json.loads(path.read_text(encoding="utf-8"))
    commands = [h["command"] for g in data["hooks"]["PreToolUse"] for h in g["hooks"]]
    entry = str(Path(sys.executable).parent / "tddhooks")  # absolute: no PATH needed
    assert commands == ["./audit.sh", f"{entry} hook agent claude-code pre-tool"]
    assert data["permissions"] == {"allow": ["Bash(cargo test:*)"]}
    assert set(data["hooks"]) == {
        "PreToolUse", "PostToolUse", "SessionStart", "UserPromptSubmit", "Stop",
    }  # fmt: skip


@pytest.mark.cargo
def test_aider_config_turns_verification_on_and_sets_the_gate(make_repo: object) -> None:
    repo = make_repo({"README.md": "kata\n"})  # type: ignore[operator]
    (repo / ".aider.conf.yml").write_text(EXISTING["aider"], encoding="utf-8")
    assert tddhooks(repo, "install", "--direct", "--agent", "aider").returncode == 0
    config = yaml.safe_load((repo / ".aider.conf.yml").read_text(encoding="utf-8"))
    assert config["git-commit-verify"] is True
    assert config["test-cmd"] == config["lint-cmd"] == "tddhooks hook agent aider gate"
    assert config["set-env"] == ["TDDHOOKS_COMPLETE_MESSAGE=1"]
    assert config["model"] == "deepseek/deepseek-coder"


@pytest.mark.parametrize(
    ("agent", "text", "expected"),
    [
        ("claude-code", "{not json", "not valid JSON"),
        ("codex", "hooks = { Stop = [] }\n", "would not be valid TOML"),
        ("aider", "git-commit-verify: false\n", "already sets git-commit-verify"),
    ],
)
def test_a_config_we_cannot_merge_is_left_alone_with_a_clear_error(
    make_repo: object, agent: str, text: str, expected: str
) -> None:
    repo = make_repo({"README.md": "kata\n"})  # type: ignore[operator]
    path = repo / AGENTS[agent].config
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    result = tddhooks(repo, "install", "--direct", "--agent", agent)
    assert result.returncode == 2
    assert expected in " ".join((result.stdout + result.stderr).split())
    assert path.read_text(encoding="utf-8") == text
