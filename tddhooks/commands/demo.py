"""`tddhooks demo [DIR]`: the shipped string-calculator kata, driven by a recorded session.

Real git, real hooks, real cargo; the models' answers come from templates/sessions/, so there is no
network and no key. The session is a script of answers with a `{crate}` placeholder; the drive fills
it in with the crate name init derives from DIR's name.
"""

from __future__ import annotations

import contextlib
import io
import json
import shlex
import sys
from pathlib import Path

from rich.markup import escape

from tddhooks import git, output
from tddhooks.errors import UsageError
from tddhooks.llm.replay import ReplaySession, load_session

DEMO_KATA = "string-calculator"
DEMO_SESSION = "string-calculator"
DEFAULT_DIR = Path("tddhooks-demo")
MARKER = "demo.json"


def _marker(root: Path) -> dict[str, str] | None:
    try:
        data = json.loads((git.tddhooks_dir(root) / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _reset_previous_demo(directory: Path) -> None:
    """Rewind a previous demo to its scaffold commit, unless a person has worked in it."""
    root = git.find_root(directory)
    marker = _marker(root) if root is not None and root.resolve() == directory.resolve() else None
    if root is None or marker is None:
        raise UsageError(
            f"{directory} is not empty and is not a previous demo",
            fix="choose a new or empty directory: `tddhooks demo NEW_DIR`",
        )
    scaffold = marker.get("scaffold", "")
    changed = git.out(["status", "--porcelain", "--untracked-files=all"], root).splitlines()
    changed = [line for line in changed if not line[3:].startswith(".tdd/")]
    authors = git.out(["log", "--format=%ae", f"{scaffold}..HEAD"], root).split()
    if changed or any(author != marker.get("agent_email") for author in authors):
        raise UsageError(
            f"{directory} holds a previous demo with changes or commits of your own",
            fix="keep your work and choose another directory: `tddhooks demo NEW_DIR`",
        )
    git.run_git(["reset", "-q", "--hard", scaffold], root)
    output.say(f"rewound the previous demo in {escape(str(directory))} to its scaffold commit")


def recorded_cycles(session: ReplaySession) -> int:
    """Cycles the session holds: one refactorer answer closes each cycle."""
    return session.remaining("refactorer")


def run(directory: Path | None, *, steps: int | None, quiet: bool) -> int:
    """Init the sample kata in DIR (default ./tddhooks-demo) and replay the recorded session."""
    from tddhooks.commands import drive, init_cmd
    from tddhooks.config import load_config

    target = directory or DEFAULT_DIR
    if steps is not None and steps < 1:
        raise UsageError(f"--steps {steps}: must be at least 1", fix="e.g. --steps 2")
    if target.exists() and any(target.iterdir()):
        _reset_previous_demo(target)
    else:
        # --quiet: only the final summary, not init's table
        with contextlib.redirect_stdout(io.StringIO()) if quiet else contextlib.nullcontext():
            # absolute: init runs `git init DIR` inside DIR
            init_cmd.run(target.resolve(), language="rust", kata=DEMO_KATA, direct=False)
    root = git.require_root(target)
    marker = _marker(root) or {
        "scaffold": git.head(root) or "",
        "agent_email": load_config(root).commit.author_email,
    }
    (git.tddhooks_dir(root) / MARKER).write_text(json.dumps(marker), encoding="utf-8")
    # drive fills the shipped session's {crate} from Cargo.toml (llm/replay.py load_session)
    cycles = recorded_cycles(load_session(DEMO_SESSION))
    # as a shell takes it ("my demo"), and not rich markup ("katas[draft]")
    shown = escape(shlex.quote(str(target)))
    output.say(
        f"[bold]tddhooks demo[/bold]: replaying a recorded session ({cycles} cycles of "
        f"{DEMO_KATA}) in {shown}: real git, hooks and cargo; no model, no network, no key."
    )
    code = drive.run(
        work_dir=target, steps=min(steps or cycles, cycles), provider="replay",
        model=DEMO_SESSION, no_cache=True, quiet=quiet,
    )  # fmt: skip
    me = escape(_tddhooks_as_typed())
    output.say(
        f"\nSee what happened: `git -C {shown} log --stat`, `{me} audit -C {shown}`.\n"
        f"Drive it on with a live model, e.g.: `{me} drive -C {shown} --steps 3 "
        "--model deepseek:deepseek-chat` (key in DEEPSEEK_API_KEY), or a local one: "
        "`--model ollama:qwen2.5-coder:7b`.\n"
        f"Or practise a kata by hand under the same hooks: `{me} init my-kata --kata bowling` "
        '(README.md, "Practise a kata by hand").'
    )
    return code


def _tddhooks_as_typed() -> str:
    """`tddhooks` when it is on PATH, else the path of this install's script (`.venv/bin/tddhooks
    demo` from the README's quickstart, without the venv activated)."""
    from tddhooks.commands.install import tddhooks_on_path

    if tddhooks_on_path():
        return "tddhooks"
    script = Path(sys.executable).parent / "tddhooks"
    if script.is_file():
        return shlex.quote(str(script))
    return f"{shlex.quote(sys.executable)} -m tddhooks"
