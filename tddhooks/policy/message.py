"""Parse a commit message once: comments, scissors, subject, Conventional Commits header, sections.

Pure (stdlib only): the commit-msg hook calls this on every commit.
"""

from __future__ import annotations

import re

from tddhooks.records import NamedTuple
from tddhooks.vocabulary import ROLES as ROLES

SECTION_NAMES = ("Context", "Rationale", "Diff summary", "Verification")
CONTEXT_KEYS = ("Role", "Step", "Kata goal")
SCISSORS_TAIL = " ------------------------ >8 ------------------------"

# Conventional Commits 1.0: type(scope)!: summary; the scope may not be empty or hold parentheses.
HEADER_RE = re.compile(
    r"^(?P<type>[a-z]+)(?:\((?P<scope>[^()\r\n]+)\))?(?P<breaking>!)?: "
    r"(?P<summary>[^\r\n]*\S[^\r\n]*)$"
)
_SECTION_RE = re.compile(
    r"^(?P<name>" + "|".join(re.escape(name) for name in SECTION_NAMES) + r")\s*:\s*$",
    re.IGNORECASE,
)
_BULLET_RE = re.compile(r"^[-*]\s+(?P<text>.*)$")
_REVERTS_RE = re.compile(r"^This reverts commit (?P<sha>[0-9a-f]{7,64})\b", re.MULTILINE)
_FIELD_RE = re.compile(r"^(?P<key>[^:]+?)\s*:\s*(?P<value>.*)$")
_EXEMPT_PREFIXES = (
    ("Merge branch ", "merge"),
    ("Merge branches ", "merge"),
    ("Merge pull request ", "merge"),
    ("Merge remote-tracking branch ", "merge"),
    ("Merge tag ", "merge"),
    ("Merge commit ", "merge"),
    ('Revert "', "revert"),
    ('Reapply "', "revert"),
    ("fixup! ", "fixup"),
    ("squash! ", "squash"),
    ("amend! ", "amend"),
)


class Header(NamedTuple):
    """A parsed Conventional Commits header (NamedTuples here, see proc.ProcResult)."""

    type: str
    scope: str | None
    breaking: bool
    summary: str


class CommitMessage(NamedTuple):
    """A commit message as git will store it, split into the parts the rules read."""

    text: str
    subject: str
    body: str
    header: Header | None
    sections: dict[str, list[str]]
    fields: dict[str, str]
    exempt: str | None = None
    subject_lines: int = 1  # lines git joins into the subject (a missing blank line after it)
    target: str | None = None  # fixup!/squash!/amend!: the subject of the commit it fixes
    reverts: str | None = None  # Revert/revert: the commit id named by "This reverts commit …"


class Cleanup(NamedTuple):
    """How git cleans a message before storing it (`git commit --cleanup`, `commit.cleanup`).

    mode: "strip" (drop comment lines, then `whitespace`), "whitespace" (trailing whitespace,
    leading/trailing and repeated blank lines), "verbatim" (nothing); cut: everything from the
    scissors line down is dropped (`--cleanup=scissors` with an editor, or `--verbose`)."""

    mode: str = "strip"
    cut: bool = False


EDITOR = Cleanup("strip", cut=True)  # an editor with `git commit -v`: what a person sees
STORED = Cleanup("verbatim")  # a message git already stored (audit)
_GIT_SPACE = " \t\n\r"  # git's isspace(): no \v, \f or Unicode spaces


def git_cleanup(text: str, cleanup: Cleanup = EDITOR, comment_char: str = "#") -> str:
    """The message exactly as git stores it after its cleanup (builtin/commit.c, stripspace)."""
    if cleanup.cut:
        text = _cut_at_scissors(text, comment_char + SCISSORS_TAIL)
    if cleanup.mode == "verbatim":
        return text
    drop_comments = cleanup.mode == "strip" and bool(comment_char)
    lines: list[str] = []
    blank_run = False
    for raw in text.split("\n"):
        if drop_comments and raw.startswith(comment_char):
            continue
        line = raw.rstrip(_GIT_SPACE)
        if not line:
            blank_run = True
            continue
        if blank_run and lines:
            lines.append("")
        blank_run = False
        lines.append(line)
    return "".join(line + "\n" for line in lines)


def _cut_at_scissors(text: str, marker: str) -> str:
    """`text` up to the first scissors line (the marker, then only whitespace), as git cuts it."""
    offset = 0
    for line in text.split("\n"):
        if line.startswith(marker) and not line[len(marker) :].strip(_GIT_SPACE):
            return text[:offset]
        offset += len(line) + 1
    return text


def clean_lines(text: str, comment_char: str = "#", cleanup: Cleanup = EDITOR) -> list[str]:
    """The lines git stores for `text` (see git_cleanup), without their newlines."""
    cleaned = git_cleanup(text, cleanup, comment_char)
    return cleaned.split("\n")[:-1] if cleaned.endswith("\n") else cleaned.split("\n")


def subject_paragraph(lines: list[str]) -> tuple[list[str], list[str]]:
    """(the subject's lines, the body's lines) the way git reads them: leading blank lines are
    skipped, the subject is the whole first paragraph (git's `%s` joins it with spaces)."""
    start = 0
    while start < len(lines) and not lines[start].strip(_GIT_SPACE):
        start += 1
    end = start
    while end < len(lines) and lines[end].strip(_GIT_SPACE):
        end += 1
    body = lines[end:]
    while body and not body[0].strip(_GIT_SPACE):
        body.pop(0)
    return lines[start:end], body


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
    """'merge', 'revert', 'fixup', 'squash' or 'amend' when the subject has the shape of one of
    git's own messages, else None. The shape alone exempts nothing (see policy.rules)."""
    for prefix, kind in _EXEMPT_PREFIXES:
        if subject.startswith(prefix):
            return kind
    return None


def fixup_target(subject: str) -> str | None:
    """The subject a `fixup! …`/`squash! …`/`amend! …` subject names, prefixes stacked by
    `--fixup` of a fixup peeled off; None for any other subject."""
    target = None
    while exempt_kind(subject) in ("fixup", "squash", "amend"):
        subject = target = subject.split("! ", 1)[1]
    return target


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


def parse_message(text: str, comment_char: str = "#", cleanup: Cleanup = EDITOR) -> CommitMessage:
    """Parse a raw message (as the commit-msg hook receives it) the way git will store it under
    `cleanup`; a stored message (`git log --format=%B`) is parsed with STORED."""
    lines = clean_lines(text, comment_char, cleanup)
    subject_lines, body_lines = subject_paragraph(lines)
    subject = " ".join(line.rstrip(_GIT_SPACE) for line in subject_lines)
    sections = parse_sections(body_lines)
    body = "\n".join(body_lines)
    reverts = _REVERTS_RE.search(body)
    cleaned = "\n".join(lines).strip(_GIT_SPACE)
    return CommitMessage(
        text=cleaned + "\n" if cleaned else "",
        subject=subject,
        body=body,
        header=parse_header(subject),
        sections=sections,
        fields=parse_fields(sections.get("Context", [])),
        exempt=exempt_kind(subject),
        subject_lines=len(subject_lines),
        target=fixup_target(subject),
        reverts=reverts["sha"] if reverts else None,
    )
