"""The three git hooks: pre-commit (green gate), commit-msg (message rules), prepare-commit-msg
(in commands/hook_prepare.py).

This is the hook path: it imports neither pydantic (unless a gate must run or a verdict is red)
nor rich, openai, diskcache or GitPython. Git runs hooks at the top of the work tree and passes
the index being committed in GIT_INDEX_FILE, which every git call here honours.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from tddhooks import git
from tddhooks.output import plain
from tddhooks.policy.facts import hook_index_file, locate
from tddhooks.policy.settings import PolicySettings, settings_at
from tddhooks.policy.source import judged_base

TYPE_CHECKING = False  # not typing's: importing typing costs the hook path ~10 ms; mypy reads it
if TYPE_CHECKING:
    from tddhooks.errors import TddhooksError
    from tddhooks.policy.message import CommitMessage
    from tddhooks.policy.rules import CommitFacts, Violation
    from tddhooks.policy.verdicts import Verdict

LAST_MESSAGE = "last-message"
GATED = "gated-tree.json"  # the tree the running commit's pre-commit judged
RED_NEXT_STEP = (
    "make the tests pass: write the code and commit it with its test as feat: (or stage only "
    "the test and hand it to an agent implementor with `tddhooks drive --steps 1`); red is "
    "never committed"
)
# a red `git commit -m` never reaches commit-msg, so its message's problems come only later
MESSAGE_CHECKED_LATER = (
    "the commit message is checked once the tree is green (git runs the commit-msg hook only "
    "after pre-commit passes)\n"
)
LINT_NEXT_STEP = "the tests pass: fix what the linter reports below (warnings are errors)"
TIMEOUT_NEXT_STEP = (
    "make the suite finish (look for an endless loop or a blocking call in the tests), or raise "
    "ci.timeout_s in tdd.yaml"
)
# compiled where used: only `core.commentChar=auto` needs it
_AUTO_COMMENT = r"^(\S+) Please enter the commit message"


def hook_location() -> tuple[Path, Path, str | None]:
    """(work tree root, `.git/tddhooks/`, the index file git is committing) of the running hook."""
    root, state = locate(Path.cwd())
    return root, state, hook_index_file(root)


def _policy_calls(base: str | None, index_file: str | None) -> list[git.Call]:
    """The git calls settings_at makes for a commit on `base` (prefetched together)."""
    from tddhooks.policy.settings import index_entries_call

    listing = [] if base is None else [(git.listing_args(base), None)]
    return [*listing, index_entries_call(index_file)]


def judging_settings(root: Path, state: Path, index_file: str | None) -> PolicySettings:
    """The policy of the new commit's parent (its own staged one for a root commit), never the
    work tree's tdd.yaml: a commit cannot loosen the policy that judges it."""
    return settings_at(root, judged_base(root), state, index_file)


def pre_commit() -> int:
    """Gate the staged tree: green (cached or freshly run) → 0; red → diagnostics and 1, unless
    the red-start rule applies (policy/diagnosis.py)."""
    root, state, index_file = hook_location()
    base = judged_base(root)
    git.prefetch(root, [*_policy_calls(base, index_file), git.write_tree_call(index_file)])
    settings = settings_at(root, base, state, index_file)
    if not settings.enabled("green"):
        return 0
    tree = git.write_tree(root, index_file=index_file)
    _record_gated(state, root, tree)
    from tddhooks.policy.stored import cached_green_lines

    lines = cached_green_lines(root, tree, settings, state)
    if lines is not None:
        if _ratchet_refused(root, settings, tree, base):
            return 1
        plain(f"tddhooks: green ({'; '.join(lines)}) [cached]")
        return 0
    if _unchanged_tree(root, tree):
        return 0  # nothing staged: git reports that itself, or --allow-empty keeps a judged tree
    from tddhooks.policy.gate import tree_verdict

    verdict = tree_verdict(root, tree, settings)
    if verdict.green and _ratchet_refused(root, settings, tree, base):
        return 1
    if verdict.green:
        cached = " [cached]" if verdict.cached else ""
        plain(f"tddhooks: green ({'; '.join(verdict.verification_lines())}){cached}")
        return 0
    from tddhooks.policy.diagnosis import red_start

    if red_start(root, base, index_file, settings):
        plain(
            f"tddhooks: red start: {'; '.join(verdict.verification_lines())}; this commit changes "
            "only tddhooks' own files and its parent is red already, so it may land; the next "
            'commit that touches code must be green (docs/gate.md, "A red start")'
        )
        return 0
    _record_handover(root, state, base, settings, index_file, verdict)
    plain(red_report(root, verdict, settings, index_file) + MESSAGE_CHECKED_LATER)
    return 1


