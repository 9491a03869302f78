"""Split a shell command line into the simple commands it runs (pure; no shell is started).

A coding agent's shell tool hands us one string. We parse it the way a POSIX shell would split it
(quotes, `;`, `&&`, `||`, `|`, `&`, newlines, subshells, command substitution) and unwrap the
launchers that run another command (`env X=1 git …`, `command git`, `bash -c '…'`, `xargs git`),
so the guard judges the commands that really run, not the text they are spelled in.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, field

_SEPARATORS = {";", "&&", "||", "|", "&", "|&", "(", ")", "{", "}", "\n", ";;", "!"}
_REDIRECT = re.compile(r"^(\d*|&)(>>?|>\||<>|&>>?)$")
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_SUBSTITUTION = re.compile(r"\$\(([^()]*(?:\([^()]*\)[^()]*)*)\)|`([^`]*)`")
_SHELLS = {"sh", "bash", "zsh", "dash", "ksh", "ash", "busybox"}
_MAX_DEPTH = 8
# launchers that run the rest of their arguments as a command, with the options that take a value
_LAUNCHERS: dict[str, set[str]] = {
    "command": set(),
    "builtin": set(),
    "exec": {"-a"},
    "nohup": set(),
    "time": {"-f", "-o"},
    "nice": {"-n"},
    "ionice": {"-c", "-n", "-p"},
    "stdbuf": {"-i", "-o", "-e"},
    "sudo": {"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U"},
    "doas": {"-u", "-C"},
    "setsid": set(),
    "chronic": set(),
    "unbuffer": set(),
}


@dataclass(frozen=True)
class SimpleCommand:
    """One command as it runs: its environment assignments, words and redirection targets,
    and the directory it runs in (as far as `cd` within the same line tells)."""

    assignments: tuple[str, ...]
    words: tuple[str, ...]
    write_targets: tuple[str, ...]
    cwd: str
    via_xargs: bool = False
    exported: tuple[str, ...] = field(default=())

    @property
    def name(self) -> str:
        return os.path.basename(self.words[0]) if self.words else ""


def _tokens(text: str) -> list[str]:
    lexer = shlex.shlex(text, posix=True, punctuation_chars=";&|()<>")
    lexer.whitespace_split = True
    lexer.commenters = "#"
    lexer.whitespace = " \t\r"  # newlines separate commands
    tokens: list[str] = []
    for token in lexer:
        tokens.extend(_split_newlines(token))
    return tokens


def _split_newlines(token: str) -> list[str]:
    if "\n" not in token:
        return [token]
    parts: list[str] = []
    for index, piece in enumerate(token.split("\n")):
        if index:
            parts.append("\n")
        if piece:
            parts.append(piece)
    return parts


def tokenize(text: str) -> list[str]:
    """Shell words and operators of `text`; unbalanced quotes fall back to plain splitting
    (the shell would refuse such a line, but a guard must not crash on it)."""
    try:
        return _tokens(text)
    except ValueError:
        return _tokens(text.replace('"', " ").replace("'", " "))


def _segments(tokens: list[str]) -> Iterator[list[str]]:
    current: list[str] = []
    for token in tokens:
        if token in _SEPARATORS or (token.startswith(("(", ")")) and set(token) <= {"(", ")"}):
            if current:
                yield current
            current = []
        elif token != "$":  # the `$` of `$(`: the substitution is parsed on its own
            current.append(token)
    if current:
        yield current


def _parse_segment(words: list[str], cwd: str) -> SimpleCommand:
    assignments: list[str] = []
    plain: list[str] = []
    targets: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        if _REDIRECT.match(word) or word in {">", ">>", ">|", "<>", "&>", "&>>"}:
            if index + 1 < len(words):
                targets.append(words[index + 1])
            index += 2
            continue
        if word in {"<", "<<", "<<<", "<&", ">&"}:
            index += 2
            continue
        if word.isdigit() and index + 1 < len(words) and words[index + 1].startswith(">"):
            index += 1  # the file descriptor of `2>file`
            continue
        if not plain and _ASSIGNMENT.match(word):
            assignments.append(word)
        else:
            plain.append(word)
        index += 1
    return SimpleCommand(tuple(assignments), tuple(plain), tuple(targets), cwd)


def _unwrap(command: SimpleCommand) -> SimpleCommand:
    """Peel launchers off: `env -u X Y=1 sudo nice -n 5 git …` becomes `git …` with Y=1."""
    words = list(command.words)
    assignments = list(command.assignments)
    via_xargs = command.via_xargs
    for _ in range(_MAX_DEPTH):
        if not words:
            break
        name = os.path.basename(words[0])
        if name == "env":
            rest = words[1:]
            while rest and (rest[0].startswith("-") or _ASSIGNMENT.match(rest[0])):
                if rest[0] in {"-u", "-C", "-S", "--unset", "--chdir", "--split-string"}:
                    rest = rest[1:]
                elif _ASSIGNMENT.match(rest[0]):
                    assignments.append(rest[0])
                rest = rest[1:]
            words = rest
        elif name in _LAUNCHERS:
            words = _skip_options(words[1:], _LAUNCHERS[name])
        elif name == "timeout":
            rest = _skip_options(words[1:], {"-s", "-k", "--signal", "--kill-after"})
            words = rest[1:]
        elif name == "xargs":
            words = _skip_options(
                words[1:], {"-I", "-i", "-L", "-l", "-n", "-P", "-s", "-d", "-E", "-e", "-a"}
            )
            via_xargs = True
        else:
            break
    return SimpleCommand(
        tuple(assignments), tuple(words), command.write_targets, command.cwd, via_xargs
    )


def _skip_options(words: list[str], with_value: set[str]) -> list[str]:
    index = 0
    while index < len(words) and words[index].startswith("-") and words[index] != "-":
        if words[index] == "--":
            return words[index + 1 :]
        index += 2 if words[index] in with_value else 1
    return words[index:]


def _inner_scripts(command: SimpleCommand) -> list[str]:
    """The scripts a command runs from its arguments: `bash -c '…'`, `eval …`."""
    if not command.words:
        return []
    if command.name == "eval":
        return [" ".join(command.words[1:])]
    if command.name in _SHELLS:
        args = list(command.words[1:])
        if command.name == "busybox" and args and args[0] in _SHELLS:
            args = args[1:]
        for index, arg in enumerate(args):
            if arg.startswith("-") and not arg.startswith("--") and "c" in arg[1:]:
                return args[index + 1 : index + 2]
    return []


def simple_commands(text: str, cwd: str, depth: int = 0) -> list[SimpleCommand]:
    """Every simple command `text` runs, launchers unwrapped and nested scripts included;
    `cd DIR` changes the directory of the commands after it on the same line."""
    if depth > _MAX_DEPTH:
        return []
    found: list[SimpleCommand] = []
    for inner in _SUBSTITUTION.finditer(text):
        found.extend(simple_commands(inner.group(1) or inner.group(2) or "", cwd, depth + 1))
    here = cwd
    for words in _segments(tokenize(text)):
        command = _unwrap(_parse_segment(words, here))
        if command.name == "cd" and len(command.words) > 1:
            here = os.path.normpath(os.path.join(here, os.path.expanduser(command.words[1])))
        if command.name == "export":
            exported = tuple(word for word in command.words[1:] if _ASSIGNMENT.match(word))
            command = SimpleCommand(exported, (), command.write_targets, here)
        found.append(command)
        for script in _inner_scripts(command):
            found.extend(simple_commands(script, here, depth + 1))
    return found
