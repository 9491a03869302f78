"""What lands on a branch: the reference-transaction and pre-push hooks, and the branch-tip check
the agent hooks run after every tool call.

A commit a branch update brings in is acceptable when it is in the baseline `install` recorded
(refs/tddhooks/baseline/*), reachable from the branch's tip before the update, fetched (reachable
from a remote-tracking branch, unless the branch's tdd.yaml says `policy.trust_remotes: false`),
sealed as judged by our hooks (policy/judged.py), or judged right here by the rules `tddhooks
audit` uses, by its parent's policy. Another local branch is no pass. History rewrites (amend,
rebase, reset) need no detection: their commits have parents no hook judged them against.
See docs/hooks.md and docs/security.md.
"""

from __future__ import annotations

import os

from tddhooks.policy.judged import baseline, is_recorded, record_key, write_record

TYPE_CHECKING = False  # not typing's: importing typing costs the hook path ~10 ms; mypy reads it
if TYPE_CHECKING:
    from pathlib import Path

    from tddhooks.policy.judge import Finding
    from tddhooks.policy.settings import PolicySettings
    from tddhooks.policy.verdicts import Verdict


_FORMAT = "--format=%H%x1f%T%x1f%P%x1f%s%x1f%B%x1e"


_REMOTES = ("--remotes",)


UNJUDGED_HINT = "commit it through the hooks (`git commit`, never --no-verify)"


class Commit:
    """One commit a branch update brings in."""

    __slots__ = ("message", "parents", "sha", "subject", "tree")

    def __init__(self, sha: str, tree: str, parents: tuple[str, ...], subject: str, message: str):
        self.sha, self.tree, self.parents = sha, tree, parents
        self.subject, self.message = subject, message

    @property
    def key(self) -> str:
        return record_key(self.tree, self.parents, self.message)


class Refusal:
    """A commit the policy refuses, with what is wrong."""

    __slots__ = ("commit", "findings", "ref")

    def __init__(self, ref: str, commit: Commit, findings: list[Finding]) -> None:
        self.ref, self.commit, self.findings = ref, commit, findings


def is_zero(oid: str) -> bool:
    return not oid.strip("0")


def parse_updates(text: str) -> list[tuple[str, str, str]]:
    """(old, new, ref) of every branch update in a reference-transaction's input that sets a
    tip (deletions and other refs left out)."""
    updates = []
    for line in text.splitlines():
        parts = line.split(" ")
        if len(parts) == 3 and parts[2].startswith("refs/heads/") and not is_zero(parts[1]):
            updates.append((parts[0], parts[1], parts[2]))
    return updates


def _parse_log(text: str) -> list[Commit]:
    commits = []
    for chunk in text.split("\x1e"):
        fields = chunk.lstrip("\n").split("\x1f", 4)
        if len(fields) == 5:
            sha, tree, parents, subject, message = fields
            commits.append(Commit(sha, tree, tuple(parents.split()), subject, message))
    return commits


def _rev_list_args(new: str, exclude: list[str], remotes: bool) -> list[str]:
    # a replacement (refs/replace/*) would show another commit's tree, parents and message
    args = ["--no-replace-objects", "rev-list", "--reverse", "--topo-order", _FORMAT]
    args += ["--no-commit-header", new, "--not"]
    return [*args, *exclude, *(_REMOTES if remotes else ()), "--"]


def brought_in(root: Path, new: str, exclude: list[str], *, remotes: bool) -> list[Commit]:
    """The commits reachable from new and from none of exclude (the caller adds the baseline)
    or (with remotes) a remote-tracking branch, oldest first."""
    from tddhooks import git

    args = _rev_list_args(new, exclude, remotes)
    return _parse_log(git.out(args, root, keep_env=True))


def spawn_git(args: list[str]) -> tuple[int, str]:
    """(exit code, stdout) of `git args` in this directory with git's own environment (keys
    scrubbed), without the subprocess module: the reference-transaction hook runs on every
    branch move, and most moves need two git calls and nothing else."""
    from tddhooks.keys import scrub_env

    read_end, write_end = os.pipe()
    actions = [
        (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
        (os.POSIX_SPAWN_DUP2, write_end, 1),
        (os.POSIX_SPAWN_CLOSE, read_end),
        (os.POSIX_SPAWN_CLOSE, write_end),
    ]
    try:
        pid = os.posix_spawnp("git", ["git", *args], scrub_env(os.environ), file_actions=actions)
    finally:
        os.close(write_end)
    chunks = []
    with open(read_end, "rb") as stream:
        chunks.append(stream.read())
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), b"".join(chunks).decode("utf-8", "surrogateescape")


