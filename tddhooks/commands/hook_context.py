"""The real values a message needs, read once for the prefill and for rejection hints alike:
the role the staged diff plays, the cycle (`status` shows the same), the requirement the cycle
works on, and the runner's verification line for the staged tree (hook path: no pydantic unless
a verdict is read)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tddhooks import git

TYPE_CHECKING = False  # not typing's: importing typing costs the hook path ~10 ms; mypy reads it

if TYPE_CHECKING:
    from tddhooks.policy.rules import CommitFacts, MessageHint
    from tddhooks.policy.settings import PolicySettings


@dataclass(frozen=True)
class MessageContext:
    role: str
    step: int
    goal: str  # '' without a kata description
    verification: tuple[str, ...]

    def hint(self) -> MessageHint:
        from tddhooks.policy.rules import MessageHint

        return MessageHint(self.step, self.goal, self.verification)


def kata_text(root: Path, settings: PolicySettings, index_file: str | None) -> str:
    """The kata description being committed (the index's copy, else the work tree's)."""
    from tddhooks.kata.files import committed_kata_text

    return committed_kata_text(root, settings.kata_description, index_file)


def feature_goal(root: Path, rev: str) -> str | None:
    """The `Kata goal` a feat:/fix: commit quoted (its cycle's requirement), if any."""
    from tddhooks.policy.message import STORED, parse_message

    found = git.run_git(["show", "-s", "--format=%B", rev, "--"], root, check=False)
    if not found.ok:
        return None
    return parse_message(found.stdout, "", STORED).fields.get("Kata goal") or None


def _head_red(root: Path, settings: PolicySettings, state: Path, *, has_head: bool) -> bool:
    """Whether HEAD's tree has a stored red verdict (a repair is then the implementor's)."""
    from tddhooks.policy.phase import head_verdict

    if not has_head:
        return False
    found = head_verdict(root, settings, state)
    return found is not None and not found[0]


def message_context(
    root: Path,
    state: Path,
    settings: PolicySettings,
    index_file: str | None,
    facts: CommitFacts,
    *,
    amend: bool = False,
) -> MessageContext:
    """Role, step, goal and verification for the staged diff (`facts`)."""
    from tddhooks.policy.compose import infer_role
    from tddhooks.policy.goals import cycle_goal
    from tddhooks.policy.history import count_cycles, first_parent_subjects
    from tddhooks.policy.phase import head_type, step_number
    from tddhooks.policy.rules import changed_code_paths, changed_test_paths
    from tddhooks.policy.stored import cached_green_lines
    from tddhooks.vocabulary import FEATURE_TYPES

    subjects = [subject for _sha, subject in first_parent_subjects(root)]
    has_head = bool(subjects)  # HEAD's first-parent history is empty only without a HEAD
    if amend and subjects:
        subjects = subjects[:-1]  # the amended commit is being replaced: judge against its parent
    feature_landed = head_type(subjects[-1] if subjects else "") in FEATURE_TYPES
    step = step_number(
        count_cycles(subjects),
        tests_staged=bool(changed_test_paths(facts, settings)),
        code_staged=bool(changed_code_paths(facts, settings)),
        feature_landed=feature_landed,
    )
    tree = git.write_tree(root, index_file=index_file)
    head_red = _head_red(root, settings, state, has_head=has_head)
    return MessageContext(
        role=infer_role(facts.changes, settings, facts, head_red=head_red),
        step=step,
        goal=cycle_goal(
            kata_text(root, settings, index_file),
            sorted(facts.test_names_after - facts.test_names_before),
            sorted(facts.test_names_after),
            feature_goal(root, "HEAD^" if amend else "HEAD") if feature_landed else None,
        ),
        verification=tuple(cached_green_lines(root, tree, settings, state) or ()),
    )
