"""The committer's role follows the phase model (pure): what decide_phase says of the staged
change names the role the prefill writes."""

from __future__ import annotations

import pytest

from tddhooks.policy.phase import Phase, RepoFacts, committer_role, decide_phase


@pytest.mark.parametrize(
    ("tests", "code", "head_red", "role", "phase", "actor"),
    [
        (True, False, False, "Tester", Phase.RED, "implementor"),  # handed over, not yet passing
        (True, True, False, "Implementor", Phase.MIXED, "person"),  # the cycle closed at once
        (False, True, False, "Refactorer", Phase.MIXED, "person"),
        (False, True, True, "Implementor", Phase.RED, "person"),  # HEAD's repair
        (True, True, True, "Implementor", Phase.MIXED, "person"),
    ],
)
def test_the_role_of_a_staged_change_matches_its_phase(
    tests: bool, code: bool, head_red: bool, role: str, phase: Phase, actor: str
) -> None:
    assert committer_role(tests_staged=tests, code_staged=code, head_red=head_red) == role
    facts = RepoFacts(
        is_repo=True,
        has_commit=True,
        has_scaffold=True,
        staged_test_paths=("tests/test_a.py",) if tests else (),
        staged_other_paths=("src/a.py",) if code else (),
        staged_green=False if tests else None,
        head_green=not head_red,
    )
    info = decide_phase(facts, 1)
    assert (info.phase, info.next_actor) == (phase, actor)
    if phase is Phase.RED and actor == "person":
        assert "repair" in info.reason  # the phase calls it what the role says: the fix
