"""The policy settings the hooks need, as a plain NamedTuple (see proc.ProcResult: no dataclass).

The commit-msg hook must answer in well under 0.15 s; building pydantic models costs ~0.2 s, so the
validated tdd.yaml is cached as JSON in `.git/tddhooks/settings/<blob id>.json`.

Which tdd.yaml: the one committed in the parent of the commit being judged (docs/policy.md, "Which
policy judges a commit"), so no commit can loosen the policy that judges it.
"""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path

from tddhooks import __version__, git, keys
from tddhooks.errors import ConfigError
from tddhooks.records import NamedTuple
from tddhooks.vocabulary import LANGUAGE_FILES, languages_by_files, languages_of

TYPE_CHECKING = False  # not typing's: the hook path does not import typing (tddhooks/records.py)
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from tddhooks.config import TddConfig

SETTINGS_CACHE = "settings"
CONFIG_NAME = "tdd.yaml"


class PolicySettings(NamedTuple):
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
    lint_fix: tuple[str, ...] = ()
    lint: tuple[str, ...] = ()
    test: tuple[str, ...] = ()
    timeout_s: float = 300.0
    author_name: str = "TDD Machine"
    author_email: str = "tdd@local"
    skip_markers: tuple[str, ...] = ()
    lint_mode: str = "strict"  # policy/ratchet.py
    trust_remotes: bool = True
    gate_env: tuple[str, ...] = ()  # variables the gate takes from the committer (gate.env)
    runner_hooks: bool = False  # python.runner_hooks: allow
    key_names: tuple[str, ...] = ()  # variables tdd.yaml says hold an API key (llm.api_key_env)

    def enabled(self, rule: str) -> bool:
        return rule not in self.disabled_rules


def resolve_tool(cmd: Sequence[str], root: Path) -> tuple[str, ...]:
    """A command whose program is a relative path (`.venv/bin/python -m pytest`, as
    docs/runners.md recommends) names the project's own tool: the gate runs in a snapshot of
    the committed tree, which has no `.venv`, so the program is resolved against the work tree.
    A bare name (`cargo`) is left to PATH."""
    if not cmd:
        return ()
    program = cmd[0]
    if "/" in program and not Path(program).is_absolute():
        program = str((root / program).absolute())
    return (program, *cmd[1:])


def with_resolved_tools(settings: PolicySettings, root: Path) -> PolicySettings:
    """settings with every command's relative program resolved against the work tree at root.
    Every variable the settings say holds a key is registered here, so no child process of
    this one (the gate's included) is handed it (tddhooks/keys.py)."""
    for name in settings.key_names:
        keys.register(name=name)
    return settings._replace(
        fmt_check=resolve_tool(settings.fmt_check, root),
        fmt_fix=resolve_tool(settings.fmt_fix, root),
        lint_fix=resolve_tool(settings.lint_fix, root),
        lint=resolve_tool(settings.lint, root),
        test=resolve_tool(settings.test, root),
    )


def _from_config(config: TddConfig) -> PolicySettings:
    from tddhooks.runners import get_runner

    runner = get_runner(config.language)
    defaults = runner.default_commands()
    ci = config.ci
    lint = tuple(ci.check_cmd or defaults.lint)
    if config.lint == "ratchet":
        from tddhooks.policy.ratchet import ratchet_command

        if ci.check_cmd:
            raise ConfigError(
                "`lint: ratchet` counts the default linter's findings per file, and tdd.yaml "
                "sets its own ci.check_cmd",
                fix="remove ci.check_cmd, or keep it with `lint: strict`",
            )
        lint = ratchet_command(config.language)
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
        trust_remotes=config.policy.trust_remotes,
        fmt_check=tuple(ci.fmt_check_cmd or defaults.fmt_check),
        fmt_fix=tuple(ci.fmt_cmd or defaults.fmt_fix),
        lint_fix=tuple(ci.fix_cmd or (() if ci.check_cmd else defaults.lint_fix)),
        lint=lint,
        test=tuple(ci.test_cmd or defaults.test),
        timeout_s=ci.timeout_s,
        author_name=config.commit.author_name,
        author_email=config.commit.author_email,
        skip_markers=tuple(marker.pattern for marker in runner.skip_markers),
        lint_mode=config.lint,
        gate_env=tuple(config.gate.env),
        runner_hooks=config.python.runner_hooks == "allow",
        key_names=(config.llm.api_key_env,) if config.llm.api_key_env else (),
    )


