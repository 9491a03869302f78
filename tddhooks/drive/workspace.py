"""The git and file operations of a drive turn: stage, restore, format, commit, set aside.

Every function acts on paths the current turn names and nothing else: a person's changes are never
touched (the loop only starts a turn on a clean tree, so "restore to HEAD" of the turn's own paths
undoes exactly what the turn did).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from tddhooks import git, proc
from tddhooks.agents.journal import content_digest, created_by_agent, forget_created
from tddhooks.policy.phase import REFACTOR_MARK as REFACTOR_MARK
from tddhooks.policy.phase import mark_refactor_turn as mark_refactor_turn
from tddhooks.policy.phase import refactor_turn_taken as refactor_turn_taken
from tddhooks.policy.settings import PolicySettings
from tddhooks.runners import get_runner

SCRATCH = ".tdd"
MESSAGE_FILE = "agent-message"


def ensure_scratch_ignored(root: Path) -> bool:
    """Make git ignore `.tdd/` through `.git/info/exclude` when `.gitignore` does not already.

    The committed `.gitignore` is never edited. Returns True when the exclude file was changed.
    """
    probe = git.run_git(
        ["check-ignore", "-q", "--no-index", f"{SCRATCH}/logs/x.json"], root, check=False
    )
    if probe.returncode == 0:
        return False
    exclude = git.git_dir(root) / "info" / "exclude"
    exclude.parent.mkdir(parents=True, exist_ok=True)
    text = exclude.read_text(encoding="utf-8") if exclude.exists() else ""
    separator = "" if not text or text.endswith("\n") else "\n"
    exclude.write_text(f"{text}{separator}# tddhooks drive scratch\n{SCRATCH}/\n", encoding="utf-8")
    return True


def paths_in(root: Path, rev: str, paths: Collection[str]) -> set[str]:
    """Which of `paths` exist in a commit/tree (rev) or in the index (rev=':')."""
    return set(git.blob_ids(root, rev, sorted(paths))) if paths else set()


def _remove_file(root: Path, relative: str) -> None:
    path = root / relative
    if path.is_file() or path.is_symlink():
        path.unlink()
    # drop directories the turn created and left empty (never the root)
    parent = path.parent
    while parent != root and parent.is_dir() and not any(parent.iterdir()):
        parent.rmdir()
        parent = parent.parent


def restore_to_head(root: Path, paths: Collection[str]) -> None:
    """Index and working tree of `paths` back to HEAD; paths HEAD lacks are unstaged and, when
    they were staged by the turn or created by an agent's plan (and are unchanged since), removed.
    Any other file that is not committed is not the turn's: it is left as it is."""
    if not paths:
        return
    tracked = paths_in(root, "HEAD", paths)
    if tracked:
        git.run_git(
            ["restore", "--source=HEAD", "--staged", "--worktree", "--", *sorted(tracked)], root
        )
    untracked = set(paths) - tracked
    staged = paths_in(root, ":", untracked)
    if staged:
        git.run_git(["rm", "-q", "--cached", "--ignore-unmatch", "--", *sorted(staged)], root)
    created = created_by_agent(root)
    for relative in sorted(untracked):
        if relative in staged or _is_agents(root, relative, created.get(relative)):
            _remove_file(root, relative)
    forget_created(root, sorted(untracked))


def _is_agents(root: Path, relative: str, digest: str | None) -> bool:
    """The file is exactly what an agent's plan created (the journal of apply_edits)."""
    path = root / relative
    if digest is None or not path.is_file() or path.is_symlink():
        return False
    return content_digest(path.read_bytes()) == digest


def restore_from_index(root: Path, paths: Collection[str]) -> None:
    """Working-tree copies of `paths` back to what the index holds (undo a formatter's edits)."""
    staged = sorted(paths_in(root, ":", paths))
    if staged:
        git.run_git(["restore", "--worktree", "--", *staged], root)


