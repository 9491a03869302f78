"""Thin click layer: parse arguments, call commands/*, map errors to exit codes.

Command modules are imported inside each command so `tddhooks hook ...` stays fast.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from tddhooks import __version__
from tddhooks.agenthooks.formats import AGENTS

F = TypeVar("F", bound=Callable[..., Any])
AGENT_NAMES = tuple(AGENTS)


class _KataCommand(click.Command):
    """A command whose `--help` ends with the shipped kata names (read only when help is shown)."""

    bench = False

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        if self.bench:
            from tddhooks.bench.katas import DEVELOPMENT, shipped_bench_katas

            # the set is said beside each name: --set development|held-out picks them
            names = [f"{n} (development)" if n in DEVELOPMENT else n for n in shipped_bench_katas()]
            label = "Shipped katas with acceptance suites (held out unless marked)"
        else:
            from tddhooks.commands.init_cmd import shipped_katas

            names = shipped_katas()
            label = "Shipped katas"
        if not names:  # no templates/ reachable: no list, rather than "Shipped katas: ."
            super().format_epilog(ctx, formatter)
            return
        import textwrap

        lines = textwrap.wrap(
            f"{label}: {', '.join(names)}.",
            width=max(formatter.width - formatter.current_indent, 40),
            break_on_hyphens=False,
        )
        formatter.write_paragraph()
        formatter.write_text("\b\n" + "\n".join(lines))  # \b: click keeps the lines as they are
        super().format_epilog(ctx, formatter)


class _BenchCommand(_KataCommand):
    bench = True


def _finish(body: Callable[[], int]) -> None:
    """Run a command body under the one error handler and exit with its code."""
    from tddhooks.errors import error_handler
    from tddhooks.output import report_error

    with error_handler(report_error) as result:
        result[0] = body()
    sys.exit(result[0])


def work_dir_option(func: F) -> F:
    return click.option(
        "--work-dir",
        "-C",
        type=click.Path(file_okay=False, path_type=Path),
        default=Path("."),
        show_default=True,
        help="The kata repository to act on.",
    )(func)


def answer_limit_options() -> list[Callable[[F], F]]:
    """--timeout and --max-tokens: per-call limits that override tdd.yaml for every role
    (a slow local model needs a longer wait; docs/llm.md)."""
    return [
        click.option(
            "--timeout",
            "timeout_s",
            type=click.FloatRange(min=0, min_open=True),
            metavar="SECONDS",
            help="Wait this long for one model answer (default: tdd.yaml llm.timeout_s, 120).",
        ),
        click.option(
            "--max-tokens",
            type=click.IntRange(min=1),
            help="Answer length limit for one call (default: tdd.yaml, 4096).",
        ),
        click.option(
            "--response-format",
            type=click.Choice(["json_schema", "json_object_schema", "json_object", "text"]),
            help="Structured-answer form to ask first (default: tdd.yaml, else the preset's).",
        ),
    ]


def sampling_options(*, bench: bool = False) -> list[Callable[[F], F]]:
    """--temperature and --seed for every role: a bench samples at 0 with seed 0 unless told
    otherwise, so a run repeats where the server takes a seed (docs/bench.md)."""
    default = " (default: 0)" if bench else " (default: tdd.yaml roles.ROLE.temperature)"
    return [
        click.option(
            "--temperature",
            type=click.FloatRange(min=0, max=2),
            default=0.0 if bench else None,
            help="Sampling temperature of every role's first attempt" + default + ".",
        ),
        click.option(
            "--seed",
            type=int,
            default=0 if bench else None,
            help="Sampling seed sent with every request, for servers that take one"
            + (" (default: 0)." if bench else " (default: none)."),
        ),
    ]


def with_answer_limits(func: F) -> F:
    for option in reversed(answer_limit_options()):
        func = option(func)
    return func


def with_sampling(func: F) -> F:
    for option in reversed(sampling_options(bench=True)):
        func = option(func)
    return func


def llm_options(func: F) -> F:
    """The model flags shared by drive, step and demo."""
    options = [
        click.option("--model", "-m", help="Model for every role, e.g. deepseek:deepseek-chat."),
        click.option("--provider", help="Provider preset (openai, deepseek, ollama, custom, ...)."),
        click.option("--api-key", help="The key, or the NAME of an environment variable."),
        click.option("--base-url", help="OpenAI-compatible endpoint; overrides the preset."),
        click.option(
            "--role-model",
            multiple=True,
            metavar="ROLE=PROVIDER:MODEL",
            help="Per-role model, e.g. tester=openai:gpt-4.1-mini (repeatable).",
        ),
        click.option("--no-cache", is_flag=True, help="Neither read nor write the LLM cache."),
        click.option("--refresh-cache", is_flag=True, help="Ask the model again; store answers."),
        click.option("--max-tokens-total", type=int, help="Stop cleanly past this token budget."),
        *answer_limit_options(),
        *sampling_options(),
        click.option(
            "--record",
            type=click.Path(dir_okay=False, path_type=Path),
            help="Write the session (requests and answers) to this JSONL file.",
        ),
        click.option("--quiet", "-q", is_flag=True, help="Only the final summary."),
        click.option("--json", "as_json", is_flag=True, help="Machine-readable events on stdout."),
        click.option("--verbose", "-v", is_flag=True, help="Show prompts sizes and plans."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="tddhooks")
def cli() -> None:
    """Git enforces test-driven development; LLM role agents pair under the same policy."""


@cli.command(cls=_KataCommand)
@click.argument("directory", required=False, type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--language",
    "-l",
    type=click.Choice(["rust", "python"]),
    default=None,
    help="Kata language (default: detected, else rust). python is judged by pytest and ruff "
    "run with the Python tddhooks runs under: install both there first.",
)
@click.option("--kata", "-k", help="A kata Markdown FILE, or a shipped kata NAME.")
@click.option("--direct", is_flag=True, help="Shims only (the default; kept for scripts).")
def init(directory: Path | None, language: str | None, kata: str | None, direct: bool) -> None:
    """Scaffold a kata repository: project, tdd.yaml, kata.md, hooks, first commit."""
    from tddhooks.commands import init_cmd

    _finish(
        lambda: init_cmd.run(directory or Path("."), language=language, kata=kata, direct=direct)
    )


@cli.command()
@work_dir_option
@click.option("--direct", is_flag=True, help="Shims only (the default; kept for scripts).")
@click.option(
    "--pre-commit",
    "pre_commit",
    is_flag=True,
    help="List the hooks in .pre-commit-config.yaml instead (the framework stashes edits).",
)
@click.option(
    "--agent",
    "agents",
    multiple=True,
    type=click.Choice(AGENT_NAMES),
    help="Also hold this coding agent to the hooks (its project hook configuration).",
)
def install(work_dir: Path, direct: bool, pre_commit: bool, agents: tuple[str, ...]) -> None:
    """Install the pre-commit, commit-msg and prepare-commit-msg hooks (never stash)."""
    from tddhooks.commands import install as install_cmd

    _finish(
        lambda: install_cmd.install(work_dir, direct=direct, pre_commit=pre_commit, agents=agents)
    )


@cli.command()
@work_dir_option
@click.option(
    "--agent",
    "agents",
    multiple=True,
    type=click.Choice(AGENT_NAMES),
    help="Only take our entries out of this agent's configuration (the git hooks stay).",
)
def uninstall(work_dir: Path, agents: tuple[str, ...]) -> None:
    """Remove the hooks tddhooks installed (and only those)."""
    if agents:
        from tddhooks.agenthooks.command import uninstall_agents

        _finish(lambda: uninstall_agents(work_dir, agents))
        return
    from tddhooks.commands import install as install_cmd

    _finish(lambda: install_cmd.uninstall(work_dir))


@cli.command()
@work_dir_option
@click.option("--json", "as_json", is_flag=True, help="The documented status object on stdout.")
def status(work_dir: Path, as_json: bool) -> None:
    """Phase, cycle, last commit, staged verdict and diagnostics."""
    if as_json:
        from tddhooks.agenthooks.command import print_status_json

        _finish(lambda: print_status_json(work_dir))
        return
    from tddhooks.commands import status as status_cmd

    _finish(lambda: status_cmd.run(work_dir))


@cli.command()
@work_dir_option
@click.option("--offline", is_flag=True, help="Skip the model endpoint checks.")
def doctor(work_dir: Path, offline: bool) -> None:
    """Check git, the toolchain, hooks, config, kata, key and endpoint."""
    from tddhooks.commands import doctor as doctor_cmd

    _finish(lambda: doctor_cmd.run(work_dir, offline=offline))


@cli.command()
@click.argument("rev_range", required=False)
@work_dir_option
@click.option("--json", "as_json", is_flag=True, help="Violations as JSON on stdout.")
@click.option("--verbose", "-v", is_flag=True, help="Every violation with its output.")
@click.option("--since", metavar="REV", help="Baseline: judge only the commits after REV.")
@click.option(
    "--jobs",
    "-j",
    type=int,
    metavar="N",
    help="Trees gated at once, each in its own snapshot and target folder (default: the cores, "
    "at most 4).",
)
@click.option("--fresh", is_flag=True, help="Ignore the verdicts earlier audits stored.")
def audit(
    rev_range: str | None,
    work_dir: Path,
    as_json: bool,
    verbose: bool,
    since: str | None,
    jobs: int | None,
    fresh: bool,
) -> None:
    """Re-check every commit in REV_RANGE (default: all history) against the policy; prints a
    summary (per-rule counts, the first offending commits) unless --verbose or --json."""
    from tddhooks.commands import audit as audit_cmd

    _finish(
        lambda: audit_cmd.run(
            work_dir,
            rev_range,
            as_json=as_json,
            verbose=verbose,
            since=since,
            jobs=jobs,
            fresh=fresh,
        )
    )


def _drive_options(func: F) -> F:
    options = [
        click.option("--kata", "-k", help="Kata FILE or NAME (initialises an empty work dir)."),
        click.option(
            "--roles",
            default="tester,implementor,refactorer",
            show_default=True,
            help="Roles the agents play; the person plays the rest.",
        ),
        click.option(
            "--language",
            "-l",
            type=click.Choice(["rust", "python"]),
            default=None,
            help="Language when the work dir must be initialised.",
        ),
        click.option(
            "--profile",
            type=click.Choice(["core", "small-model"]),
            default=None,
            help="Answer checks: core, or core and the small-model aids (default: tdd.yaml "
            "drive.profile; docs/checks.md).",
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


@cli.command(cls=_KataCommand)
@click.option(
    "--steps",
    "--max-cycles",
    "steps",
    type=int,
    default=None,
    help="Red-green-refactor cycles to run (default: tdd.yaml steps).",
)
@work_dir_option
@_drive_options
@llm_options
def drive(**options: Any) -> None:
    """Run tester, implementor and refactorer agents for N cycles through git."""
    from tddhooks.commands import drive as drive_cmd

    _finish(lambda: drive_cmd.run(**options))


@cli.command(cls=_KataCommand)
@work_dir_option
@_drive_options
@llm_options
def step(**options: Any) -> None:
    """Run exactly one agent turn (the role the repository's phase calls for)."""
    from tddhooks.commands import drive as drive_cmd

    _finish(lambda: drive_cmd.run(steps=None, single_turn=True, **options))


@cli.command(cls=_BenchCommand)
@click.option(
    "--kata",
    "-k",
    "katas",
    multiple=True,
    help="Shipped kata NAME or DIR (repeatable; "
    "default: every shipped kata). A DIR holds kata.md and acceptance/.",
)
@click.option(
    "--set",
    "kata_set",
    type=click.Choice(["all", "development", "held-out"]),
    help="Bench this set of the shipped katas (with any --kata): held-out ones judge an aid, "
    "development ones may tune it (docs/bench.md).",
)
@click.option("--model", "-m", "models", multiple=True, help="PROVIDER:MODEL (repeatable).")
@click.option(
    "--profile",
    "profiles",
    multiple=True,
    type=click.Choice(["core", "small-model"]),
    help="Drive under this check profile (repeatable: each model under each; default: the "
    "drive's own, tdd.yaml drive.profile).",
)
@click.option("--runs", type=int, default=1, show_default=True, help="Drives per model and kata.")
@click.option("--steps", type=int, default=6, show_default=True, help="Cycles per drive.")
@click.option("--jobs", "-j", type=int, default=1, show_default=True, help="Drives at once.")
@click.option("--shard", metavar="I/N", help="Run only shard I of N (for a CI matrix).")
@click.option(
    "--language",
    "-l",
    type=click.Choice(["rust", "python"]),
    default="rust",
    show_default=True,
    help="Language of the katas.",
)
@click.option(
    "--work-root",
    type=click.Path(file_okay=False, path_type=Path),
    help="Where the runs' directories go (default: a new temporary directory).",
)
@click.option(
    "--json",
    "json_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write every run and the summaries to this JSON file.",
)
@click.option(
    "--markdown",
    "markdown_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the summary table as Markdown (for a README).",
)
@click.option(
    "--merge",
    multiple=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Report the runs of these bench JSON files (e.g. CI shards); drive nothing.",
)
@click.option("--provider", help="Provider preset (openai, deepseek, ollama, custom, ...).")
@click.option("--api-key", help="The key, or the NAME of an environment variable.")
@click.option("--base-url", help="OpenAI-compatible endpoint; overrides the preset.")
@click.option(
    "--role-model",
    multiple=True,
    metavar="ROLE=PROVIDER:MODEL",
    help="Per-role model (repeatable).",
)
@click.option("--no-cache", is_flag=True, help="Neither read nor write the LLM cache.")
@click.option("--refresh-cache", is_flag=True, help="Ask the model again; store answers.")
@click.option("--max-tokens-total", type=int, help="Token budget per drive.")
@with_answer_limits
@with_sampling
def bench(**options: Any) -> None:
    """Drive katas with each model and score every run (hidden acceptance tests)."""
    from tddhooks.commands import bench as bench_cmd

    llm_names = ("provider", "api_key", "base_url", "role_model", "no_cache", "refresh_cache",
                 "max_tokens_total", "timeout_s", "max_tokens", "response_format", "temperature",
                 "seed")  # fmt: skip
    llm = {name: options.pop(name) for name in llm_names}
    llm["role_model"] = tuple(llm["role_model"])
    _finish(lambda: bench_cmd.run(llm=bench_cmd.BenchLLM(**llm), **options))


@cli.command()
@click.argument("directory", required=False, type=click.Path(file_okay=False, path_type=Path))
@click.option("--steps", type=int, default=None, help="Cycles to replay (default: all recorded).")
@click.option("--quiet", "-q", is_flag=True, help="Only the final summary.")
def demo(directory: Path | None, steps: int | None, quiet: bool) -> None:
    """Init the sample kata and drive it on a recorded session: no key, no network."""
    from tddhooks.commands import demo as demo_cmd

    _finish(lambda: demo_cmd.run(directory, steps=steps, quiet=quiet))


@cli.group()
def hook() -> None:
    """What the installed git hooks call."""


@hook.command("pre-commit")
def hook_pre_commit() -> None:
    """Green gate on exactly the staged tree."""
    from tddhooks.commands import hook as hook_cmd

    _finish(hook_cmd.pre_commit)


@hook.command("commit-msg")
@click.argument("message_file", type=click.Path(dir_okay=False, path_type=Path))
def hook_commit_msg(message_file: Path) -> None:
    """Message and type rules against the staged diff."""
    from tddhooks.commands import hook as hook_cmd

    _finish(lambda: hook_cmd.commit_msg(message_file))


@hook.command("prepare-commit-msg")
@click.argument("message_file", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("source", required=False)
@click.argument("sha", required=False)
def hook_prepare_commit_msg(message_file: Path, source: str | None, sha: str | None) -> None:
    """Pre-fill an empty message with the context sections."""
    from tddhooks.commands.hook_prepare import prepare_commit_msg

    _finish(lambda: prepare_commit_msg(message_file, source, sha))


@cli.group()
def cache() -> None:
    """The LLM answer cache."""


@cache.command("stats")
def cache_stats() -> None:
    """Entries, size, and hits/misses of the last drive."""
    from tddhooks.commands import cache as cache_cmd

    _finish(cache_cmd.stats)


@cache.command("clear")
def cache_clear() -> None:
    """Delete every cached answer."""
    from tddhooks.commands import cache as cache_cmd

    _finish(cache_cmd.clear)


def main() -> None:
    cli(prog_name="tddhooks")
