"""The kata's Markdown as the product reads it: its goal, its requirements (the list items under
Requirements/Goal/Task headings) and the rest of its text (pure)."""

from __future__ import annotations

import re

GOAL_MAX = 160
_ABBREVIATIONS = ("e.g", "i.e", "etc", "vs", "cf", "approx")
# a heading naming what is NOT wanted ("Non-goals", "Out of scope") lists no requirement: the
# drive's tester was pointed at them, and its done refused while they had no test
_GOAL_HEADING_RE = re.compile(
    # "Non-functional requirements" (speed, readability) are no behaviour a test pins down
    r"^(?!.*(?:\bnon[- ]?(?:goal|requirement|functional)|out[- ]of[- ]scope))"
    # "Steps to run the tests", "Ground rules", "Rules of TDD", "Learning goals": how to work or
    # to practise, not what to build (headings of kata READMEs; docs/hooks.md, "Kata goal")
    r"(?!.*\b(?:run(?!-)|running|set ?up|install\w*|getting started|tdd|test[- ]driven|testing"
    r"|mob|mobbing|pairing|pair programming|calisthenics|learning goals?)\b)"
    # "Task: Build a scorer" is a task; "Build steps", "Next steps", "Rules of thumb" are not
    r"(?:.*(?:requirement|goal|task)|(?!.*\b(?:build\w*|next|ground|house|thumb|baby)\b)"
    r".*(?:\brules?\b|\bsteps?\b|\bspecifications?\b|acceptance criteria|user stor(?:y|ies)))",
    re.IGNORECASE,
)
_BULLET_RE = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?(?P<text>.*)$")
# an ATX heading's marks and the rest of its line; `_heading` reads the text (a pattern reading it
# too, with its closing `#`s, took seconds on a heading of 500 spaces)
_HEADING_RE = re.compile(r"^\s{0,3}(?P<marks>#+)(?P<rest>.*)$")
_UNDERLINE_RE = re.compile(r"^\s{0,3}(?:=+|-+)\s*$")
# links and images keep their text (a URL may hold one pair of parentheses); no bracket in the
# text keeps 20,000 `[` linear, so an image inside a link (a badge: `[![CI](ci.svg)](ci)`) takes
# a second pass
_LINK = re.compile(r"!?\[([^\[\]]*)\]\((?:[^()\n]|\([^()\n]*\))*\)")
_EMPHASIS = (
    (_LINK, r"\1"),
    (_LINK, r"\1"),
    # no `<` in a tag keeps 20,000 `<` linear
    (re.compile(r"<[^<>\n]+>"), ""),  # inline HTML
    # emphasis holds no other opening mark of its kind: each opening mark is read up to the next
    # one, not to the line's end (10,000 `**a ` took 16 s)
    (re.compile(r"(\*\*|__)(?=\S)((?:(?!\1(?=\S)).)+?)(?<=\S)\1"), r"\2"),
    (re.compile(r"(?<![\w*])\*(?=\S)((?:(?!(?<![\w*])\*(?=\S)).)+?)(?<=\S)\*(?![\w*])"), r"\1"),
    (re.compile(r"(?<![\w_])_(?=\S)((?:(?!(?<![\w_])_(?=\S)).)+?)(?<=\S)_(?![\w_])"), r"\1"),
    (re.compile(r"~~(.+?)~~"), ""),  # struck-out text is no longer wanted
    (re.compile(r"`+([^`]*)`+"), r"\1"),
)


def one_line(text: str) -> str:
    """Collapse every run of whitespace (newlines included) to one space."""
    return " ".join(text.split())


