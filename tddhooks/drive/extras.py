"""Check `extra-values` (small-model hint, docs/checks.md): a test that gets the values it expects
and more (docs/answers.md, "Hints on a red attempt").

Read per failing test (`path::name: panicked at …` and its `left:`/`right:` lines): when one
side holds every string of the other and more, and the test file holds none of the extra strings
as a literal, the code gives them where this test does not ask for them. pytest's `Left contains
one more item: '…'` (or `N more items, first extra item: '…'`) with no `At index … diff` before
it says the same."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping

from tddhooks.drive.strays import comparisons, literals

# a failing test's block of a failure excerpt (runners/libtest.py, runners/pytest_output.py)
_BLOCK = re.compile(r"^(?P<path>[^\s:]+)::\S+: (?:panicked|failed)\b.*$", re.MULTILINE)

# pytest's list comparison (`_compare_eq_sequence`): the longer side's first extra item
_MORE = re.compile(
    r"^\s*(?:Left|Right) contains (?:one more item|\d+ more items, first extra item): "
    r"(?P<value>.+)$",
    re.MULTILINE,
)
_AT_INDEX = re.compile(r"^\s*At index \d+ diff:", re.MULTILINE)
_EMPTY_OPERAND = re.compile(r"assert (?:\[\] == |.* == \[\]\s*$)", re.MULTILINE)

# the list the checks add to, as code: the shape of one check per rule, in the kata's language
_OPEN = {"rust": "let mut errors = Vec::new();", "python": "errors = []"}
_CHECK = {
    "rust": 'if … {{\n    errors.push("{}".to_string());\n}}',
    "python": 'if …:\n    errors.append("{}")',
}
_CLOSE = {"rust": "errors", "python": "return errors"}


def extra_values(failure: str, tests: Mapping[str, str], language: str, kata: str = "") -> str:
    """One hint line (ending in a line break; "" when none) for the first failing test whose
    comparison shows the code giving the test's strings and more that the test file does not
    hold, or giving another message of the kata in the place of the one it holds."""
    blocks = list(_BLOCK.finditer(failure))
    for index, block in enumerate(blocks):
        text = tests.get(block["path"])
        if text is None:
            continue
        end = blocks[index + 1].start() if index + 1 < len(blocks) else len(failure)
        body = failure[block.start() : end]
        more = _MORE.search(body)
        if more and not _AT_INDEX.search(body) and not _EMPTY_OPERAND.search(block.group()):
            extra = literals(more["value"])[:1]
            if extra and not _held(extra, text):
                return _hint(block["path"], [], extra, language)
        for left, right, cut, _empty in comparisons(body) if _LISTS.search(body) else ():
            if cut:
                continue
            for got, wanted in ((left, right), (right, left)):
                extra = [value for value in got if value not in wanted]
                if not wanted or not extra or any(value not in got for value in wanted):
                    continue
                if _held(extra, text):
                    continue  # the test asks for them: it is the side that wants more
                return _hint(block["path"], wanted, extra, language)
        # a kata's message may be broken over two lines
        misplaced = _misplaced(body, text, [*tests.values(), " ".join(kata.split())])
        if misplaced:
            return _hint(block["path"], *misplaced, language, instead=True)
    return ""


# a libtest comparison of two lists of strings (not of two strings: "FizzBuzz" where "Fizz" is
# expected is no list of checks; nor of tuples, `[("k", "v")]`, nor a tuple, `("a", "b")`)
_LISTS = re.compile(r'^\s*left: \[(?:"|\]).*\n\s*right: \[(?:"|\])', re.MULTILINE)


def _misplaced(body: str, test: str, texts: list[str]) -> tuple[list[str], list[str]] | None:
    """(wanted, given) when the block compares two lists and the code's holds, in the place of
    the test's strings, strings the test file does not hold but another test or the kata does: a
    message of another rule where this input wants its own. An invented string is
    drive/strays.py's."""
    if not _LISTS.search(body):
        return None
    for left, right, _cut, _empty in comparisons(body):
        for got, wanted in ((left, right), (right, left)):
            given = [value for value in got if not _held([value], test)]
            if not wanted or not given or not all(_held([value], test) for value in wanted):
                continue
            if all(any(_held([value], text) for text in texts) for value in given):
                return [value for value in wanted if value not in got], given
    return None


def _held(values: list[str], text: str) -> bool:
    """Whether the test file holds one of `values` as a whole string literal, its escaped quotes
    read as the quotes (`"say \\"hi\\""` holds `say "hi"`)."""
    held = _literal_set(text)
    return any(value in held or f'"{value}"' in text or f"'{value}'" in text for value in values)


@functools.lru_cache(maxsize=32)
def _literal_set(text: str) -> frozenset[str]:
    """The string literals of `text`, read once per text (a hint asks of each value in turn)."""
    return frozenset(literals(text))


def _hint(
    path: str, wanted: list[str], extra: list[str], language: str, *, instead: bool = False
) -> str:
    listed = ", ".join(f'"{value}"' for value in dict.fromkeys(extra))
    expected = ", ".join(f'"{value}"' for value in dict.fromkeys(wanted))
    if instead:
        said = (f"{path} expects {expected} there, and the code gives {listed} in its place: the "
                f"check that gives {listed} must not hold for that input")  # fmt: skip
    elif wanted:
        said = f"{path} expects only {expected} there, and the code also gives {listed}"
    else:
        said = (f"{path} does not expect {listed} there, and the code gives it with the values "
                "the test does expect")  # fmt: skip
    hint = (
        f"Hint: {said}: give each message a check of its own that adds it to the list only when "
        "that check holds for the input"
    )
    if language not in _OPEN:
        return hint + ".\n"
    checks = [_CHECK[language].format(value.replace('"', '\\"'))  # the code's own quotes
              for value in dict.fromkeys([*wanted, *extra])]  # fmt: skip
    code = "\n".join([_OPEN[language], *checks, _CLOSE[language]])
    return f"{hint}, in the body of the function:\n```{language}\n{code}\n```\n"
