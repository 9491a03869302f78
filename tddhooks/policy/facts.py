"""The facts the commit rules judge: the staged diff (or a commit's), test names, skip markers.

This is on the commit-msg hook's path, so it costs a handful of git processes: one diff that
gives statuses, blob ids and changed lines at once, one listing of the source files of HEAD,
one `cat-file --batch`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

from tddhooks import git, proc
from tddhooks.errors import GitError
from tddhooks.policy.build_inputs import (
    SYMLINK_MODE,
    Tree,
    as_built,
    merged,
    tree_stand_ins,
)
from tddhooks.policy.settings import PolicySettings
from tddhooks.vocabulary import CODE_SUFFIXES as LANGUAGE_CODE_SUFFIXES
from tddhooks.vocabulary import TEST_CONFIG_FILES

TYPE_CHECKING = False  # not typing's: importing typing costs the hook path ~10 ms; mypy reads it
if TYPE_CHECKING:
    from tddhooks.policy.rules import CommitFacts

HANDOFF_FILE = "handoff.json"
# the files a language's static test names are read from
# the files read from a tree: the language's code, and the files saying which modules hold tests
CODE_SUFFIXES = {
    language: suffixes + TEST_CONFIG_FILES.get(language, ())
    for language, suffixes in LANGUAGE_CODE_SUFFIXES.items()
}
NULL_BLOB = "0" * 40
TREE_LISTING_CAP = 64 * 1024 * 1024  # bytes of `ls-tree -r` (about 100 per file)
GITLINK_MODE = "160000"  # a submodule: its "blob" is a commit of another repository
_HUNK_RE = re.compile(r"^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@")
_ESCAPES = {"a": 7, "b": 8, "t": 9, "n": 10, "v": 11, "f": 12, "r": 13, '"': 34, "\\": 92}
# Plain, predictable diff output whatever the person's git config says.
_DIFF = (
    "-c", "core.quotePath=false", "diff", "--no-renames", "--abbrev=40", "-U0", "--no-color",
    "--no-ext-diff", "--no-textconv", "--src-prefix=a/", "--dst-prefix=b/",
)  # fmt: skip
_RAW = ("--raw", "-z")

Lines = dict[str, list[str]]


_STATE_DIRS: dict[Path, Path] = {}


def state_dir(root: Path) -> Path:
    """`.git/tddhooks/` of the repository at root (memoised: a hook asks several times)."""
    if root not in _STATE_DIRS:
        _STATE_DIRS[root] = git.tddhooks_dir(root)
    return _STATE_DIRS[root]


def locate(cwd: Path) -> tuple[Path, Path]:
    """(work tree root, `.git/tddhooks/`) for cwd with one git call (hooks start here); the
    same call tells git.head() the HEAD commit (inside git.held_still()), git.git_dir() the
    common git directory and git.object_format() the object format."""
    args = ["rev-parse", "--show-toplevel", "--git-common-dir", "--show-object-format"]
    result = git.run_git([*args, "--verify", "-q", "HEAD"], cwd, check=False)
    lines = result.stdout.splitlines()
    # exit 1 with the three answers only: HEAD is unborn (before the first commit)
    unborn = result.returncode == 1 and not result.timed_out and len(lines) == 3
    if not (result.ok and len(lines) == 4) and not unborn:
        git.require_root(cwd)  # raises the usual "not inside a git repository" error
        raise GitError(f"git rev-parse failed in {cwd}: {result.output.strip()[:300]}")
    root, common = Path(lines[0]), Path(lines[1])
    git.remember_head(root, None if unborn else lines[3])
    common = common if common.is_absolute() else (cwd / common).resolve()
    git.remember_layout(root, common, lines[2])
    state = common / "tddhooks"
    state.mkdir(parents=True, exist_ok=True)
    _STATE_DIRS[root] = state
    return root, state


def hook_index_file(root: Path, environ: Mapping[str, str] | None = None) -> str | None:
    """The index git asked the hook to judge (GIT_INDEX_FILE), absolute; None for the default.

    `git commit FILE` uses a temporary index: judging `.git/index` instead would be wrong."""
    value = (os.environ if environ is None else environ).get("GIT_INDEX_FILE")
    if not value:
        return None
    path = Path(value)
    return str(path if path.is_absolute() else root / path)


def staged_facts(
    root: Path, settings: PolicySettings, index_file: str | None = None, *, amend: bool = False
) -> CommitFacts:
    """Facts of the index (or index_file) against HEAD, the empty tree before the first commit;
    with `amend`, against HEAD's first parent: the commit being written replaces HEAD."""
    base = git.head(root)
    if amend and base is not None:
        parent = git.run_git(["rev-parse", "-q", "--verify", "HEAD^1"], root, check=False)
        base = parent.stdout.strip() if parent.ok else None
    diff = _diff(root, staged_diff_revs(base), git.index_env(index_file))
    return _facts(root, base, diff, settings, handoff_blobs=live_handoff_blobs(root, base))


