"""`tddhooks drive` and `tddhooks step`: prepare the work dir, the models and the referees, then
hand over to the loop (drive/loop.py)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tddhooks import git, output
from tddhooks.errors import ConfigError, UsageError
from tddhooks.vocabulary import ROLE_NAMES

if TYPE_CHECKING:
    from tddhooks.config import TddConfig
    from tddhooks.drive.checks import ActiveChecks
    from tddhooks.drive.console import Display
    from tddhooks.llm.formats import ResponseForm
    from tddhooks.llm.replay import ReplaySession
    from tddhooks.llm.settings import ModelSettings
    from tddhooks.policy.settings import PolicySettings


ALL_ROLES = ROLE_NAMES


def parse_roles(text: str) -> frozenset[str]:
    """`--roles tester,implementor` -> the roles the agents play (the person plays the rest)."""
    names = [part.strip().lower() for part in text.split(",") if part.strip()]
    unknown = sorted(set(names) - set(ALL_ROLES))
    if unknown or not names:
        raise UsageError(
            f"--roles {text!r}: "
            + (f"unknown role(s) {', '.join(unknown)}" if unknown else "no role named"),
            fix=f"name one or more of {','.join(ALL_ROLES)}, e.g. --roles implementor,refactorer",
        )
    return frozenset(names)


def needs_init(directory: Path) -> bool:
    """A missing or empty directory is initialised when --kata is given."""
    return not directory.exists() or (directory.is_dir() and not any(directory.iterdir()))


@dataclass(frozen=True)
class LLMFlags:
    """The model flags of drive/step, as the LLM layer takes them."""

    model: str | None
    provider: str | None
    api_key: str | None
    base_url: str | None
    role_model: tuple[str, ...]
    timeout_s: float | None = None  # --timeout: overrides every role's tdd.yaml timeout
    max_tokens: int | None = None  # --max-tokens: likewise for the answer length
    response_format: ResponseForm | None = None  # --response-format: likewise for the form
    temperature: float | None = None  # --temperature: likewise for the sampling temperature
    seed: int | None = None  # --seed: sent with every request (no seed: none is sent)

    def resolve(self, config: TddConfig, roles: Sequence[str]) -> dict[str, ModelSettings]:
        """Settings per agent role; a missing model or key fails here, before any work."""
        from tddhooks.llm.settings import resolve_role_settings

        resolved = {
            role: resolve_role_settings(
                config,
                role,
                model=self.model,
                provider=self.provider,
                api_key=self.api_key,
                base_url=self.base_url,
                role_models=self.role_model,
            )
            for role in roles
        }
        limits: dict[str, Any] = {}
        if self.timeout_s is not None:
            limits["timeout_s"] = self.timeout_s
        if self.max_tokens is not None:
            limits["max_tokens"] = self.max_tokens
        if self.response_format is not None:
            limits["response_format"] = self.response_format
        if self.temperature is not None:
            limits["temperature"] = self.temperature
        if self.seed is not None:
            limits["seed"] = self.seed
        return {role: replace(found, **limits) for role, found in resolved.items()}


@contextlib.contextmanager
def _stdout_to_stderr(enabled: bool) -> Iterator[None]:
    # with --json, stdout carries only events: init's table goes to stderr
    if not enabled:
        yield
        return
    with contextlib.redirect_stdout(sys.stderr):
        yield


def prepare_work_dir(
    work_dir: Path,
    *,
    kata: str | None,
    language: str | None,
    flags: LLMFlags,
    roles: Sequence[str],
    as_json: bool,
) -> Path:
    """The repository root to drive; with --kata an empty or missing dir is initialised first."""
    from tddhooks.config import TddConfig

    init_done = False
    if kata is not None and needs_init(work_dir):
        flags.resolve(TddConfig(), roles)  # a missing key fails before init does any work
        from tddhooks.commands import init_cmd

        with _stdout_to_stderr(as_json):
            init_cmd.run(work_dir.resolve(), language=language, kata=kata, direct=False)
        init_done = True
    root = git.find_root(work_dir) if work_dir.is_dir() else None
    if root is None:
        raise UsageError(
            f"{work_dir} is not a kata repository"
            + (" (and not empty, so --kata does not initialise it)" if kata else ""),
            fix=f"`tddhooks init {work_dir} --kata NAME` adds what is missing, or "
            "`tddhooks drive --kata FILE --work-dir NEW_DIR` starts from nothing",
        )
    if kata is not None and not init_done:
        output.warn(f"--kata {kata} ignored: {work_dir} is a kata repository with its own kata")
    return root


def _kata_title(root: Path, kata_file: str) -> str:
    from tddhooks.kata.files import kata_file_text
    from tddhooks.kata.title import kata_title

    return kata_title(kata_file_text(root, kata_file), kata_file)


def run(
    *,
    work_dir: Path,
    steps: int | None = None,
    kata: str | None = None,
    roles: str = ",".join(ALL_ROLES),
    language: str | None = None,
    model: str | None = None,
    provider: str | None = None,
    api_key: str | None = None,
    base_url: str | None = None,
    role_model: Sequence[str] = (),
    no_cache: bool = False,
    refresh_cache: bool = False,
    max_tokens_total: int | None = None,
    timeout_s: float | None = None,
    max_tokens: int | None = None,
    response_format: ResponseForm | None = None,
    temperature: float | None = None,
    seed: int | None = None,
    record: Path | None = None,
    quiet: bool = False,
    as_json: bool = False,
    verbose: bool = False,
    single_turn: bool = False,
    profile: str | None = None,
) -> int:
    """Drive N red-green-refactor cycles (or one turn with single_turn); returns the exit code."""
    from tddhooks.config import load_config
    from tddhooks.drive.console import make_display, model_label
    from tddhooks.policy.settings import load_settings

    agent_roles = parse_roles(roles)
    ordered = [role for role in ALL_ROLES if role in agent_roles]
    flags = LLMFlags(
        model, provider, api_key, base_url, tuple(role_model), timeout_s=timeout_s,
        max_tokens=max_tokens, response_format=response_format, temperature=temperature,
        seed=seed,
    )  # fmt: skip
    root = prepare_work_dir(
        work_dir, kata=kata, language=language, flags=flags, roles=ordered, as_json=as_json
    )
    config = load_config(root)
    from tddhooks.drive.checks import active_checks

    # a wrong profile or check id is told before any model is asked
    checks = active_checks(profile or config.drive.profile, config.drive.checks.disabled)
    models = flags.resolve(config, ordered)
    settings = load_settings(root)
    display = make_display(quiet=quiet, as_json=as_json, verbose=verbose)
    display.emit(
        "drive-started",
        kata=_kata_title(root, settings.kata_description),
        work_dir=str(work_dir),
        models={r: model_label(m) for r, m in models.items()},
        person_roles=[r for r in ALL_ROLES if r not in agent_roles],
        steps=None if single_turn else steps or config.steps,
    )
    return _drive(
        root,
        config,
        settings,
        models,
        display,
        agent_roles=agent_roles,
        steps=steps or config.steps,
        single_turn=single_turn,
        no_cache=no_cache,
        refresh_cache=refresh_cache,
        record=record,
        budget=max_tokens_total or config.llm.max_tokens_total,
        checks=checks,
    )


def _drive(
    root: Path,
    config: TddConfig,
    settings: PolicySettings,
    models: dict[str, ModelSettings],
    display: Display,
    *,
    agent_roles: frozenset[str],
    steps: int,
    single_turn: bool,
    no_cache: bool,
    refresh_cache: bool,
    record: Path | None,
    budget: int | None,
    checks: ActiveChecks,
) -> int:
    from tddhooks.drive import workspace
    from tddhooks.drive.crew import Crew
    from tddhooks.drive.loop import Drive, DrivePlan, unbounded_steps
    from tddhooks.drive.steplog import StepWriter
    from tddhooks.drive.supervisor import Supervisor
    from tddhooks.llm.cache import AnswerCache
    from tddhooks.llm.client import ChatClient
    from tddhooks.llm.formats import FormatMemory
    from tddhooks.llm.replay import Recorder
    from tddhooks.llm.usage import UsageLedger

    workspace.ensure_scratch_ignored(root)
    live = any(m.provider != "replay" for m in models.values())
    cache = AnswerCache(read=not refresh_cache) if live and not no_cache else None
    recorder = Recorder(record) if record is not None else None
    try:
        formats = FormatMemory()  # a refused response_format is remembered for the drive
        clients = {
            role: ChatClient(m, cache, recorder=recorder, formats=formats,
                             replay=_replay(m.provider, m.model, root, settings))
            for role, m in models.items()
        }  # fmt: skip
        supervisor = Supervisor(
            max_attempts=config.max_attempts_per_agent,
            max_failed_cycles=config.max_failed_cycles,
            steps=unbounded_steps() if single_turn else steps,
            budget_tokens=budget,
        )
        crew = Crew(
            root=root,
            settings=settings,
            clients=clients,
            supervisor=supervisor,
            ledger=UsageLedger(),
            display=display,
            steps=StepWriter(root),
            context_tokens=config.llm.context_tokens,
            max_attempts=config.max_attempts_per_agent,
            cache_enabled=cache is not None,
            checks=checks,
        )
        plan = DrivePlan(agent_roles=agent_roles, single_turn=single_turn)
        return Drive(crew, plan).run().exit_code
    finally:
        if recorder is not None:
            recorder.close()
        if cache is not None:
            cache.close()


def _replay(
    provider: str, model: str, root: Path, settings: PolicySettings
) -> ReplaySession | None:
    """A replayed session, with a shipped one's `{crate}` filled in with this kata's crate; a
    shipped session recorded on another kata or language is refused (llm/replay.py)."""
    from tddhooks.drive.gather import kata_text
    from tddhooks.drive.turnkit import kata_crate
    from tddhooks.llm.replay import load_session, shipped_misfit

    if provider != "replay":
        return None
    misfit = shipped_misfit(model, kata_text(root, settings), settings.language, base=root)
    if misfit is not None:
        raise ConfigError(
            misfit,
            fix=f"replay it in a kata of its own (`tddhooks init -k {model} DIR`, or `tddhooks "
            "demo`), or drive this kata with a model: --model PROVIDER:MODEL",
        )
    return load_session(model, crate=kata_crate(root), base=root)
