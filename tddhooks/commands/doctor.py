"""`tddhooks doctor`: git, the language toolchain, the hooks, tdd.yaml, the kata file, the model.

Each check is a row (ok / warn / fail, with the fix). Exit 3 when a tool or the environment is
missing, else 2 when the configuration is broken, else 0.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from tddhooks import git, output, proc
from tddhooks.errors import EXIT_ENVIRONMENT, EXIT_OK, EXIT_USAGE, ConfigError

if TYPE_CHECKING:
    from tddhooks.config import TddConfig

MIN_GIT = (2, 24)  # `--end-of-options`, used by audit
ENVIRONMENT = "environment"
CONFIG = "config"
_RUST_FIXES = {
    "cargo": "install Rust with rustup (https://rustup.rs) and put ~/.cargo/bin on PATH",
    "clippy": "rustup component add clippy",
    "rustfmt": "rustup component add rustfmt",
}


@dataclass(frozen=True)
class Check:
    """One row of the report; `category` decides the exit code of a failure."""

    name: str
    status: str  # "ok" | "warn" | "fail"
    detail: str
    fix: str | None = None
    category: str = ENVIRONMENT


def exit_code(checks: Sequence[Check]) -> int:
    """3 when an environment check failed, else 2 when a config check failed, else 0."""
    failed = {check.category for check in checks if check.status == "fail"}
    if ENVIRONMENT in failed:
        return EXIT_ENVIRONMENT
    return EXIT_USAGE if CONFIG in failed else EXIT_OK


def parse_git_version(text: str) -> tuple[int, ...] | None:
    """(2, 39, 5) from 'git version 2.39.5' (pure)."""
    match = re.search(r"(\d+)\.(\d+)(?:\.(\d+))?", text)
    return tuple(int(part) for part in match.groups() if part is not None) if match else None


def tool_probes(commands: Sequence[Sequence[str]]) -> list[tuple[str, list[str], str]]:
    """(row name, version command, fix) for the programs the gate's commands need (pure)."""
    probes: dict[tuple[str, ...], tuple[str, list[str], str]] = {}
    for cmd in commands:
        if not cmd:
            continue
        program = cmd[0]
        if Path(program).name == "cargo":
            sub = next((word for word in cmd[1:] if not word.startswith(("-", "+"))), "")
            name = {"clippy": "clippy", "fmt": "rustfmt"}.get(sub, "cargo")
            argv = [program, sub, "--version"] if name != "cargo" else [program, "--version"]
            cargo = [program, "--version"]
            probes.setdefault(tuple(cargo), ("cargo", cargo, _RUST_FIXES["cargo"]))
            probes.setdefault(tuple(argv), (name, argv, _RUST_FIXES[name]))
        elif len(cmd) > 2 and cmd[1] == "-m":
            python = [program, "--version"]
            probes.setdefault(tuple(python), (Path(program).name, python, "install Python 3"))
            argv = [program, "-m", cmd[2], "--version"]
            probes.setdefault(tuple(argv), (cmd[2], argv, f"`{program} -m pip install {cmd[2]}`"))
        else:
            name = Path(program).name
            argv = [program, "--version"]
            probes.setdefault(tuple(argv), (name, argv, f"install {name} and put it on PATH"))
    return list(probes.values())


def run(work_dir: Path, *, offline: bool) -> int:
    """Print the checks for the repository at work_dir and return the exit code."""
    checks = [_git_check()]
    root = git.find_root(work_dir)
    if root is None:
        fix = (
            "an existing project: `git init` then `tddhooks install`; "
            "a new kata: `tddhooks init DIR`"
        )
        checks.append(Check("repository", "fail", f"{work_dir} is not a git repository", fix))
    base = root or work_dir
    config, config_check = _config_check(base)
    checks.append(config_check)
    if config is not None:
        checks.append(_runner_check(base, config))
        checks.append(_kata_check(base, config, (base / "tdd.yaml").exists()))
        checks += _kata_reading_check(base, config, in_repository=root is not None)
        checks += answer_checks(config)
    checks += _toolchain_checks(base, config)
    if root is not None:
        checks += _hook_checks(root)
        checks += _gate_check(root)
    checks.append(_on_path_check(root))
    if config is not None:
        checks += _llm_checks(base, config, offline=offline)
    _print(checks)
    if offline:
        output.say("[dim]model endpoint checks skipped (--offline)[/dim]")
    return exit_code(checks)


