"""The policy settings the hooks need, as a plain dataclass.

The commit-msg hook must answer in well under 0.15 s; building pydantic models costs ~0.2 s, so the
validated tdd.yaml is cached as JSON in `.git/tddhooks/` keyed by the file's stat and our version.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from tddhooks import __version__

TYPE_CHECKING = False  # not typing's: importing typing costs the hook path ~10 ms; mypy reads it
if TYPE_CHECKING:
    from typing import Any

SETTINGS_CACHE = "settings.json"


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


def _stamp(root: Path) -> list[object]:
    path = root / "tdd.yaml"
    try:
        stat = path.stat()
    except FileNotFoundError:
        return [__version__, None]
    return [__version__, stat.st_mtime_ns, stat.st_size, stat.st_ino]


def _from_config(root: Path) -> PolicySettings:
    from tddhooks.config import load_config
    from tddhooks.runners import get_runner

    config = load_config(root)
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


def load_settings(root: Path, cache_dir: Path | None = None) -> PolicySettings:
    """Settings for the repository at root; reads the JSON cache in cache_dir when still valid."""
    if cache_dir is None:
        return _from_config(root)
    cache_file = cache_dir / SETTINGS_CACHE
    stamp = _stamp(root)
    try:
        cached = json.loads(cache_file.read_text(encoding="utf-8"))
        if cached.get("stamp") == stamp:
            values: dict[str, Any] = {
                key: tuple(value) if isinstance(value, list) else value
                for key, value in cached["settings"].items()
            }
            return PolicySettings(**values)
    except (OSError, ValueError, TypeError, KeyError):
        pass
    settings = _from_config(root)
    with contextlib.suppress(OSError):
        cache_file.write_text(
            json.dumps({"stamp": stamp, "settings": asdict(settings)}), encoding="utf-8"
        )
    return settings
