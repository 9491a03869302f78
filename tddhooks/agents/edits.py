"""The agents' answer (one JSON object) and the sandbox its file edits must pass before any write.

Everything here is pure except `apply_edits`, which writes only after the whole plan was checked.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from tddhooks.agents.journal import (  # noqa: F401 (re-exported)
    CREATED_JOURNAL,
    content_digest,
    created_by_agent,
    forget_created,
    remember_created,
    save_journal,
)
from tddhooks.errors import LLMAnswerError, TddhooksError

# the policy's globs, re-exported: a test path is one to the hooks and to the agents alike
from tddhooks.policy.globs import glob_match as glob_match
from tddhooks.policy.globs import matches_any as matches_any

MAX_EDITS = 20
MAX_FILE_BYTES = 200_000
ANSWER_SHAPE = (
    '{"plan": str, "edits": [{"path": str, "action": "upsert"|"delete", "content": str}], '
    '"commit": {"type": str, "scope": str|null, "summary": str, "rationale": [str]}, '
    '"done": bool, "reason": str|null}'
)
_EDITS_SHAPE = '[{"path": str, "action": "upsert"|"delete", "content": str}]'
ROLE_SHAPES = {
    "tester": f'{{"plan": str, "edits": {_EDITS_SHAPE}, "done": bool, "reason": str|null}}',
    "implementor": f'{{"plan": str, "edits": {_EDITS_SHAPE}, "commit": {{"scope": one-word|null, '
    '"summary": str, "rationale": [str]}}',
    "refactorer": f'{{"plan": str, "edits": {_EDITS_SHAPE}, "commit": {{"scope": one-word|null, '
    '"summary": str, "rationale": [str]}}',
}


class EditRefused(TddhooksError):
    """One or more edits of a plan were refused; the message is written for the model."""


class AnswerInvalid(TddhooksError):
    """The model's answer is not the JSON object the protocol asks for; message for the model."""


class _Answer(BaseModel):
    # strict: "done": "false" or "content": 42 are wrong types, not something to guess about
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class FileEdit(_Answer):
    """Write the whole file (`upsert`, with content) or remove it (`delete`, without content)."""

    path: str
    action: Literal["upsert", "delete"] = "upsert"  # a small model often leaves it out
    content: str | None = None

    @model_validator(mode="after")
    def _content_matches_action(self) -> FileEdit:
        if self.action == "upsert" and self.content is None:
            raise ValueError(f"upsert of {self.path!r} needs 'content' (the whole file)")
        if self.action == "delete" and self.content is not None:
            raise ValueError(f"delete of {self.path!r} must not have 'content'")
        return self


class CommitIntent(_Answer):
    """What the agent says about its change; the tool composes the real commit message."""

    type: str | None = None  # the refactorer's is always refactor; the tool decides
    scope: str | None = None
    summary: str
    rationale: list[str] = []


class AgentAnswer(_Answer):
    """The one JSON object every agent answers with (DESIGN §5)."""

    plan: str
    edits: list[FileEdit] = []
    commit: CommitIntent | None = None
    done: bool = False
    reason: str | None = None

    @model_validator(mode="after")
    def _consistent(self) -> AgentAnswer:
        if self.done and not (self.reason or "").strip():
            raise ValueError("done=true needs a non-empty 'reason' (why the kata is complete)")
        if self.done and self.edits:
            raise ValueError("done=true must come with an empty 'edits' list")
        if len(self.edits) > MAX_EDITS:
            raise ValueError(f"at most {MAX_EDITS} edits per answer (got {len(self.edits)})")
        seen: set[str] = set()
        for edit in self.edits:
            key = _normal_key(edit.path)
            if key in seen:
                raise ValueError(f"path {edit.path!r} appears twice in 'edits'; send it once")
            seen.add(key)
        return self


def _normal_key(path: str) -> str:
    parts = [part for part in path.replace("\\", "/").split("/") if part not in ("", ".")]
    return "/".join(parts)


