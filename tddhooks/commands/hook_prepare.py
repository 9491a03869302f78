"""The prepare-commit-msg hook: pre-fill an empty message with the context sections, refresh the
kept (rejected) message reused with `-F`, and leave every other message as it was written."""

from __future__ import annotations

import os
from pathlib import Path

from tddhooks import git
from tddhooks.commands.hook import LAST_MESSAGE, comment_char, hook_location, judging_settings

TYPE_CHECKING = False  # not typing's: importing typing costs the hook path ~4 ms; mypy reads it
if TYPE_CHECKING:
    from tddhooks.policy.settings import PolicySettings

_STATUS_WORDS = {"A": "added", "D": "deleted"}
# an editor on an empty message or a template; "message" (-m/-F), "merge", "squash" and
# "commit" (-c/-C/--amend) already carry content and are left alone
_FILLABLE_SOURCES = (None, "", "template")
# set (to any value) by an agent's own configuration: its `-m` messages keep the full sections
AGENT_ENV = "TDDHOOKS_AGENT"


def prepare_commit_msg(message_file: Path, source: str | None, sha: str | None) -> int:
    """Pre-fill an empty message with the context sections; never touch one with content, except
    the rejected message we kept, reused with `-F`: its context is refreshed to what is staged."""
    del sha  # -c/-C/--amend already have a message; the source says so
    if source is None:  # the pre-commit framework passes the source in its environment
        source = os.environ.get("PRE_COMMIT_COMMIT_MSG_SOURCE")
    root, state, index_file = hook_location()
    from tddhooks.policy.stored_index import record_prepared

    record_prepared(root, state, index_file)  # git has just read the index it will commit
    if source == "message":
        from tddhooks.agenthooks.aider import COMPLETE_ENV

        if (
            os.environ.get(COMPLETE_ENV) == "1"
        ):  # set by `tddhooks install --agent aider` (docs/agents.md)
            return complete_message(message_file.absolute(), root, index_file)
        if not os.environ.get(AGENT_ENV) and _one_line_tdd_message(message_file.absolute()):
            settings = judging_settings(root, state, index_file)
            if not _agent_identity(root, settings):
                return _complete_persons_message(
                    root, state, settings, index_file, message_file.absolute()
                )
    if source not in (*_FILLABLE_SOURCES, "message"):
        return 0
    path = message_file.absolute()
    from tddhooks.limits import read_message

    text = read_message(path)
    if source == "message" and not _may_be_kept(state, text):
        return 0  # -m/-F: a message with content is never rewritten, unless it is the kept one
    char = comment_char(root, text)
    from tddhooks.policy.message import parse_message

    message = parse_message(text, char)
    if message.text.strip():
        if source == "message" and _is_kept_message(state, message.text):
            # `git commit -e -F .git/tddhooks/last-message`: refresh what was staged then
            settings = judging_settings(root, state, index_file)
            path.write_text(_refresh(root, state, settings, index_file, text, char), "utf-8")
        return 0
    if source == "message":
        return 0
    settings = judging_settings(root, state, index_file)
    template = prefill(root, state, settings, index_file, char)
    existing = text.lstrip("\n")
    path.write_text(template + ("\n" + existing if existing else ""), encoding="utf-8")
    return 0


def complete_message(message_file: Path, root: Path, index_file: str | None) -> int:
    """Append the context sections to a one-line TDD-type `-m` message that lacks them (aider's
    commits: docs/agents.md)."""
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
    template = prefill(root, state, settings, index_file, char)
    sections = "\n".join(ln for ln in template.splitlines() if not ln.startswith(char)).strip()
    message_file.write_text(message.text.rstrip("\n") + "\n\n" + sections + "\n", encoding="utf-8")
    return 0


def _may_be_kept(state: Path, raw: str) -> bool:
    """Whether the raw message file may clean up to the kept message (_is_kept_message), decided
    without git: cleaning only drops lines and trailing whitespace, so every line of the kept
    message is a line of the raw text. False spares a `-m`/`-F` commit the config lookup."""
    try:
        kept = (state / LAST_MESSAGE).read_text(encoding="utf-8")
    except OSError:
        return False
    lines = {line.strip() for line in raw.splitlines()}
    return all(line.strip() in lines for line in kept.splitlines())


