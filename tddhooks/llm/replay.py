"""The `replay` provider: answers from a recorded session (JSONL), and the recorder that writes one.

One line per answer: {"role", "messages_sha", "answer", "prompt_tokens", "completion_tokens",
"messages"}; "messages" is the whole request the answer was given to, so a recording says what
the model was asked as well as what it answered (docs/llm.md, "Record and replay"). Answers are
served per role, in order; "messages" is never read back, and a different request only warns
(prompts may drift a little between versions while the recorded answers stay valid).
"""

from __future__ import annotations

import json
import re
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import IO

from tddhooks.errors import ConfigError, LLMAnswerError
from tddhooks.keys import redact_data
from tddhooks.llm.cache import canonical_json, sha256_hex

SESSION_SUFFIX = ".jsonl"
CRATE_PLACEHOLDER = "{crate}"  # in a shipped session's answers


def messages_sha(messages: list[dict[str, str]]) -> str:
    """The fingerprint of a request's messages (canonical JSON, sha256)."""
    return sha256_hex(canonical_json(messages))


@dataclass(frozen=True)
class ReplayEntry:
    """One recorded answer."""

    role: str
    messages_sha: str
    answer: str
    prompt_tokens: int = 0
    completion_tokens: int = 0


def _parse_line(line: str, where: str) -> ReplayEntry:
    try:
        data = json.loads(line)
    except ValueError as error:
        raise ConfigError(
            f"{where}: not a JSON line: {error}",
            fix="record the session again with `tddhooks drive --record FILE`",
        ) from error
    if not isinstance(data, dict) or not isinstance(data.get("role"), str):
        raise ConfigError(f"{where}: expected an object with a 'role'", fix="fix or re-record it")
    if not isinstance(data.get("answer"), str):
        raise ConfigError(f"{where}: expected a string 'answer'", fix="fix or re-record it")
    return ReplayEntry(
        role=data["role"],
        messages_sha=str(data.get("messages_sha", "")),
        answer=data["answer"],
        prompt_tokens=int(data.get("prompt_tokens") or 0),
        completion_tokens=int(data.get("completion_tokens") or 0),
    )


class ReplaySession:
    """Per-role queues of recorded answers; `warn` hears about requests that differ."""

    def __init__(
        self,
        entries: Iterable[ReplayEntry],
        *,
        source: str = "recorded session",
        warn: Callable[[str], None] | None = None,
    ) -> None:
        self.source = source
        self.mismatches = 0
        self._warn = warn
        self._queues: dict[str, deque[ReplayEntry]] = {}
        for entry in entries:
            self._queues.setdefault(entry.role, deque()).append(entry)
        self._served: dict[str, int] = {}

    @classmethod
    def from_text(
        cls, text: str, source: str, *, warn: Callable[[str], None] | None = None
    ) -> ReplaySession:
        entries = [
            _parse_line(line, f"{source}:{number}")
            for number, line in enumerate(text.splitlines(), start=1)
            if line.strip()
        ]
        return cls(entries, source=source, warn=warn)

    @classmethod
    def from_file(cls, path: Path, *, warn: Callable[[str], None] | None = None) -> ReplaySession:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise ConfigError(
                f"cannot read the recorded session {path}: {error}",
                fix="give the path of a .jsonl file written by `tddhooks drive --record`",
            ) from error
        return cls.from_text(text, str(path), warn=warn)

    def remaining(self, role: str) -> int:
        return len(self._queues.get(role, ()))

    def next_entry(self, role: str, messages: list[dict[str, str]]) -> ReplayEntry:
        """The next recorded answer for `role`; LLMAnswerError when the session has no more."""
        queue = self._queues.get(role)
        if not queue:
            raise LLMAnswerError(
                f"the recorded session has no more answers for role {role} ({self.source})",
                fix="run fewer steps, or record a longer session with --record",
            )
        entry = queue.popleft()
        served = self._served[role] = self._served.get(role, 0) + 1
        if entry.messages_sha and entry.messages_sha != messages_sha(messages):
            self.mismatches += 1
            if self.mismatches == 1:
                self._say(
                    f"replay: request {served} of the {role} differs from the recorded one; "
                    "serving the recorded answer anyway (further differences are not reported)"
                )
        return entry

    def next_answer(self, role: str, messages: list[dict[str, str]]) -> str:
        return self.next_entry(role, messages).answer

    def _say(self, text: str) -> None:
        if self._warn is not None:
            self._warn(text)
            return
        from tddhooks.output import warn

        warn(text)


def shipped_sessions(directory: Traversable | None = None) -> list[str]:
    """Names of the sessions shipped in templates/sessions/."""
    folder = directory if directory is not None else _sessions_dir()
    if not folder.is_dir():
        return []
    names = (item.name for item in folder.iterdir() if item.name.endswith(SESSION_SUFFIX))
    return sorted(name[: -len(SESSION_SUFFIX)] for name in names)


def _sessions_dir() -> Traversable:
    from tddhooks.resources import templates

    return templates() / "sessions"