def _ratchet_refused(root: Path, settings: PolicySettings, tree: str, base: str | None) -> bool:
    """Under `lint: ratchet`: print the refusal and say True when the staged tree adds lint
    findings to a file against the parent's tree (policy/ratchet.py)."""
    if settings.lint_mode != "ratchet" or base is None:
        return False
    from tddhooks.policy.gate import tree_verdict
    from tddhooks.policy.ratchet import ratchet_message, ratchet_problems

    problems = ratchet_problems(
        settings,
        tree_verdict(root, tree, settings),
        lambda: tree_verdict(root, git.tree_of(root, base), settings),
    )
    if not problems:
        return False
    plain(f"tddhooks: commit rejected\n[green] {ratchet_message(problems)}\n")
    return True


def _record_handover(
    root: Path,
    state: Path,
    base: str | None,
    settings: PolicySettings,
    index_file: str | None,
    verdict: Verdict,
) -> None:
    """A tree whose staged changes are only tests, clean under fmt and lint and red in its tests,
    is a hand-over: the tests are locked from now on (policy/handover.py), whoever then writes
    the code. A test that still fails fmt or lint is not ready to hand over (formatting it would
    break the lock)."""
    if base is None or base != git.head(root):  # an amend is no hand-over
        return
    steps = {step.name: step.ok for step in verdict.steps}
    if not steps.get("fmt", True) or not steps.get("lint", True) or steps.get("test", True):
        return
    if git.run_git(["rev-parse", "-q", "--verify", "MERGE_HEAD"], root, check=False).ok:
        return  # nor is a merge
    from tddhooks.policy.handover import record_handover

    staged = [change.path for change in git.staged_changes(root, index_file=index_file)]
    record_handover(
        root, state, base, settings, staged, by="person", red_output=verdict.failure_excerpt(),
        index_file=index_file,
    )  # fmt: skip


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
    failed = {step.name for step in verdict.steps if not step.ok}
    if failed == {"fmt"} and settings.fmt_fix:
        hint = format_next_step(settings.fmt_fix)
    elif failed and "test" not in failed and not verdict.timed_out:
        formatter = (
            f", run `{_as_typed(settings.fmt_fix)}`" if "fmt" in failed and settings.fmt_fix else ""
        )
        hint = f"{LINT_NEXT_STEP}{formatter}, stage it (`git add -u`) and commit again"
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


def format_next_step(fmt_fix: tuple[str, ...]) -> str:
    """Only the format check is red: the formatter's own command, then stage what it changed
    (`git commit -a` stages it by itself)."""
    return (
        f"run `{_as_typed(fmt_fix)}`, stage what it changed (`git add -u`), and commit again; "
        "the diff below shows what it will change"
    )


def _as_typed(command: tuple[str, ...]) -> str:
    """A tool command as a person types it: `ruff format .` for `/venv/bin/python3 -m ruff …`."""
    cmd = list(command)
    if Path(cmd[0]).name.startswith("python") and cmd[1:2] == ["-m"]:
        cmd = cmd[2:]
    return " ".join(cmd)


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
        notes.append(f"note: unstaged changes were left out of the check: {shown} (`git add -u` "
                     "stages them if they belong in this commit)")  # fmt: skip
    return ["", *notes] if notes else []


_CONFIG_KEYS = r"^(core\.comment(char|string)|commit\.(cleanup|verbose)|alias\..*)$"


def git_config(root: Path) -> dict[str, str]:
    """The settings that decide how git cleans a message, in one `git config` call."""
    result = git.run_git(["config", "--get-regexp", _CONFIG_KEYS], root, check=False)  # prefetched
    return dict(line.partition(" ")[::2] for line in result.stdout.splitlines())