def commit_facts(root: Path, commit: str, settings: PolicySettings) -> CommitFacts:
    """Facts of a commit against its first parent (the empty tree for a root commit), for audit."""
    parent = git.run_git(["rev-parse", "-q", "--verify", f"{commit}^1"], root, check=False)
    base = parent.stdout.strip() if parent.ok else None
    diff = _diff(root, [base or git.EMPTY_TREE, commit], None)
    return _facts(root, base, diff, settings, handoff_blobs=None)


def staged_diff_call(revs: list[str], env: dict[str, str] | None) -> git.Call:
    """The one diff call of the facts: raw records and the -U0 patch of `revs`."""
    return [*_DIFF, *_RAW, "-p", *revs], env


def staged_diff_revs(base: str | None) -> list[str]:
    return ["--cached", base or git.EMPTY_TREE]


def _diff(root: Path, revs: list[str], env: dict[str, str] | None) -> str:
    """Raw records (statuses, blob ids), a NUL, then the -U0 patch: one git call normally."""
    diff = git.out(staged_diff_call(revs, env)[0], root, env_extra=env)
    if not was_cut(diff):
        return diff
    # too long to keep whole: the records alone, then each path's patch on its own
    raw = git.out([*_DIFF, *_RAW, *revs], root, env_extra=env)
    patches = [
        git.out([*_DIFF, "-p", *revs, "--", f":(literal){path}"], root, env_extra=env)
        for _status, path, _blob in parse_raw(raw)
    ]
    return raw + "\0" + "\n".join(patches)


def was_cut(text: str) -> bool:
    """Whether proc.run kept only the head and tail of this output (see proc.cap_text)."""
    return len(text) > proc.DEFAULT_OUTPUT_CAP and " characters cut] …\n" in text


