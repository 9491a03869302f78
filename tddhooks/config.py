"""pydantic models of tdd.yaml (unknown fields are errors), loading and CLI/env merging."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from tddhooks.errors import ConfigError
from tddhooks.vocabulary import ROLE_NAMES as ROLE_NAMES

CONFIG_FILE = "tdd.yaml"
TDD_TYPES = ("feat", "fix", "refactor", "test")
DEFAULT_TYPES = (
    "feat", "fix", "refactor", "test", "chore", "docs", "style", "build", "ci", "perf", "revert",
)  # fmt: skip
RULE_NAMES = ("green", "prefixed", "sections", "type-rules", "no-skip", "handoff")
# structured-output forms, most precise first (tddhooks/llm/formats.py; docs/llm.md)
ResponseFormat = Literal["json_schema", "json_object_schema", "json_object", "text"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class RoleConfig(_Strict):
    """One agent role's model settings; `model` may be `provider:model`."""

    model: str | None = None
    provider: str | None = None
    base_url: str | None = None
    temperature: float = Field(default=0.2, ge=0.0, le=2.0)
    max_tokens: int | None = Field(default=4096, gt=0)
    timeout_s: float | None = Field(default=None, gt=0)
    response_format: ResponseFormat | None = None  # None: llm.response_format, then the preset


class RolesConfig(_Strict):
    tester: RoleConfig = RoleConfig(temperature=0.4)
    implementor: RoleConfig = RoleConfig(temperature=0.2)
    refactorer: RoleConfig = RoleConfig(temperature=0.3)

    def for_role(self, role: str) -> RoleConfig:
        config: RoleConfig = getattr(self, role)
        return config


class LLMConfig(_Strict):
    provider: str | None = None
    model: str | None = None
    base_url: str | None = None
    api_key_env: str | None = None
    timeout_s: float = Field(default=120.0, gt=0)
    max_retries: int = Field(default=3, ge=0, le=10)
    max_tokens_total: int | None = Field(default=None, gt=0)
    context_tokens: int = Field(default=1800, ge=200)
    response_format: ResponseFormat | None = None  # None: the provider preset's form


class CIConfig(_Strict):
    """Runner commands; unset ones come from the language runner's defaults."""

    test_cmd: list[str] | None = None
    check_cmd: list[str] | None = None
    fmt_cmd: list[str] | None = None
    fmt_check_cmd: list[str] | None = None
    # what agents run to fix the linter's machine-applicable suggestions before they stage;
    # null: the language's default while check_cmd is the default too, else none
    fix_cmd: list[str] | None = None
    timeout_s: float = Field(default=300.0, gt=0)

    @field_validator("test_cmd", "check_cmd", "fmt_cmd", "fmt_check_cmd", "fix_cmd")
    @classmethod
    def _non_empty(cls, value: list[str] | None) -> list[str] | None:
        if value is not None and not value:
            raise ValueError("a command needs at least the program name, e.g. [cargo, test]")
        return value


class PolicyConfig(_Strict):
    types: list[str] = Field(default_factory=lambda: list(DEFAULT_TYPES))
    require_sections: list[str] = Field(default_factory=lambda: list(TDD_TYPES))
    require_test_with: list[str] = Field(default_factory=lambda: ["feat", "fix"])
    test_paths: list[str] | None = None
    exempt_git_messages: bool = True
    disabled_rules: list[str] = Field(default_factory=list)
    trust_remotes: bool = True

    @field_validator("disabled_rules")
    @classmethod
    def _known_rules(cls, value: list[str]) -> list[str]:
        unknown = sorted(set(value) - set(RULE_NAMES))
        if unknown:
            raise ValueError(f"unknown rule(s) {unknown}; rules are {list(RULE_NAMES)}")
        return value


class CommitConfig(_Strict):
    author_name: str = "TDD Machine"
    author_email: str = "tdd@local"


_ENV_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class GateConfig(_Strict):
    """What the gate takes from the committer's environment beyond its own allowlist
    (policy/gate_env.py; docs/gate.md, "The gate's environment")."""

    env: list[str] = Field(default_factory=list)

    @field_validator("env")
    @classmethod
    def _variable_names(cls, value: list[str]) -> list[str]:
        from tddhooks.keys import is_key_name

        for name in value:
            if not _ENV_NAME_RE.match(name):
                raise ValueError(f"{name!r} is not an environment variable name")
            if is_key_name(name):
                raise ValueError(
                    f"{name} holds a key (by its name); keys never reach the gate's commands"
                )
        return value


class PythonConfig(_Strict):
    """Python-only policy: `runner_hooks: allow` lets committed conftest.py files and the
    plugins they load implement pytest hooks (policy/runner_hooks.py)."""

    runner_hooks: Literal["refuse", "allow"] = "refuse"


class ChecksConfig(_Strict):
    """Single answer checks turned off by id (docs/checks.md; `tddhooks doctor` lists them)."""

    disabled: list[str] = Field(default_factory=list)


class DriveConfig(_Strict):
    """Which checks the drive applies to agents' answers: `core` (what the commit policy and the
    edit protocol need) or `small-model` (core and the aids for small models), docs/checks.md."""

    profile: Literal["core", "small-model"] = "core"
    checks: ChecksConfig = ChecksConfig()


