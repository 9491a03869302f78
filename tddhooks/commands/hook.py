"""The three git hooks: pre-commit (green gate), commit-msg (message rules), prepare-commit-msg.

This is the hook path: it imports neither pydantic (unless a gate must run or a verdict is red)
nor rich, openai, diskcache or GitPython. Git runs hooks at the top of the work tree and passes
the index being committed in GIT_INDEX_FILE, which every git call here honours.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

from tddhooks import git
from tddhooks.output import plain
from tddhooks.policy.facts import hook_index_file, locate
from tddhooks.policy.settings import PolicySettings, load_settings

if TYPE_CHECKING:
    from tddhooks.errors import TddhooksError
    from tddhooks.policy.verdicts import Verdict

LAST_MESSAGE = "last-message"
RED_NEXT_STEP = (
    "fix the code, or stage only the test and hand it to the implementor with "
    "`tddhooks drive --steps 1`; red is never committed"
)
TIMEOUT_NEXT_STEP = (
    "make the suite finish (look for an endless loop or a blocking call in the tests), or raise "
    "ci.timeout_s in tdd.yaml"
)
_STATUS_WORDS = {"A": "added", "D": "deleted"}
_AUTO_COMMENT_RE = re.compile(r"^(\S+) Please enter the commit message", re.MULTILINE)
# an editor on an empty message or a template; "message" (-m/-F), "merge", "squash" and
# "commit" (-c/-C/--amend) already carry content and are left alone
_FILLABLE_SOURCES = (None, "", "template")


def _context() -> tuple[Path, Path, str | None]:
    root, state = locate(Path.cwd())
    return root, state, hook_index_file(root)


def pre_commit() -> int:
    """Gate the staged tree: green (cached or freshly run) → 0; red → diagnostics and 1."""
    root, state, index_file = _context()
    settings = load_settings(root, state)
    if not settings.enabled("green"):
        return 0
    tree = git.write_tree(root, index_file=index_file)
    from tddhooks.policy.gate import cached_green_lines

    lines = cached_green_lines(root, tree, settings, state)
    if lines is not None:
        plain(f"tddhooks: green ({'; '.join(lines)}) [cached]")
        return 0
    if _unchanged_tree(root, tree):
        return 0  # nothing staged: git reports that itself, or --allow-empty keeps a judged tree
    from tddhooks.policy.gate import tree_verdict

    verdict = tree_verdict(root, tree, settings)
    if verdict.green:
        cached = " [cached]" if verdict.cached else ""
        plain(f"tddhooks: green ({'; '.join(verdict.verification_lines())}){cached}")
        return 0
    plain(red_report(root, verdict, settings, index_file))
    return 1


def _unchanged_tree(root: Path, tree: str) -> bool:
    """The staged tree is HEAD's and no merge is being concluded."""
    head_tree = git.run_git(["rev-parse", "-q", "--verify", "HEAD^{tree}"], root, check=False)
    if head_tree.stdout.strip() != tree:
        return False
    merging = git.run_git(["rev-parse", "-q", "--verify", "MERGE_HEAD"], root, check=False)
    return not merging.ok


def red_report(
    root: Path, verdict: Verdict, settings: PolicySettings, index_file: str | None
) -> str:
    """What a rejected pre-commit prints: each step's state, the failure, the next legal step."""
    from tddhooks.policy.rules import Violation, format_rejection

    hint = TIMEOUT_NEXT_STEP if verdict.timed_out else RED_NEXT_STEP
    what = f"the staged tree {verdict.tree[:12]} is red: {'; '.join(verdict.verification_lines())}"
    lines = [format_rejection([Violation("green", what, hint)]).rstrip("\n")]
    for step in verdict.steps:
        state = "ok" if step.ok else f"exit {step.returncode}"
        if step.timed_out:
            state = (
                f"timed out after {settings.timeout_s:g}s (ci.timeout_s in tdd.yaml); "
                "its whole process group was killed"
            )
        lines.append(f"  {step.name:<4} {' '.join(step.cmd)}: {state}")
    excerpt = verdict.failure_excerpt(20)
    if excerpt:
        lines += ["", excerpt]
    lines += _left_out_notes(root, index_file)
    return "\n".join(lines) + "\n"


def _left_out_notes(root: Path, index_file: str | None) -> list[str]:
    """Say which local files the judged snapshot did not contain (a common cause of red)."""
    untracked = git.untracked_paths(root)
    unstaged = git.out(["diff", "--name-only", "-z"], root, env_extra=git.index_env(index_file))
    notes = []
    if untracked:
        shown = ", ".join(untracked[:8]) + (" …" if len(untracked) > 8 else "")
        notes.append(f"note: untracked files are not part of this commit: {shown} (git add them "
                     "if the staged code needs them)")  # fmt: skip
    changed = [path for path in unstaged.split("\0") if path]
    if changed:
        shown = ", ".join(changed[:8]) + (" …" if len(changed) > 8 else "")
        notes.append(f"note: unstaged changes were left out of the check: {shown}")
    return ["", *notes] if notes else []


