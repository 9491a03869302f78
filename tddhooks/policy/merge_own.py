"""What a merge changes of its own: lines its result holds that neither parent has, outside the
conflicts git reports, and test assertions rewritten inside them (git CLI; docs/policy.md, "What
a merge decides itself").

git's own merge of the two parents (`git merge-tree --write-tree`) is the reference: a path the
result changes against it where git reported no conflict is the merge's own change, and so is a
change outside the conflict markers of a conflicted file; inside them the person resolves, but an
assertion line that is in neither side of the conflict is a test changed by the merge. These are
judged as a commit of the merge message's type would be (a plain `Merge …` message has no type,
so nothing of its own is allowed), under the type-rules rule.
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path

from tddhooks import git
from tddhooks.policy.globs import matches_any
from tddhooks.policy.rules import STRICTEST, TYPE_SCOPES, Violation, is_test_path
from tddhooks.policy.settings import PolicySettings
from tddhooks.records import NamedTuple
from tddhooks.vocabulary import BUILD_FILES, CODE_SUFFIXES, MANIFESTS

RULE = "type-rules"
_START = re.compile(r"^<{7,}(?: |$)")
_END = re.compile(r"^>{7,}(?: |$)")
_MARKER = re.compile(r"^(?:<{7,}|={7,}|\|{7,}|>{7,})(?: |$)")
_ASSERTION = re.compile(r"\bassert|\bexpect\b|should_panic|\.to_equal|\bpytest\.raises\b")


class OwnChanges(NamedTuple):
    """Paths the merge changed on its own, and the paths whose conflicted hunks it resolved
    with an assertion neither side had."""

    paths: tuple[str, ...] = ()
    assertions: tuple[str, ...] = ()


def own_changes(root: Path, first: str, other: str, result_tree: str) -> OwnChanges:
    """What the merge of `other` into `first` resulting in `result_tree` decided by itself."""
    merged = git.run_git(
        ["merge-tree", "--write-tree", "--name-only", "--no-messages", "-z", first, other],
        root,
        check=False,
    )
    parts = merged.stdout.split("\0")
    if merged.returncode not in (0, 1) or not parts or not parts[0].strip():
        return OwnChanges()  # git cannot merge them itself: nothing to compare with
    auto, conflicted = parts[0].strip(), {part for part in parts[1:] if part}
    changed = git.diff_trees(root, auto, result_tree)
    paths: list[str] = []
    assertions: list[str] = []
    for change in changed:
        if change.path not in conflicted:
            paths.append(change.path)
            continue
        if change.status != "M":
            continue  # a modify/delete conflict resolved by keeping or deleting the file
        outside, assertion = resolution_changes(
            _text(root, auto, change.path), _text(root, result_tree, change.path)
        )
        if outside:
            paths.append(change.path)
        if assertion:
            assertions.append(change.path)
    return OwnChanges(tuple(paths), tuple(assertions))


def own_change_violations(
    own: OwnChanges, kind: str | None, settings: PolicySettings
) -> list[Violation]:
    """The own changes judged as a commit of type `kind` on the first parent (None: the merge
    message has no type, so the strictest scope)."""
    if not own.paths and not own.assertions:
        return []
    scope = TYPE_SCOPES.get(kind, STRICTEST) if kind else STRICTEST
    named = f"{kind}: merge" if kind else "a merge"
    code_suffixes = CODE_SUFFIXES.get(settings.language, ())
    build_globs = (*BUILD_FILES.get(settings.language, ()), *MANIFESTS.get(settings.language, ()))
    tests = sorted({*(p for p in own.paths if is_test_path(p, settings)), *own.assertions})
    build = [p for p in own.paths if matches_any(p, build_globs) and p not in tests]
    code = [p for p in own.paths if p.endswith(code_suffixes) and p not in tests]
    hint = (
        "resolve only the conflicts git reports and commit anything else on its own under its "
        "own type (code with its test as feat:), then merge; `git show --remerge-diff <merge>` "
        "shows what a merge changed itself"
    )
    found: list[Violation] = []
    if own.assertions and not scope.tests:
        found.append(
            Violation(
                RULE,
                f"{named} rewrites test assertions inside the conflicts it resolves, to lines "
                f"neither side has: {', '.join(own.assertions)}",
                hint,
            )
        )
    untouchable = [
        *(p for p in tests if p not in own.assertions and not scope.tests),
        *(p for p in code if not scope.code),
        *(p for p in build if not scope.build),
    ]
    if untouchable:
        found.append(
            Violation(
                RULE,
                f"{named} changes lines that neither parent has, outside the conflicts git "
                f"reported: {', '.join(untouchable)}",
                hint,
            )
        )
    if kind in settings.require_test_with and code and not tests:
        found.append(
            Violation(
                RULE,
                f"{named} brings code of its own ({', '.join(code)}) with no test of its own",
                hint,
            )
        )
    return found


def _text(root: Path, tree: str, path: str) -> list[str]:
    found = git.run_git(["cat-file", "blob", f"{tree}:{path}"], root, check=False)
    return found.stdout.splitlines() if found.ok else []


def _regions(lines: list[str]) -> list[tuple[int, int]]:
    """(first, last) line index of each conflict, markers included."""
    regions: list[tuple[int, int]] = []
    start: int | None = None
    for index, line in enumerate(lines):
        if _START.match(line) and start is None:
            start = index
        elif _END.match(line) and start is not None:
            regions.append((start, index))
            start = None
    return regions


def resolution_changes(auto: list[str], result: list[str]) -> tuple[bool, bool]:
    """(the result changes lines outside the conflicts, it puts an assertion in a conflict
    that neither side of that conflict has)."""
    regions = _regions(auto)
    outside = assertion = False
    matcher = difflib.SequenceMatcher(None, auto, result, autojunk=False)
    for tag, a1, a2, b1, b2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        region = next(
            (r for r in regions if r[0] <= a1 and (a2 <= r[1] + 1 if a2 > a1 else a1 <= r[1])),
            None,
        )
        if region is None:
            outside = True
            continue
        sides = {
            line.strip() for line in auto[region[0] : region[1] + 1] if not _MARKER.match(line)
        }
        added = [line.strip() for line in result[b1:b2]]
        if any(_ASSERTION.search(line) and line not in sides for line in added):
            assertion = True
    return outside, assertion
