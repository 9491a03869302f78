"""Every git CLI call, with pure parsers beside them. Child tools never see leaked GIT_* vars."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from tddhooks import keys, proc
from tddhooks.errors import GitError
from tddhooks.records import NamedTuple

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
# While a hook runs, HEAD and the index it judges stay put (git holds the index lock), so their
# ids are asked once: (what, root, index) -> id; the index's again after a gate run
# (forget_index_trees). None outside held_still() (commands and the drive loop move HEAD).
_HELD: dict[tuple[str, str, str | None], str | None] | None = None
_LISTINGS: dict[tuple[str, str, str], list[tuple[str, str]] | None] = {}
# results of read-only calls a hook started together (prefetch): each serves the first identical
# run_git call, once
_PREFETCHED: dict[tuple[object, ...], proc.ProcResult] = {}
Call = tuple[Sequence[str], Mapping[str, str] | None]  # (git arguments, env_extra)
_GIT_DIRS: dict[str, Path] = {}  # work tree -> its common git directory (git_dir)
_FORMATS: dict[str, str] = {}  # work tree -> its object format (object_format)


@contextmanager
def held_still() -> Iterator[None]:
    """Within this block head() and write_tree() ask git once per repository (and index)."""
    global _HELD
    outer, _HELD = _HELD, {} if _HELD is None else _HELD
    try:
        yield
    finally:
        _HELD = outer
        if outer is None:
            _LISTINGS.clear()
            _PREFETCHED.clear()


def _call_key(
    args: Sequence[str], cwd: Path, env_extra: Mapping[str, str] | None
) -> tuple[object, ...]:
    return (tuple(args), str(cwd), tuple(sorted((env_extra or {}).items())))


def prefetch(root: Path, calls: Sequence[Call]) -> None:
    """Run independent read-only git calls at the same time (inside held_still() only): a hook
    waits for the slowest instead of for each in turn, which counts on a busy machine. Each
    result is handed to the first run_git call with the same arguments, once; a call nobody
    makes again is wasted, a failed one is simply made again."""
    if _HELD is None:
        return
    import threading

    from tddhooks import waits

    def fetch(args: Sequence[str], env_extra: Mapping[str, str] | None) -> None:
        result = run_git(args, root, env_extra=env_extra, check=False)
        _PREFETCHED[_call_key(args, root, env_extra)] = result

    threads = [threading.Thread(target=fetch, args=call, daemon=True) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        waits.join(thread)  # Ctrl-C raises meanwhile, wherever the kernel delivered it


def listing_args(rev: str) -> list[str]:
    return ["ls-tree", "-r", "-z", "--full-tree", rev]


def write_tree_call(index_file: str | None) -> Call:
    return ["write-tree"], index_env(index_file)


def held_listing(root: Path, rev: str) -> list[tuple[str, str]] | None:
    """Every entry of commit `rev` as (the `ls-tree` metadata "<mode> <type> <id>", path), from
    one `git ls-tree -r` kept for the rest of held_still(): the hooks read both the policy files
    and the source files of the same parent commit. None outside held_still(), or for a tree too
    large to list whole (the callers then ask git for just the paths they need)."""
    if _HELD is None:
        return None
    key = ("listing", str(root), rev)
    if key not in _LISTINGS:
        result = run_git(listing_args(rev), root, check=False)
        cut = len(result.stdout) > proc.DEFAULT_OUTPUT_CAP and " characters cut] …" in result.stdout
        rows = [row.partition("\t") for row in result.stdout.split("\0") if row]
        _LISTINGS[key] = None if cut or not result.ok else [(meta, path) for meta, _, path in rows]
    return _LISTINGS[key]


def forget_index_trees() -> None:
    """After anything slow (a gate run), write_tree() asks git again: a file staged meanwhile in
    another terminal must be seen by the checks that follow."""
    if _HELD is not None:
        for key in [key for key in _HELD if key[0] == "tree"]:
            del _HELD[key]


def remember_head(root: Path, head_id: str | None) -> None:
    """Seed head() with an id learnt from another git call (inside held_still() only)."""
    if _HELD is not None:
        _HELD["head", str(root), None] = head_id


def clean_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The process environment without GIT_* variables (a leaked GIT_INDEX_FILE breaks tools)
    and without any variable holding an API key (see tddhooks/keys.py)."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
    env.update(extra or {})
    return keys.scrub_env(env)


def commit_env() -> dict[str, str]:
    """Env for a `git commit` that must fire our hooks: no leaked GIT_*, and the `tddhooks` that
    is running findable on PATH (the hooks call it; a venv need not be activated)."""
    from shutil import which  # not at the top: shutil costs the hook path ~3 ms

    env = clean_env()
    path = env.get("PATH", "")
    if not which("tddhooks", path=path):
        env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + path
    return env


def run_git(
    args: Sequence[str],
    cwd: Path,
    *,
    env_extra: Mapping[str, str] | None = None,
    check: bool = True,
    stdin: str | None = None,
    keep_env: bool = False,
    output_cap: int = proc.DEFAULT_OUTPUT_CAP,
) -> proc.ProcResult:
    """Run `git args` in cwd. keep_env keeps the caller's GIT_* (inside a hook, git's own);
    output_cap for an output that must be whole (a tree listing)."""
    found = None
    if _PREFETCHED and stdin is None and not keep_env and output_cap == proc.DEFAULT_OUTPUT_CAP:
        found = _PREFETCHED.pop(_call_key(args, cwd, env_extra), None)
    if found is not None:
        result = found
    else:
        # no key scrub here: proc.run scrubs every child's environment itself (once is enough)
        env = {k: v for k, v in os.environ.items() if keep_env or not k.startswith("GIT_")}
        env.update(env_extra or {})
        result = proc.run(["git", *args], cwd=cwd, env=env, stdin=stdin, output_cap=output_cap)
    if check and not result.ok:
        raise GitError(
            f"git {' '.join(args)} failed in {cwd}: {result.output.strip()[:800]}",
            fix="check that this is a git repository and that git works here",
        )
    return result


def out(args: Sequence[str], cwd: Path, **kwargs: object) -> str:
    """stdout of a git command, trailing newline removed."""
    return run_git(args, cwd, **kwargs).stdout.rstrip("\n")  # type: ignore[arg-type]


def find_root(start: Path) -> Path | None:
    """The top of the work tree containing `start`, or None outside a repository."""
    result = run_git(["rev-parse", "--show-toplevel"], start, check=False)
    return Path(result.stdout.strip()) if result.ok and result.stdout.strip() else None


def require_root(start: Path) -> Path:
    root = find_root(start)
    if root is None:
        raise GitError(
            f"{start} is not inside a git repository",
            fix="run `tddhooks init DIR` or `git init` first",
        )
    return root


def git_dir(root: Path) -> Path:
    """The repository's common git directory (shared by worktrees), absolute. Asked once per
    work tree and process: where a repository keeps its git directory does not change while it
    is used (a drive asked it ~30 times a cycle)."""
    key = os.path.abspath(root)
    known = _GIT_DIRS.get(key)
    if known is None:
        path = Path(out(["rev-parse", "--git-common-dir"], root))
        known = _GIT_DIRS[key] = path if path.is_absolute() else (root / path).resolve()
    return known


def remember_layout(root: Path, common: Path, object_format: str) -> None:
    """What one `rev-parse` told a caller about the repository at root: its common git directory
    (absolute) and object format, for git_dir() and object_format()."""
    _GIT_DIRS[os.path.abspath(root)] = common
    _FORMATS[os.path.abspath(root)] = object_format


def object_format(root: Path) -> str:
    """The repository's object format ("sha1" or "sha256"), asked once per work tree and process."""
    key = os.path.abspath(root)
    known = _FORMATS.get(key)
    if known is None:
        known = _FORMATS[key] = out(["rev-parse", "--show-object-format"], root).strip() or "sha1"
    return known