def _describe(error: ValidationError) -> list[str]:
    problems = []
    for item in error.errors():
        field = ".".join(str(part) for part in item["loc"]) or "(top level)"
        if item["type"] == "extra_forbidden":
            problems.append(f"unknown field '{field}'")
        elif item["type"] == "missing":
            problems.append(f"missing field '{field}'")
        elif item["type"] == "value_error":
            where = f"'{field}': " if field != "(top level)" else ""
            problems.append(where + str(item["msg"]).removeprefix("Value error, "))
        else:
            shown = repr(item.get("input"))
            shown = shown if len(shown) <= 40 else shown[:37] + "..."
            problems.append(f"'{field}': {item['msg'].lower()} (got {shown})")
    return problems


def _invalid(problems: Sequence[str], role: str | None = None) -> AnswerInvalid:
    listed = "; ".join(problems[:5]) + ("; …" if len(problems) > 5 else "")
    shape = ROLE_SHAPES.get(role or "", ANSWER_SHAPE)
    return AnswerInvalid(
        f"invalid answer: {listed}. Answer with one JSON object: {shape}",
        fix="the model is asked again with this message",
    )


# the answer repairs, by their ids in the drive's check registry (docs/checks.md)
RAW_CHARS = "raw-char-literals"  # agents/literals.py escape_raw_char_literals
DOUBLE_ESCAPED = "double-escaped-file"  # agents/literals.py unescaped_flat_file
SNIPPET_MERGE = "snippet-merge"  # agents/snippets.py


def answer_repairs() -> frozenset[str]:
    """Every repair `parse_answer` knows, the JSON ones of llm/jsonanswer.py included."""
    from tddhooks.llm.jsonanswer import REPAIRS

    return REPAIRS | {RAW_CHARS, DOUBLE_ESCAPED, SNIPPET_MERGE}


def parse_answer(
    text: str,
    role: str | None = None,
    *,
    read: Callable[[str], str | None] | None = None,
    merged: list[str] | None = None,
    repairs: Collection[str] | None = None,
) -> AgentAnswer:
    """Parse a model's answer (plain or ```json fenced); AnswerInvalid says what to correct.
    Only the tester may end the kata (`done`); the others' `"done": false` is ignored.
    `repairs`: the ids of the repairs in effect (`answer_repairs()`, every one when None).
    With `read` (path -> the file's text, None if there is none), a snippet edit of whole items
    (`"action": "insert"` and the like) becomes the upsert of its file with them merged in
    (agents/snippets.py); the paths so merged are added to `merged`."""
    from tddhooks.llm.jsonanswer import extract_json_object

    allowed = answer_repairs() if repairs is None else frozenset(repairs)
    try:
        data: dict[str, Any] = extract_json_object(text, allowed)
    except LLMAnswerError as error:
        raise _invalid([error.message], role) from error
    from tddhooks.agents.literals import unescaped_flat_file

    if DOUBLE_ESCAPED in allowed:
        data = _with_contents(data, unescaped_flat_file)
    if read is not None:
        read = _read_once(read)
        # the literals first: a snippet's raw line end inside '…' would be indented by the merge
        if RAW_CHARS in allowed:
            data = _escape_raw_chars(data, read)
        if SNIPPET_MERGE in allowed:
            data = _merge_snippets(data, read, merged if merged is not None else [])
    try:
        answer = AgentAnswer.model_validate(data)
    except ValidationError as error:
        raise _invalid(_describe(error), role) from error
    if role is not None and role != "tester" and answer.done:
        raise AnswerInvalid(
            f"invalid answer: the {role} cannot end the kata ('done' is the tester's); "
            "send your edits without 'done'",
            fix="the model is asked again with this message",
        )
    return answer