def common_dir_light() -> str | None:
    """The common git directory as git finds it for a hook (GIT_COMMON_DIR, GIT_DIR, else the
    `.git` folder or `gitdir:` file in the work tree's top, where git runs hooks, and its
    `commondir`), read from files; None when it is not that simple (then git is asked)."""
    gitdir = os.environ.get("GIT_COMMON_DIR") or os.environ.get("GIT_DIR")
    if not gitdir:
        dot = os.path.join(os.getcwd(), ".git")
        if os.path.isdir(dot):
            gitdir = dot
        elif os.path.isfile(dot):
            try:
                with open(dot, encoding="utf-8") as stream:
                    line = stream.readline().strip()
            except (OSError, ValueError):
                return None
            if not line.startswith("gitdir: "):
                return None
            gitdir = line.removeprefix("gitdir: ")
        else:
            return None
    gitdir = os.path.abspath(gitdir)
    try:
        with open(os.path.join(gitdir, "commondir"), encoding="utf-8") as stream:
            gitdir = os.path.normpath(os.path.join(gitdir, stream.readline().strip()))
    except FileNotFoundError:
        pass
    except (OSError, ValueError):
        return None
    return gitdir if os.path.isdir(gitdir) else None


def all_recorded(updates: list[tuple[str, str, str]]) -> bool:
    """The fast answer for the usual move (a commit the hooks judged, a reset back, a switch):
    every update names its old tip, and each commit it brings in carries a record."""
    if any(is_zero(old) for old, _, _ in updates):
        return False
    common = common_dir_light()
    if common is None:
        code, found = spawn_git(["rev-parse", "--git-common-dir"])
        if code != 0 or not found.strip():
            return False
        common = os.path.abspath(found.strip())
    state = os.path.join(common, "tddhooks")
    base = baseline(state)
    for old, new, _ref in updates:
        code, log = spawn_git(_rev_list_args(new, [old, *base], remotes=False))
        # a root commit is judged by the policy before the move (`unjudged`), never waved on
        if code != 0 or not all(c.parents and is_recorded(state, c.key) for c in _parse_log(log)):
            return False
    return True


def current_tips(root: Path, refs: list[str]) -> dict[str, str]:
    """ref -> the commit it points at now (in `prepared`, before the update)."""
    from tddhooks import git

    listing = git.out(["for-each-ref", "--format=%(objectname) %(refname)", *refs], root,
                      keep_env=True)  # fmt: skip
    tips = {}
    for line in listing.splitlines():
        sha, _, name = line.partition(" ")
        if name in refs:
            tips[name] = sha
    return tips


class Judge:
    """Judges commits as `tddhooks audit` does, by each one's parent's policy, reusing the hooks'
    verdict store (the same tree under the same policy is gated once)."""

    def __init__(self, root: Path, state: Path) -> None:
        self.root, self.state = root, state
        self._verdicts: dict[tuple[str, PolicySettings], Verdict] = {}

    def verdict(self, tree: str, settings: PolicySettings) -> Verdict:
        if (tree, settings) not in self._verdicts:
            from tddhooks.policy.gate import tree_verdict

            self._verdicts[tree, settings] = tree_verdict(self.root, tree, settings)
        return self._verdicts[tree, settings]

    def findings(self, commit: Commit, policy_from: str | None = None) -> list[Finding]:
        """What the policy refuses in commit (empty: accepted): its parent's policy, or for a
        root commit the policy of policy_from (the branch before the move) when given."""
        from tddhooks.policy.judge import CommitInfo, gate_findings, message_findings
        from tddhooks.policy.settings import settings_at

        base = commit.parents[0] if commit.parents else policy_from
        settings = settings_at(self.root, base, self.state, own=commit.sha)
        info = CommitInfo(commit.sha, commit.parents, commit.subject)
        found = message_findings(self.root, info, settings)
        if settings.enabled("green"):
            found += gate_findings(self.root, info, settings, self)
        return found

    def trusts_remotes(self, rev: str | None) -> bool:
        from tddhooks.policy.settings import settings_at

        return settings_at(self.root, rev, self.state).trust_remotes


