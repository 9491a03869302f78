"""Parse a commit message once: comments, scissors, subject, Conventional Commits header, sections.

Pure (stdlib only): the commit-msg hook calls this on every commit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

SECTION_NAMES = ("Context", "Rationale", "Diff summary", "Verification")
ROLES = ("Tester", "Implementor", "Refactorer")
CONTEXT_KEYS = ("Role", "Step", "Kata goal")
SCISSORS_TAIL = " ------------------------ >8 ------------------------"

# Conventional Commits 1.0: type(scope)!: summary; the scope may not be empty or hold parentheses.
HEADER_RE = re.compile(
    r"^(?P<type>[a-z]+)(?:\((?P<scope>[^()\r\n]+)\))?(?P<breaking>!)?: (?P<summary>.*\S.*)$"
)
_SECTION_RE = re.compile(
    r"^(?P<name>" + "|".join(re.escape(name) for name in SECTION_NAMES) + r")\s*:\s*$",
    re.IGNORECASE,
)
_BULLET_RE = re.compile(r"^[-*]\s+(?P<text>.*)$")
_FIELD_RE = re.compile(r"^(?P<key>[^:]+?)\s*:\s*(?P<value>.*)$")
_EXEMPT_PREFIXES = (
    ("Merge branch ", "merge"),
    ("Merge branches ", "merge"),
    ("Merge pull request ", "merge"),
    ("Merge remote-tracking branch ", "merge"),
    ("Merge tag ", "merge"),
    ("Merge commit ", "merge"),
    ('Revert "', "revert"),
    ("fixup! ", "fixup"),
    ("squash! ", "squash"),
    ("amend! ", "amend"),
)


@dataclass(frozen=True)
class Header:
    """A parsed Conventional Commits header."""

    type: str
    scope: str | None
    breaking: bool
    summary: str


@dataclass(frozen=True)
class CommitMessage:
    """A commit message as git will store it, split into the parts the rules read."""

    text: str
    subject: str
    body: str
    header: Header | None
    sections: dict[str, list[str]] = field(default_factory=dict)
    fields: dict[str, str] = field(default_factory=dict)
    exempt: str | None = None


def clean_lines(text: str, comment_char: str = "#") -> list[str]:
    """Lines as git stores them: comments and everything from the scissors line down dropped,
    trailing whitespace, leading/trailing blank lines and repeated blank lines removed."""
    scissors = comment_char + SCISSORS_TAIL
    lines: list[str] = []
    for raw in text.replace("\r\n", "\n").split("\n"):
        line = raw.rstrip()
        if line == scissors:
            break
        if comment_char and raw.startswith(comment_char):
            continue
        if line or (lines and lines[-1]):  # git keeps one blank line of a run
            lines.append(line)
    while lines and not lines[-1]:
        lines.pop()
    return lines


def parse_header(subject: str) -> Header | None:
    """The Conventional Commits header in `subject`, or None when it is not one."""
    match = HEADER_RE.match(subject)
    if match is None:
        return None
    scope = match["scope"]
    return Header(
        type=match["type"],
        scope=scope.strip() if scope and scope.strip() else None,
        breaking=bool(match["breaking"]),
        summary=match["summary"].strip(),
    )


def exempt_kind(subject: str) -> str | None:
    """'merge', 'revert', 'fixup', 'squash' or 'amend' for git's own messages, else None."""
    for prefix, kind in _EXEMPT_PREFIXES:
        if subject.startswith(prefix):
            return kind
    return None


def parse_sections(body_lines: list[str]) -> dict[str, list[str]]:
    """Section name -> bullet texts; indented lines continue the bullet above them.

    A line that is neither a bullet nor indented ends the section (trailers, free text)."""
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in body_lines:
        header = _SECTION_RE.match(line)
        if header:
            canonical = next(n for n in SECTION_NAMES if n.lower() == header["name"].lower())
            current = sections.setdefault(canonical, [])
            continue
        if current is None or not line.strip():
            continue
        bullet = _BULLET_RE.match(line)
        if bullet:
            current.append(bullet["text"].strip())
        elif line[0].isspace() and current:
            current[-1] = f"{current[-1]} {line.strip()}".strip()
        else:
            current = None
    return {name: [item for item in items if item] for name, items in sections.items()}


def parse_fields(context: list[str]) -> dict[str, str]:
    """'Key: value' bullets of the Context section; known keys match case-insensitively."""
    fields: dict[str, str] = {}
    for item in context:
        match = _FIELD_RE.match(item)
        if match is None:
            continue
        key = match["key"].strip()
        key = next((known for known in CONTEXT_KEYS if known.lower() == key.lower()), key)
        fields.setdefault(key, match["value"].strip())
    return fields


def parse_message(text: str, comment_char: str = "#") -> CommitMessage:
    """Parse a raw message (as the commit-msg hook receives it) the way git will store it."""
    lines = clean_lines(text, comment_char)
    subject = lines[0] if lines else ""
    body_lines = lines[1:]
    while body_lines and not body_lines[0]:
        body_lines.pop(0)
    sections = parse_sections(body_lines)
    return CommitMessage(
        text="\n".join(lines) + "\n" if lines else "",
        subject=subject,
        body="\n".join(body_lines),
        header=parse_header(subject),
        sections=sections,
        fields=parse_fields(sections.get("Context", [])),
        exempt=exempt_kind(subject),
    )