def _merge_snippets(
    data: dict[str, Any], read: Callable[[str], str | None], merged: list[str]
) -> dict[str, Any]:
    """The answer with each snippet edit merged into its file (agents/snippets.py): the file as
    `read` gives it, or as an earlier upsert or snippet of the same answer left it (`pub struct
    Frame;` as an upsert and its `impl Frame` as an insert of the same path)."""
    from tddhooks.agents.snippets import SNIPPET_ACTIONS, merge_snippet, statements_only

    edits = data.get("edits")
    if not isinstance(edits, list) or len(edits) > MAX_EDITS:
        return data  # too many edits is refused anyway: no file is read for them
    changed: list[Any] = []
    earlier: dict[str, int] = {}  # path -> the index in `changed` of its upsert
    for edit in edits:
        if not (isinstance(edit, dict) and isinstance(edit.get("path"), str)
                and isinstance(edit.get("content"), str)):  # fmt: skip
            changed.append(edit)
            continue
        path, key, action = edit["path"], _normal_key(edit["path"]), edit.get("action", "upsert")
        snippet = isinstance(action, str) and action.strip().lower() in SNIPPET_ACTIONS
        if snippet or (action == "upsert" and statements_only(path, edit["content"])):
            at = earlier.get(key)
            before = read(path) if at is None else changed[at]["content"]
            text = None if before is None else merge_snippet(path, before, edit["content"])
            if text is not None:
                if path not in merged:
                    merged.append(path)
                if at is not None:
                    changed[at] = {**changed[at], "content": text}
                    continue
                edit = {**edit, "action": "upsert", "content": text}
        if edit.get("action", "upsert") == "upsert" and key not in earlier:
            earlier[key] = len(changed)
        changed.append(edit)
    return {**data, "edits": changed}


def _read_once(read: Callable[[str], str | None]) -> Callable[[str], str | None]:
    """`read`, asked at most once per path within one answer (each read is a `git cat-file`)."""
    known: dict[str, str | None] = {}

    def once(path: str) -> str | None:
        if path not in known:
            known[path] = read(path)
        return known[path]

    return once


def _escape_raw_chars(data: dict[str, Any], read: Callable[[str], str | None]) -> dict[str, Any]:
    from tddhooks.agents.literals import escape_raw_char_literals, may_need_escaping

    def escape(path: str, content: str) -> str:
        if not may_need_escaping(path, content):
            return content
        return escape_raw_char_literals(path, content, read(path))

    return _with_contents(data, escape)


def _with_contents(data: dict[str, Any], fix: Callable[[str, str], str]) -> dict[str, Any]:
    """The answer with each edit's content `fix(path, content)` (an answer with too many edits is
    refused anyway, and left as it is)."""
    edits = data.get("edits")
    if not isinstance(edits, list) or len(edits) > MAX_EDITS:
        return data
    changed = []
    for edit in edits:
        if isinstance(edit, dict) and isinstance(edit.get("path"), str):
            content = edit.get("content")
            if isinstance(content, str):
                fixed = fix(edit["path"], content)
                edit = {**edit, "content": fixed} if fixed != content else edit
        changed.append(edit)
    return {**data, "edits": changed}


@dataclass(frozen=True)
class PathPolicy:
    """Which repository paths a role may write: globs relative to the root, `**` aware.

    A path is refused when it is protected, when it matches `foreign` (the other role's files,
    e.g. tests for the implementor), or when it matches none of `writable`.
    """

    writable: tuple[str, ...]
    protected: tuple[str, ...]
    foreign: tuple[str, ...] = ()
    owner: str = "this role"
    foreign_reason: str = "it belongs to another role"
    # the tester: existing source files where only the test items may change (agents/itemedits.py)
    items_only: tuple[str, ...] = ()
    # the implementor and the refactorer: a source file's test items stay exactly as they are
    keep_test_items: bool = False
    language: str = ""


# the example answer's placeholders in templates/prompts/*.md that stand for code, distinctive
# enough never to be real code (tests/agents/test_placeholders.py keeps the two in step). A
# string is never one: an assertion message copied from the example still makes a valid test
EXAMPLE_PLACEHOLDERS = (
    "SIMPLEST_BODY", "CLEARER_BODY", "RESULT_TYPE", "FUNCTION(ARGUMENTS)",
    "PATH_UNDER_WRITE_TO", "CRATE::FUNCTION",
)  # fmt: skip


# a placeholder standing alone: DEFAULT_RESULT_TYPE or RESULT_TYPES is a real name
_PLACEHOLDER_RES = tuple(
    (placeholder, re.compile(rf"(?<![A-Za-z0-9_]){re.escape(placeholder)}(?![A-Za-z0-9_])"))
    for placeholder in EXAMPLE_PLACEHOLDERS
)