def tddhooks_dir(root: Path) -> Path:
    """`.git/tddhooks/`: verdicts, handoff note, snapshot; never committed."""
    path = git_dir(root) / "tddhooks"
    path.mkdir(parents=True, exist_ok=True)
    return path


def hooks_dir(root: Path) -> Path:
    """Where git looks for hooks (core.hooksPath respected)."""
    path = Path(out(["rev-parse", "--git-path", "hooks"], root))
    return path if path.is_absolute() else (root / path).resolve()


def head(root: Path) -> str | None:
    key = ("head", str(root), None)
    if _HELD is not None and key in _HELD:
        return _HELD[key]
    result = run_git(["rev-parse", "--verify", "-q", "HEAD"], root, check=False)
    found = result.stdout.strip() or None
    remember_head(root, found)
    return found


def write_tree(root: Path, *, index_file: str | None = None) -> str:
    """Tree id of the index (or of GIT_INDEX_FILE=index_file); the index is not changed."""
    key = ("tree", str(root), index_file)
    if _HELD is not None and _HELD.get(key):
        return str(_HELD[key])
    args, env_extra = write_tree_call(index_file)
    tree = out(args, root, env_extra=env_extra)
    if _HELD is not None:
        _HELD[key] = tree
    return tree


def tree_of(root: Path, rev: str) -> str:
    return out(["rev-parse", f"{rev}^{{tree}}"], root)