def load_session(
    name_or_path: str,
    *,
    directory: Traversable | None = None,
    warn: Callable[[str], None] | None = None,
    crate: str | None = None,
    base: Path | None = None,
) -> ReplaySession:
    """A session file path, else a shipped session name (`replay:<name>`). A shipped session's
    answers write `{crate}` where the kata's Rust crate name goes: `crate` fills it in.

    A relative path is the current directory's file, else the one in `base` (the kata, where a
    path in tdd.yaml points): the drive and doctor both read it this way (docs/llm.md)."""
    folder = directory if directory is not None else _sessions_dir()
    local, shipped = _resolved(name_or_path, folder, base)
    if local is not None:
        return ReplaySession.from_file(local, warn=warn)
    if shipped is not None:
        text = shipped.read_text(encoding="utf-8")
        if crate is not None:
            # JSON-escaped like the rest of the line: a crate name is [A-Za-z0-9_] only
            text = text.replace(CRATE_PLACEHOLDER, crate)
        return ReplaySession.from_text(text, name_or_path.removesuffix(SESSION_SUFFIX), warn=warn)
    known = ", ".join(shipped_sessions(folder)) or "none"
    raise ConfigError(
        f"no recorded session {name_or_path!r}: it is neither a file nor a shipped session",
        fix=f"give a .jsonl path, or one of the shipped sessions: {known}",
    )


def _resolved(
    name_or_path: str, folder: Traversable, base: Path | None
) -> tuple[Path | None, Traversable | None]:
    """(the session file of that path, else None; the shipped session of that name, else None),
    at most one of them: a relative path is the current directory's file, else `base`'s; a bare
    shipped name is the shipped session, whatever file of that name the current directory holds
    (`tddhooks demo` asks for one by name); `./NAME` is the file."""
    try:
        path = Path(name_or_path).expanduser()
    except RuntimeError:  # `~user/…` of no known user: no such file
        path = Path(name_or_path)
    if base is not None and not path.is_absolute() and not path.is_file():
        path = base / path
    name = name_or_path.removesuffix(SESSION_SUFFIX)
    shipped = folder / f"{name}{SESSION_SUFFIX}"
    bare = "/" not in name_or_path and name == name_or_path
    if path.is_file() and not (bare and shipped.is_file()):
        return path, None
    return None, (shipped if "/" not in name and shipped.is_file() else None)


def shipped_misfit(
    name_or_path: str,
    kata: str,
    language: str,
    *,
    directory: Traversable | None = None,
    base: Path | None = None,
) -> str | None:
    """Why the shipped session `name_or_path` (`replay:string-calculator`) cannot be replayed on
    this kata (`kata`: its kata.md text, `language`: the repository's); None when it fits, when
    it is no shipped session (a file of the person's own), or when the kata cannot be told. Its
    answers write the code of the kata they were recorded on: replayed on FizzBuzz they would
    write String Calculator's `add` there, green cycles of the wrong kata. A
    relative path is looked for as `load_session` reads it: the current directory's, else
    `base`'s (the kata's)."""
    from tddhooks.kata.title import kata_title

    folder = directory if directory is not None else _sessions_dir()
    shipped = _resolved(name_or_path, folder, base)[1]
    if shipped is None:
        return None
    from tddhooks.resources import templates

    name = name_or_path.removesuffix(SESSION_SUFFIX)
    recorded = templates() / "katas" / f"{name}.md"
    title = kata_title(recorded.read_text(encoding="utf-8"), name) if recorded.is_file() else name
    # its answers' paths, JSON-escaped in each line: `src/lib.rs\"`
    session_language = "rust" if '.rs\\"' in shipped.read_text(encoding="utf-8") else "python"
    here = kata_title(kata, "") if kata.strip() else ""
    if here and _spelled(here) != _spelled(title):
        return (f"the shipped session {name!r} answers the {title} kata, and this kata is "
                f"{here}: its answers would write {title}'s code here")  # fmt: skip
    if language != session_language:
        return (f"the shipped session {name!r} answers the {title} kata in {session_language}, "
                f"and this kata is in {language}")  # fmt: skip
    return None


def _spelled(title: str) -> str:
    """A kata title as compared: letters and digits only, any case (`String-Calculator` is
    `String Calculator`)."""
    return re.sub(r"[\W_]+", "", title).casefold()


class Recorder:
    """Writes one JSONL line per answer of a live run (`tddhooks drive --record FILE`)."""

    def __init__(self, path: Path, *, append: bool = False) -> None:
        self.path = path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._file: IO[str] = path.open("a" if append else "w", encoding="utf-8")
        except OSError as error:
            raise ConfigError(
                f"cannot write the recording {path}: {error}",
                fix="choose a writable path for --record",
            ) from error

    def write(
        self,
        role: str,
        messages: list[dict[str, str]],
        answer: str,
        prompt_tokens: int = 0,
        completion_tokens: int = 0,
    ) -> None:
        entry = ReplayEntry(role, messages_sha(messages), answer, prompt_tokens, completion_tokens)
        # the request last, so the start of a line reads as before; redacted like every other
        # record, though a prompt holds the kata's files and the gate's output, never a key
        line = {**asdict(entry), "messages": redact_data(messages)}
        # flushed per line so an interrupted drive still leaves a usable recording
        self._file.write(json.dumps(line, ensure_ascii=False) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> Recorder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