def stage(root: Path, paths: Collection[str]) -> None:
    """`git add` exactly these paths (deletions included)."""
    if paths:
        git.run_git(["add", "-A", "--", *sorted(paths)], root)


def changed_against_index(root: Path) -> set[str]:
    """Paths whose working-tree copy differs from the index, plus untracked files."""
    return set(git.unstaged_paths(root)) | set(git.untracked_paths(root))


def format_files(
    root: Path, settings: PolicySettings, own_paths: Collection[str], *, repairs: bool = True
) -> str | None:
    """Run the linter's fixes (`ci.fix_cmd`: clippy's or ruff's machine-applicable suggestions,
    e.g. a needless `return`, and for Rust rustc's own for errors, e.g. a missing `*`) and the
    formatter (`ci.fmt_cmd`), and keep their changes to `own_paths` only.

    Anything else it touched is put back from the index, even when interrupted. When someone else
    has changed files meanwhile, the formatter does not run at all (it would rewrite their work;
    the gate's format check still judges the staged tree). Returns the formatter's output when it
    failed or was skipped (the gate reports the same problem), else None. `repairs`: also the
    fixes of check `compiler-fixes` (drive/rustfixes.py): rustc's `.to_string()` suggestion and
    the drive's own span fixes.
    """
    if not settings.fmt_fix and not settings.lint_fix:
        return None
    before = changed_against_index(root)
    others = sorted(before - set(own_paths))
    if others:
        return f"formatter not run: files changed outside this turn: {', '.join(others[:5])}"
    from tddhooks.policy.snapshot import gate_dirs

    runner = get_runner(settings.language)
    # clippy builds: into a target folder of its own beside the gate's, never the work tree's
    env = git.clean_env(runner.env(gate_dirs(root, "fix")[1]))
    result = None
    try:
        # the fixes first: what they change, the formatter then lays out
        if settings.lint_fix:
            _apply_fixes(root, settings, own_paths, env, repairs=repairs)
        if settings.fmt_fix:
            result = proc.run(settings.fmt_fix, cwd=root, env=env, timeout_s=settings.timeout_s)
    finally:
        collateral = changed_against_index(root) - before - set(own_paths)
        restore_from_index(root, collateral)
        # and what they created (clippy writes a Cargo.lock the repository does not have)
        for path in collateral - paths_in(root, ":", collateral):
            _remove_file(root, path)
    return None if result is None or result.ok else result.output


FIX_ROUNDS = 3


def _apply_fixes(
    root: Path,
    settings: PolicySettings,
    own_paths: Collection[str],
    env: dict[str, str],
    *,
    repairs: bool = True,
) -> None:
    """The fix command, again while it changes the turn's files: rustc and clippy report one layer
    at a time (a borrow error only once the types check; `for (_y, row) in ….enumerate()` only
    once the unused `y` was renamed), so a second run fixes what the first uncovered. What it
    cannot fix, the gate reports."""
    from tddhooks.drive.rustfixes import takes_rustc_fixes, to_string_literals
    from tddhooks.drive.testimports import is_integration_test

    # the default fix command checks the library only: a tester's test file is compiled, and
    # clippy's safe fixes reach it (`assert_eq!(x.is_empty(), true)` → `assert!(x.is_empty())`)
    # with the test targets (`--tests`)
    tests = any(is_integration_test(path) for path in own_paths)
    rustc = takes_rustc_fixes(settings.lint_fix)
    command = list(settings.lint_fix)
    if tests and rustc and "--" not in command:
        command.append("--tests")
    for _ in range(FIX_ROUNDS):
        before = {path: _digest(root, path) for path in own_paths}
        fixed = proc.run(command, cwd=root, env=env, timeout_s=settings.timeout_s)
        # a suggestion rustc does not mark as safe (check `compiler-fixes`); none is left when
        # the code compiled
        if (tests or not fixed.ok) and rustc and repairs:
            to_string_literals(root, own_paths, env, settings.timeout_s)
        if all(_digest(root, path) == before[path] for path in own_paths):
            return


