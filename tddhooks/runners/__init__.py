"""Language runners: a registry of small, equal plug-ins (adding a language is one entry)."""

from __future__ import annotations

from pathlib import Path

from tddhooks.errors import ConfigError
from tddhooks.runners.python import PythonRunner
from tddhooks.runners.rust import RustRunner
from tddhooks.vocabulary import MANIFESTS

TYPE_CHECKING = False  # not typing's: importing typing costs the hook path ~10 ms; mypy reads it
if TYPE_CHECKING:
    from tddhooks.runners.base import Runner

REGISTRY: dict[str, type[Runner]] = {
    RustRunner.name: RustRunner,
    PythonRunner.name: PythonRunner,
}
LANGUAGES = tuple(REGISTRY)
# manifest file -> language, most specific first (a Rust crate may carry Python tooling files)
_MANIFESTS = tuple((name, language) for language, names in MANIFESTS.items() for name in names)


def get_runner(language: str) -> Runner:
    """The runner registered under `language`."""
    try:
        runner_class = REGISTRY[language]
    except KeyError:
        raise ConfigError(
            f"unknown language {language!r}",
            fix=f"set `language:` in tdd.yaml (or --language) to one of: {', '.join(LANGUAGES)}",
        ) from None
    return runner_class()


def detect_language(root: Path) -> str | None:
    """Guess the language of an existing project from its manifest file."""
    for manifest, language in _MANIFESTS:
        if (root / manifest).exists():
            return language
    return None
