"""What a drive shows while it runs: a rich live view, only the final table (`--quiet`), or one
JSON object per event on stdout (`--json`). The loop emits events; each view decides what to print.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from tddhooks import output
from tddhooks.drive.kinds import EventKind
from tddhooks.keys import redact, redact_data

if TYPE_CHECKING:
    from rich.status import Status

    from tddhooks.llm.settings import ModelSettings


class Display(Protocol):
    """Where drive events go."""

    live: bool  # wants streamed tokens (on_delta) while the model writes

    def emit(self, kind: EventKind, **data: Any) -> None:
        """One event, e.g. emit("committed", role="implementor", sha=..., subject=...)."""
        ...

    def thinking(self, role: str, model: str) -> Any:
        """A context manager around the model call (the spinner)."""
        ...

    def delta(self, text: str) -> None:
        """A piece of streamed answer (only called when `live`)."""
        ...


def model_label(settings: ModelSettings) -> str:
    """`provider:model` as shown to people; a replayed session by its file name only."""
    if settings.provider == "replay":
        return f"replay:{Path(settings.model).stem}"
    return f"{settings.provider}:{settings.model}"


def _first_line(text: str, limit: int = 160) -> str:
    line = next((part.strip() for part in text.splitlines() if part.strip()), "")
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _tokens(data: Mapping[str, Any]) -> str:
    return f"{data.get('prompt_tokens', 0):,} in + {data.get('completion_tokens', 0):,} out"


class JsonDisplay:
    """`--json`: one compact JSON object per event on stdout; nothing else is printed there."""

    live = False

    def emit(self, kind: EventKind, **data: Any) -> None:
        event = redact_data({"event": kind, **data})
        output.plain(redact(json.dumps(event, ensure_ascii=False, default=str)))

    def thinking(self, role: str, model: str) -> Any:
        return nullcontext()

    def delta(self, text: str) -> None:
        return None


class QuietDisplay(JsonDisplay):
    """`--quiet`: the final summary table only."""

    def emit(self, kind: EventKind, **data: Any) -> None:
        data = redact_data(data)
        if kind == "drive-finished":
            summary_table(data)
        elif kind in ("person-turn", "interrupted"):
            output.say(str(data.get("message", "")))


class RichDisplay:
    """The live view: a header, a line or two per event, a spinner while the model thinks."""

    def __init__(self, *, verbose: bool = False) -> None:
        self.verbose = verbose
        # streaming only feeds the spinner, which a pipe or a log file never shows
        self.live = output.console().is_terminal
        self._status: Status | None = None
        self._label = ""
        self._received = 0

    @contextmanager
    def thinking(self, role: str, model: str) -> Iterator[None]:
        self._label = f"{role} is thinking ({model})"
        self._received = 0
        with output.console().status(self._label) as status:
            self._status = status
            try:
                yield
            finally:
                self._status = None

    def delta(self, text: str) -> None:
        self._received += len(text)
        if self._status is not None:
            self._status.update(f"{self._label} · {self._received:,} characters")

    def emit(self, kind: EventKind, **data: Any) -> None:
        from rich.markup import escape

        data = redact_data(data)  # before any line is cut short below
        say = output.say
        role = escape(str(data.get("role", "")))
        if kind == "drive-started":
            say(
                f"[bold]tddhooks drive[/bold] · kata: {escape(str(data['kata']))} · "
                f"work dir: {escape(str(data['work_dir']))}"
            )
            for name, model in data.get("models", {}).items():
                say(f"  {name}: {escape(str(model))}")
            for name in data.get("person_roles", []):
                say(f"  {name}: [italic]you[/italic]")
        elif kind == "turn-started":
            say(
                f"\n[bold cyan]cycle {data['cycle']} · {role}[/bold cyan] "
                f"({escape(str(data['model']))}) — phase: {escape(str(data['phase']))}"
            )
        elif kind == "model-answered":
            cache = "cache hit" if data.get("cached") else "cache miss"
            if not data.get("cache_enabled", True):  # --no-cache, or a replayed session
                cache = "no cache"
            say(f"  ↳ {_tokens(data)} tokens · {cache} · {data.get('latency_s', 0):.1f}s")
            if self.verbose:
                say(f"    prompt ≈ {data.get('prompt_estimate', 0):,} tokens")
        elif kind == "plan" and self.verbose:
            say(f"  plan: {escape(str(data.get('plan', '')))}")
        elif kind == "edits":
            files = ", ".join(f"{e['action']} {e['path']}" for e in data.get("files", []))
            say(f"  files: {escape(files) or '(none)'}")
        elif kind == "verdict":
            mark = "[green]green[/green]" if data.get("green") else "[red]red[/red]"
            say(f"  gate: {mark} · {escape('; '.join(data.get('summary', [])))}")
        elif kind == "attempt-failed":
            lines = [line for line in str(data.get("reason", "")).splitlines() if line.strip()]
            say(
                f"  [yellow]✘ attempt {data.get('attempt')} failed:[/yellow] "
                f"{escape(_first_line(lines[0] if lines else ''))}"
            )
            if len(lines) > 1:
                say(f"    {escape(_first_line(lines[1]))}")
        elif kind == "overshoot":
            say(
                f"  [yellow]! overshoot:[/yellow] already passes "
                f"({escape(', '.join(data.get('tests', [])))}); the test is discarded"
            )
        elif kind == "handed-over":
            say(
                f"  [green]✔[/green] red as it should be; staged "
                f"{escape(', '.join(data.get('paths', [])))} for the implementor"
            )
        elif kind == "committed":
            say(
                f"  [green]✔ {str(data.get('sha', ''))[:10]}[/green] "
                f"{escape(str(data.get('subject', '')))}"
            )
        elif kind == "refactor-empty":
            say(f"  · nothing to refactor: {escape(_first_line(str(data.get('plan', ''))))}")
        elif kind == "reverted":
            say(f"  [yellow]! refactor reverted[/yellow] ({escape(str(data.get('reason', '')))})")
        elif kind == "decision" and data.get("action") != "retry":  # a retry was just shown
            say(
                f"  supervisor: {escape(str(data.get('action')))} — "
                f"{escape(str(data.get('reason')))}"
            )
        elif kind in ("done", "person-turn", "interrupted", "note"):
            say(f"\n{escape(str(data.get('message', '')))}")
        elif kind == "drive-finished":
            summary_table(data)


def summary_table(data: Mapping[str, Any]) -> None:
    """The final table: cycles, commits, overshoots, retries, tokens per role, cache, time, why."""
    from rich.markup import escape
    from rich.table import Table

    table = Table(title="drive summary", show_header=False, title_justify="left")
    table.add_column("what", style="bold")
    table.add_column("value")
    table.add_row("cycles", str(data.get("cycles", 0)))
    table.add_row("commits", str(len(data.get("commits", []))))
    for commit in data.get("commits", []):
        table.add_row("", f"{commit['sha'][:10]} {escape(commit['subject'])}")
    table.add_row("overshoots", str(data.get("overshoots", 0)))
    table.add_row("retries", str(data.get("retries", 0)))
    for role, usage in data.get("tokens", {}).items():
        table.add_row(f"tokens {role}", _tokens(usage))
    cache = data.get("cache", {})
    if cache.get("enabled", 1):
        table.add_row("cache", f"{cache.get('hits', 0)} hits, {cache.get('misses', 0)} misses")
    else:
        table.add_row("cache", "off (--no-cache or a replayed session)")
    table.add_row("time", f"{data.get('duration_s', 0):.1f}s")
    table.add_row("stopped", escape(f"{data.get('stop_reason')}: {data.get('stop_detail', '')}"))
    output.console().print(table)


def make_display(*, quiet: bool, as_json: bool, verbose: bool) -> Display:
    """The view the flags ask for (`--json` wins over `--quiet`)."""
    if as_json:
        return JsonDisplay()
    if quiet:
        return QuietDisplay()
    return RichDisplay(verbose=verbose)