def unjudged(
    root: Path,
    state: Path,
    moves: list[tuple[str, str, list[str]]],
    judge: Judge,
    *,
    judge_now: bool = True,
) -> list[Refusal]:
    """The commits that moving each ref to new brings in (none reachable from its exclude list)
    that the policy refuses. judge_now judges an unrecorded commit as `audit` does and records
    it when accepted; otherwise an unrecorded commit is refused as unjudged."""
    refusals: list[Refusal] = []
    base = baseline(state)
    for ref, new, exclude in moves:
        excluded = [oid for oid in [*exclude, *base] if oid and not is_zero(oid)]
        arriving = brought_in(root, new, excluded, remotes=False)
        # a root commit arriving where a policy is in force cannot bring its own (a new history
        # whose first commit loosens tdd.yaml and adds a red test): judged by the one before
        before = (
            _policy_before(root, exclude, base, {c.sha for c in arriving})
            if any(not c.parents for c in arriving)
            else None
        )
        waiting = [c for c in arriving
                   if not is_recorded(state, c.key) or (before and not c.parents)]  # fmt: skip
        if not waiting:
            continue
        local = {c.sha for c in brought_in(root, new, excluded, remotes=True)}
        if any(c.sha not in local for c in waiting) and _trusts_remotes(judge, root, new, exclude):
            waiting = [c for c in waiting if c.sha in local]
        replaced = judge_now and waiting and _has_replacements(root)
        for commit in waiting:
            if replaced:
                refusals.append(Refusal(ref, commit, [replaced_finding(commit)]))
                continue
            if judge_now:
                found = judge.findings(commit, None if commit.parents else before)
            else:
                found = [unjudged_finding(commit)]
            if found:
                refusals.append(Refusal(ref, commit, found))
            else:
                write_record(state, commit.key)
    return refusals


def _trusts_remotes(judge: Judge, root: Path, new: str, exclude: list[str]) -> bool:
    """Whether fetched commits pass unjudged: only when the policy in force before the move (the
    ref's old tip, else HEAD) and the arriving tip both say so; the commits being judged never
    decide for themselves (a red commit setting `trust_remotes: true` in its own tdd.yaml)."""
    before = _policy_before(root, exclude, [])
    if before is not None and not judge.trusts_remotes(before):
        return False
    return judge.trusts_remotes(new)


def _policy_before(
    root: Path, exclude: list[str], base: list[str], arriving: set[str] | None = None
) -> str | None:
    """The commit whose policy is in force before a move: the ref's old tip, else HEAD, else the
    first branch tip sealed at install, never one of the `arriving` commits themselves (after the
    fact, HEAD may be the arriving root); None in a repository with no history before them."""
    from tddhooks import git

    arriving = arriving or set()
    before = next((oid for oid in exclude if oid and not is_zero(oid)), None)
    if before is None:
        found = git.run_git(["rev-parse", "--verify", "-q", "HEAD"], root, check=False)
        head = found.stdout.strip() if found.ok else ""
        before = head if head and head not in arriving else None
    return before or next((oid for oid in base if oid not in arriving), None)


def _has_replacements(root: Path) -> bool:
    from tddhooks import git

    listing = git.out(["for-each-ref", "--count=1", "--format=%(refname)", "refs/replace/"], root)
    return bool(listing.strip())


def replaced_finding(commit: Commit) -> Finding:
    """A commit cannot be judged while git shows other objects in place of some (the judging
    reads the repository through git, which follows refs/replace/*)."""
    from tddhooks.policy.judge import Finding

    return Finding(
        commit.sha,
        commit.subject,
        "replaced-objects",
        "the repository has replacement objects (refs/replace/*), so git would show the judge "
        "other content than the commit holds",
        "list them with `git replace -l` and delete them with `git replace -d <sha>`, then run "
        "the command again",
    )


def unjudged_finding(commit: Commit) -> Finding:
    from tddhooks.policy.judge import Finding

    return Finding(
        commit.sha,
        commit.subject,
        "unjudged",
        "no tddhooks hook judged it (made with the hooks off: core.hooksPath changed, or "
        "written under .git/ directly)",
        "",
    )


def undo_hint(refusal: Refusal, tip: str | None) -> str:
    """The next legal step for a refused commit."""
    commit = refusal.commit
    parent = commit.parents[0] if commit.parents else None
    if tip is not None and parent == tip:
        return (
            "nothing landed and your changes are still staged: fix what is named above and "
            "commit through the hooks (`git commit`, never --no-verify)"
        )
    where = f"`git reset --soft {parent[:12]}`" if parent else "`git reset --soft` to its parent"
    return (
        f"{refusal.ref} was not moved; to bring this change in, put it on its parent "
        f"({where} on a branch at {commit.sha[:12]}) and commit it through the hooks "
        "(`git commit`, never --no-verify)"
    )


def checked_out_paths(cwd: Path, tip: str | None, new: str, action: str) -> list[str]:
    """The files a refused branch move that is no commit (a pull or merge: `action`, git's
    GIT_REFLOG_ACTION, names the command) already wrote into the index and work tree before git
    asked this hook: those `new` changes against the branch's tip, when the index holds exactly
    `new`'s tree; [] for a commit or when the index is the person's own."""
    from tddhooks import git

    if not action or action.split()[0] == "commit" or tip is None or tip == new:
        return []
    holds = git.run_git(["diff-index", "--cached", "--quiet", new, "--"], cwd, check=False,
                        keep_env=True)  # fmt: skip
    if not holds.ok:
        return []
    names = git.run_git(["diff", "--name-only", "-z", "--no-renames", tip, new], cwd,
                        check=False, keep_env=True).stdout  # fmt: skip
    return [name for name in names.split("\0") if name]


