"""Markdown link checking for the project's docs: GitHub heading anchors, relative links and
page sizes, read from text alone (no network, no processes)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

# CommonMark: a backtick fence's info string has no backtick (```` ```rust ```` is inline code)
_FENCE = re.compile(r"^ {0,3}(`{3,}(?!.*`)|~{3,})")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_INLINE_CODE = re.compile(r"(`+).*?\1")
_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_NOT_SLUG = re.compile(r"[^\w\- ]", re.UNICODE)
_EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
# a citation in prose: docs/hooks.md, "How fast"  or  docs/llm.md ("Record and replay")
_CITATION = re.compile(r"\bdocs/((?:[\w-]+/)*[\w-]+\.md),?\s+\(?\"([^\"]+)\"")
_BOLD_LEAD = re.compile(r"\*\*([^*]+?)\.?\*\*")


class Broken(NamedTuple):
    """A link in `page` at `line` whose target `target` does not resolve, and why."""

    page: Path
    line: int
    target: str
    reason: str


def _numbered(text: str) -> Iterator[tuple[int, str]]:
    """(line number, line) for every line outside fenced code blocks."""
    fence: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        opened = _FENCE.match(line)
        if opened:
            mark = opened.group(1)
            if fence is None:
                fence = mark
            elif mark[0] == fence[0] and len(mark) >= len(fence):
                fence = None
            continue
        if fence is None:
            yield number, line


def prose_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number, line) for every line outside fenced code blocks, inline code removed."""
    for number, line in _numbered(text):
        yield number, _INLINE_CODE.sub("", line)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading keeps its text
    return _NOT_SLUG.sub("", text.strip().lower()).replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every heading anchor of a page, with GitHub's -1, -2 suffixes for repeated headings."""
    seen: dict[str, int] = {}
    found: set[str] = set()
    for _, line in _numbered(text):
        heading = _HEADING.match(line)
        if heading:
            base = slug(heading.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(text: str) -> Iterator[tuple[int, str]]:
    """(line number, target) of every relative Markdown link outside code."""
    for number, line in prose_lines(text):
        for match in _LINK.finditer(line):
            target = match.group(1)
            if not _EXTERNAL.match(target):
                yield number, target


def _plain(text: str) -> str:
    return " ".join(text.replace("`", "").replace("*", "").split())


def sections(text: str) -> list[str]:
    """The titles a citation may name: every heading and every bold lead of a paragraph or item."""
    found: list[str] = []
    for _, line in _numbered(text):
        heading = _HEADING.match(line)
        if heading:
            found.append(_plain(heading.group(2)))
        found.extend(_plain(bold) for bold in _BOLD_LEAD.findall(line))
    return found


def citations(text: str) -> Iterator[tuple[int, str, str]]:
    """(line number, docs page, section title) of every `docs/page.md, "Title"` citation in prose,
    a title broken over lines joined again."""
    lines = list(_numbered(text))
    for index, (number, line) in enumerate(lines):
        joined = " ".join([line, *(rest for _, rest in lines[index + 1 : index + 3])])
        for match in _CITATION.finditer(joined):
            if match.start() < len(line):
                yield number, match.group(1), _plain(match.group(2))


def broken_citations(page: Path, root: Path) -> list[Broken]:
    """Citations in `page` of a docs page that does not exist or has no section of that title
    (a title is matched by its start, as prose cites "What an agent sees" for a longer heading)."""
    found: list[Broken] = []
    for number, name, title in citations(page.read_text(encoding="utf-8")):
        dest = root / "docs" / name
        target = f'docs/{name}, "{title}"'
        if not dest.is_file():
            found.append(Broken(page, number, target, "no such file"))
        elif not any(s.startswith(title) for s in sections(dest.read_text(encoding="utf-8"))):
            found.append(Broken(page, number, target, f"no section of that title in {name}"))
    return found


def broken_links(page: Path, root: Path) -> list[Broken]:
    """The relative links of `page` whose file (inside `root`) or heading anchor does not exist."""
    text = page.read_text(encoding="utf-8")
    found: list[Broken] = []
    for number, target in links(text):
        path_part, _, anchor = target.partition("#")
        dest = (page.parent / path_part).resolve() if path_part else page.resolve()
        if not dest.is_relative_to(root.resolve()):
            found.append(Broken(page, number, target, "points outside the repository"))
        elif not dest.exists():
            found.append(Broken(page, number, target, "no such file"))
        elif (
            anchor
            and dest.suffix == ".md"
            and anchor not in anchors(dest.read_text(encoding="utf-8"))
        ):
            found.append(Broken(page, number, target, f"no heading #{anchor} in {dest.name}"))
    return found


def words(text: str) -> int:
    """Words as `wc -w` counts them: runs of non-space characters, code blocks included."""
    return len(text.split())
