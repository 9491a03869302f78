"""Which changed files a commit only reformats, proved (docs/policy.md, "style: commits").

A change of a file is formatting only when the old and the new text have equal token streams
(whitespace, line breaks and comment spacing aside), or when the language's formatter makes the
same text of both (`ruff format -`, `rustfmt --emit stdout`), or the linter's safe fixes followed
by the formatter do (`ruff check --fix-only --no-unsafe-fixes -`, Python only): the formatter and
the safe fixes keep the meaning of what they rewrite, so two texts they turn into one are the same
program. Nothing is guessed from the paths or the size of the diff.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from tddhooks import git, proc
from tddhooks.vocabulary import CODE_SUFFIXES

TYPE_CHECKING = False  # not typing's: the hook path does not import typing; mypy reads it
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from tddhooks.policy.settings import PolicySettings

FORMATTER_TIMEOUT_S = 60.0
_REGULAR = ("100644", "100755")
# a Rust token: comments, literals (raw strings included), lifetimes, words, numbers, one
# punctuation character; whitespace between tokens is what a formatter may change
_RUST_TOKEN = re.compile(
    r"//[^\n]*|/\*(?:.|\n)*?\*/"
    r'|b?r(?P<hashes>#*)"(?:.|\n)*?"(?P=hashes)'
    r'|b?"(?:\\.|[^"\\])*"'
    r"|b?'(?:\\.|[^'\\])'"
    r"|'[A-Za-z_]\w*"
    r"|[A-Za-z_]\w*|[0-9][\w.]*"
    r"|\S"
)


def rust_tokens(text: str) -> list[str]:
    """The Rust token stream of text, comments as their words (pure)."""
    tokens = []
    for match in _RUST_TOKEN.finditer(text):
        token = match.group(0)
        if token.startswith(("//", "/*")):
            token = " ".join(token.split())
        tokens.append(token)
    return tokens


def python_tokens(text: str) -> list[str] | None:
    """The Python token stream of text without the tokens only layout makes (line breaks
    inside brackets, indentation widths), comments as their words; None when it does not
    tokenize (pure)."""
    import io
    import tokenize

    skipped = (tokenize.NL, tokenize.ENCODING)
    tokens: list[str] = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type in skipped:
                continue
            if token.type in (tokenize.INDENT, tokenize.DEDENT, tokenize.NEWLINE):
                tokens.append(tokenize.tok_name[token.type])
            elif token.type == tokenize.COMMENT:
                tokens.append("# " + " ".join(token.string.lstrip("#").split()))
            else:
                tokens.append(token.string)
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None
    return tokens


def same_tokens(language: str, old: str, new: str) -> bool:
    """Whether old and new differ only in layout (pure)."""
    if language == "python":
        before = python_tokens(old)
        return before is not None and before == python_tokens(new)
    if language == "rust":
        return rust_tokens(old) == rust_tokens(new)
    return False


def formatter_command(language: str, path: str) -> tuple[str, ...] | None:
    """The formatter that reads a file on stdin and writes it formatted to stdout."""
    if language == "python" and path.endswith((".py", ".pyi")):
        return (sys.executable, "-m", "ruff", "format", "--stdin-filename", path, "-")
    if language == "rust" and path.endswith(".rs"):
        return ("rustfmt", "--emit", "stdout", "--edition", "2021")
    return None


def formatted(language: str, path: str, text: str, cwd: Path) -> str | None:
    """What the language's formatter makes of text; None when it cannot (no formatter for
    the file, or the text does not parse)."""
    command = formatter_command(language, path)
    if command is None:
        return None
    result = proc.run(command, cwd=cwd, stdin=text, timeout_s=FORMATTER_TIMEOUT_S)
    return result.stdout if result.ok else None


def fixer_command(language: str, path: str) -> tuple[str, ...] | None:
    """The linter's safe fixes of a file read on stdin, the fixed text on stdout; None for a
    language whose linter cannot fix a text apart from its crate (clippy)."""
    if language == "python" and path.endswith((".py", ".pyi")):
        return (
            *(sys.executable, "-m", "ruff", "check", "--fix-only", "--no-unsafe-fixes"),
            *("--exit-zero", "--quiet", "--stdin-filename", path, "-"),
        )
    return None


def fixed_and_formatted(language: str, path: str, text: str, cwd: Path) -> str | None:
    """What the linter's safe fixes and then the formatter make of text; None when there is no
    fixer for the file or either tool cannot."""
    command = fixer_command(language, path)
    if command is None:
        return None
    result = proc.run(command, cwd=cwd, stdin=text, timeout_s=FORMATTER_TIMEOUT_S)
    return formatted(language, path, result.stdout, cwd) if result.ok else None


def formatting_only(language: str, path: str, old: str, new: str, cwd: Path) -> bool:
    """Whether changing old into new changes only the formatting of path (the linter's safe
    fixes included)."""
    if old == new or same_tokens(language, old, new):
        return True
    after = formatted(language, path, new, cwd)
    if after is not None and after == formatted(language, path, old, cwd):
        return True
    if fixer_command(language, path) is None:
        return False
    fixed = fixed_and_formatted(language, path, old, cwd)
    return fixed is not None and fixed == fixed_and_formatted(language, path, new, cwd)


def _modified(raw: str) -> Iterator[tuple[str, str, str]]:
    """(path, old blob, new blob) of the regular files modified in `diff --raw -z` output."""
    fields = raw.split("\0")
    for meta, path in zip(fields[0::2], fields[1::2], strict=False):
        parts = meta.lstrip(":").split()
        if len(parts) == 5 and parts[4] == "M" and parts[0] in _REGULAR and parts[1] in _REGULAR:
            yield path, parts[2], parts[3]


def formatting_only_paths(
    root: Path,
    revs: list[str],
    settings: PolicySettings,
    index_file: str | None = None,
    *,
    accept: Callable[[str], bool] | None = None,
) -> frozenset[str]:
    """The code files (the language's suffix) modified between `revs` (`--cached <base>` for
    the index, or `<base> <commit>`) whose change is formatting only; `accept` limits which
    paths are looked at."""
    from tddhooks.policy.facts import read_blobs

    env = git.index_env(index_file)
    raw = git.run_git(
        ["diff", "--raw", "-z", "--no-renames", "--abbrev=40", *revs], root, env_extra=env
    ).stdout
    # only the language's code: whitespace in a data file or a document is content
    suffixes = CODE_SUFFIXES.get(settings.language, ())
    changed = [
        entry
        for entry in _modified(raw)
        if entry[0].endswith(suffixes) and (accept is None or accept(entry[0]))
    ]
    if not changed:
        return frozenset()
    texts = read_blobs(root, sorted({blob for _path, *blobs in changed for blob in blobs}))
    return frozenset(
        path
        for path, old, new in changed
        if old in texts
        and new in texts
        and formatting_only(settings.language, path, texts[old], texts[new], root)
    )
