"""aider: its configuration (commits through the hooks, our gate as test and lint command). The
gate on the work tree and the completion of its one-line messages are hooks (commands/).

aider has no hook system; it commits by itself with a message its (weak) model writes in the
Conventional Commits form, passed with `-m`. With `set-env: TDDHOOKS_COMPLETE_MESSAGE=1` in the
installed configuration, our prepare-commit-msg hook appends the context sections to such a
message (Role, Step, Kata goal, Diff summary, Verification, exactly as it pre-fills an empty
one), so the commit-msg rules can accept it. Without it, a one-line `-m` message is completed
only when it is a person's (commands/hook_prepare.py); an agent's (TDDHOOKS_AGENT) is left alone.
"""

from __future__ import annotations

COMPLETE_ENV = "TDDHOOKS_COMPLETE_MESSAGE"
GATE_COMMAND = "tddhooks hook agent aider gate"
SETTINGS = {
    "git-commit-verify": "true",
    "test-cmd": GATE_COMMAND,
    "lint-cmd": GATE_COMMAND,
    "auto-test": "true",
}


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
