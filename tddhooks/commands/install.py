"""`tddhooks install [--direct | --pre-commit]` and `uninstall`.

The default writes our POSIX shims into git's hooks directory (core.hooksPath respected). Where
pre-commit or prek is installed, its script keeps running, chained after ours: nothing tddhooks
installs by default removes, stashes or rewrites anything in the work tree, even for a moment.
`--pre-commit` instead lists our hooks in `.pre-commit-config.yaml` (framework_route.py).
Never deletes or overwrites what tddhooks did not write. See docs/hooks.md.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from tddhooks import git, output
from tddhooks.commands import framework_route, hook_files
from tddhooks.commands import precommit_config as pcc
from tddhooks.commands.hook_files import (  # re-exported: doctor and tests use these names
    SHIM_MARKER,
    HookConflict,
    current_shim,
    is_our_shim,
    render_shim,
)
from tddhooks.errors import UsageError

__all__ = ["SHIM_MARKER", "HookConflict", "current_shim", "is_our_shim", "render_shim"]
HOOK_TYPES = hook_files.HOOK_TYPES


def hooks_status(root: Path) -> dict[str, str]:
    """Hook type -> "direct" (our shim runs, outside any stash) | "pre-commit" (pre-commit's or
    prek's script, our entries in its config) | "foreign" | "missing"."""
    status = {}
    for hook_type, slot in hook_files.slots(root).items():
        kind = hook_files.kind(slot.main)
        if slot.shim() is not None:
            status[hook_type] = "direct"
        else:
            status[hook_type] = "pre-commit" if kind in hook_files.FRAMEWORKS else kind
    return status


def install(
    work_dir: Path, *, direct: bool = False, pre_commit: bool = False, agents: Sequence[str] = ()
) -> int:
    """Install the three hooks into the repository containing work_dir (and, for each agent
    named, our entries in its hook configuration: docs/agents.md)."""
    root = git.require_root(work_dir)
    install_hooks(root, direct=direct, pre_commit=pre_commit)
    from tddhooks.policy.snapshot import remove_legacy

    removed = remove_legacy(git.tddhooks_dir(root))
    if removed:
        output.ok(f"removed the old gate snapshot from .git/tddhooks/: {', '.join(removed)}")
    if agents:
        from tddhooks.agenthooks.command import install_agents

        install_agents(root, agents, install=True)
    from tddhooks.policy.diagnosis import report_head

    found = report_head(root)  # onboarding: what the gate says of HEAD, the first commit to green
    if found is not None and found.state == "tool":
        output.warn("the hooks are installed, but the gate cannot run here until that is fixed")
        return 3  # an environment problem: the hooks would refuse every commit
    return 0


def install_hooks(
    root: Path, *, direct: bool = False, pre_commit: bool = False, suggest_commit: bool = True
) -> None:
    """Install into the repository at root; suggest_commit=False when the caller commits."""
    if direct and pre_commit:
        raise UsageError("--direct and --pre-commit exclude each other", fix="choose one")
    if pre_commit:
        framework_route.install(root, suggest_commit=suggest_commit)
        hook_files.install_shims(root, hook_files.GUARD_TYPES)  # the framework has no such hooks
        record_baseline(root)
        return
    config = root / pcc.CONFIG_FILE
    if pcc.file_has_our_hooks(config):
        output.say(f"moving tddhooks' hooks out of {pcc.CONFIG_FILE}, where they ran stashed:")
        framework_route.uninstall(root)
    chained = hook_files.install_shims(root)
    record_baseline(root)
    framework = framework_route.framework_in_use(root)
    if framework:
        output.ok(
            f"tddhooks runs first and never stashes; {framework}'s own hooks run after it "
            f"(chained: {', '.join(chained) or 'as before'})"
        )
        output.say(
            f"note: {framework} itself still moves unstaged edits aside while its own hooks run"
        )
    elif config.exists():
        output.say(
            f"note: {pcc.CONFIG_FILE} is here but pre-commit's hooks are not installed in this "
            "clone; `pre-commit install` later keeps tddhooks' hooks (as <hook>.legacy), first"
        )
    elif chained:
        output.ok(f"your hooks run after tddhooks': {', '.join(chained)}")


def record_baseline(root: Path) -> None:
    """Once per repository: every branch's tip now, sealed in `.git/tddhooks/baseline-taken`
    and kept as refs/tddhooks/baseline/<branch> (a ref keeps its commits through gc), so the
    reference-transaction hook never judges the history from before tddhooks. A later install
    changes nothing: it would bless commits made while the hooks were off (docs/security.md)."""
    from tddhooks.policy.judged import BASELINE_PREFIX, BASELINE_TAKEN, write_baseline

    state = git.tddhooks_dir(root)
    if (state / BASELINE_TAKEN).exists():
        return
    listing = git.out(["for-each-ref", "--format=%(objectname) %(refname)", "refs/heads/"], root)
    updates = ""
    tips = []
    for line in listing.splitlines():
        sha, _, name = line.partition(" ")
        tips.append(sha)
        updates += f"update {BASELINE_PREFIX}{name.removeprefix('refs/heads/')} {sha}\n"
    if updates:
        git.run_git(["update-ref", "--stdin"], root, stdin=updates)
    write_baseline(state, sorted(set(tips)))


def uninstall(work_dir: Path) -> int:
    """Remove what tddhooks installed (shims with our marker, our config entries, the framework
    scripts it installed) and put back what it moved; nothing else."""
    root = git.require_root(work_dir)
    changed = hook_files.remove_shims(root)
    changed = framework_route.uninstall(root) or changed
    if not changed:
        output.say("nothing to uninstall: no hooks written by tddhooks were found")
    return 0


def tddhooks_on_path() -> str | None:
    """Where `tddhooks` resolves on PATH (the hooks call it), or None."""
    import shutil

    return shutil.which("tddhooks", path=os.environ.get("PATH"))