def comment_char(root: Path, text: str, config: dict[str, str] | None = None) -> str:
    """The comment prefix git uses for this message (core.commentString / core.commentChar)."""
    values = git_config(root) if config is None else config
    value = values.get("core.commentstring") or values.get("core.commentchar") or "#"
    if value == "auto":  # git picked a character no message line starts with; its help shows it
        found = re.search(_AUTO_COMMENT, text, re.MULTILINE)
        return found.group(1) if found else "#"
    return value


def _display(root: Path, path: Path) -> str:
    """path as the person can type it where they ran git: relative to their folder (git tells
    the hooks in GIT_PREFIX, the hook itself runs at the top), absolute outside the work tree."""
    where = root / os.environ.get("GIT_PREFIX", "")
    try:
        path.relative_to(root)
    except ValueError:
        return str(path)
    return os.path.relpath(path, where)


def commit_msg(message_file: Path) -> int:
    """Check the message, exactly as git will store it, and the type rules against the tree git
    will store (policy/stored_index.py); keep a rejected message."""
    root, state, index_file = hook_location()
    from tddhooks.policy.stored_index import index_of, prepared_tree

    stored = prepared_tree(root, state, index_file)
    if stored is None:
        return _commit_msg(message_file, root, state, index_file)
    plain(
        "tddhooks: note: files were staged after git read the index for this commit (while the "
        "message editor was open?); git commits the index as it was then, so that is what is "
        "judged, and the later changes stay staged for the next commit\n"
    )
    with index_of(root, state, stored) as prepared:
        return _commit_msg(message_file, root, state, prepared)


def _commit_msg(message_file: Path, root: Path, state: Path, index_file: str | None) -> int:
    base = judged_base(root)
    from tddhooks.policy.facts import staged_diff_call, staged_diff_revs

    # every read-only git call up to the blob contents, started at once (git.prefetch)
    diff_call = staged_diff_call(staged_diff_revs(base), git.index_env(index_file))
    config_call: git.Call = (["config", "--get-regexp", _CONFIG_KEYS], None)
    tree_call = git.write_tree_call(index_file)
    git.prefetch(root, [*_policy_calls(base, index_file), config_call, diff_call, tree_call])
    settings = settings_at(root, base, state, index_file)
    # bytes, not read_text: universal newlines would turn a CR that git keeps into a line end;
    # a message over 1 MB is rejected before it is read whole
    from tddhooks.limits import read_message

    text = read_message(message_file.absolute())
    from tddhooks.policy.commitmode import cleanups, committing_argv
    from tddhooks.policy.facts import staged_facts
    from tddhooks.policy.message import parse_message
    from tddhooks.policy.rules import format_rejection

    config = git_config(root)
    char = comment_char(root, text, config)
    # one parse per distinct stored text: git's cleanup may not be known for sure
    judged: dict[str, CommitMessage] = {}
    for cleanup in cleanups(os.environ, config, committing_argv()):
        message = parse_message(text, char, cleanup)
        if message.text.strip():  # an empty message: git aborts the commit itself
            judged.setdefault(message.text, message)
    if not judged:
        return 0
    from tddhooks.policy.amend import commit_all_in_progress

    amend = base != git.head(root)
    facts = staged_facts(root, settings, index_file, amend=amend)
    facts = facts._replace(commit_all=commit_all_in_progress())
    violations = _judge(root, judged, facts, index_file, settings)
    if violations and any(m.header and m.header.type == "style" for m in judged.values()):
        from tddhooks.policy.facts import staged_diff_revs
        from tddhooks.policy.formatting import formatting_only_paths

        revs = staged_diff_revs(base)
        facts = facts._replace(
            formatting_only=formatting_only_paths(root, revs, settings, index_file)
        )
        violations = _judge(root, judged, facts, index_file, settings)
    # a fix (or a feat that is one) of the parent's failing tests: judged, and hinted, as a repair
    if violations and any(
        m.header and m.header.type in settings.require_test_with for m in judged.values()
    ):
        from tddhooks.policy.facts import base_failing_tests

        failing = base_failing_tests(root, settings, index_file, amend=amend)
        if failing:
            facts = facts._replace(base_failing=failing)
            violations = _judge(root, judged, facts, index_file, settings)
    from tddhooks.policy.skips import report_violations

    violations += report_violations(root, state, settings, index_file, base, violations)
    violations += _merge_resolution(root, state, settings, index_file, facts, judged)
    violations += _tree_changed_since_gate(root, state, settings, index_file, base)
    if not violations:
        _record_accepted(root, state, settings, index_file, base, list(judged))
        return 0
    if any(violation.rule == "sections" for violation in violations):
        # the hint's skeleton carries the real cycle, goal and verification line
        from tddhooks.commands.hook_context import message_context

        context = message_context(root, state, settings, index_file, facts, amend=amend)
        facts = facts._replace(hint=context.hint())
        violations = _judge(root, judged, facts, index_file, settings)
    kept = state / LAST_MESSAGE
    kept.write_text(next(iter(judged)).rstrip("\n") + "\n", encoding="utf-8")
    shown = _display(root, kept)
    # the test may be written and not added yet (`git commit -a` leaves new files out)
    notes = _left_out_notes(root, index_file) if _no_test_staged(violations) else []
    # the reuse refills the sections (hook_prepare.py), so a -m subject needs no pasting
    filled = (
        " (the editor opens with the sections filled in)"
        if any(violation.rule == "sections" for violation in violations)
        else ""
    )
    plain(
        "\n".join([format_rejection(violations).rstrip("\n"), *notes])
        + f"\nyour message is kept in {shown}; reuse it with: git commit -e -F {shown}{filled}\n"
    )
    return 1