def _facts(
    root: Path,
    base: str | None,
    diff: str,
    settings: PolicySettings,
    *,
    handoff_blobs: dict[str, str] | None,
) -> CommitFacts:
    # imported here: the pre-commit hook needs this module's helpers, not the rules
    from tddhooks.policy.rules import CommitFacts, is_test_path

    raw, _, patch = diff.partition("\0\0") if diff.startswith(":") else ("", "", diff)
    changes = parse_raw_changes(raw)
    records = [(c.status, c.path, blob, c.new_mode) for c, blob in changes]
    entries = [(status, path, blob) for status, path, blob, _mode in records]
    added, removed = parse_patch(patch)
    suffixes = CODE_SUFFIXES.get(settings.language, ())
    kata = settings.kata_description.removeprefix("./")
    # a kata file outside the repository (or none) is never part of a commit
    inside = bool(kata) and not kata.startswith(("/", "../")) and "/../" not in kata
    tree_before = tree_files(root, base)
    tree_after = dict(tree_before)
    for _status, path, blob, mode in records:
        tree_after.pop(path, None)
        if blob != NULL_BLOB and mode != GITLINK_MODE:
            tree_after[path] = (mode, blob)
    has_kata = inside and kata in tree_after
    before, after = _code_of(tree_before, suffixes), _code_of(tree_after, suffixes)
    # symlinks, and the manifests that may name code files (policy/build_inputs.py): one read
    links = {
        blob for tree in (tree_before, tree_after) for path, (mode, blob) in tree.items()
        if mode == SYMLINK_MODE or path.rsplit("/", 1)[-1] == "Cargo.toml"
    }  # fmt: skip
    texts = read_blobs(root, sorted(set(before.values()) | set(after.values()) | links))
    rust = settings.language == "rust"

    def read(blobs: list[str]) -> dict[str, str]:
        return read_blobs(root, blobs)

    built_before = tree_stand_ins(tree_before, before, texts, read, rust=rust)
    built_after = tree_stand_ins(tree_after, after, texts, read, rust=rust)
    names_before, names_after = _test_names(
        settings,
        as_built(tree_before, before, built_before, texts),
        as_built(tree_after, after, built_after, texts),
    )
    test_items, code_items = _items(settings, entries, patch, before, after, texts)
    staged_blobs = {
        path: blob
        for _status, path, blob in entries
        if blob != NULL_BLOB and is_test_path(path, settings)
    }
    staged_blobs.update(_handed_items(settings, handoff_blobs, after, texts))
    return CommitFacts(
        changes=tuple(change for change, _blob in changes),
        test_names_before=names_before,
        test_names_after=names_after,
        added_lines=added,
        removed_lines=removed,
        handoff_blobs=handoff_blobs,
        first_commit=base is None,
        staged_blobs=staged_blobs,
        test_item_paths=test_items,
        code_item_paths=code_items,
        has_kata=has_kata,
        stand_ins=merged(built_before, built_after),
    )


def _handed_items(
    settings: PolicySettings,
    handoff_blobs: dict[str, str] | None,
    after: dict[str, str],
    texts: dict[str, str],
) -> dict[str, str]:
    """For each source file whose test items were handed over: the token of its staged test
    items, compared with the handoff's by the `handoff` rule (policy/testitems.py)."""
    from tddhooks.policy.testitems import ITEMS_PREFIX, items_token

    wanted = [p for p, v in (handoff_blobs or {}).items() if v.startswith(ITEMS_PREFIX)]
    if not wanted:
        return {}
    files = {path: texts.get(blob, "") for path, blob in after.items()}
    return {
        path: items_token(settings.language, path, files[path], files)
        for path in wanted
        if path in files
    }


def _items(
    settings: PolicySettings,
    entries: list[tuple[str, str, str]],
    patch: str,
    before: dict[str, str],
    after: dict[str, str],
    texts: dict[str, str],
) -> tuple[frozenset[str], frozenset[str]]:
    """(source files whose test items changed, source files whose code items changed), for the
    changed files that hold code and tests side by side (see policy/items.py)."""
    from tddhooks.policy.items import classify, parse_hunks, source_spans
    from tddhooks.policy.rules import is_test_path

    suffixes = LANGUAGE_CODE_SUFFIXES.get(settings.language, ())
    mixed = [
        path
        for _status, path, _blob in entries
        if suffixes and path.endswith(suffixes) and not is_test_path(path, settings)
    ]
    if not mixed:
        return frozenset(), frozenset()
    old = {path: texts.get(blob, "") for path, blob in before.items()}
    new = {path: texts.get(blob, "") for path, blob in after.items()}
    return classify(
        parse_hunks(patch),
        mixed,
        old,
        new,
        source_spans(settings.language, old),
        source_spans(settings.language, new),
    )


def _test_names(
    settings: PolicySettings, before: dict[str, str], after: dict[str, str]
) -> tuple[frozenset[str], frozenset[str]]:
    """Static test names of the code files (path -> text as built) before and after."""
    if not before and not after:
        return frozenset(), frozenset()
    from tddhooks.runners import get_runner

    runner = get_runner(settings.language)
    return frozenset(runner.test_names(before)), frozenset(runner.test_names(after))