def copied_placeholder(
    edits: Sequence[FileEdit], before: Callable[[str], str | None] = lambda _path: None
) -> str | None:
    """The first example placeholder an edit's path or content copied, if any; `before(path)`:
    the file as it was (a placeholder the person's own code already had is no copy)."""
    for edit in edits:
        text = f"{edit.path}\n{edit.content or ''}"
        found = [placeholder for placeholder, regex in _PLACEHOLDER_RES if regex.search(text)]
        if not found:
            continue
        had = before(edit.path) or ""
        copied = [placeholder for placeholder in found if placeholder not in had]
        if copied:
            return copied[0]
    return None


def normalize_path(raw: str) -> str:
    """The clean relative POSIX form of an agent's path; ValueError says why it is unusable."""
    if not raw.strip():
        raise ValueError("the path is empty")
    if "\0" in raw or any(ord(char) < 32 for char in raw):
        raise ValueError("the path contains control characters")
    if "\\" in raw:
        raise ValueError("use forward slashes in paths")
    if raw.startswith("/") or raw.startswith("~") or re.match(r"^[A-Za-z]:", raw):
        raise ValueError("absolute paths are refused; give a path relative to the repository root")
    parts = PurePosixPath(raw).parts
    if ".." in parts:
        raise ValueError("'..' is refused; give a path inside the repository")
    clean = "/".join(part for part in parts if part != ".")
    if not clean:
        raise ValueError("the path names the repository root, not a file")
    return clean


def _refusal(root: Path, edit: FileEdit, policy: PathPolicy) -> str | None:
    try:
        path = normalize_path(edit.path)
    except ValueError as error:
        return str(error)
    parts = path.split("/")
    if any(part.casefold() == ".git" for part in parts):
        return "files inside .git/ are never written"
    if matches_any(path, policy.protected):
        return "it is a protected file (tool configuration, hooks, kata, .tdd/)"
    base = root.resolve()
    for depth in range(1, len(parts) + 1):
        if (base.joinpath(*parts[:depth])).is_symlink():
            return f"it goes through the symlink {'/'.join(parts[:depth])!r}"
    target = base.joinpath(*parts)
    if not target.resolve().is_relative_to(base):
        return "it resolves outside the repository"
    if matches_any(path, policy.foreign):
        return f"{policy.owner} may not write it: {policy.foreign_reason}"
    from tddhooks.agents.itemedits import items_writable

    if not matches_any(path, policy.writable) and not items_writable(path, policy):
        return f"{policy.owner} may only write {_writable(policy)}"
    if target.is_dir():
        return "it is a directory"
    if edit.action == "delete" and not target.exists():
        return "delete of a file that does not exist"
    size = len((edit.content or "").encode("utf-8"))
    if size > MAX_FILE_BYTES:
        return f"content is {size} bytes; the limit is {MAX_FILE_BYTES} per file"
    if "\0" in (edit.content or ""):
        return "content contains a NUL character; only text files can be written"
    return None


def not_committed(root: Path, paths: Sequence[str]) -> dict[str, str]:
    """path -> why an agent may not write it: it exists in the work tree (or the index) but not
    in HEAD (untracked, git-ignored, or only staged: a person's file), or git ignores the path.

    Reads git: the agents may create new paths and change committed files, nothing else."""
    from tddhooks import git

    if not paths:
        return {}
    literal = [f":(literal){path}" for path in paths]
    head = git.head(root)
    listing = ["ls-tree", "-r", "-z", "--name-only", head or "", "--", *literal]
    committed = set(git.run_git(listing, root, check=False).stdout.split("\0")) if head else set()
    staged = set(
        git.run_git(["ls-files", "-z", "--", *literal], root, check=False).stdout.split("\0")
    )
    stdin = "".join(f"{path}\0" for path in paths)
    ignored = git.run_git(["check-ignore", "-z", "--stdin"], root, check=False, stdin=stdin).stdout
    reasons = {
        path: "git ignores it, so it could never be committed"
        for path in ignored.split("\0")
        if path
    }
    for path in paths:
        if path in committed:
            continue
        target = root / path
        if target.exists() or target.is_symlink():
            reasons[path] = (
                "it is a file of yours that is not committed (untracked or git-ignored); "
                "it is never overwritten: choose another path"
            )
        elif path in staged:
            reasons[path] = (
                "it is staged but not committed (someone else's work); choose another path"
            )
    return reasons