def _digest(root: Path, relative: str) -> str | None:
    path = root / relative
    return content_digest(path.read_bytes()) if path.is_file() else None


@dataclass(frozen=True)
class CommitOutcome:
    """What `git commit` did: the new commit, or the hooks' rejection output."""

    ok: bool
    sha: str | None
    output: str


def commit(root: Path, message: str, settings: PolicySettings) -> CommitOutcome:
    """The real `git commit -F` under the agent identity; the installed hooks judge it."""
    message_file = git.tddhooks_dir(root) / MESSAGE_FILE
    message_file.write_text(message, encoding="utf-8")
    before = git.head(root)
    args = [
        "-c",
        f"user.name={settings.author_name}",
        "-c",
        f"user.email={settings.author_email}",
        "commit",
        "-q",
        "-F",
        str(message_file),
    ]
    result = proc.run(
        ["git", *args], cwd=root, env=git.commit_env(), timeout_s=4 * settings.timeout_s + 60
    )
    after = git.head(root)
    if result.ok and after and after != before:
        return CommitOutcome(True, after, result.output)
    return CommitOutcome(False, None, result.output or f"git commit exited {result.returncode}")


def set_aside(root: Path, cycle: int, paths: Sequence[str]) -> Path:
    """Save the staged copies of `paths` under `.tdd/set-aside/<cycle>/`, then restore them to HEAD.

    Returns the directory; `bring_back` re-stages them later.
    """
    directory = root / SCRATCH / "set-aside" / str(cycle)
    for relative in paths:
        text = git.read_blob(root, ":", relative)
        target = directory / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if text is None:
            target.with_name(target.name + ".deleted").write_text("", encoding="utf-8")
        else:
            target.write_text(text, encoding="utf-8")
        base = git.read_blob(root, "HEAD", relative)
        if base is not None and text is not None:  # for a three-way bring_back (see there)
            target.with_name(target.name + BASE_SUFFIX).write_text(base, encoding="utf-8")
    restore_to_head(root, paths)
    return directory


def bring_back(root: Path, directory: Path, paths: Sequence[str]) -> None:
    """Write set-aside files back into the working tree and stage them again. A file changed
    since it was set aside (a preparatory refactor of the source file the test sits in, with
    unit tests beside the code) gets the set-aside changes merged in (`git merge-file`), not
    pasted over the refactor; on a conflict the set-aside copy wins, as before."""
    for relative in paths:
        source = directory / relative
        if source.exists():
            target = root / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            text = _merged(root, source, target) or source.read_text(encoding="utf-8")
            target.write_text(text, encoding="utf-8")
        elif source.with_name(source.name + ".deleted").exists():
            (root / relative).unlink(missing_ok=True)
    stage(root, paths)


BASE_SUFFIX = ".base"


def _merged(root: Path, source: Path, target: Path) -> str | None:
    """The set-aside copy's changes (against its HEAD copy) applied to what target holds now;
    None when target is unchanged since, absent, or the merge conflicts."""
    base = source.with_name(source.name + BASE_SUFFIX)
    if not base.exists() or not target.is_file():
        return None
    current = target.read_text(encoding="utf-8")
    if current == base.read_text(encoding="utf-8"):
        return None
    args = ["merge-file", "-p", "-q", str(target), str(base), str(source)]
    merged = git.run_git(args, root, check=False)
    return merged.stdout if merged.returncode == 0 else None


def numstat_staged(root: Path) -> dict[str, tuple[int, int]]:
    """path -> (lines added, lines removed) of the staged diff (binary files count 0)."""
    text = git.out(["diff", "--cached", "--numstat", "--no-renames", "-z"], root)
    stats: dict[str, tuple[int, int]] = {}
    for row in (part for part in text.split("\0") if part):
        added, removed, path = row.split("\t", 2)
        stats[path] = (
            int(added) if added.isdigit() else 0,
            int(removed) if removed.isdigit() else 0,
        )
    return stats
