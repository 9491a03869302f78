"""aider: its configuration (commits through the hooks, our gate as test and lint command), the
gate on the work tree, and the completion of aider's one-line commit messages.

aider has no hook system; it commits by itself with a message its (weak) model writes in the
Conventional Commits form, passed with `-m`. With `set-env: TDDHOOKS_COMPLETE_MESSAGE=1` in the
installed configuration, our prepare-commit-msg hook appends the context sections to such a
message (Role, Step, Kata goal, Diff summary, Verification, exactly as it pre-fills an empty
one), so the commit-msg rules can accept it. Without it, a one-line `-m` message is completed
only when it is a person's (commands/hook_prepare.py); an agent's (TDDHOOKS_AGENT) is left alone.
"""

from __future__ import annotations

import os
from pathlib import Path

from tddhooks import git

COMPLETE_ENV = "TDDHOOKS_COMPLETE_MESSAGE"
GATE_COMMAND = "tddhooks hook agent aider gate"
SETTINGS = {
    "git-commit-verify": "true",
    "test-cmd": GATE_COMMAND,
    "lint-cmd": GATE_COMMAND,
    "auto-test": "true",
}
WORK_INDEX = "aider-index"


def aider_block() -> str:
    """Our keys of `.aider.conf.yml`, between marker comments."""
    lines = ["# >>> tddhooks (managed by `tddhooks install --agent aider`; do not edit)"]
    lines += [f"{key}: {value}" for key, value in SETTINGS.items()]
    lines += ["set-env:", f"  - {COMPLETE_ENV}=1", "# <<< tddhooks"]
    return "\n".join(lines) + "\n"


def conflicting_keys(text: str) -> list[str]:
    """Top-level keys of the person's own YAML that our block also sets."""
    ours = {*SETTINGS, "set-env"}
    return [
        line.split(":", 1)[0]
        for line in text.splitlines()
        if not line.startswith((" ", "\t", "#", "-")) and line.split(":", 1)[0].strip() in ours
    ]


def work_tree_gate(root: Path) -> int:
    """Judge the work tree as `git add -A` would stage it (the real index is not touched):
    0 green, 1 red with the gate's report."""
    from tddhooks.commands.hook import red_report
    from tddhooks.output import plain
    from tddhooks.policy.gate import tree_verdict
    from tddhooks.policy.settings import load_settings

    state = git.tddhooks_dir(root)
    index = str(state / WORK_INDEX)
    env = git.index_env(index)
    base = ["read-tree", "HEAD"] if git.head(root) else ["read-tree", "--empty"]
    git.run_git(base, root, env_extra=env)
    git.run_git(["add", "-A"], root, env_extra=env)
    tree = git.write_tree(root, index_file=index)
    settings = load_settings(root, state)
    verdict = tree_verdict(root, tree, settings)
    if verdict.green:
        plain(f"tddhooks: green ({'; '.join(verdict.verification_lines())})")
        return 0
    plain(red_report(root, verdict, settings, None))
    return 1


def complete_message(message_file: Path, root: Path, index_file: str | None) -> int:
    """Append the context sections to a one-line TDD-type `-m` message that lacks them."""
    from tddhooks.commands.hook import comment_char
    from tddhooks.commands.hook_prepare import _prefill
    from tddhooks.policy.message import parse_message
    from tddhooks.policy.settings import load_settings

    text = message_file.read_text(encoding="utf-8", errors="replace")
    char = comment_char(root, text)
    message = parse_message(text, char)
    state = git.tddhooks_dir(root)
    settings = load_settings(root, state)
    header = message.text.strip().splitlines()[0] if message.text.strip() else ""
    kind = header.split(":", 1)[0].split("(", 1)[0].rstrip("!").lower()
    if kind not in settings.require_sections or "\nContext:" in message.text:
        return 0
    template = _prefill(root, state, settings, index_file, char)
    sections = "\n".join(ln for ln in template.splitlines() if not ln.startswith(char)).strip()
    message_file.write_text(message.text.rstrip("\n") + "\n\n" + sections + "\n", encoding="utf-8")
    return 0


def wants_completion() -> bool:
    return os.environ.get(COMPLETE_ENV) == "1"
