"""The only writer to the terminal. rich is imported on first use so the hook path stays fast."""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # not typing's: importing typing costs the hook path ~10 ms; mypy reads it
if TYPE_CHECKING:
    from typing import IO, Any

    from rich.console import Console

    from tddhooks.errors import TddhooksError

_console: Console | None = None
_err_console: Console | None = None


def console() -> Console:
    """The shared stdout console (created lazily)."""
    global _console
    if _console is None:
        from rich.console import Console

        _console = Console(highlight=False, soft_wrap=True)
    return _console


def err_console() -> Console:
    """The shared stderr console (created lazily)."""
    global _err_console
    if _err_console is None:
        from rich.console import Console

        _err_console = Console(stderr=True, highlight=False, soft_wrap=True)
    return _err_console


def use_streams(out: IO[str] | None = None, err: IO[str] | None = None) -> None:
    """Point output at other streams (CliRunner, tests); None resets to the process streams."""
    global _console, _err_console
    from rich.console import Console

    _console = Console(file=out, highlight=False, soft_wrap=True) if out else None
    _err_console = Console(file=err, highlight=False, soft_wrap=True) if err else None


def plain(text: str) -> None:
    """Write text exactly as given (no markup), e.g. hook output other tools parse."""
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    sys.stdout.flush()


def say(text: str, **kwargs: Any) -> None:
    """A normal line on stdout (rich markup allowed)."""
    console().print(text, **kwargs)


def ok(text: str) -> None:
    """A line saying something worked. `text` is plain, never markup: it names paths, and a
    `[draft]` or `[/x]` in one is text (rich would drop the first and fail on the second)."""
    from rich.markup import escape

    console().print(f"[green]✔[/green] {escape(text)}")


def warn(text: str) -> None:
    """A warning on stderr; `text` is plain, as for `ok`."""
    from rich.markup import escape

    err_console().print(f"[yellow]![/yellow] {escape(text)}")


def fail(text: str) -> None:
    """A failure on stderr; `text` is plain, as for `ok`."""
    from rich.markup import escape

    err_console().print(f"[red]✘[/red] {escape(text)}")


def report_error(error: TddhooksError) -> None:
    """How every TddhooksError reaches the person: the problem, then the fix."""
    from rich.markup import escape

    from tddhooks.keys import redact

    err = err_console()
    err.print(f"[bold red]error:[/bold red] {escape(redact(error.message))}")
    if error.fix:
        err.print(f"  [bold]fix:[/bold] {escape(redact(error.fix))}")