def restore_hint(paths: list[str], new: str, tip: str, action: str) -> str:
    """How to put back exactly the files a refused pull or merge wrote (pure)."""
    import shlex

    command = action.split()[0]
    listed = " ".join(shlex.quote(path) for path in paths[:20])
    if len(paths) > 20:
        listed = f"$(git diff --name-only {tip[:12]} {new[:12]})"
    return (
        f"nothing landed (the branch is still at {tip[:12]}), but `git {command}` already wrote "
        f"{new[:12]}'s files into your index and work tree; `git restore --source=HEAD "
        f"--staged --worktree -- {listed}` puts back exactly those files (nothing else of "
        "yours is touched); then bring the change in through the hooks (`git commit`)"
    )


def rejection_text(
    refusals: list[Refusal],
    tips: dict[str, str],
    action: str,
    written: dict[str, tuple[str, list[str]]] | None = None,
) -> str:
    """The refusal in the other hooks' style: rule, what, next legal step; then the undo.
    `written` maps a ref to the refused tip and the files the command (`action`) already wrote
    into the work tree for it (checked_out_paths)."""
    from tddhooks.policy.rules import Violation, format_rejection

    violations = []
    for refusal in refusals:
        commit = refusal.commit
        by = f" by {action}" if action else ""
        for finding in refusal.findings:
            what = (
                f"{commit.sha[:12]} ({commit.subject[:60]}), brought onto {refusal.ref}{by}, "
                f"was judged by no tddhooks hook, and {finding.message}"
            )
            violations.append(Violation(finding.rule, what, finding.hint or UNJUDGED_HINT))
    undo = []
    for refusal in refusals:
        new, paths = (written or {}).get(refusal.ref, ("", []))
        tip = tips.get(refusal.ref)
        step = restore_hint(paths, new, tip, action) if paths and tip else None
        undo.append(f"next: {step or undo_hint(refusal, tip)}")
    return format_rejection(violations) + "\n".join(dict.fromkeys(undo)) + "\n"


TIPS = "branch-tips.json"


def landed_unjudged(root: Path, state: Path) -> list[Refusal]:
    """Commits on any branch that no hook judged, since the tips last seen clean (the agent hooks
    ask after every tool call and at Stop). A branch whose new commits are all judged has its tip
    remembered; a refused one keeps the last clean tip, so the report stays until it is undone."""
    import json

    from tddhooks.policy.judged import BASELINE_TAKEN

    if not (state / BASELINE_TAKEN).exists():
        return []  # tddhooks' git hooks were never installed here: nothing was judged
    path = state / TIPS
    try:
        seen = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        seen = {}
    if not isinstance(seen, dict):
        seen = {}
    tips = _all_branch_tips(root)
    if tips == seen:
        return []
    judge = Judge(root, state)
    refusals: list[Refusal] = []
    clean = {}
    for ref, tip in tips.items():
        last = seen.get(ref)
        found = [] if last == tip else unjudged(root, state, [(ref, tip, [str(last or "")])],
                                                 judge, judge_now=False)  # fmt: skip
        refusals += found
        if found:
            if isinstance(last, str):
                clean[ref] = last
        else:
            clean[ref] = tip
    temporary = path.with_name(f".{TIPS}.{os.getpid()}")
    temporary.write_text(json.dumps(clean, sort_keys=True), encoding="utf-8")
    os.replace(temporary, path)
    return refusals


def _all_branch_tips(root: Path) -> dict[str, str]:
    from tddhooks import git

    listing = git.out(["for-each-ref", "--format=%(objectname) %(refname)", "refs/heads/"], root)
    return {name: sha for sha, _, name in (line.partition(" ") for line in listing.splitlines())}


def landed_report(refusals: list[Refusal]) -> str:
    """What the agent is told about commits that landed without a hook judging them: each one,
    then per branch the undo to the parent of its oldest such commit."""
    lines = ["tddhooks: a commit landed that no tddhooks hook judged; undo it now:"]
    oldest: dict[str, Commit] = {}
    for refusal in refusals:
        commit = refusal.commit
        oldest.setdefault(refusal.ref, commit)
        lines.append(f"- {commit.sha[:12]} ({commit.subject[:60]}) on {refusal.ref}")
    for ref, commit in oldest.items():
        branch = ref.removeprefix("refs/heads/")
        parent = commit.parents[0] if commit.parents else None
        undo = f"`git reset --soft {parent}`" if parent else f"`git update-ref -d {ref}`"
        lines.append(
            f"undo on {branch} (`git switch {branch}` first if you are elsewhere): {undo} keeps "
            "the changes staged; then commit them through the hooks (`git commit`, never "
            "--no-verify, hooks path unchanged)"
        )
    return "\n".join(lines)