Foreign = Callable[[Path, Sequence[str]], dict[str, str]]


def check_edits(
    root: Path,
    edits: Sequence[FileEdit],
    policy: PathPolicy,
    *,
    foreign: Foreign = not_committed,
    index_files: Callable[[], dict[str, str]] | None = None,
) -> None:
    """Refuse the whole plan (EditRefused, nothing written) when any edit breaks the rules.
    `foreign` says which paths are not the agents' to write (git's answer unless a test's
    in-memory workspace gives its own, tests/support/memory_drive.py)."""
    problems: list[str] = []
    if len(edits) > MAX_EDITS:
        problems.append(f"{len(edits)} edits; at most {MAX_EDITS} per answer")
    reasons = [_refusal(root, edit, policy) for edit in edits]
    allowed = [
        normalize_path(e.path) for e, reason in zip(edits, reasons, strict=True) if not reason
    ]
    foreign_files = foreign(root, allowed)
    from tddhooks.agents.itemedits import item_refusals

    checked = [e for e, reason in zip(edits, reasons, strict=True) if not reason]
    for path, why in item_refusals(root, checked, policy, index_files).items():
        foreign_files.setdefault(path, why)
    seen: set[str] = set()
    for edit, reason in zip(edits, reasons, strict=True):
        if reason is None:
            reason = foreign_files.get(normalize_path(edit.path))
        key = _normal_key(edit.path)
        if reason is None and key in seen:
            reason = "the path appears twice in the plan"
        seen.add(key)
        if reason is not None:
            problems.append(f"{edit.action} {edit.path!r}: {reason}")
    if problems:
        raise EditRefused(
            "edits refused, nothing was written: "
            + "; ".join(problems)
            + f". Send the whole plan again; {policy.owner} may write {_writable(policy)}",
            fix="the model is asked again with this message",
        )


def _writable(policy: PathPolicy) -> str:
    what = ", ".join(policy.writable)
    if policy.items_only:
        what += f", and the test items of an existing {', '.join(policy.items_only)} file"
    return what


def _write_text(target: Path, text: str) -> None:
    # write beside the target, then rename: a Ctrl-C never leaves a half-written source file
    temporary = target.with_name(f".{target.name}.tddhooks-tmp")
    try:
        temporary.write_text(text, encoding="utf-8", newline="")
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)


def apply_edits(root: Path, edits: Sequence[FileEdit], policy: PathPolicy) -> list[str]:
    """Check the whole plan, then write it (UTF-8, trailing newline); return the paths written.

    Files it creates are recorded (path and content digest) before they are written, so an undo
    may delete them even when it comes before they were staged, and nothing else."""
    check_edits(root, edits, policy)
    base = root.resolve()
    created = {
        path: content_digest(text.encode("utf-8"))
        for path, text in _contents(edits).items()
        if not (base / path).exists()
    }
    previous = created_by_agent(root) if created else {}
    if created:  # before writing: a Ctrl-C mid-plan still leaves the undo its licence
        remember_created(root, {**previous, **created})
    written = write_edits(root, edits)
    if previous:  # written now: the new files are in place, so pruning keeps them
        save_journal(root, {**previous, **created})
    return written


def _contents(edits: Sequence[FileEdit]) -> dict[str, str]:
    contents: dict[str, str] = {}
    for edit in edits:
        if edit.action == "upsert":
            content = edit.content or ""
            contents[normalize_path(edit.path)] = (
                content + "\n" if content and not content.endswith("\n") else content
            )
    return contents


def write_edits(root: Path, edits: Sequence[FileEdit]) -> list[str]:
    """Write a plan check_edits accepted; returns the paths written, in the plan's order."""
    base = root.resolve()
    contents = _contents(edits)
    written = []
    for edit in edits:
        path = normalize_path(edit.path)
        target = base / path
        if edit.action == "delete":
            target.unlink()
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            _write_text(target, contents[path])
        written.append(path)
    return written