def settings_from_text(
    text: str | None,
    where: str = CONFIG_NAME,
    *,
    first: bool = False,
    detected: dict[str, list[str]] | None = None,
) -> PolicySettings:
    """Settings from the text of a tdd.yaml (None: there is none, the defaults apply).

    first: the tdd.yaml is the first one the history gets (its parent has none); only its
    language and kata file apply, with that runner's default rules and commands.
    detected: language -> manifest files of the judged tree (runners.languages_of): they pick
    the language when tdd.yaml does not say it; two languages ask for `language:`."""
    from tddhooks.config import TddConfig, parse_config

    config = TddConfig() if text is None else parse_config(text, Path(where))
    if "language" not in config.model_fields_set and detected:
        from tddhooks.runners import language_from

        language = language_from(detected, where)
        if language:
            config = config.model_copy(update={"language": language})
    if first:
        config = TddConfig(language=config.language, kata_description=config.kata_description)
    return _from_config(config)


# pytest's configuration files: its python_files widen the Python test paths (_collected_globs)
_PYTEST_CONFIGS = ("pyproject.toml", "pytest.ini", "tox.ini", "setup.cfg")
_LANGUAGE_NAMES = tuple(
    sorted({name for names in LANGUAGE_FILES.values() for name in names} | set(_PYTEST_CONFIGS))
)


def index_entries_call(index_file: str | None) -> git.Call:
    """The git call listing tdd.yaml and the language files in the index (a first policy)."""
    return ["ls-files", "-s", "-z", "--", CONFIG_NAME, *_LANGUAGE_NAMES], git.index_env(index_file)


def _top_entries(root: Path, rev: str | None, index_file: str | None) -> dict[str, str]:
    """tdd.yaml and the language files at the top of commit `rev` (or of the index when rev is
    None): name -> the git listing's metadata. One git call."""
    names = ["--", CONFIG_NAME, *_LANGUAGE_NAMES]
    listing = None if rev is None else git.held_listing(root, rev)
    if listing is not None:  # a hook lists the parent commit once (git.held_listing)
        wanted = set(names[1:])
        listed = {path: meta for meta, path in listing if path in wanted}
        for _meta, path in listing:  # a folder of that name, as `ls-tree` without -r shows it
            top = path.partition("/")[0]
            if top != path and top in wanted:
                listed.setdefault(top, "040000 tree -")
        return listed
    if rev is None:
        args, env_extra = index_entries_call(index_file)
        result = git.run_git(args, root, env_extra=env_extra)
    else:
        result = git.run_git(["ls-tree", "-z", rev, *names], root)
    found: dict[str, str] = {}
    for entry in result.stdout.split("\0"):
        meta, _, path = entry.partition("\t")
        if path:
            found[path] = meta
    return found


def tree_paths(root: Path, rev: str | None, index_file: str | None = None) -> list[str]:
    """Every path of commit `rev`, or of the index (index_file) when rev is None."""
    listing = None if rev is None else git.held_listing(root, rev)
    if listing is not None:
        return [path for _meta, path in listing]
    if rev is None:
        args = ["ls-files", "-z", "--full-name"]
        result = git.run_git(args, root, check=False, env_extra=git.index_env(index_file))
    else:
        result = git.run_git(["ls-tree", "-r", "-z", "--name-only", rev], root, check=False)
    return [path for path in result.stdout.split("\0") if path]


def _blob_in(entries: dict[str, str], rev: str | None) -> str | None:
    meta = entries.get(CONFIG_NAME)
    return None if meta is None else _regular_blob(meta, rev)


