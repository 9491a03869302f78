"""`tddhooks install --pre-commit`: our entries in `.pre-commit-config.yaml`, run by pre-commit or
prek, and the way back (`uninstall`, or the default install migrating away from it).

Those frameworks move unstaged edits out of the work tree while their hooks run (pre-commit's
staged_files_only, at every stage: pre-commit, commit-msg, prepare-commit-msg), which is why this
route is opt-in. The framework scripts this route installs are recorded in
`.git/tddhooks/install.json`, so `uninstall` removes exactly those and puts back a hook the
framework had moved to `<hook>.legacy`. See docs/hooks.md.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

from tddhooks import git, output, proc
from tddhooks.commands import hook_files as hf
from tddhooks.commands import precommit_config as pcc
from tddhooks.errors import EnvironmentProblem

STATE_FILE = "install.json"
STASH_WARNING = (
    "{name} moves your unstaged edits out of the work tree while its hooks run (at pre-commit, "
    "commit-msg and prepare-commit-msg) and puts them back afterwards; a file saved meanwhile, "
    "or a commit killed halfway, leaves them only in a patch under {name}'s cache directory. "
    "The default `tddhooks install` (without --pre-commit) never does that."
)


def framework_in_use(root: Path) -> str | None:
    """ "prek" or "pre-commit" when one of git's hooks (or a chained one) is that framework's."""
    found = []
    for slot in hf.slots(root).values():
        for path in (slot.main, slot.chained):
            found.append(hf.kind(path))
    for name in ("prek", "pre-commit"):
        if name in found:
            return name
    return None


def _command(framework: str) -> list[str]:
    if framework == "prek":
        prek = shutil.which("prek")
        if prek is None:
            raise EnvironmentProblem(
                "this repository's hooks are prek's, and `prek` is not on PATH",
                fix="install prek (`pip install prek`) or activate its environment",
            )
        return [prek]
    return [sys.executable, "-m", "pre_commit"]


def _framework(root: Path, framework: str, *args: str) -> None:
    result = proc.run([*_command(framework), *args], cwd=root, env=git.clean_env(), timeout_s=120)
    if not result.ok:
        raise EnvironmentProblem(
            f"`{framework} {' '.join(args)}` failed in {root}: {result.output.strip()[:800]}",
            fix=f"run `{framework} {' '.join(args)}` there to see why, or use the default "
            "`tddhooks install`",
        )


def _state_path(root: Path) -> Path:
    return git.git_dir(root) / "tddhooks" / STATE_FILE


def _read_state(root: Path) -> dict[str, object]:
    try:
        data = json.loads(_state_path(root).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _recorded_types(state: dict[str, object]) -> list[str]:
    types = state.get("installed_types")
    return [str(t) for t in types if t in hf.HOOK_TYPES] if isinstance(types, list) else []


def _write_state(root: Path, state: dict[str, object]) -> None:
    path = _state_path(root)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(state, indent=2) + "\n", encoding="utf-8")
    except OSError as error:
        raise EnvironmentProblem(
            f"cannot record the install in {path}: {error.strerror or error}",
            fix=f"make {path.parent} a writable directory (remove a file of that name)",
        ) from error


def install(root: Path, *, suggest_commit: bool) -> None:
    """Add our entries to the config and have the framework install its scripts for them."""
    setting = git.run_git(["config", "--get", "core.hooksPath"], root, check=False).stdout.strip()
    if setting:
        raise hf.HookConflict(
            f"core.hooksPath is set to {setting!r}; pre-commit refuses to install hooks then",
            fix="run `tddhooks install` (its shims go into that directory), or "
            "`git config --unset-all core.hooksPath` and run `tddhooks install --pre-commit` again",
        )
    config = root / pcc.CONFIG_FILE
    if config.is_symlink():
        raise hf.HookConflict(
            f"{config} is a symbolic link; tddhooks edits no file through a link",
            fix="add the tddhooks hooks to the file it points to by hand (docs/hooks.md), or use "
            "the default `tddhooks install`",
        )
    hf.remove_shims(root)  # puts back a framework script our shims had chained to
    before = pcc.read_text(config)
    after = pcc.add_hooks(before, config)
    if after != before:
        pcc.write_atomically(config, after)
        output.ok(f"{'added tddhooks hooks to' if before else 'created'} {config}")
    else:
        output.ok(f"{config} already lists the tddhooks hooks")
    for note in pcc.notes(after, config):
        output.warn(note)
    framework = framework_in_use(root) or "pre-commit"
    slots = hf.slots(root, hf.HOOK_TYPES)
    new_types = [t for t, slot in slots.items() if hf.kind(slot.main) not in hf.FRAMEWORKS]
    if new_types:
        _framework(root, framework, "install", *[a for t in new_types for a in ("-t", t)])
        state = _read_state(root)
        recorded = _recorded_types(state)
        _write_state(root, {"framework": framework,
                            "installed_types": sorted({*recorded, *new_types})})  # fmt: skip
    output.ok(f"{framework} runs the pre-commit, commit-msg and prepare-commit-msg hooks")
    output.warn(STASH_WARNING.format(name=framework))
    if after != before and suggest_commit:
        output.say(  # the framework refuses to run while its config has unstaged changes
            f"next: `git add {pcc.CONFIG_FILE} && git commit -m 'chore: install tddhooks hooks'`"
        )


def uninstall(root: Path) -> bool:
    """Remove our config entries and the framework scripts this route installed."""
    changed = False
    config = root / pcc.CONFIG_FILE
    before = None if config.is_symlink() else pcc.read_text(config)
    remaining = before
    if pcc.has_our_hooks(before):
        assert before is not None
        remaining = pcc.remove_hooks(before, config)
        if remaining is None:
            config.unlink()
            output.ok(f"deleted {config} (tddhooks created it and nothing else is left)")
        elif remaining != before:
            pcc.write_atomically(config, remaining)
            output.ok(f"removed the tddhooks entries from {config}; commit that change")
        changed = remaining != before
    state = _read_state(root)
    types = _recorded_types(state)
    if not state and changed:
        # installed by an older tddhooks that kept no record: keep the types the config declares
        declared = pcc.declared_install_types(remaining, config) if remaining else []
        types = [t for t in hf.HOOK_TYPES if t not in (declared or [])]
    slots = hf.slots(root, hf.HOOK_TYPES)
    types = [t for t in types if t in slots and hf.kind(slots[t].main) in hf.FRAMEWORKS]
    if types:
        framework = hf.kind(slots[types[0]].main)
        _framework(root, framework, "uninstall", *[a for t in types for a in ("-t", t)])
        output.ok(f"removed {framework}'s {', '.join(types)} scripts that tddhooks had installed")
        changed = True
    if state:
        _state_path(root).unlink(missing_ok=True)
    return changed