def answer_checks(config: TddConfig) -> list[Check]:
    """One row per answer check the drive applies under tdd.yaml's `drive` settings (id, effect,
    profile; docs/checks.md)."""
    from tddhooks.drive.checks import active_checks

    try:
        active = active_checks(config.drive.profile, config.drive.checks.disabled)
    except ConfigError as error:
        return [Check("drive checks", "fail", error.message, error.fix, CONFIG)]
    return [
        Check(f"check {check.id}", "ok", f"{check.effect}, {check.profile}: {check.reason}")
        for check in active.in_effect()
    ]


def _gate_check(root: Path) -> list[Check]:
    """The gate on HEAD: green, or why not and the first legal commit to green."""
    from tddhooks.errors import TddhooksError
    from tddhooks.policy.diagnosis import diagnose_head

    try:
        found = diagnose_head(root)
    except TddhooksError as error:
        return [Check("gate on HEAD", "fail", error.message, error.fix, CONFIG)]
    if found is None:
        return []
    detail = "\n".join([found.summary, *found.details])
    if found.green:  # an ok check has nothing to fix
        return [Check("gate on HEAD", "ok", detail)]
    return [Check("gate on HEAD", "warn", detail, found.first_commit)]


def _git_check() -> Check:
    result = proc.run(["git", "--version"], timeout_s=30)
    if not result.ok:
        return Check("git", "fail", result.output.strip(), "install git 2.24 or newer")
    version = parse_git_version(result.stdout) or ()
    text = result.stdout.strip()
    if version < MIN_GIT:
        return Check("git", "warn", f"{text} is older than 2.24", "upgrade git")
    return Check("git", "ok", text)


def _config_check(root: Path) -> tuple[TddConfig | None, Check]:
    from tddhooks.config import CONFIG_FILE, load_config

    path = root / CONFIG_FILE
    try:
        config = load_config(root)
    except ConfigError as error:
        return None, Check("tdd.yaml", "fail", error.message, error.fix, CONFIG)
    if not path.exists():
        # never `tddhooks init .` here: on an existing project it would add a kata to it
        detail = "no tdd.yaml: the defaults apply"
        fix = (
            "optional: write tdd.yaml to change them "
            '(every field: README.md, "Configuration: tdd.yaml")'
        )
        return config, Check("tdd.yaml", "ok", f"{detail} ({fix})")
    return config, Check("tdd.yaml", "ok", f"{path} is valid (language {config.language})")


def _runner_check(root: Path, config: TddConfig) -> Check:
    """Which runner applies and why: tdd.yaml's `language:`, the manifests found, or the default."""
    from tddhooks.config import CONFIG_FILE
    from tddhooks.runners import detected_languages

    language = config.language
    found = detected_languages(root)
    if _configures_language(root / CONFIG_FILE):
        why = f"`language: {language}` in {CONFIG_FILE}"
    elif found:
        why = f"detected from {'; '.join(', '.join(names) for names in found.values())}"
    else:
        why = "no manifest (Cargo.toml, pyproject.toml, …) and no `language:`: the default"
    tools = "cargo fmt, clippy and cargo test" if language == "rust" else "ruff and pytest"
    detail = f"{language}: {why}; the gate runs {tools}"
    from tddhooks.policy.gate import missing_manifest
    from tddhooks.policy.settings import load_settings
    from tddhooks.runners import get_runner

    try:
        settings = load_settings(root)
    except ConfigError:
        settings = None
    missing = None
    if settings is not None:
        missing = missing_manifest(root, settings, get_runner(settings.language))
    if missing is not None:  # the runner cannot run here: never ok
        what, _, fix = missing.partition("; ")
        return Check("runner", "fail", f"{detail}; but {what}", fix, CONFIG)
    return Check("runner", "ok", detail)


def _configures_language(path: Path) -> bool:
    import yaml

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return False
    return isinstance(data, dict) and "language" in data


def _kata_check(root: Path, config: TddConfig, has_config: bool) -> Check:
    path = root / config.kata_description
    if path.is_file():
        return Check("kata", "ok", str(path))
    if has_config and "kata_description" in config.model_fields_set:
        fix = f"write {config.kata_description}, or correct kata_description in tdd.yaml"
        return Check("kata", "fail", f"{path} (kata_description) is missing", fix, CONFIG)
    detail = (
        f"no {config.kata_description}: `Kata goal:` in commit messages is free text, or left out"
    )
    return Check("kata", "ok", f"{detail} (kata_description in tdd.yaml points at another file)")