def shorten(text: str, limit: int) -> str:
    """`text` cut to `limit` characters at a word boundary when possible, marked with '…'."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if cut.rfind(" ") > limit // 2:
        cut = cut[: cut.rfind(" ")]
    return cut.rstrip(" ,;:-") + "…"


def _strip_markdown(text: str) -> str:
    for pattern, replacement in _EMPHASIS:
        text = pattern.sub(replacement, text)
    return one_line(text)


def _heading(line: str) -> str | None:
    """The text of an ATX heading (`## Goal ##` -> "Goal", `#` -> ""); None for another line."""
    match = _HEADING_RE.match(line)
    if match is None:
        return None
    rest = match["rest"]
    if not rest.strip():
        return ""
    if len(match["marks"]) > 6 or not rest[0].isspace():
        return None
    return rest.strip().rstrip("#").rstrip()


_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")
_LAST_WORD = re.compile(r"(\S*)\s*$")
_NEXT_CHAR = re.compile(r"\s*(\S?)")


def _first_sentence(text: str) -> str:
    # each end read where it is, not by splitting the text before it (8,000 "a. b" took 1.5 s)
    for match in _SENTENCE_END.finditer(text):
        start = match.start()
        word = _LAST_WORD.search(text, max(0, start - 16), start)
        if match.group() == "." and word and word[1].lower() in _ABBREVIATIONS:
            continue
        following = _NEXT_CHAR.match(text, match.end())
        if following is None or not following[1].islower():
            return text[: match.end()]
    return text


def _blocks(kata_text: str) -> list[tuple[str | None, list[str]]]:
    """(heading above, lines) per paragraph; code fences, HTML comments and tables left out."""
    blocks: list[tuple[str | None, list[str]]] = []
    heading: str | None = None
    current: list[str] = []
    fence: str | None = None
    in_comment = False
    for raw in kata_text.replace("\r\n", "\n").split("\n"):
        line = raw.rstrip()
        stripped = line.strip()
        if fence or stripped.startswith(("```", "~~~")):
            fence = None if fence and stripped.startswith(fence) else fence or stripped[:3]
            line = stripped = ""
        elif in_comment or stripped.startswith("<!--"):
            in_comment = "-->" not in stripped
            line = stripped = ""
        if _UNDERLINE_RE.match(line) and len(current) == 1:
            heading, current = current[0].strip(), []  # setext heading: the line above it
            continue
        title = _heading(line)
        if title is not None or not stripped or _UNDERLINE_RE.match(line) or stripped[:1] == "|":
            if current:
                blocks.append((heading, current))
            current = []
            heading = title if title is not None else heading
            continue
        current.append(line)
    if current:
        blocks.append((heading, current))
    return blocks


def _indent(line: str) -> int:
    return len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip())


def block_text(lines: list[str], first: int = 0) -> str:
    """A paragraph's text, or its list item at `first` with its continuation lines and its
    nested items (`1. Fizz:` over `   - 3 gives "Fizz"`: the examples are the item's), each
    nested item after a `;`."""
    bullet = _BULLET_RE.match(lines[first])
    if bullet is None:
        return " ".join(line.strip().removeprefix(">").strip() for line in lines[first:])
    item = bullet["text"].rstrip()
    for index in range(first + 1, len(lines)):  # not islice: it reads every line before `first`
        line = lines[index]
        nested = _BULLET_RE.match(line)
        if nested is None:
            item += " " + line.strip()
        elif _indent(line) <= _indent(lines[first]):
            break  # the next item
        else:
            item += ("" if item.endswith((":", ";")) else ";") + " " + nested["text"].rstrip()
    return item


def kata_goal(kata_text: str) -> str:
    """One sentence saying what the kata wants: the first item under a Requirements/Goal/Task
    heading, else the first paragraph, else the title; '' for an empty file."""
    blocks = _blocks(kata_text)
    items = (
        lines[index:]
        for heading, lines in blocks
        if heading and _GOAL_HEADING_RE.search(heading)
        for index, line in enumerate(lines)
        if _BULLET_RE.match(line)
    )
    chosen = next(items, blocks[0][1] if blocks else None)
    if chosen is None:
        titles = [title for line in kata_text.splitlines() if (title := _heading(line)) is not None]
        return shorten(_strip_markdown(titles[0]), GOAL_MAX) if titles else ""
    return shorten(_first_sentence(_strip_markdown(block_text(chosen))), GOAL_MAX)


def kata_requirements(kata_text: str, *, whole: bool = False) -> list[str]:
    """Every list item under the kata's Requirements/Goal/Task headings, one sentence each
    (`whole`: the item's whole text, examples included, as the tester's prompt quotes it)."""
    found = []
    for heading, lines in _blocks(kata_text):
        if not heading or not _GOAL_HEADING_RE.search(heading):
            continue
        for index, line in enumerate(lines):
            if _BULLET_RE.match(line) and not line.startswith((" ", "\t")):
                text = block_text(lines, index)
                found.append(
                    text if whole else shorten(_first_sentence(_strip_markdown(text)), GOAL_MAX)
                )
    return found


_INTERFACE_HEADING_RE = re.compile(r"interface|\bapi\b|signature|entry point", re.IGNORECASE)


def _headings(lines: list[str]) -> dict[int, tuple[int, str]]:
    """line index -> (level, text) of each heading: `#` headings and setext ones (a line of text
    underlined with `=` or `-`), outside code fences and HTML comments, as `_blocks` reads them."""
    found: dict[int, tuple[int, str]] = {}
    fence, in_comment, previous = "", False, ""  # previous: a line of text that may be a title
    for index, line in enumerate(lines):
        stripped = line.strip()
        if fence or stripped.startswith(("```", "~~~")):
            fence = "" if fence and stripped.startswith(fence) else fence or stripped[:3]
            previous = ""
            continue
        if in_comment or stripped.startswith("<!--"):
            in_comment = "-->" not in stripped
            previous = ""
            continue
        title = _heading(line)
        if title is not None:
            found[index] = (len(stripped) - len(stripped.lstrip("#")), title)
        elif _UNDERLINE_RE.match(line) and previous:
            found[index - 1] = (1 if stripped.startswith("=") else 2, previous)
        ok = stripped and title is None and not _BULLET_RE.match(line) and not previous
        alone = index == 0 or not lines[index - 1].strip() or index - 1 in found
        previous = stripped if ok and alone else ""
    return found


def kata_without_requirements(kata_text: str) -> str:
    """The kata as the implementor reads it: the title with the text above the first section
    (title and goal), and the sections that name the code's interface, with their subsections;
    the requirements, notes and the rest are left out, so the staged test is the only
    specification of the step (docs/prompts.md, "What an agent sees"). A kata without a
    requirements heading is kept whole: there is no telling what its text holds."""
    if not kata_requirements(kata_text):
        return kata_text
    lines = kata_text.replace("\r\n", "\n").split("\n")
    headings = _headings(lines)
    levels = [level for level, _ in headings.values()]
    first, below = min(headings, default=-1), levels[1] if len(levels) > 1 else 0
    # a title that names a goal ("# Goal: FizzBuzz") lists none: its own text has no list
    under = lines[first + 1 : sorted(headings)[1] if len(headings) > 1 else len(lines)]
    listless = not any(_BULLET_RE.match(line) for line in under)
    kept: list[str] = []
    keep = True
    sections: list[tuple[int, bool]] = []  # (level, an interface's?) of the headings above
    for index, line in enumerate(lines):
        if index in headings:
            level, text = headings[index]
            while sections and sections[-1][0] >= level:
                sections.pop()
            goal = bool(_GOAL_HEADING_RE.search(text))
            interface = bool(_INTERFACE_HEADING_RE.search(text)) or (
                bool(sections) and sections[-1][1] and not goal
            )
            # the first heading is the title, unless it names requirements as its siblings do
            title = index == first and (not goal or (level < below and listless))
            keep = interface or title
            sections.append((level, interface))
        if keep:
            kept.append(line)
    return "\n".join(kept).strip() + "\n"
