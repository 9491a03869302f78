"""Part of check `examples-kept` (small-model, docs/checks.md): a green refactor that changes what
the code gives for an example of the kata HEAD did not give as the kata says. A refactor keeps
behaviour, right or wrong: new behaviour is a `feat:` with the test that asks for it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tddhooks.drive.misplaced import dubious, listing, shown_strings
from tddhooks.drive.probe import own_output, ran

if TYPE_CHECKING:
    from tddhooks.drive.probe import Probe
    from tddhooks.policy.verdicts import Verdict

RESHAPED = "the refactor changes what the code gives for an example of the kata: "


def reshaped_example(before: Verdict, after: Verdict, probe: Probe, language: str) -> str | None:
    """Why the refactored tree gives an example HEAD failed a value other than HEAD's (or the
    kata's, where HEAD's was not); None when every such example gives what it gave, or when
    either output cannot be read whole."""
    _, head_failing = ran(before, probe)
    passing, failing = ran(after, probe)
    for case in probe.cases:
        if case.name not in head_failing or case.example.values is None:
            continue
        own = own_output(before, case, language)
        had = shown_strings(own, language)
        if had is None or dubious(own, had, language, failed=True):
            continue
        if case.name in passing:
            now = f"what requirement {case.example.requirement} says ({case.example.said})"
        elif case.name in failing:
            own_now = own_output(after, case, language)
            shown = shown_strings(own_now, language)
            if shown is None or dubious(own_now, shown, language, failed=True) or shown == had:
                continue
            now = listing(shown)
        else:
            continue
        return (
            f"{RESHAPED}`{case.call}` gave {listing(had)} before this refactor; now it gives "
            f"{now}. No test checks that call yet, and a refactor keeps behaviour, even where "
            "the kata asks for more: new behaviour is a feat: commit with the test that asks for "
            "it. Undo that change, or make a smaller one"
        )
    return None