def _record_accepted(
    root: Path,
    state: Path,
    settings: PolicySettings,
    index_file: str | None,
    base: str | None,
    texts: list[str],
) -> None:
    """Seal that the hooks accepted this tree on this parent with this message (any of the texts
    git may store), for the reference-transaction hook (policy/judged.py). Only a tree known to
    be green is recorded: a commit-msg run without its pre-commit (or a red start) leaves the
    commit to be judged when it lands."""
    tree = git.write_tree(root, index_file=index_file)
    if settings.enabled("green"):
        from tddhooks.policy.stored import cached_green_lines

        if cached_green_lines(root, tree, settings, state) is None:
            return
    from tddhooks.policy import lineage

    parents = [base] if base is not None else []
    if lineage.merging(root):
        from tddhooks.policy.merges import merge_heads

        parents = [git.head(root) or "", *merge_heads(lineage.git_dir(root))]
    from tddhooks.policy.judged import record_key, write_record

    for text in texts:
        write_record(state, record_key(tree, parents, text))


def _no_test_staged(violations: list[Violation]) -> bool:
    """A feature was refused for staging no test (policy/rules.py `_type_rules`)."""
    from tddhooks.policy.rules import NO_TEST_STAGED

    return any(v.rule == "type-rules" and NO_TEST_STAGED in v.message for v in violations)


def _record_gated(state: Path, root: Path, tree: str) -> None:
    """Remember which tree this `git commit`'s pre-commit gate judges (see below)."""
    from tddhooks.headstate import write_record
    from tddhooks.policy.commitmode import committing_pid

    write_record(state / GATED, git.head(root), {"tree": tree, "git": committing_pid()})


def _tree_changed_since_gate(
    root: Path, state: Path, settings: PolicySettings, index_file: str | None, base: str | None
) -> list[Violation]:
    """Git commits the index as it stands after pre-commit: a file staged while the gate ran
    (another terminal, an agent) is committed though the gate never judged it. When this
    `git commit`'s pre-commit judged another tree, this one must be green too (a stored verdict,
    else the gate runs here), or a red start as pre-commit allows one."""
    if not settings.enabled("green"):
        return []
    from tddhooks.headstate import read_record
    from tddhooks.policy.commitmode import committing_pid

    record = read_record(state / GATED, git.head(root))
    tree = git.write_tree(root, index_file=index_file)
    if record is None or record.get("git") != committing_pid() or record.get("tree") == tree:
        return []
    from tddhooks.policy.stored import cached_green_lines

    if cached_green_lines(root, tree, settings, state) is not None or _unchanged_tree(root, tree):
        return []
    from tddhooks.policy.gate import tree_verdict

    verdict = tree_verdict(root, tree, settings)
    if verdict.green:
        return []
    from tddhooks.policy.diagnosis import red_start

    if red_start(root, base, index_file, settings):
        return []
    from tddhooks.policy.rules import Violation

    what = (
        f"the staged tree {tree[:12]} is red ({'; '.join(verdict.verification_lines())}); it "
        "changed after the pre-commit gate judged the index (something staged files meanwhile)"
    )
    return [Violation("green", what, RED_NEXT_STEP)]