def comment_char(root: Path, text: str) -> str:
    """The comment prefix git uses for this message (core.commentString / core.commentChar)."""
    result = git.run_git(
        ["config", "--get-regexp", r"^core\.comment(char|string)$"], root, check=False
    )
    values = dict(line.partition(" ")[::2] for line in result.stdout.splitlines())
    value = values.get("core.commentstring") or values.get("core.commentchar") or "#"
    if value == "auto":  # git picked a character no message line starts with; its help shows it
        found = _AUTO_COMMENT_RE.search(text)
        return found.group(1) if found else "#"
    return value


def _display(root: Path, path: Path) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)


def commit_msg(message_file: Path) -> int:
    """Check the message and the type rules against the staged diff; keep a rejected message."""
    root, state, index_file = _context()
    settings = load_settings(root, state)
    from tddhooks.limits import read_message

    text = read_message(message_file.absolute())
    from tddhooks.policy.facts import staged_facts
    from tddhooks.policy.message import parse_message
    from tddhooks.policy.rules import check_message, format_rejection

    message = parse_message(text, comment_char(root, text))
    if not message.text.strip():
        return 0  # git aborts an empty message itself ("Aborting commit due to empty ...")
    violations = check_message(message, staged_facts(root, settings, index_file), settings)
    if not violations:
        return 0
    kept = state / LAST_MESSAGE
    kept.write_text(message.text.rstrip("\n") + "\n", encoding="utf-8")
    shown = _display(root, kept)
    plain(
        format_rejection(violations).rstrip("\n")
        + f"\nyour message is kept in {shown}; reuse it with: git commit -e -F {shown}\n"
    )
    return 1


def prepare_commit_msg(message_file: Path, source: str | None, sha: str | None) -> int:
    """Pre-fill an empty message with the context sections; never touch one with content."""
    del sha  # -c/-C/--amend already have a message; the source says so
    if source is None:  # the pre-commit framework passes the source in its environment
        source = os.environ.get("PRE_COMMIT_COMMIT_MSG_SOURCE")
    if source == "message":
        from tddhooks.agenthooks.aider import complete_message, wants_completion

        if wants_completion():  # set by `tddhooks install --agent aider` (docs/agents.md)
            root, _state, index_file = _context()
            return complete_message(message_file.absolute(), root, index_file)
    if source not in _FILLABLE_SOURCES:
        return 0
    root, state, index_file = _context()
    path = message_file.absolute()
    from tddhooks.limits import read_message

    text = read_message(path)
    char = comment_char(root, text)
    from tddhooks.policy.message import parse_message

    if parse_message(text, char).text.strip():
        return 0
    settings = load_settings(root, state)
    template = _prefill(root, state, settings, index_file, char)
    existing = text.lstrip("\n")
    path.write_text(template + ("\n" + existing if existing else ""), encoding="utf-8")
    return 0


def _prefill(
    root: Path, state: Path, settings: PolicySettings, index_file: str | None, char: str
) -> str:
    from tddhooks.history import cycle_number
    from tddhooks.policy.compose import infer_role, kata_goal, prefill_template, suggest_type
    from tddhooks.policy.facts import live_handoff
    from tddhooks.policy.gate import cached_green_lines

    changes = git.staged_changes(root, index_file=index_file)
    role = infer_role(changes, settings)
    cycle = cycle_number(root)
    # tester and implementor open or close the next cycle; a refactor belongs to the current one
    step = cycle + 1 if role in ("Tester", "Implementor") else max(cycle, 1)
    kata = root / settings.kata_description
    goal_text = kata.read_text(encoding="utf-8", errors="replace") if kata.is_file() else ""
    tree = git.write_tree(root, index_file=index_file)
    handoff = live_handoff(root, git.head(root))
    intent = handoff.get("intent") if handoff else None
    return prefill_template(
        role=role,
        step=step,
        goal=kata_goal(goal_text),
        verification=cached_green_lines(root, tree, settings, state) or [],
        diff_summary=[f"{c.path}: {_STATUS_WORDS.get(c.status, 'changed')}" for c in changes],
        handoff_intent=intent if isinstance(intent, str) else None,
        suggested_type=suggest_type(changes, settings),
        comment_char=char,
    )


USAGE = "usage: tddhooks hook pre-commit | commit-msg FILE | prepare-commit-msg FILE [SOURCE [SHA]]"


def main(argv: list[str]) -> int:
    """Run one hook from its arguments without loading click (a fast entry for the hook path);
    errors are reported and mapped to exit codes exactly as the CLI does."""
    from tddhooks.errors import UsageError, error_handler

    def report(error: TddhooksError) -> None:
        from tddhooks.output import report_error

        report_error(error)

    name, args = (argv[0], argv[1:]) if argv else ("", [])
    with error_handler(report) as result:
        if name == "pre-commit" and not args:
            result[0] = pre_commit()
        elif name == "commit-msg" and len(args) == 1:
            result[0] = commit_msg(Path(args[0]))
        elif name == "prepare-commit-msg" and 1 <= len(args) <= 3:
            padded = [*args[1:], None, None]
            result[0] = prepare_commit_msg(Path(args[0]), padded[0], padded[1])
        else:
            raise UsageError(f"unknown hook call: {' '.join(argv) or '(nothing)'}", fix=USAGE)
    return result[0]


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
