"""The three agent roles: what each is called, what it commits as, and which paths it may write."""

from __future__ import annotations

from dataclasses import dataclass

from tddhooks.agents.edits import PathPolicy, normalize_path
from tddhooks.errors import UsageError
from tddhooks.policy.settings import PolicySettings
from tddhooks.vocabulary import ROLE_TITLES

DEFAULT_TEST_GLOBS = ("tests/**",)
NEW_MODULE_GLOBS = ("src/**",)
# files that steer the tool or the hooks: no agent writes them, whatever the globs say
ALWAYS_PROTECTED = (
    ".tdd/**",
    "/tdd.yaml",
    "/.pre-commit-config.yaml",
    "/.pre-commit-hooks.yaml",
    ".gitignore",
    "/hooks/**",
    "/.githooks/**",
)


@dataclass(frozen=True)
class RoleSpec:
    """One role: its name in flags and config, its title in commit messages, its commit type."""

    name: str
    title: str
    commit_type: str | None


ROLES: dict[str, RoleSpec] = {
    name: RoleSpec(name, ROLE_TITLES[name], commit_type)
    for name, commit_type in (("tester", None), ("implementor", "feat"), ("refactorer", "refactor"))
}


def role_spec(role: str) -> RoleSpec:
    """The RoleSpec named `role`; UsageError names the valid roles."""
    try:
        return ROLES[role]
    except KeyError:
        raise UsageError(
            f"unknown role {role!r}", fix=f"use one of: {', '.join(ROLES)} (e.g. --roles tester)"
        ) from None


def _kata_glob(settings: PolicySettings) -> tuple[str, ...]:
    try:
        return ("/" + normalize_path(settings.kata_description),)
    except ValueError:
        return ()


def path_policy(role: str, settings: PolicySettings) -> PathPolicy:
    """Tester: the test globs, and the test items of existing source files (unit tests beside
    the code). Implementor/refactorer: the source globs and new modules under src/, never a test
    file, and never a test item of a source file (agents/itemedits.py)."""
    spec = role_spec(role)
    tests = settings.test_paths or DEFAULT_TEST_GLOBS
    protected = ALWAYS_PROTECTED + _kata_glob(settings)
    sources = tuple(dict.fromkeys((*settings.source_paths, *NEW_MODULE_GLOBS)))
    if spec.name == "tester":
        return PathPolicy(writable=tests, protected=protected, owner="the tester",
                          items_only=sources, language=settings.language)  # fmt: skip
    return PathPolicy(
        writable=sources,
        protected=protected,
        foreign=tests,
        owner=f"the {spec.name}",
        foreign_reason=f"it is a test file ({', '.join(tests)}); tests belong to the tester",
        keep_test_items=True,
        language=settings.language,
    )


def system_prompt(role: str) -> str:
    """The role's system prompt, from templates/prompts/<role>.md (package data)."""
    from tddhooks.resources import read_template

    return read_template(f"prompts/{role_spec(role).name}.md").strip() + "\n"