def _merge_resolution(
    root: Path,
    state: Path,
    settings: PolicySettings,
    index_file: str | None,
    facts: CommitFacts,
    judged: dict[str, CommitMessage],
) -> list[Violation]:
    """A merge's own decisions (policy/merges.py; lines of its own judged under the message's
    type, policy/merge_own.py), and the gate on its result: `git merge` runs pre-merge-commit,
    not pre-commit, so commit-msg is the first hook that sees the result."""
    from tddhooks.policy import lineage

    if not lineage.merging(root):
        return []
    from tddhooks.policy.facts import test_names_at
    from tddhooks.policy.merges import merge_heads, merge_violations

    head = git.head(root) or ""
    found: list[Violation] = []
    found += merge_violations(
        root,
        head,
        merge_heads(lineage.git_dir(root)),
        facts.test_names_after,
        lambda rev: test_names_at(root, rev, settings),
        type_rules=settings.enabled("type-rules"),
    )
    tree = git.write_tree(root, index_file=index_file)
    others = merge_heads(lineage.git_dir(root))
    if settings.enabled("type-rules") and len(others) == 1 and head:
        from tddhooks.policy.merge_own import own_change_violations, own_changes

        kinds = {m.header.type if m.header else None for m in judged.values()}
        own = own_changes(root, head, others[0], tree)
        for kind in sorted(kinds, key=lambda k: k or ""):
            found += [v for v in own_change_violations(own, kind, settings) if v not in found]
    if not settings.enabled("green"):
        return found
    from tddhooks.policy.gate import cached_green_lines, tree_verdict

    if cached_green_lines(root, tree, settings, state) is not None:
        return found
    verdict = tree_verdict(root, tree, settings)
    if not verdict.green:
        from tddhooks.policy.rules import Violation

        what = f"the merge result {tree[:12]} is red ({'; '.join(verdict.verification_lines())})"
        found.append(Violation("green", what, RED_NEXT_STEP))
    return found


def _judge(
    root: Path,
    judged: dict[str, CommitMessage],
    facts: CommitFacts,
    index_file: str | None,
    settings: PolicySettings,
) -> list[Violation]:
    """Every violation of any of the messages git may store, each listed once."""
    from tddhooks.policy.rules import check_message

    violations: list[Violation] = []
    for message in judged.values():
        found = check_message(message, _exemption_facts(root, message, facts, index_file), settings)
        violations += [violation for violation in found if violation not in violations]
    return violations


def _exemption_facts(
    root: Path, message: CommitMessage, facts: CommitFacts, index_file: str | None
) -> CommitFacts:
    """A real merge (MERGE_HEAD, a file test), a fixup's target, an exact revert: looked up only
    for messages of that shape."""
    from tddhooks.policy import lineage

    if lineage.merging(root):
        return facts._replace(merge=True)
    if message.exempt is None and (message.header is None or message.header.type != "revert"):
        return facts
    return lineage.exemption_facts(root, message, facts, base=git.head(root), index_file=index_file)


USAGE = "usage: tddhooks hook pre-commit | commit-msg FILE | prepare-commit-msg FILE [SOURCE [SHA]]"


def main(argv: list[str]) -> int:
    """Run one hook from its arguments without loading click (a fast entry for the hook path);
    errors are reported and mapped to exit codes exactly as the CLI does."""
    from tddhooks.errors import UsageError, error_handler

    def report(error: TddhooksError) -> None:
        from tddhooks.output import report_error

        report_error(error)

    name, args = (argv[0], argv[1:]) if argv else ("", [])
    with error_handler(report) as result, git.held_still():
        if name == "pre-commit" and not args:
            result[0] = pre_commit()
        elif name == "commit-msg" and len(args) == 1:
            result[0] = commit_msg(Path(args[0]))
        elif name == "prepare-commit-msg" and 1 <= len(args) <= 3:
            from tddhooks.commands.hook_prepare import prepare_commit_msg

            padded = [*args[1:], None, None]
            result[0] = prepare_commit_msg(Path(args[0]), padded[0], padded[1])
        else:
            raise UsageError(f"unknown hook call: {' '.join(argv) or '(nothing)'}", fix=USAGE)
    return result[0]


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
