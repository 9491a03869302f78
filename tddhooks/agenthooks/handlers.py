"""`tddhooks hook agent NAME EVENT`: what the agents' hook configurations run.

Reads the agent's hook input (JSON on stdin), answers in the agent's documented shape (see
formats.py). Never calls a model, never runs the test suite, never imports click, pydantic,
rich or openai: every hook answers in well under 0.15 s.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from tddhooks import git
from tddhooks.agenthooks import formats as F
from tddhooks.agenthooks.paths import Protected
from tddhooks.agenthooks.repo_view import RepoView, repo_view

USAGE = f"usage: tddhooks hook agent {{{','.join(F.HOOK_AGENTS)}}} {{{','.join(F.EVENTS)}}}"
STOP_COUNTER = "agent-stop.json"
MAX_SEND_BACKS = 2  # for agents that do not tell us a stop hook already sent them back
MANAGER_CONFIGS = (".pre-commit-config.yaml", "tdd.yaml", ".husky", "lefthook.yml")


def protected_paths(view: RepoView) -> Protected:
    """The files nobody but the person may write, and the handed-over tests."""
    root = view.root
    files = [str(view.hooks), str(view.state), str(view.common / "config")]
    files += [str(root / name) for name in MANAGER_CONFIGS]
    files += [str(root / spec.config) for spec in F.AGENTS.values()]
    return Protected(str(root), tuple(files), _handed_over(view))


def _handed_over(view: RepoView) -> tuple[str, ...]:
    """The live handoff note's tests, or the staged tests while only tests are staged and the
    staged tree is not known to be green (a person's hand-over has no note)."""
    from tddhooks.agenthooks.status_json import cached_verdict, live_handoff

    root = view.root
    note = live_handoff(view.state, view.head) if view.head else None
    if note is not None and isinstance(note.get("test_blobs"), dict):
        # a source file with the test beside its code is the implementor's to edit: the handoff
        # rule pins its test items at commit time (`items:` tokens, policy/testitems.py)
        return tuple(
            str(root / path)
            for path, blob in note["test_blobs"].items()
            if not str(blob).startswith("items:")
        )
    if not view.staged or view.head is None:
        return ()
    from tddhooks.policy.rules import is_test_path
    from tddhooks.policy.settings import load_settings

    settings = load_settings(root, view.state)
    if not all(is_test_path(path, settings) for path in view.staged):
        return ()
    cached = cached_verdict(root, git.write_tree(root), settings, view.state)
    if cached is not None and cached[0] == "green":
        return ()
    from tddhooks.policy.handover import record_handover

    # from now on the lock is the note's content, whatever else gets staged (policy/handover.py)
    record_handover(root, view.state, view.head, settings, view.staged, by="agent hook")
    return tuple(str(root / path) for path in view.staged)


def pre_tool(agent: str, payload: dict[str, Any], cwd: str) -> tuple[dict[str, Any], int]:
    """Refuse a shell command that gets round the hooks or an edit of a protected file."""
    from tddhooks.agenthooks.guard import check_command, check_edit

    call = F.tool_call(payload)
    view = repo_view(cwd) if call else None
    if call is None or view is None:
        return {}, 0
    protected = protected_paths(view)
    kind, what = call
    if kind == "shell":
        refusal = check_command(str(what), cwd, protected)
    else:
        refusal = next(
            (r for r in (check_edit(p, cwd, protected) for p in what) if r is not None), None
        )
    if refusal is None:
        return {}, 0
    print(refusal.message(), file=sys.stderr)
    return F.deny(agent, refusal.message(), payload)


def context(agent: str, payload: dict[str, Any], cwd: str) -> tuple[dict[str, Any], int]:
    """Tell the agent the phase, whose turn it is, the next legal step and the rules."""
    from tddhooks.agenthooks.status_json import context_text, hook_status

    view = repo_view(cwd)
    if view is None:
        return {}, 0
    _handed_over(view)  # a session that starts on tests staged alone starts with them locked
    return F.context(agent, context_text(hook_status(view)), payload), 0


def stop(agent: str, payload: dict[str, Any], cwd: str) -> tuple[dict[str, Any], int]:
    """Send the agent back while it leaves work the hooks have not judged; let it stop on a clean
    tree or a handed-over red test, and always the second time (no hook blocks forever)."""
    from tddhooks.agenthooks.status_json import hook_status

    view = repo_view(cwd)
    if view is None:
        return {}, 0
    reason = stop_reason(hook_status(view))
    flag = F.already_sent_back(agent, payload)
    done_counting = flag is None and not _count_send_back(view.state, payload)
    if reason is None or flag is True or done_counting:
        _reset_counter(view.state)
        return {}, 0
    return F.send_back(agent, reason)


def stop_reason(status: dict[str, Any]) -> str | None:
    """Why the agent may not stop yet (with the next legal step), or None."""
    phase = status["phase"]
    if phase in {"dirty", "mixed", "overshoot"}:
        return (
            f"tddhooks: not done yet — {status['next_step']}. Commit work the hooks accept with "
            "`git commit` (never --no-verify); a failing test you wrote: stage only the test "
            "to hand it over; otherwise make it pass."
        )
    return None


def _count_send_back(state: Path, payload: dict[str, Any]) -> bool:
    """Record one more send-back for this session; False once the limit is reached."""
    path = state / STOP_COUNTER
    session = str(payload.get("session_id") or payload.get("conversation_id") or "")
    try:
        counts = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        counts = {}
    if not isinstance(counts, dict):
        counts = {}
    sent = int(counts.get(session, 0)) if str(counts.get(session, 0)).isdigit() else 0
    if sent >= MAX_SEND_BACKS:
        return False
    path.write_text(json.dumps({session: sent + 1}), encoding="utf-8")
    return True


def _reset_counter(state: Path) -> None:
    (state / STOP_COUNTER).unlink(missing_ok=True)


_HANDLERS = {F.PRE_TOOL: pre_tool, F.CONTEXT: context, F.STOP: stop}


def main(argv: list[str]) -> int:
    """Run one agent hook: hook input on stdin, the agent's answer on stdout, its exit code."""
    if argv[:2] == ["aider", "gate"]:  # aider's test-cmd/lint-cmd (it appends file names)
        from tddhooks.agenthooks.aider import work_tree_gate

        root = git.find_root(Path.cwd())
        if root is None:
            print("tddhooks: not inside a git repository", file=sys.stderr)
            return 3
        return work_tree_gate(root)
    if len(argv) != 2 or argv[0] not in F.HOOK_AGENTS or argv[1] not in _HANDLERS:
        print(f"tddhooks: unknown agent hook call: {' '.join(argv)}\n{USAGE}", file=sys.stderr)
        return 2
    agent, event = argv
    try:
        payload = json.loads(sys.stdin.read() or "{}")
    except ValueError as error:
        print(f"tddhooks: the hook input is not JSON ({error}); letting it pass", file=sys.stderr)
        payload = {}
    if not isinstance(payload, dict):
        payload = {}
    cwd = F.payload_cwd(payload) or os.environ.get("CLAUDE_PROJECT_DIR") or os.getcwd()
    try:
        answer, code = _HANDLERS[event](agent, payload, cwd)
    except Exception as error:  # a broken hook must never wedge the agent; audit is the backstop
        print(f"tddhooks: the {event} hook failed ({error}); letting it pass", file=sys.stderr)
        answer, code = {}, 0
    sys.stdout.write(json.dumps(answer) + "\n")
    return code