def _kata_reading_check(root: Path, config: TddConfig, *, in_repository: bool) -> list[Check]:
    """What the drive reads from the kata file (commands/kata_reading.py); none without one."""
    from tddhooks.commands.kata_reading import read_kata
    from tddhooks.drive.ports import GitWorkspace
    from tddhooks.errors import TddhooksError

    path = root / config.kata_description
    if not path.is_file():
        return []
    try:
        kata = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        fix = f"save {config.kata_description} as UTF-8 text"
        return [Check("kata checks", "warn", f"{path} cannot be read: {error}", fix, CONFIG)]
    try:
        listed = GitWorkspace().listed(root) if in_repository else _work_tree_packages(root)
    except TddhooksError as error:  # an index git cannot read: the other checks still run
        return [Check("kata checks", "warn", error.message, error.fix, CONFIG)]
    reading = read_kata(kata, config.language, root, listed)
    status = "ok" if reading.fix is None else "warn"
    return [Check("kata checks", status, reading.detail, reading.fix, CONFIG)]


def _work_tree_packages(root: Path) -> list[str]:
    """Outside a repository there is no index to list: the `__init__.py` files of the packages
    a Python kata's checks may import (drive/probe.py `python_package`), from the work tree."""
    found = [*root.glob("src/*/__init__.py"), *root.glob("*/__init__.py")]
    return sorted(path.relative_to(root).as_posix() for path in found)


def _toolchain_checks(root: Path, config: TddConfig | None) -> list[Check]:
    from tddhooks.runners import detected_languages, get_runner

    found = list(detected_languages(root))
    language = config.language if config else found[0] if len(found) == 1 else "rust"
    runner = get_runner(language)
    defaults = runner.default_commands()
    ci = config.ci if config else None
    commands = [
        (ci and ci.test_cmd) or defaults.test,
        (ci and ci.check_cmd) or defaults.lint,
        (ci and ci.fmt_check_cmd) or defaults.fmt_check,
    ]
    checks = []
    for name, argv, fix in tool_probes([list(cmd) for cmd in commands]):
        result = proc.run(argv, cwd=root, env=git.clean_env(), timeout_s=60)
        first = (result.output.strip().splitlines() or [""])[0]
        if result.ok:
            checks.append(Check(name, "ok", first))
        else:
            checks.append(Check(name, "fail", f"`{' '.join(argv)}` failed: {first}", fix))
    return checks


def _hook_checks(root: Path) -> list[Check]:
    """One row: whose each git hook is. Every one ours (a direct shim, or the pre-commit
    framework's script with our entry in its config) is ok; otherwise the row names which hooks
    are ours, which are the framework's without a tddhooks entry, which someone else's, which
    missing (e.g. after `tddhooks uninstall` with the framework still installed)."""
    from tddhooks.commands.hook_files import slots
    from tddhooks.commands.install import current_shim, hooks_status
    from tddhooks.commands.precommit_config import CONFIG_FILE, HOOK_IDS, hook_entries, load

    status = hooks_status(root)
    via_pre_commit = [t for t, kind in status.items() if kind == "pre-commit"]
    listed: set[str] = set()
    if via_pre_commit and (root / CONFIG_FILE).exists():
        path = root / CONFIG_FILE
        try:
            listed = {i for _, i in hook_entries(load(path.read_text(encoding="utf-8"), path))}
        except (OSError, ConfigError) as error:
            return [Check("hooks", "fail", f"{path}: {error}", "run `tddhooks install`", CONFIG)]
    groups: dict[str, list[str]] = {}
    for hook_type, kind in status.items():
        if kind == "pre-commit" and HOOK_IDS[hook_type] not in listed:
            kind = "framework"
        groups.setdefault(kind, []).append(hook_type)
    if set(groups) - {"direct", "pre-commit"}:
        lacking = ", ".join(HOOK_IDS[t] for t in groups.get("framework", []))
        names = {  # what is wrong first
            "framework": f"the pre-commit framework's, without tddhooks ({CONFIG_FILE} lacks "
            f"{lacking})",
            "foreign": "not written by tddhooks",
            "missing": "missing",
            "direct": "ours (tddhooks shims)",
            "pre-commit": "ours (through the pre-commit framework)",
        }
        parts = [f"{names[kind]}: {', '.join(groups[kind])}" for kind in names if kind in groups]
        fix = "run `tddhooks install` (a hook of yours or the framework's is kept and runs too)"
        return [Check("hooks", "fail", "; ".join(parts), fix)]
    checks = []
    direct = groups.get("direct", [])
    shims = {t: slot.shim() for t, slot in slots(root).items()}  # the hook or a .legacy
    stale = [t for t in direct if _text(shims[t]) != current_shim(t)]
    if stale:
        detail = f"shims from another tddhooks version or interpreter: {', '.join(stale)}"
        checks.append(Check("hooks", "warn", detail, "run `tddhooks install` again"))
    if not checks:
        from tddhooks.commands.hook_files import GUARD_TYPES

        commit_direct = [t for t in direct if t not in GUARD_TYPES]
        how = (
            "direct shims" if not via_pre_commit else "pre-commit" if not commit_direct else "mixed"
        )
        detail = f"pre-commit, commit-msg, prepare-commit-msg ({how}); {', '.join(GUARD_TYPES)}"
        checks.append(Check("hooks", "ok", detail))
    return checks


