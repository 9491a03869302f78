"""What a turn reads from the repository to build its prompt: the kata, the last commit, the test
and source files, the covered tests. `agents.context.build_messages` ranks, scrubs and trims it."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from tddhooks.agents.context import TurnContext, crate_name, requirement_in_focus
from tddhooks.agents.edits import matches_any
from tddhooks.agents.expectations import MAX_LINES, expectations
from tddhooks.agents.offers import offered_paths
from tddhooks.agents.roles import path_policy
from tddhooks.drive.startlines import CALLS
from tddhooks.policy.settings import PolicySettings
from tddhooks.policy.verdicts import FAILING_TESTS
from tddhooks.runners import get_runner

if TYPE_CHECKING:
    from tddhooks.drive.ports import Workspace

LAST_DIFF_CHARS = 6_000
MAX_FILE_CHARS = 40_000


def kata_text(root: Path, settings: PolicySettings) -> str:
    """The kata description (empty when the file is missing: the prompt says so itself)."""
    from tddhooks.kata.files import kata_file_text

    return kata_file_text(root, settings.kata_description)


def workspace_or_git(workspace: Workspace | None) -> Workspace:
    """The workspace given, else the real one (git)."""
    from tddhooks.drive.ports import GitWorkspace

    return workspace if workspace is not None else GitWorkspace()


def last_commit(root: Path, workspace: Workspace | None = None) -> tuple[str, str]:
    """(message, diff) of HEAD; the diff is capped, build_messages trims it further."""
    message, diff = workspace_or_git(workspace).last_commit(root)
    if len(diff) > LAST_DIFF_CHARS:
        diff = diff[:LAST_DIFF_CHARS] + "\n… (diff cut)"
    return message, diff


def project_files(
    root: Path, settings: PolicySettings, workspace: Workspace | None = None
) -> list[str]:
    """Files in the index that are tests or sources (what an agent may read or write)."""
    globs = (*settings.test_paths, *settings.source_paths)
    return [path for path in workspace_or_git(workspace).listed(root) if matches_any(path, globs)]


def read_texts(root: Path, paths: Sequence[str]) -> dict[str, str]:
    """Working-tree text of each path (equal to the index at a turn's start); binary and empty
    files are skipped."""
    texts: dict[str, str] = {}
    for relative in paths:
        try:
            text = (root / relative).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if not text.strip():
            continue  # .gitkeep and friends: listed under Files, nothing to read
        texts[relative] = text if len(text) <= MAX_FILE_CHARS else text[:MAX_FILE_CHARS] + "\n…"
    return texts


def test_names(settings: PolicySettings, texts: Mapping[str, str]) -> list[str]:
    """Static test names defined in these files (the runner's own scan, which finds unit tests
    beside the code too: `#[cfg(test)]` modules, test functions in collected modules)."""
    return sorted(get_runner(settings.language).test_names(texts)) if texts else []


def turn_context(
    root: Path,
    settings: PolicySettings,
    *,
    role: str,
    cycle: int,
    staged: Iterable[str] = (),
    test_output: str = "",
    handoff_intent: str | None = None,
    hints: Sequence[str] = (),
    workspace: Workspace | None = None,
    working: Sequence[int] = (),
    put_off: Sequence[int] = (),
    checks: Collection[str] | None = None,
) -> TurnContext:
    """Everything the role's prompt is built from, read from the repository now; `checks`: the
    ids of the checks in effect (drive/checks/registry.py), which decide the prompt's hint lines
    (every one when None)."""
    message, diff = last_commit(root, workspace)
    files = project_files(root, settings, workspace)
    texts = read_texts(root, files)
    staged = tuple(staged)
    kata = kata_text(root, settings)
    covered = tuple(test_names(settings, texts))
    units = unit_test_files(settings, texts)
    return TurnContext(
        role=role,
        cycle=cycle,
        kata=kata,
        language=settings.language,
        last_commit_message=message,
        last_diff=diff,
        files=tuple(files),
        file_texts=texts,
        test_output_tail=test_output,
        hints=tuple(hints),
        previous_failure=None,
        handoff_intent=handoff_intent,
        covered_behaviours=covered,
        staged_files=tuple(staged),
        test_globs=settings.test_paths,
        work_dir=str(root),
        expectations=staged_expectations(settings, texts, staged, kata, checks),
        unit_test_files=units,
        write_paths=offered_paths(
            role, path_policy(role, settings), files=files, unit_test_files=units,
            requirement=requirement_in_focus(kata, covered, working, put_off), cycle=cycle,
        ),
        working=tuple(sorted(working)),
        put_off=tuple(sorted(put_off)),
        checks=None if checks is None else frozenset(checks),
    )  # fmt: skip


def unit_test_files(settings: PolicySettings, texts: Mapping[str, str]) -> tuple[str, ...]:
    """Source files (not test files) that hold tests beside their code: the kata's shape, where
    the tester adds its test inside the test module (agents/itemedits.py keeps the code)."""
    from tddhooks.policy.testitems import has_test_items

    return tuple(
        path
        for path, text in texts.items()
        if not matches_any(path, settings.test_paths)
        and has_test_items(settings.language, path, text, texts)
    )


def staged_expectations(
    settings: PolicySettings,
    texts: Mapping[str, str],
    staged: Sequence[str],
    kata: str = "",
    checks: Collection[str] | None = None,
) -> tuple[str, ...]:
    """What the staged test files call and expect (agents/expectations.py), with the signature
    the kata's Interface section fixes for a function it names (drive/interface.py), unless the
    Rust library already declares it otherwise (changed on purpose: the tests follow the code);
    then what the kata says a call gives where the test compares less (agents/examples.py
    `kata_values`); under checks `count-characters` and `empty-start` (in `checks`, or when it is
    None) the kata's characters-not-bytes note where a length is in view, and the empty body
    where the kata's first test asks for nothing (drive/startlines.py)."""
    from tddhooks.agents.examples import kata_values
    from tddhooks.drive.interface import LIB, interface_functions, kept_interface
    from tddhooks.drive.startlines import empty_start, length_in_view
    from tddhooks.policy.compose import kata_requirements

    if not staged:
        return ()
    package = crate_name(texts["Cargo.toml"]) if "Cargo.toml" in texts else None
    tests = {path: texts[path] for path in staged if path in texts}
    named = interface_functions(kata, settings.language)
    rust = settings.language == "rust"
    interface = kept_interface(named, texts.get(LIB, "")) if rust else named
    # every call, for the empty start: the prompt shows the first MAX_LINES, and a ninth call that
    # asks for a message still rules out the empty body
    every = expectations(tests, settings.language, package, interface, limit=None)
    lines = every[:MAX_LINES]
    if kata:
        requirements = kata_requirements(kata, whole=True)
        lines += kata_values(tests, requirements, settings.language, package, list(named))
        counting = rust and (checks is None or "count-characters" in checks)
        if counting and NOT_BYTES.search(kata) and length_in_view(tests, lines, texts.get(LIB, "")):
            lines.append(COUNT_CHARACTERS)
    if checks is None or "empty-start" in checks:
        others = {path: text for path, text in texts.items() if path not in tests}
        lines += empty_start(settings.language, every, test_names(settings, others), tests)
    return tuple(dict.fromkeys(lines))


# a kata that says its lengths are characters, not bytes ("Characters are counted, not bytes"):
# Rust's `str::len` counts bytes: a hint where a length is in view (drive/startlines.py), never a
# refusal (docs/prompts.md, "What an agent sees")
NOT_BYTES = re.compile(r"\bcharacters\b[^.]{0,40}\bnot\s+(?:in\s+)?bytes\b", re.IGNORECASE)
COUNT_CHARACTERS = (
    "The kata counts characters, not bytes: in Rust a length is `text.chars().count()` "
    "(`text.len()` counts bytes)."
)


_FAILING = re.compile(rf"^{re.escape(FAILING_TESTS)}(.+)$", re.MULTILINE)


def broken_expectations(
    settings: PolicySettings,
    texts: Mapping[str, str],
    staged: Sequence[str],
    failure: str | None,
    kata: str = "",
) -> tuple[str, ...]:
    """What the other tests a failed attempt broke call and expect, named by their files: the
    gate's `left`/`right` does not say which input gave it."""
    found = _FAILING.search(failure or "")
    if found is None:
        return ()
    paths = dict.fromkeys(name.split("::", 1)[0].strip() for name in found.group(1).split(", "))
    lines = []
    for path in paths:
        if path in staged or path not in texts:
            continue
        for line in staged_expectations(settings, texts, [path], kata):
            if line.startswith(CALLS):
                lines.append(f"{path}, which the last attempt broke, calls {line[len(CALLS) :]}")
    return tuple(lines)


def project_names(ctx: TurnContext) -> tuple[str, ...]:
    """The names of the whole project (the crate, the Python packages under src/): never a
    commit scope, they say nothing about the change."""
    names = [ctx.crate_name or crate_name(ctx.file_texts.get("Cargo.toml", "")) or ""]
    packages = (path.split("/") for path in ctx.files if path.endswith("/__init__.py"))
    names += [parts[1] for parts in packages if len(parts) == 3 and parts[0] == "src"]
    return tuple(name.lower() for name in dict.fromkeys(names) if name)


def scope_from(expectations: Sequence[str]) -> str | None:
    """The first function the staged test calls (`add`): the implementor commit's scope when the
    model's is unusable."""
    for line in expectations:
        if line.startswith("The test calls `"):
            name = line.removeprefix("The test calls `").split("(", 1)[0]
            return name.lower() if name.isidentifier() else None
    return None
