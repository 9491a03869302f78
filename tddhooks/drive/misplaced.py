"""Part of check `examples-kept` (small-model, docs/checks.md): a green change that gives, for an
example of the kata, a value the kata gives only other inputs (docs/kata-checks.md, "A refactor that
changes what the kata says").

Read only where it cannot be a requirement not built yet: an example the kata gives whole as a
list of strings, whose call now gives a string that is another example's value, neither in this
example's list nor given by HEAD for that call."""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING

from tddhooks.drive.probe import own_output, ran
from tddhooks.drive.strays import comparisons, literals

if TYPE_CHECKING:
    from collections.abc import Collection

    from tddhooks.drive.probe import Case, Probe
    from tddhooks.policy.verdicts import Verdict


# the start of the refusal below, and how many times in one turn it is said of the same call and
# message before the change may land anyway: a kata whose later rule overrides an earlier rule's
# message for some inputs ("x" gives exactly "far too short") reads the same
MISPLACED = "the change makes the staged test pass, but it gives "
DISORDERED = "the change makes the staged test pass, but it lists "
TELLS = 2


class Tells:
    """The misplaced-message refusals said in one implementor turn, by call and message."""

    def __init__(self) -> None:
        self.said: Counter[str] = Counter()

    def heard(self, refusal: str | None) -> str | None:
        """`refusal`, or None once it was said `TELLS` times in this turn of the same call and
        message (the attempt that keeps it after that lands)."""
        if refusal is None or not refusal.startswith((MISPLACED, DISORDERED)):
            return refusal
        key = refusal.split(" (now it gives", 1)[0]
        if self.said[key] >= TELLS:
            return None
        self.said[key] += 1
        return refusal


def misplaced_message(
    before: Verdict, after: Verdict, probe: Probe, failing: set[str], language: str
) -> str | None:
    """Why the change gives an example of the kata another example's message; None when it
    gives none, or when the output does not show the value."""
    messages = probe.strings  # a staged test's own example too: its message is the likeliest
    _, head_failing = ran(before, probe)
    for case in probe.cases:
        example, said = case.example, case.example.messages
        if case.name not in failing or said is None:
            continue  # not a whole list of strings (a list of numbers: no messages)
        own = own_output(before, case, language)
        had = shown_strings(own, language)
        if dubious(own, had, language, failed=case.name in head_failing):
            continue  # HEAD may have given it already: its output does not show all it gave
        now = shown_strings(own_output(after, case, language), language)
        wrong = [m for m in now or () if m in messages and m not in said and m not in (had or ())]
        if wrong:
            quoted = f'"{wrong[0]}"'
            return (
                f"{MISPLACED}{quoted} for "
                f"`{case.call}`, where requirement {example.requirement} says {example.said}: "
                f"{quoted} is the kata's message for other inputs (now it gives "
                f"{listing(now or [])}). The check that gives {quoted} must not hold for "
                f"`{case.call}`: make the staged test pass with a check that holds only for what "
                'its requirement names, and send the whole file with "action": "upsert"'
            )
    return None


def borrowed_value(
    before: Verdict,
    after: Verdict,
    probe: Probe,
    failing: set[str],
    language: str,
    held: Collection[int] | None,
    tests: Collection[str] = (),
) -> str | None:
    """Why the change gives an example of a requirement no test is about yet the value the kata
    gives only for examples of other such requirements; None when it gives none, or when that
    cannot be told (`held` None: a refactor, judged by what HEAD kept).

    A requirement not built yet gives a tested requirement's value (15 says "Fizz" once 3 does),
    never the value of one nobody tested: that value came with no test at all. A value a test
    of the turn spells (`tests`: their texts, the staged one included) counts as tested: a
    test named `fizz` asks for "Fizz" whether or not its name maps it to a requirement."""
    if held is None:
        return None
    untested: set[str] = set()
    tested: set[str] = set()
    for case in probe.cases:
        words = _words(case)
        (tested if case.example.requirement in held else untested).update(words)
    _, head_failing = ran(before, probe)
    for case in probe.cases:
        example, words = case.example, _words(case)
        if case.name not in failing or not words or example.requirement in held:
            continue
        own = own_output(before, case, language)
        had = shown_strings(own, language)
        if dubious(own, had, language, failed=case.name in head_failing):
            continue
        now = shown_strings(own_output(after, case, language), language) or []
        wrong = [
            v for v in now if v in untested - tested and v not in words
            and v not in (had or []) and not _spelled(v, tests)
        ]  # fmt: skip
        if wrong:
            quoted = f'"{wrong[0]}"'
            # not what the kata says for that input: told the kata's value there, a retry may
            # add a case for it that no test asks for
            return (
                f"{MISPLACED}{quoted} for `{case.call}`, an input of requirement "
                f"{example.requirement}, which no test asks for yet: {quoted} is the kata's "
                f"value for other inputs (now it gives {listing(now)}). Give {quoted} only "
                "with the test that asks for it, and nothing for inputs no test calls: make the "
                'staged test pass with the least code, and send the whole file with "action": '
                '"upsert"'
            )
    return None