class Change(NamedTuple):
    """One path changed between two trees: status letter A/M/D/T (renames split in two), and
    its file modes before and after ("100644", "100755", "120000" a symlink, "" unknown or
    absent): a source file turned into a symlink is a T change of that source file. (A
    NamedTuple, not a dataclass: see proc.ProcResult.)"""

    status: str
    path: str
    # not part of equality: a change is its status and path; the modes say what kind of file
    old_mode: str = ""
    new_mode: str = ""

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Change):
            return NotImplemented
        return (self.status, self.path) == (other.status, other.path)

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash((self.status, self.path))


def parse_name_status(text: str) -> list[Change]:
    """Parse `git diff --name-status -z --no-renames` output."""
    parts = [part for part in text.split("\0") if part]
    return [Change(parts[i][0], parts[i + 1]) for i in range(0, len(parts) - 1, 2)]


def diff_trees(root: Path, old: str, new: str) -> list[Change]:
    """Paths changed from tree/commit `old` to `new`."""
    text = out(["diff", "--name-status", "-z", "--no-renames", old, new], root)
    return parse_name_status(text)


def index_env(index_file: str | None) -> dict[str, str] | None:
    """Env for git calls that must read a specific index (a hook's GIT_INDEX_FILE)."""
    return {"GIT_INDEX_FILE": index_file} if index_file else None


def staged_changes(root: Path, *, index_file: str | None = None) -> list[Change]:
    """Index against HEAD (against the empty tree before the first commit)."""
    base = "HEAD" if head(root) else EMPTY_TREE
    text = out(
        ["diff", "--cached", "--name-status", "-z", "--no-renames", base],
        root,
        env_extra=index_env(index_file),
    )
    return parse_name_status(text)


def unstaged_paths(root: Path) -> list[str]:
    text = out(["diff", "--name-only", "-z"], root)
    return [part for part in text.split("\0") if part]


def untracked_paths(root: Path) -> list[str]:
    text = out(["ls-files", "--others", "--exclude-standard", "-z"], root)
    return [part for part in text.split("\0") if part]


def read_blob(root: Path, rev: str, path: str) -> str | None:
    """Text of `rev:path` (rev may be a tree id or ':' for the index); None when absent or not a
    file. `cat-file`, not `show`: for `src/*.rs` or `!src`, which name no file, `git show` falls
    back to a pathspec and prints the HEAD commit and its diff; for a directory, its listing."""
    spec = f":{path}" if rev == ":" else f"{rev}:{path}"
    result = run_git(["cat-file", "blob", spec], root, check=False)
    return result.stdout if result.ok else None


def blob_ids(root: Path, rev: str, paths: Sequence[str]) -> dict[str, str]:
    """path -> blob id in a tree/commit (rev) or in the index (rev=':')."""
    if not paths:
        return {}
    if rev == ":":
        text = out(["ls-files", "-s", "-z", "--", *paths], root)
        rows = [row for row in text.split("\0") if row]
        return {row.split("\t", 1)[1]: row.split()[1] for row in rows}
    text = out(["ls-tree", "-r", "-z", rev, "--", *paths], root)
    rows = [row for row in text.split("\0") if row]
    return {row.split("\t", 1)[1]: row.split()[2] for row in rows}


def list_files(root: Path, rev: str) -> list[str]:
    """Every file path in a tree/commit."""
    text = out(["ls-tree", "-r", "-z", "--name-only", rev], root)
    return [part for part in text.split("\0") if part]


def diff_text(root: Path, old: str, new: str, paths: Sequence[str] = ()) -> str:
    """Unified diff between two trees/commits (new may be '--cached' for the index)."""
    args = ["diff", "--no-color", "--no-ext-diff", "-U3", old]
    if new == "--cached":
        args.insert(1, "--cached")
    else:
        args.append(new)
    return out([*args, "--", *paths], root)


def added_lines(diff: str) -> dict[str, list[str]]:
    """path -> lines added in a unified diff (pure)."""
    added: dict[str, list[str]] = {}
    current: str | None = None
    for line in diff.splitlines():
        if line.startswith("+++ "):
            target = line[4:]
            current = target[2:] if target.startswith("b/") else None
            if current is not None:
                added.setdefault(current, [])
        elif line.startswith("+") and current is not None:
            added[current].append(line[1:])
    return added


@cache
def git_version() -> str:
    return proc.run(["git", "--version"]).stdout.strip()
