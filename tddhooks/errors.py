"""One error base, typed subclasses, and the one handler that maps them to exit codes."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

EXIT_OK = 0
EXIT_REJECTED = 1
EXIT_USAGE = 2
EXIT_ENVIRONMENT = 3
EXIT_INTERRUPTED = 130


class TddhooksError(Exception):
    """Base of every error the tool reports to a person; `fix` says what to do about it."""

    exit_code = EXIT_REJECTED

    def __init__(self, message: str, *, fix: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.fix = fix

    def __str__(self) -> str:
        return self.message if not self.fix else f"{self.message}\n  fix: {self.fix}"


class PolicyRejection(TddhooksError):
    """A commit or tree broke the TDD policy (exit 1)."""


class UsageError(TddhooksError):
    """Wrong flags or arguments (exit 2)."""

    exit_code = EXIT_USAGE


class ConfigError(UsageError):
    """tdd.yaml or another configuration source is invalid (exit 2)."""


class EnvironmentProblem(TddhooksError):
    """A tool, repository or endpoint the command needs is missing or unreachable (exit 3)."""

    exit_code = EXIT_ENVIRONMENT


class GitError(EnvironmentProblem):
    """A git command failed."""


class LLMError(EnvironmentProblem):
    """The model endpoint failed in a way retries could not fix."""


class LLMAnswerError(TddhooksError):
    """The model answered, but the answer is unusable (garbage, cut off, empty)."""


Reporter = Callable[[TddhooksError], None]
_FORWARDED = ("SIGTERM", "SIGHUP")
_SHOWN_CHARS = 300


class Terminated(BaseException):
    """SIGTERM or SIGHUP reached us: the commands in flight are killed, then we exit 128+N."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _on_signal(signum: int, _frame: FrameType | None) -> None:
    from tddhooks import reaper

    reaper.kill_all_running()  # a command in another thread too (the gate's fmt step)
    raise Terminated(signum)


def _install_signal_handlers() -> dict[int, object]:
    """SIGTERM/SIGHUP become Terminated in the main thread (elsewhere nothing changes)."""
    previous: dict[int, object] = {}
    for name in _FORWARDED:
        number = getattr(signal, name, None)
        if number is None:
            continue
        with contextlib.suppress(ValueError, OSError):  # not the main thread
            previous[number] = signal.signal(number, _on_signal)
    return previous


def _restore(previous: dict[int, object]) -> None:
    for number, handler in previous.items():
        with contextlib.suppress(ValueError, OSError, TypeError):
            signal.signal(number, handler)  # type: ignore[arg-type]


def state_home() -> Path:
    """$TDDHOOKS_HOME, else $XDG_STATE_HOME/tddhooks, else ~/.local/state/tddhooks."""
    configured = os.environ.get("TDDHOOKS_HOME")
    if configured:
        return Path(configured).expanduser()
    xdg = os.environ.get("XDG_STATE_HOME")
    return Path(xdg) / "tddhooks" if xdg else Path.home() / ".local" / "state" / "tddhooks"


def crash_log(error: BaseException) -> Path | None:
    """Write the traceback (keys redacted) under <state home>/logs/; None if nowhere writable."""
    import traceback

    from tddhooks.keys import redact

    text = redact("".join(traceback.format_exception(error)))
    name = f"crash-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.txt"
    candidates: list[Path] = []
    with contextlib.suppress(RuntimeError, KeyError, OSError):
        candidates.append(state_home() / "logs")
    import tempfile

    candidates.append(Path(tempfile.gettempdir()) / f"tddhooks-{os.getuid()}-logs")
    for folder in candidates:
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / name
            path.write_text(text, encoding="utf-8")
            return path
        except OSError:
            continue
    return None


def unexpected(error: Exception) -> EnvironmentProblem:
    """An error we did not foresee, as one line (exit 3, never 1) pointing at its traceback."""
    from tddhooks.keys import redact

    path = crash_log(error)
    detail = redact(" ".join(f"{type(error).__name__}: {error}".split()))[:_SHOWN_CHARS]
    where = f"the traceback is in {path}" if path else "no log could be written"
    return EnvironmentProblem(
        f"unexpected error: {detail}",
        fix=f"{where}; please report it with that file (it holds no API key)",
    )


def os_problem(error: OSError) -> EnvironmentProblem | None:
    """A file-system error that names its file, as a problem with its fix (None otherwise)."""
    name = error.filename
    if not name:
        return None
    if isinstance(error, FileExistsError | NotADirectoryError):
        return EnvironmentProblem(
            f"{name} is a file where tddhooks needs a directory (or a folder above it is)",
            fix=f"move it away (e.g. `mv {name} {name}.bak`) and run the command again",
        )
    if isinstance(error, PermissionError):
        return EnvironmentProblem(
            f"permission denied: {name}",
            fix="check who owns it and its permissions (tddhooks must be able to write there)",
        )
    if getattr(error, "errno", None) in (28, 122):  # ENOSPC, EDQUOT
        return EnvironmentProblem(f"no space left writing {name}", fix="free some disk space")
    return None


def _safely(report: Reporter, error: TddhooksError) -> None:
    with contextlib.suppress(OSError, ValueError):  # a closed terminal (SIGHUP)
        report(error)


@contextmanager
def error_handler(report: Reporter) -> Iterator[list[int]]:
    """Run a command body; turn our errors, Ctrl-C, SIGTERM/SIGHUP and unforeseen exceptions into
    a reported exit code in `result[0]` (unforeseen ones are 3 with a log path, never 1)."""
    result = [EXIT_OK]
    previous = _install_signal_handlers()
    try:
        yield result
    except TddhooksError as error:
        _safely(report, error)
        result[0] = error.exit_code
    except KeyboardInterrupt:
        from tddhooks import reaper

        # Ctrl-C is raised in the main thread: a command another thread waits for (git.prefetch,
        # the gate's fmt step) has a session of its own and would go on after we exit
        reaper.kill_all_running()
        _safely(report, TddhooksError("interrupted", fix="run the same command again to resume"))
        result[0] = EXIT_INTERRUPTED
    except Terminated as stop:
        name = signal.Signals(stop.signum).name
        _safely(report, TddhooksError(f"stopped by {name}; the commands it ran were killed"))
        result[0] = 128 + stop.signum
    except Exception as error:
        if type(error).__module__.split(".")[0] == "click":
            raise  # click's own exits (Abort, UsageError) are click's to report
        known = os_problem(error) if isinstance(error, OSError) else None
        _safely(report, known or unexpected(error))
        result[0] = EXIT_ENVIRONMENT
    finally:
        _restore(previous)