def test_names_at(root: Path, rev: str, settings: PolicySettings) -> frozenset[str]:
    """The static test names of a commit's tree, as built (symlinks, include!)."""
    tree = tree_files(root, rev)
    code = _code_of(tree, CODE_SUFFIXES.get(settings.language, ()))
    links = {blob for mode, blob in tree.values() if mode == SYMLINK_MODE}
    texts = read_blobs(root, sorted(set(code.values()) | links))
    built = tree_stand_ins(
        tree, code, texts, lambda blobs: read_blobs(root, blobs), rust=settings.language == "rust"
    )
    return _test_names(settings, as_built(tree, code, built, texts), {})[0]


def tree_files(root: Path, rev: str | None) -> Tree:
    """path -> (mode, blob id) of every file of a commit (none without one); submodules left out."""
    if rev is None:
        return {}
    entries = git.held_listing(root, rev)  # a hook lists the parent commit once
    if entries is None:
        # read whole: a cut listing would drop files (and their tests) from the judged tree
        listing = git.run_git(
            ["ls-tree", "-r", "-z", "--full-tree", rev], root, output_cap=TREE_LISTING_CAP
        ).stdout
        entries = [
            (meta, path) for meta, _, path in (r.partition("\t") for r in listing.split("\0"))
        ]
    files: Tree = {}
    for meta, path in entries:
        fields = meta.split()
        if len(fields) == 3 and fields[1] == "blob" and path:
            files[path] = (fields[0], fields[2])
    return files


def _code_of(tree: Tree, suffixes: tuple[str, ...]) -> dict[str, str]:
    """path -> blob id of the language's source files (and test configuration) in a tree."""
    if not suffixes:
        return {}
    return {path: blob for path, (_mode, blob) in tree.items() if path.endswith(suffixes)}


def read_blobs(root: Path, blobs: list[str]) -> dict[str, str]:
    """blob id -> text for many blobs with one `git cat-file --batch` (a few when their text is
    more than one process's output may hold). A blob id names its content, so each text read is
    kept for the rest of the process: an audit reads each unchanged file once, not per commit."""
    texts = {blob: _BLOB_TEXTS[blob] for blob in blobs if blob in _BLOB_TEXTS}
    missing = [blob for blob in dict.fromkeys(blobs) if blob not in texts]
    if missing:
        read = _read_batch(root, missing)
        texts.update(read)
        _remember(read)
    return texts


_BLOB_TEXTS: dict[str, str] = {}  # blob id -> text; content-addressed, so never stale
_BLOB_TEXTS_CHARS = 32_000_000  # past this, the memo starts over
_held = [0]  # characters _BLOB_TEXTS holds


def _remember(texts: dict[str, str]) -> None:
    size = sum(map(len, texts.values()))
    if _held[0] + size > _BLOB_TEXTS_CHARS:
        _BLOB_TEXTS.clear()
        _held[0] = 0
    _BLOB_TEXTS.update(texts)
    _held[0] += size