def _spelled(value: str, tests: Collection[str]) -> bool:
    """Whether a test text has `value` as a string literal ("Fizz" or 'Fizz')."""
    return any(f'"{value}"' in text or f"'{value}'" in text for text in tests)


def _words(case: Case) -> set[str]:
    """The strings an example of one value gives (`3 gives "Fizz"`), none for a list or a
    refusal (those are misplaced_message's)."""
    values = case.example.values
    if values is None or case.example.whole or len(values) != 1 or values[0][0] != "str":
        return set()
    return {values[0][1]}


def disordered_messages(
    before: Verdict, after: Verdict, probe: Probe, failing: set[str], language: str
) -> str | None:
    """Why the change gives the messages of an example the kata lists whole, two or more in a
    set order, in another order than the kata's, where HEAD kept it; None when it does not, or
    when the output does not show the value.

    The order is the one the kata's example gives; no later requirement's check can set it right,
    so it is said while the check is the newest one."""
    _, head_failing = ran(before, probe)
    for case in probe.cases:
        example, said = case.example, case.example.messages
        if case.name not in failing or said is None or len(said) < 2:
            continue
        own = own_output(before, case, language)
        had = shown_strings(own, language)
        failed = case.name in head_failing
        if dubious(own, had, language, failed=failed) or _out_of_order(had or [], said):
            continue  # HEAD's order was not the kata's already: not this change's doing
        now = shown_strings(own_output(after, case, language), language)
        if now is None or (swapped := _out_of_order(now, said)) is None:
            continue
        first, second = swapped
        return (
            f"{DISORDERED}the kata's messages for `{case.call}` in another order than the "
            f"kata's: requirement {example.requirement} says {example.said} (now it gives "
            f'{listing(now)}). "{first}" comes before "{second}" in the kata: put each check '
            "where its rule is in the kata's list, after the checks of the rules before it, "
            'and send the whole file with "action": "upsert"'
        )
    return None


def _out_of_order(values: list[str], said: list[str]) -> tuple[str, str] | None:
    """The first pair of `values` (those in `said`) out of `said`'s order, as the kata orders
    them; None when they come in its order. Each value is matched to its first place in `said`
    at or after the last one's: a message the kata lists twice (`[a, b, a]`), or one the code
    gives twice in a row, is no disorder (`said.index` took `[a, b, a]` itself for one)."""
    place = 0
    for value in values:
        if value not in said:
            continue
        later = [index for index in range(place, len(said)) if said[index] == value]
        if not later:
            return value, said[place]
        place = later[0]
    return None


# pytest's "Full diff" (`-: missing in left side, +: extra in left side`): a line of the left
# side is marked `+` or not at all; a short list is one line, a long one a line per item. The
# mark sits in the column of the "Full diff:" line's text (`E         Full diff:` with pytest's
# -v; other versions and verbosities indent it otherwise)
_FULL_DIFF = re.compile(r"^E(?P<indent> +)Full diff:.*$", re.MULTILINE)


def shown_strings(own: str, language: str) -> list[str] | None:
    """The strings the call gave in a case's failed comparison, read from its own output
    (drive/probe.py `own_output`: libtest's `left:`, the left side of pytest's full diff, its
    `assert … == …` line cuts strings short); None when the output shows no whole value."""
    header = _FULL_DIFF.search(own) if language == "python" else None
    if header is not None:
        marked = re.compile(rf"^E{header['indent']}(?P<mark>[-+ ]) *(?P<rest>.*)$", re.MULTILINE)
        return [value for line in marked.finditer(own, header.end()) if line["mark"] != "-"
                for value in literals(line["rest"])]  # fmt: skip
    for left, _right, cut, _empty in comparisons(own):
        return None if cut else left
    return None


# pytest -v cuts a long explanation (docs/kata-checks.md, "A refactor that changes what the kata
# says"): the diff's hidden lines may hold what HEAD gave
_TRUNCATED = "Full output truncated"


def dubious(own: str, shown: list[str] | None, language: str, *, failed: bool) -> bool:
    """Whether a case's own output (`shown`: what `shown_strings` read) shows a comparison
    without all the call gave (pytest's cut diff or `assert` line, a `left:` with `...`), or,
    for a case that `failed`, shows nothing at all: the gate keeps the output's end
    (policy/gate.py `OUTPUT_TAIL_CHARS`), and many examples HEAD does not build yet push the
    first failures out of it (found when Password Validation got an eleventh example,
    "Abcdefg1?": on CI, where pytest cuts no diff, "Abcdefg!"'s block fell out of HEAD's
    output)."""
    if failed and not own.strip():
        return True
    if language == "python" and _TRUNCATED in own:
        return True
    return shown is None and bool(comparisons(own))


def listing(values: list[str]) -> str:
    return "[" + ", ".join(f'"{value}"' for value in values) + "]"
