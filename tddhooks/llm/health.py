"""`tddhooks doctor`'s model checks, per role: key source, endpoint, model listed, a round-trip."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from tddhooks.config import ROLE_NAMES, TddConfig
from tddhooks.errors import LLMAnswerError, TddhooksError
from tddhooks.llm.providers import REPLAY
from tddhooks.llm.settings import ModelSettings, resolve_role_settings

Status = Literal["ok", "warn", "fail"]
PING = [{"role": "user", "content": "Reply with the single word: ok"}]
_SHOWN_MODELS = 8


@dataclass(frozen=True)
class Check:
    """One line of the doctor's report."""

    name: str
    status: Status
    detail: str
    fix: str | None = None


def llm_checks(
    root: Path,
    config: TddConfig,
    *,
    offline: bool = False,
    roles: Sequence[str] = ROLE_NAMES,
    environ: Mapping[str, str] | None = None,
    timeout_s: float = 20.0,
) -> list[Check]:
    """Checks for every role; offline skips the network (endpoint, model list, round-trip)."""
    env = os.environ if environ is None else environ
    checks: list[Check] = []
    unnamed: list[str] = []
    endpoint_results: dict[tuple[str, str, str], list[Check]] = {}
    for role in roles:
        try:
            settings = resolve_role_settings(config, role, environ=env)
        except TddhooksError as error:
            if "no model is named" in error.message:
                unnamed.append(role)
            else:
                checks.append(Check(f"{role} model", "fail", error.message, error.fix))
            continue
        checks.append(Check(f"{role} model", "ok", settings.spec))
        if settings.provider == REPLAY:
            checks.append(_replay_check(root, settings, role))
            continue
        found = f"from {settings.key_source}" if settings.api_key else settings.key_source
        checks.append(Check(f"{role} key", "ok", found))
        if offline:
            continue
        shared = (settings.base_url, settings.model, settings.key_source)
        if shared not in endpoint_results:
            endpoint_results[shared] = _endpoint_checks(settings, timeout_s)
        checks.extend(
            replace(check, name=f"{role} {check.name}") for check in endpoint_results[shared]
        )
    if unnamed:
        example = unnamed[0]
        checks.insert(
            0,
            Check(
                "model",
                "warn",
                f"no model is named for {', '.join(unnamed)} (only needed for drive/step)",
                f"set roles.{example}.model in tdd.yaml (e.g. deepseek:deepseek-chat), pass "
                "--model to drive, or try `tddhooks demo`",
            ),
        )
    return checks


def _replay_check(root: Path, settings: ModelSettings, role: str) -> Check:
    from tddhooks.llm.replay import load_session

    try:
        # read as the drive reads it: the current directory's file, else the kata's; a bare
        # shipped name is the shipped session (load_session)
        session = load_session(settings.model, warn=lambda _text: None, base=root)
    except TddhooksError as error:
        return Check(f"{role} session", "fail", error.message, error.fix)
    count = session.remaining(role)
    if not count:
        fix = "record a session that includes this role with `tddhooks drive --record FILE`"
        return Check(
            f"{role} session", "warn", f"{session.source} has no answers for the {role}", fix
        )
    return Check(f"{role} session", "ok", f"{count} recorded answers in {session.source}")


def _endpoint_checks(settings: ModelSettings, timeout_s: float) -> list[Check]:
    """Reachability and model list (GET /models), then one tiny completion with its latency."""
    quick = replace(settings, timeout_s=min(settings.timeout_s, timeout_s), max_retries=0)
    checks: list[Check] = []
    if settings.preset.lists_models:
        listed = _list_models(quick)
        checks.extend(listed)
        if any(check.status == "fail" for check in listed):
            return checks
    checks.append(_round_trip(quick))
    return checks


def _list_models(settings: ModelSettings) -> list[Check]:
    import openai

    from tddhooks.llm.client import translate_error

    client = openai.OpenAI(
        base_url=settings.base_url,
        api_key=settings.api_key or "not-needed",
        timeout=openai.Timeout(settings.timeout_s, connect=min(settings.timeout_s, 5.0)),
        max_retries=0,
    )
    url = settings.base_url
    try:
        names = sorted(model.id for model in client.models.list())
    except openai.NotFoundError:
        return [
            Check("endpoint", "ok", f"{url} is reachable"),
            Check("model listed", "warn", f"{url} has no /models list; the model is not checked"),
        ]
    except (openai.APIError, ValueError) as error:
        problem = translate_error(error, settings)
        return [Check("endpoint", "fail", problem.message, problem.fix)]
    endpoint = Check("endpoint", "ok", f"{url} is reachable and lists {len(names)} models")
    if settings.model in names:
        return [endpoint, Check("model listed", "ok", f"{settings.model} is offered")]
    shown = ", ".join(names[:_SHOWN_MODELS]) + (", …" if len(names) > _SHOWN_MODELS else "")
    return [
        endpoint,
        Check(
            "model listed",
            "warn",
            f"{settings.model!r} is not among the models {url} lists",
            f"check the model name; offered: {shown or 'none'}",
        ),
    ]


def _round_trip(settings: ModelSettings) -> Check:
    from tddhooks.llm.client import ChatClient, TruncatedAnswer

    # no JSON mode: OpenAI refuses json_object unless the prompt mentions JSON
    ping = replace(settings, response_format="text", max_tokens=16)
    try:
        result = ChatClient(ping, None).complete(PING, role=settings.role or "doctor")
    except TruncatedAnswer as error:
        latency = error.result.latency_s if error.result else 0.0
        return Check("round-trip", "ok", f"answered (cut off at 16 tokens) in {latency:.2f} s")
    except LLMAnswerError as error:
        return Check("round-trip", "warn", error.message, error.fix)
    except TddhooksError as error:
        return Check("round-trip", "fail", error.message, error.fix)
    tokens = result.prompt_tokens + result.completion_tokens
    return Check("round-trip", "ok", f"answered in {result.latency_s:.2f} s ({tokens} tokens)")
