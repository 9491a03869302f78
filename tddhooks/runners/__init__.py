"""Language runners: a registry of small, equal plug-ins (adding a language is one entry)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from importlib import import_module
from pathlib import Path

from tddhooks.errors import ConfigError
from tddhooks.vocabulary import LANGUAGE_FILES, languages_by_files, languages_of

TYPE_CHECKING = False  # not typing's: importing typing costs the hook path ~10 ms; mypy reads it
if TYPE_CHECKING:
    from tddhooks.runners.base import Runner

# language -> (module, class): a hook judges one language, so only its runner is imported
# (the Python runner's `ast` and `tomllib` stay off a Rust kata's commit-msg hook)
_PLUGINS = {
    "rust": ("tddhooks.runners.rust", "RustRunner"),
    "python": ("tddhooks.runners.python", "PythonRunner"),
}


class _Registry(Mapping[str, "type[Runner]"]):
    """language -> runner class, each runner module imported when it is first asked for."""

    def __getitem__(self, language: str) -> type[Runner]:
        module, name = _PLUGINS[language]
        runner_class: type[Runner] = getattr(import_module(module), name)
        return runner_class

    def __iter__(self) -> Iterator[str]:
        return iter(_PLUGINS)

    def __len__(self) -> int:
        return len(_PLUGINS)


REGISTRY: Mapping[str, type[Runner]] = _Registry()
LANGUAGES = tuple(_PLUGINS)


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


def detected_languages(root: Path) -> dict[str, list[str]]:
    """languages_of the manifests at the top of the work tree at root; without one, the
    language of the files git tracks there (vocabulary.languages_by_files)."""
    every = {name for names in LANGUAGE_FILES.values() for name in names}
    found = languages_of(name for name in every if (root / name).is_file())
    return found or languages_by_files(tracked_paths(root))


def tracked_paths(root: Path) -> list[str]:
    """The paths git tracks under root (its index); none outside a repository."""
    from tddhooks import git

    if git.find_root(root) is None:
        return []
    listed = git.run_git(["ls-files", "-z", "--full-name"], root, check=False)
    return [path for path in listed.stdout.split("\0") if path] if listed.ok else []


def describe_detection(found: dict[str, list[str]]) -> str:
    """Why a language applies: 'python (pyproject.toml, requirements.txt)'."""
    return "; ".join(f"{language} ({', '.join(names)})" for language, names in found.items())


def language_from(found: dict[str, list[str]], where: str) -> str | None:
    """The one language `found` points to; None for none; ConfigError for several."""
    if len(found) > 1:
        raise ConfigError(
            f"{where} has manifests of several languages: {describe_detection(found)}",
            fix="say which one the kata is in: `language: rust` or `language: python` in tdd.yaml",
        )
    return next(iter(found), None)


def detect_language(root: Path) -> str | None:
    """The language of an existing project from its manifest files; None when it has none.
    A project with manifests of two languages must say which one in tdd.yaml (ConfigError)."""
    return language_from(detected_languages(root), str(root))
