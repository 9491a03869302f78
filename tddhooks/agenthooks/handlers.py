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
    # class (b): anything under .git/ (refs, objects, config, hooks) is git's to write
    files += list(dict.fromkeys([str(view.common), str(root / ".git")]))
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
    from tddhooks.policy.facts import staged_facts
    from tddhooks.policy.phase import split_staged
    from tddhooks.policy.rules import is_test_path
    from tddhooks.policy.settings import load_settings

    settings = load_settings(root, view.state)
    # the phase model's reading: staged tests (unit tests beside the code included) and no code
    tests, code, _deleted = split_staged(staged_facts(root, settings), settings)
    if not tests or code:
        return ()
    cached = cached_verdict(root, git.write_tree(root), settings, view.state)
    if cached is not None and cached[0] == "green":
        return ()
    from tddhooks.policy.handover import record_handover

    # from now on the lock is the note's content, whatever else gets staged (policy/handover.py)
    record_handover(root, view.state, view.head, settings, view.staged, by="agent hook")
    # a source file holding a staged unit test is also the implementor's to edit
    return tuple(str(root / path) for path in tests if is_test_path(path, settings))


def pre_tool(agent: str, payload: dict[str, Any], cwd: str) -> tuple[dict[str, Any], int]:
    """Refuse a shell command that gets round the hooks or an edit of a protected file."""
    from tddhooks.agenthooks.guard import check_command, check_edit

    call = F.tool_call(payload)
    if call is None:
        return {}, 0
    kind, what = call
    refusal = None
    for view in _reached_views(kind, what, cwd):
        protected = protected_paths(view)
        if kind == "shell":
            refusal = check_command(str(what), cwd, protected)
        else:
            refusal = next(
                (r for r in (check_edit(p, cwd, protected) for p in what) if r is not None), None
            )
            if refusal is None and isinstance(what, list):  # a unit test beside the code
                from tddhooks.agenthooks.pinned import test_items_edit

                refusal = test_items_edit(view, what, payload, cwd)
        if refusal is not None:
            break
    if refusal is None:
        return {}, 0
    print(refusal.message(), file=sys.stderr)
    return F.deny(agent, refusal.message(), payload)


def _reached_views(kind: str, what: str | list[str], cwd: str) -> list[RepoView]:
    """The repositories a tool call reaches: its cwd's, and those its command's `cd`, `-C`,
    `--git-dir`, `GIT_DIR=` or absolute paths (or the edited files) lie in, so a call made from
    outside a repository is judged by the one it reaches (class (d), docs/security.md)."""
    from tddhooks.agenthooks.guard import reached_dirs

    if kind == "shell":
        dirs = [cwd, *reached_dirs(str(what), cwd)]
    else:
        dirs = [cwd, *(os.path.dirname(os.path.join(cwd, path)) for path in what)]
    views: dict[Path, RepoView] = {}
    for directory in dirs:
        parts = Path(directory).parts
        if ".git" in parts:  # git answers nothing inside .git/: ask in its work tree
            directory = str(Path(*parts[: parts.index(".git")]))
        while directory and not os.path.isdir(directory):
            directory = os.path.dirname(directory)  # a file, or a folder not made yet
        if not directory or any(_within(directory, root) for root in views):
            continue
        view = repo_view(directory)
        if view is not None:
            views.setdefault(view.root, view)
    return list(views.values())


def _within(directory: str, root: Path) -> bool:
    return directory == str(root) or directory.startswith(str(root) + os.sep)


def context(agent: str, payload: dict[str, Any], cwd: str) -> tuple[dict[str, Any], int]:
    """Tell the agent the phase, whose turn it is, the next legal step and the rules."""
    from tddhooks.agenthooks.status_json import context_text, hook_status

    view = repo_view(cwd)
    if view is None:
        return {}, 0
    _handed_over(view)  # a session that starts on tests staged alone starts with them locked
    return F.context(agent, context_text(hook_status(view)), payload), 0


def landed_unjudged(view: RepoView) -> str | None:
    """What to tell the agent about commits on any branch that no hook judged (made with the
    hooks off: a changed core.hooksPath, a write under .git/), with the undo; None when there
    are none (commands/refcheck.py)."""
    from tddhooks.policy.landing import landed_report, landed_unjudged

    refusals = landed_unjudged(view.root, view.state)
    return landed_report(refusals) if refusals else None


def post_tool(agent: str, payload: dict[str, Any], cwd: str) -> tuple[dict[str, Any], int]:
    """After every shell or edit call: report at once a commit that landed unjudged."""
    view = repo_view(cwd)
    if view is None:
        return {}, 0
    report = landed_unjudged(view)
    if report is None:
        return {}, 0
    print(report, file=sys.stderr)
    return F.post_tool_report(agent, report)


def stop(agent: str, payload: dict[str, Any], cwd: str) -> tuple[dict[str, Any], int]:
    """Send the agent back while it leaves work the hooks have not judged; let it stop on a clean
    tree or a handed-over red test, and always the second time (no hook blocks forever), except
    while a commit no hook judged is on a branch: then every time, with its undo."""
    from tddhooks.agenthooks.status_json import hook_status

    view = repo_view(cwd)
    if view is None:
        return {}, 0
    landed = landed_unjudged(view)
    if landed is not None:
        return F.send_back(agent, landed)
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


_HANDLERS = {F.PRE_TOOL: pre_tool, F.POST_TOOL: post_tool, F.CONTEXT: context, F.STOP: stop}


def main(argv: list[str]) -> int:
    """Run one agent hook: hook input on stdin, the agent's answer on stdout, its exit code."""
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