def _is_kept_message(state: Path, text: str) -> bool:
    try:
        kept = (state / LAST_MESSAGE).read_text(encoding="utf-8")
    except OSError:
        return False
    return kept.strip() == text.strip()


def prefill(
    root: Path, state: Path, settings: PolicySettings, index_file: str | None, char: str
) -> str:
    """The pre-filled message for what is staged: the suggested header and the context sections
    (Role, Step, Kata goal, Diff summary, Verification) from real values."""
    from tddhooks.commands.hook_context import message_context
    from tddhooks.policy.compose import prefill_template, suggest_type
    from tddhooks.policy.facts import live_handoff, staged_facts

    facts = staged_facts(root, settings, index_file)  # item-aware: unit tests beside the code
    context = message_context(root, state, settings, index_file, facts)
    changes = facts.changes
    handoff = live_handoff(root, git.head(root))
    intent = handoff.get("intent") if handoff else None
    return prefill_template(
        role=context.role,
        step=context.step,
        goal=context.goal,
        verification=list(context.verification),
        diff_summary=[f"{c.path}: {_STATUS_WORDS.get(c.status, 'changed')}" for c in changes],
        handoff_intent=intent if isinstance(intent, str) else None,
        suggested_type=suggest_type(changes, settings, facts),
        comment_char=char,
    )


def _refresh(
    root: Path,
    state: Path,
    settings: PolicySettings,
    index_file: str | None,
    text: str,
    char: str,
    rationale: str | None = None,
) -> str:
    """A kept message with its Role, Step, Kata goal, Diff summary and Verification rewritten
    for what is staged now; the subject stays the person's, and the Rationale too unless
    `rationale` is given."""
    from tddhooks.commands.hook_context import message_context
    from tddhooks.policy.compose import refresh_message
    from tddhooks.policy.facts import staged_facts

    facts = staged_facts(root, settings, index_file)
    context = message_context(root, state, settings, index_file, facts)
    return refresh_message(
        text,
        role=context.role,
        step=context.step,
        goal=context.goal,
        verification=list(context.verification),
        diff_summary=[f"{c.path}: {_STATUS_WORDS.get(c.status, 'changed')}" for c in facts.changes],
        comment_char=char,
        rationale=rationale,
    )


def _one_line_tdd_message(path: Path) -> bool:
    """Whether the `-m`/`-F` message is a header without sections, of any type (cheap: no git)."""
    from tddhooks.limits import read_message

    text = read_message(path)
    return "\nContext:" not in text and bool(text.strip())


def _agent_identity(root: Path, settings: PolicySettings) -> bool:
    """Whether the commit is authored under the identity agents and the drive commit under
    (tdd.yaml `commit.author_name`/`author_email`): a person commits under their own. git
    hands the hooks the author it resolved (`-c user.name=…` included) in GIT_AUTHOR_*."""
    name = os.environ.get("GIT_AUTHOR_NAME")
    email = os.environ.get("GIT_AUTHOR_EMAIL")
    if name is None or email is None:
        ident = git.run_git(["var", "GIT_AUTHOR_IDENT"], root, check=False).stdout
        name, _, rest = ident.partition(" <")
        email = rest.partition(">")[0]
    return name.strip() == settings.author_name or email.strip() == settings.author_email


def _complete_persons_message(
    root: Path, state: Path, settings: PolicySettings, index_file: str | None, path: Path
) -> int:
    """A person's one-line `-m "feat(x): summary"` of a type that needs sections, completed
    with the real values (Role, Step, Kata goal, Diff summary, Verification); the Rationale is
    the handoff's intent or the person's own summary. Other messages are left as written."""
    from tddhooks.limits import read_message
    from tddhooks.policy.facts import live_handoff
    from tddhooks.policy.message import parse_message

    text = read_message(path)
    char = comment_char(root, text)
    message = parse_message(text, char)
    header = message.header
    if header is None or header.type not in settings.require_sections or message.sections:
        return 0
    handoff = live_handoff(root, git.head(root))
    intent = handoff.get("intent") if handoff else None
    rationale = intent if isinstance(intent, str) and intent.strip() else header.summary
    completed = _refresh(root, state, settings, index_file, message.text, char, rationale)
    path.write_text(completed, encoding="utf-8")
    return 0