def _text(path: Path | None) -> str | None:
    return path.read_text(encoding="utf-8", errors="replace") if path is not None else None


def _on_path_check(root: Path | None) -> Check:
    """Our direct shims fall back to the Python that wrote them (docs/hooks.md), so a missing
    `tddhooks` on PATH only matters when they are not all this Python's, or pre-commit runs them."""
    from tddhooks.commands.install import tddhooks_on_path

    found = tddhooks_on_path()
    if found:
        return Check("tddhooks on PATH", "ok", found)
    if root is not None and _shims_record_this_python(root):
        detail = (
            f"`tddhooks` is not on PATH; the hooks run `{sys.executable} -m tddhooks` instead "
            "(recorded in them), so commits are judged; activate that environment to type "
            "`tddhooks` yourself"
        )
        return Check("tddhooks on PATH", "ok", detail)
    fix = (
        "activate the environment tddhooks is installed in (hooks run from pre-commit's "
        "configuration, or shims written by another Python, call the `tddhooks` on PATH)"
    )
    return Check("tddhooks on PATH", "warn", "`tddhooks` is not on PATH", fix)


def _shims_record_this_python(root: Path) -> bool:
    """True when all three hooks are our direct shims, as this tddhooks writes them now."""
    from tddhooks.commands.hook_files import slots
    from tddhooks.commands.install import current_shim, hooks_status

    if set(hooks_status(root).values()) != {"direct"}:
        return False
    return all(_text(slot.shim()) == current_shim(t) for t, slot in slots(root).items())


def _llm_checks(root: Path, config: TddConfig, *, offline: bool) -> list[Check]:
    """The model rows (tddhooks.llm.health); offline keeps them to what needs no network."""
    from tddhooks.errors import TddhooksError
    from tddhooks.keys import redact
    from tddhooks.llm.health import llm_checks

    try:
        rows = llm_checks(root, config, offline=offline)
    except TddhooksError as error:
        return [Check("model", "fail", error.message, error.fix)]
    checks = []
    for row in rows:
        # a missing key or model is configuration; an unreachable endpoint is environment
        category = CONFIG if row.name.endswith(("key", "model")) else ENVIRONMENT
        fix = redact(row.fix) if row.fix else None  # redacted whole, before any cut
        checks.append(Check(row.name, row.status, redact(row.detail), fix, category))
    return checks


def _print(checks: Sequence[Check]) -> None:
    from rich.markup import escape
    from rich.table import Table

    from tddhooks.keys import redact

    marks = {
        "ok": "[green]✔ ok[/green]",
        "warn": "[yellow]! warn[/yellow]",
        "fail": "[red]✘ fail[/red]",
    }
    table = Table(title="tddhooks doctor")
    for column in ("check", "status", "detail", "fix"):
        table.add_column(column, overflow="fold")
    for check in checks:
        mark = marks.get(check.status, escape(check.status))
        detail, fix = redact(check.detail), redact(check.fix or "")
        table.add_row(escape(check.name), mark, escape(detail), escape(fix))
    output.console().print(table)