def _read_batch(root: Path, blobs: list[str]) -> dict[str, str]:
    # not git.out: it strips trailing newlines, which belong to the last blob
    result = git.run_git(["cat-file", "--batch"], root, stdin="".join(f"{b}\n" for b in blobs))
    if not was_cut(result.stdout):
        return split_batch(result.stdout, blobs)
    # more text than one output holds: batches that each fit, by the sizes git reports
    texts: dict[str, str] = {}
    for chunk in blob_batches(_blob_sizes(root, blobs), proc.DEFAULT_OUTPUT_CAP // 2):
        if len(chunk) == 1:  # one blob larger than a batch: read alone (and cut, as before)
            texts[chunk[0]] = git.run_git(["cat-file", "blob", chunk[0]], root).stdout
            continue
        batch = git.run_git(["cat-file", "--batch"], root, stdin="".join(f"{b}\n" for b in chunk))
        texts.update(split_batch(batch.stdout, chunk))
    return texts


def _blob_sizes(root: Path, blobs: list[str]) -> list[tuple[str, int]]:
    """(blob id, size in bytes) per blob, from one `git cat-file --batch-check`."""
    listing = git.run_git(
        ["cat-file", "--batch-check"], root, stdin="".join(f"{b}\n" for b in blobs),
        output_cap=TREE_LISTING_CAP,
    ).stdout.split("\n")  # fmt: skip
    sizes = []
    for blob, line in zip(blobs, listing, strict=False):
        fields = line.split()
        size = int(fields[2]) if len(fields) == 3 and fields[2].isdigit() else 0
        sizes.append((blob, size))
    return sizes


def blob_batches(sizes: list[tuple[str, int]], budget: int) -> list[list[str]]:
    """The blobs in order, grouped so that each group's text (bytes, headers included) stays
    within budget; a blob larger than the budget is a group of its own (pure)."""
    batches: list[list[str]] = []
    current: list[str] = []
    used = 0
    for blob, size in sizes:
        cost = size + len(blob) + 32  # the header line and the newline after the text
        if current and used + cost > budget:
            batches.append(current)
            current, used = [], 0
        current.append(blob)
        used += cost
    if current:
        batches.append(current)
    return batches


def split_batch(output: str, blobs: list[str]) -> dict[str, str]:
    """Split `cat-file --batch` output (decoded text) into blob id -> content (pure).

    Sizes count bytes, the text counts characters; the next object's header line is the
    boundary instead (a blob containing another requested blob's header is not a real case)."""
    texts: dict[str, str] = {}
    position = 0
    for index, blob in enumerate(blobs):
        header_end = output.find("\n", position)
        if header_end < 0:
            break
        header = output[position:header_end].split()
        if len(header) != 3 or header[0] != blob:
            position = header_end + 1
            continue
        start = header_end + 1
        if index + 1 < len(blobs):
            end = output.find(f"\n{blobs[index + 1]} ", start)
            end = len(output) - 1 if end < 0 else end
        else:
            end = len(output) - 1
        texts[blob] = output[start:end]
        position = end + 1
    return texts


def parse_raw(raw: str) -> list[tuple[str, str, str]]:
    """(status, path, new blob id) from `git diff --raw -z --no-renames` records (pure)."""
    return [(status, path, blob) for status, path, blob, _mode in parse_raw_records(raw)]


def parse_raw_records(raw: str) -> list[tuple[str, str, str, str]]:
    """(status, path, new blob id, new mode) from `git diff --raw -z --no-renames` (pure)."""
    return [(c.status, c.path, blob, c.new_mode) for c, blob in parse_raw_changes(raw)]


def parse_raw_changes(raw: str) -> list[tuple[git.Change, str]]:
    """(change with its modes, new blob id) from `git diff --raw -z --no-renames` (pure)."""
    parts = [part for part in raw.split("\0") if part]
    entries = []
    for meta, path in zip(parts[0::2], parts[1::2], strict=False):
        fields = meta.split()
        if len(fields) >= 5:
            old, new = (m if m.strip("0") else "" for m in (fields[0].lstrip(":"), fields[1]))
            change = git.Change(fields[4][0], path, old, new)
            entries.append((change, fields[3]))
    return entries


def parse_patch(patch: str) -> tuple[Lines, Lines]:
    """path -> added lines and path -> removed lines of a unified diff (pure).

    Hunk line counts are followed, so a removed line that reads '-- x' is never taken for a
    file header."""
    added: Lines = {}
    removed: Lines = {}
    old_path = new_path = ""
    old_left = new_left = 0
    for line in patch.split("\n"):
        if old_left or new_left:
            if line.startswith("-") and old_left:
                removed.setdefault(old_path, []).append(line[1:].removesuffix("\r"))
                old_left -= 1
            elif line.startswith("+") and new_left:
                added.setdefault(new_path, []).append(line[1:].removesuffix("\r"))
                new_left -= 1
            elif line.startswith(" "):
                old_left, new_left = max(old_left - 1, 0), max(new_left - 1, 0)
            continue
        if line.startswith("--- "):
            old_path = diff_header_path(line[4:], "a/")
            new_path = old_path
        elif line.startswith("+++ "):
            new_path = diff_header_path(line[4:], "b/") or old_path
            old_path = old_path or new_path
        elif match := _HUNK_RE.match(line):
            old_left = int(match[1]) if match[1] is not None else 1
            new_left = int(match[2]) if match[2] is not None else 1
    return added, removed


def diff_header_path(text: str, prefix: str) -> str:
    """The path of a '--- a/x' / '+++ b/x' header; '' for /dev/null."""
    text = text.rstrip("\t")
    if text == "/dev/null":
        return ""
    if text.startswith('"') and text.endswith('"'):
        text = unquote_c(text[1:-1])
    return text.removeprefix(prefix)


def unquote_c(text: str) -> str:
    """Undo git's C-style quoting of a path (escapes and octal bytes) (pure)."""
    data = bytearray()
    index = 0
    while index < len(text):
        char = text[index]
        if char == "\\" and index + 1 < len(text):
            following = text[index + 1]
            if following in _ESCAPES:
                data.append(_ESCAPES[following])
                index += 2
                continue
            if following in "0123" and re.fullmatch(r"[0-7]{3}", text[index + 1 : index + 4]):
                data.append(int(text[index + 1 : index + 4], 8))
                index += 4
                continue
        data.extend(char.encode("utf-8"))
        index += 1
    return data.decode("utf-8", errors="replace")


def live_handoff(root: Path, head: str | None) -> dict[str, object] | None:
    """The handoff note as plain JSON when it was written on the current HEAD, else None.

    Read without the Handoff model (policy/handoff.py) to keep pydantic off the hook path."""
    from tddhooks.headstate import read_record

    return read_record(state_dir(root) / HANDOFF_FILE, head)


def live_handoff_blobs(root: Path, head: str | None) -> dict[str, str] | None:
    """Test path -> blob id handed over by a live handoff note, or by one written on an ancestor
    whose tests have not landed since (policy/handover.py); None without one."""
    from tddhooks.policy.handover import carried_note

    data = carried_note(root, state_dir(root), head)
    blobs = data.get("test_blobs") if data else None
    if not isinstance(blobs, dict):
        return None
    return {str(path): str(blob) for path, blob in blobs.items()}


def base_failing_tests(
    root: Path, settings: PolicySettings, index_file: str | None, *, amend: bool = False
) -> frozenset[str]:
    """The tests that fail in the parent's tree of the commit being made, when the staged tree
    is green (its verdict is cached: pre-commit ran) and the parent's is red with failing tests;
    empty otherwise. The parent's verdict is reused or computed once (then cached)."""
    from tddhooks.policy.gate import cached_green_lines, tree_verdict

    staged = git.write_tree(root, index_file=index_file)
    if settings.enabled("green") and cached_green_lines(root, staged, settings) is None:
        return frozenset()
    rev = "HEAD^1^{tree}" if amend else "HEAD^{tree}"
    found = git.run_git(["rev-parse", "-q", "--verify", rev], root, check=False)
    if not found.ok:
        return frozenset()
    report = tree_verdict(root, found.stdout.strip(), settings).report
    if report.green:  # green tests (red from lint or format only is no reason for a fix)
        return frozenset()
    # a test committed red against code that does not exist yet does not compile (or import)
    return frozenset(
        report.failing_tests or [f"({report.build_failure}) {e}" for e in report.compile_errors]
    )


def index_code_files(root: Path, language: str) -> dict[str, str]:
    """path -> text of the language's source and test-configuration files in the index."""
    suffixes = CODE_SUFFIXES.get(language, ())
    if not suffixes:
        return {}
    listing = git.out(["ls-files", "-s", "-z", "--", *(f"*{suffix}" for suffix in suffixes)], root)
    blobs = {row.split("\t", 1)[1]: row.split()[1] for row in listing.split("\0") if "\t" in row}
    texts = read_blobs(root, sorted(set(blobs.values())))
    return {path: texts.get(blob, "") for path, blob in blobs.items()}