class TddConfig(_Strict):
    """The whole of tdd.yaml."""

    kata_description: str = "kata.md"
    language: Literal["rust", "python"] = "rust"
    # strict: lint findings are errors; ratchet: no commit adds findings to a file (legacy code)
    lint: Literal["strict", "ratchet"] = "strict"
    steps: int = Field(default=10, ge=1)
    max_attempts_per_agent: int = Field(default=5, ge=1)
    max_failed_cycles: int = Field(default=3, ge=1)
    roles: RolesConfig = RolesConfig()
    llm: LLMConfig = LLMConfig()
    ci: CIConfig = CIConfig()
    policy: PolicyConfig = PolicyConfig()
    commit: CommitConfig = CommitConfig()
    gate: GateConfig = GateConfig()
    python: PythonConfig = PythonConfig()
    drive: DriveConfig = DriveConfig()

    @model_validator(mode="after")
    def _no_key_in_gate_env(self) -> TddConfig:
        if self.llm.api_key_env and self.llm.api_key_env in self.gate.env:
            raise ValueError(
                f"gate.env names {self.llm.api_key_env}, which llm.api_key_env says holds the "
                "key; keys never reach the gate's commands"
            )
        return self


def _describe(error: ValidationError, path: Path) -> str:
    lines = []
    for item in error.errors():
        field = ".".join(str(part) for part in item["loc"]) or "(top level)"
        if item["type"] == "extra_forbidden":
            lines.append(f"{path}: unknown field '{field}'")
        else:
            lines.append(f"{path}: field '{field}': {item['msg']} (got {item.get('input')!r})")
    return "\n".join(lines)


MAX_CONFIG_BYTES = 256_000
MAX_YAML_NODES = 20_000  # after aliases are expanded; tdd.yaml has a few hundred


def _check_expansion(text: str, path: Path) -> None:
    """Refuse an alias bomb before building it: walk the event stream (constant memory) adding
    up how many nodes every alias would expand to."""
    sizes: dict[str, int] = {}
    open_nodes: list[tuple[str | None, int]] = []  # (anchor, nodes so far) per open collection
    total = 0

    def add(count: int) -> None:
        nonlocal total
        total += count
        if open_nodes:
            anchor, inner = open_nodes[-1]
            open_nodes[-1] = (anchor, inner + count)
        if total > MAX_YAML_NODES:
            raise ConfigError(
                f"{path}: the YAML expands to more than {MAX_YAML_NODES} values (an alias bomb?)",
                fix="write the settings out; tdd.yaml needs no deeply nested aliases",
            )

    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        if isinstance(event, yaml.AliasEvent):
            add(sizes.get(event.anchor or "", 1))
        elif isinstance(event, yaml.ScalarEvent):
            if event.anchor:
                sizes[event.anchor] = 1
            add(1)
        elif isinstance(event, yaml.CollectionStartEvent):
            open_nodes.append((event.anchor, 1))
        elif isinstance(event, yaml.CollectionEndEvent) and open_nodes:
            anchor, inner = open_nodes.pop()
            if anchor:
                sizes[anchor] = inner
            add(inner)


def parse_config(text: str, path: Path) -> TddConfig:
    """Validate tdd.yaml text; every problem names the file and the field. An oversized file or
    an alias bomb is refused before it is built (bounded time and memory)."""
    if len(text) > MAX_CONFIG_BYTES:
        raise ConfigError(
            f"{path}: {len(text):,} characters is too large for a tdd.yaml "
            f"(at most {MAX_CONFIG_BYTES:,})",
            fix='keep tdd.yaml to settings (every field: README.md, "Configuration: tdd.yaml")',
        )
    try:
        _check_expansion(text, path)
        data: Any = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise ConfigError(f"{path}: not valid YAML: {error}", fix="correct the syntax") from error
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of settings at the top level")
    try:
        return TddConfig.model_validate(data)
    except ValidationError as error:
        raise ConfigError(
            _describe(error, path), fix=f"edit {path}; `tddhooks doctor` re-checks it"
        ) from error


def load_config(root: Path) -> TddConfig:
    """tdd.yaml at the repository root, or the defaults when there is none."""
    path = root / CONFIG_FILE
    if not path.exists():
        return _with_detected_language(TddConfig(), root)
    try:
        with path.open("rb") as stream:  # read no more than a tdd.yaml can be
            text = stream.read(MAX_CONFIG_BYTES + 1).decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: cannot read: {error}") from error
    return _with_detected_language(parse_config(text, path), root)


def _with_detected_language(config: TddConfig, root: Path) -> TddConfig:
    """Without `language:` in tdd.yaml, the project's manifests decide (runners.detect_language);
    a project with none keeps the default, rust."""
    if "language" in config.model_fields_set:
        return config
    from tddhooks.runners import detect_language

    language = detect_language(root)
    return config.model_copy(update={"language": language}) if language else config


def default_config_yaml(language: str, kata_description: str = "kata.md") -> str:
    """The tdd.yaml that `init` writes: every default spelled out, so a person can see them."""
    from tddhooks.resources import read_template

    text = read_template("tdd.yaml")
    return text.replace("{language}", language).replace("{kata}", kata_description)
