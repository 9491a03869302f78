"""The policy settings the hooks need, as a plain dataclass.

The commit-msg hook must answer in well under 0.15 s; building pydantic models costs ~0.2 s, so the
validated tdd.yaml is cached as JSON in `.git/tddhooks/settings/<blob id>.json`.

Which tdd.yaml: the one committed in the parent of the commit being judged (docs/policy.md, "Which
policy judges a commit"), so no commit can loosen the policy that judges it.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from tddhooks import __version__, git
from tddhooks.errors import ConfigError

TYPE_CHECKING = False  # not typing's: importing typing costs the hook path ~10 ms; mypy reads it
if TYPE_CHECKING:
    from typing import Any

    from tddhooks.config import TddConfig

SETTINGS_CACHE = "settings"
CONFIG_NAME = "tdd.yaml"


@dataclass(frozen=True)
class PolicySettings:
    """What the policy rules and the gate read from tdd.yaml (runner defaults filled in)."""

    language: str = "rust"
    kata_description: str = "kata.md"
    types: tuple[str, ...] = ()
    require_sections: tuple[str, ...] = ()
    require_test_with: tuple[str, ...] = ()
    test_paths: tuple[str, ...] = ()
    source_paths: tuple[str, ...] = ()
    exempt_git_messages: bool = True
    disabled_rules: tuple[str, ...] = ()
    fmt_check: tuple[str, ...] = ()
    fmt_fix: tuple[str, ...] = ()
    lint: tuple[str, ...] = ()
    test: tuple[str, ...] = ()
    timeout_s: float = 300.0
    author_name: str = "TDD Machine"
    author_email: str = "tdd@local"
    skip_markers: tuple[str, ...] = field(default=())

    def enabled(self, rule: str) -> bool:
        return rule not in self.disabled_rules


def _from_config(config: TddConfig) -> PolicySettings:
    from tddhooks.runners import get_runner

    runner = get_runner(config.language)
    defaults = runner.default_commands()
    ci = config.ci
    return PolicySettings(
        language=config.language,
        kata_description=config.kata_description,
        types=tuple(config.policy.types),
        require_sections=tuple(config.policy.require_sections),
        require_test_with=tuple(config.policy.require_test_with),
        test_paths=tuple(config.policy.test_paths or runner.test_globs),
        source_paths=tuple(runner.source_globs),
        exempt_git_messages=config.policy.exempt_git_messages,
        disabled_rules=tuple(config.policy.disabled_rules),
        fmt_check=tuple(ci.fmt_check_cmd or defaults.fmt_check),
        fmt_fix=tuple(ci.fmt_cmd or defaults.fmt_fix),
        lint=tuple(ci.check_cmd or defaults.lint),
        test=tuple(ci.test_cmd or defaults.test),
        timeout_s=ci.timeout_s,
        author_name=config.commit.author_name,
        author_email=config.commit.author_email,
        skip_markers=tuple(marker.pattern for marker in runner.skip_markers),
    )


def settings_from_text(
    text: str | None, where: str = CONFIG_NAME, *, first: bool = False
) -> PolicySettings:
    """Settings from the text of a tdd.yaml (None: there is none, the defaults apply).

    first: the tdd.yaml is the first one the history gets (its parent has none); only its
    language and kata file apply, with that runner's default rules and commands."""
    from tddhooks.config import TddConfig, parse_config

    config = TddConfig() if text is None else parse_config(text, Path(where))
    if first:
        config = TddConfig(language=config.language, kata_description=config.kata_description)
    return _from_config(config)


def policy_blob(root: Path, rev: str | None, index_file: str | None = None) -> str | None:
    """Blob id of tdd.yaml in commit `rev`, or in the index (index_file) when rev is None; None
    when there is none. One git call."""
    if rev is None:
        result = git.run_git(
            ["ls-files", "-s", "-z", "--", CONFIG_NAME], root, env_extra=git.index_env(index_file)
        )
    else:
        result = git.run_git(["ls-tree", "-z", rev, "--", CONFIG_NAME], root)
    for entry in result.stdout.split("\0"):
        meta, _, path = entry.partition("\t")
        if path == CONFIG_NAME:
            return _regular_blob(meta, rev)
    return None


def _regular_blob(meta: str, rev: str | None) -> str:
    fields = meta.split()
    # ls-files -s: "<mode> <blob> <stage>"; ls-tree: "<mode> <type> <blob>"
    mode, blob = fields[0], fields[1] if rev is None else fields[2]
    if mode not in ("100644", "100755"):
        raise ConfigError(
            f"{CONFIG_NAME} in {rev or 'the index'} is not a regular file (mode {mode})",
            fix=f"commit {CONFIG_NAME} as a plain file",
        )
    return blob


def settings_at(
    root: Path,
    base: str | None,
    cache_dir: Path | None = None,
    index_file: str | None = None,
    *,
    own: str | None = None,
) -> PolicySettings:
    """The policy that judges a commit whose parent is `base`, read from git, never from the
    work tree (docs/policy.md, "Which policy judges a commit"):

    - base's tdd.yaml when it has one;
    - a root commit (base None) by its own tdd.yaml, all of it;
    - a commit whose parent has none by the language and kata file of its own (the install
      commit), everything else the defaults: the first policy cannot loosen its own rules.

    The commit's own tree is `own` (a commit id, for audit) or the index (index_file). Parsed
    settings are cached in cache_dir by blob id (a blob never changes)."""
    blob = policy_blob(root, base, index_file) if base is not None else None
    first = False
    if blob is None:
        blob = policy_blob(root, own, index_file)
        first = base is not None and blob is not None
    name = f"{'first-' if first else ''}{blob or 'none'}.json"
    cache_file = None if cache_dir is None else cache_dir / SETTINGS_CACHE / name
    if cache_file is not None:
        cached = _read_cached(cache_file)
        if cached is not None:
            return cached
    text = None if blob is None else git.run_git(["cat-file", "blob", blob], root).stdout
    settings = settings_from_text(text, f"{CONFIG_NAME} ({blob or 'none'})", first=first)
    if cache_file is not None:
        with contextlib.suppress(OSError):
            cache_file.parent.mkdir(parents=True, exist_ok=True)
            cache_file.write_text(
                json.dumps({"version": __version__, "settings": asdict(settings)}),
                encoding="utf-8",
            )
    return settings


def _read_cached(cache_file: Path) -> PolicySettings | None:
    try:
        cached = json.loads(cache_file.read_text(encoding="utf-8"))
        if cached.get("version") != __version__:
            return None
        values: dict[str, Any] = {
            key: tuple(value) if isinstance(value, list) else value
            for key, value in cached["settings"].items()
        }
        return PolicySettings(**values)
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None


def load_settings(root: Path, cache_dir: Path | None = None) -> PolicySettings:
    """The policy that judges the next commit on top of HEAD: HEAD's committed tdd.yaml (before
    the first commit, the staged one). Never the work tree's file: see docs/policy.md. Outside a
    repository (nothing is judged there) the folder's tdd.yaml gives the settings."""
    if git.find_root(root) is None:
        from tddhooks.config import load_config

        return _from_config(load_config(root))
    return settings_at(root, git.head(root), cache_dir)