def policy_blob(root: Path, rev: str | None, index_file: str | None = None) -> str | None:
    """Blob id of tdd.yaml in commit `rev`, or in the index (index_file) when rev is None; None
    when there is none. One git call."""
    return _blob_in(_top_entries(root, rev, index_file), rev)


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
    base_entries = _top_entries(root, base, index_file) if base is not None else None
    blob = None if base_entries is None else _blob_in(base_entries, base)
    first = False
    own_entries = None
    if blob is None:
        own_entries = _top_entries(root, own, index_file)
        blob = _blob_in(own_entries, own)
        first = base is not None and blob is not None
    # the language files of the parent decide (the policy is the parent's); a root commit's own
    detected = languages_of(base_entries if base_entries is not None else (own_entries or {}))
    if not detected:  # no manifest: the code files the parent holds say it
        tree_rev = base if base_entries is not None else own
        detected = languages_by_files(tree_paths(root, tree_rev, index_file))
    if not detected and base_entries is not None:  # a parent of no language: the commit's own
        own_paths = tree_paths(root, own, index_file)
        detected = languages_of(p for p in own_paths if "/" not in p) or languages_by_files(
            own_paths
        )
    tag = "+".join(sorted(detected)) or "none"
    listed = base_entries if base_entries is not None else (own_entries or {})
    listed_rev = base if base_entries is not None else own
    pytest_blobs = _pytest_blobs(listed, listed_rev) if "python" in detected else {}
    if pytest_blobs:  # the pytest configuration widens the test paths (_collected_globs)
        tag += "-" + "-".join(blob[:12] for _name, blob in sorted(pytest_blobs.items()))
    name = f"{'first-' if first else ''}{blob or 'none'}-{tag}.json"
    cache_file = None if cache_dir is None else cache_dir / SETTINGS_CACHE / name
    if cache_file is not None:
        cached = _read_cached(cache_file)
        if cached is not None:
            return with_resolved_tools(cached, root)
    text = None if blob is None else git.run_git(["cat-file", "blob", blob], root).stdout
    settings = settings_from_text(
        text, f"{CONFIG_NAME} ({blob or 'none'})", first=first, detected=detected
    )
    settings = _collected_globs(settings, root, pytest_blobs)
    if cache_file is not None:
        with contextlib.suppress(OSError):
            cache_file.parent.mkdir(parents=True, exist_ok=True)
            cache_file.write_text(
                json.dumps(
                    {
                        "version": __version__,
                        "python": sys.executable,
                        "settings": settings._asdict(),
                    }
                ),
                encoding="utf-8",
            )
    return with_resolved_tools(settings, root)


def _pytest_blobs(entries: dict[str, str], rev: str | None) -> dict[str, str]:
    """name -> blob id of pytest's configuration files among the listed top entries."""
    blobs = {}
    for name in _PYTEST_CONFIGS:
        fields = entries.get(name, "").split()
        if len(fields) == 3 and fields[0] in ("100644", "100755"):
            blobs[name] = fields[1] if rev is None else fields[2]
    return blobs


def _collected_globs(settings: PolicySettings, root: Path, blobs: dict[str, str]) -> PolicySettings:
    """A Python kata's test paths widened by the python_files patterns of test modules its
    pytest configuration sets (`tests.py` beside the code is a test module when pytest collects
    it), unless tdd.yaml sets policy.test_paths itself."""
    if settings.language != "python" or not blobs:
        return settings
    from tddhooks.runners.python import PythonRunner
    from tddhooks.runners.python_items import python_files

    if settings.test_paths != PythonRunner.test_globs:
        return settings
    texts = {
        name: git.run_git(["cat-file", "blob", blob], root, check=False).stdout
        for name, blob in blobs.items()
    }
    # a pattern naming test modules (`tests.py`, `test*.py`); a wider one (`*.py`, `ops.py`)
    # collects modules of code with tests beside it, judged item by item (policy/items.py)
    extra = tuple(
        p for p in python_files(texts) if "test" in p.lower() and p not in settings.test_paths
    )
    return settings._replace(test_paths=settings.test_paths + extra) if extra else settings


def _read_cached(cache_file: Path) -> PolicySettings | None:
    try:
        cached = json.loads(cache_file.read_text(encoding="utf-8"))
        if cached.get("version") != __version__ or not _same_python(cached):
            return None
        if set(cached["settings"]) != set(PolicySettings._fields):  # written by another build
            return None
        values: dict[str, Any] = {
            key: tuple(value) if isinstance(value, list) else value
            for key, value in cached["settings"].items()
        }
        return PolicySettings(**values)
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None


def _same_python(cached: dict[str, Any]) -> bool:
    """The default Python commands name the interpreter tddhooks runs under: settings written by
    another installation (another venv, pipx, pre-commit's) that name its interpreter are not
    ours. Settings naming no interpreter (a Rust kata's) are, whichever Python wrote them: the
    `tddhooks` script (python3) and `python -m tddhooks` must not rewrite each other's cache."""
    python = cached.get("python")
    if python == sys.executable:
        return True
    if not isinstance(python, str) or not python:
        return False
    for value in cached["settings"].values():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str) and python in item:
                return False
    return True


def load_settings(root: Path, cache_dir: Path | None = None) -> PolicySettings:
    """The policy that judges the next commit on top of HEAD: HEAD's committed tdd.yaml (before
    the first commit, the staged one). Never the work tree's file: see docs/policy.md. Outside a
    repository (nothing is judged there) the folder's tdd.yaml gives the settings."""
    if git.find_root(root) is None:
        from tddhooks.config import load_config

        return with_resolved_tools(_from_config(load_config(root)), root)
    return settings_at(root, git.head(root), cache_dir)
