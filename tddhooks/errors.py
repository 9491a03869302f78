"""One error base, typed subclasses, and the one handler that maps them to exit codes."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

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


@contextmanager
def error_handler(report: Reporter) -> Iterator[list[int]]:
    """Run a command body; turn our errors and Ctrl-C into a reported exit code in `result[0]`."""
    result = [EXIT_OK]
    try:
        yield result
    except TddhooksError as error:
        report(error)
        result[0] = error.exit_code
    except KeyboardInterrupt:
        report(TddhooksError("interrupted", fix="run the same command again to resume"))
        result[0] = EXIT_INTERRUPTED
