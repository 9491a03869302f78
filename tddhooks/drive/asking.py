"""One model call of an attempt: build the prompt, ask the role's Model, account the tokens, parse
the answer. What the answer then comes to is the turn's to judge (drive/turnkit.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from tddhooks.agents.context import TurnContext, build_messages, estimate_tokens
from tddhooks.agents.edits import AgentAnswer, AnswerInvalid
from tddhooks.agents.schemas import answer_schema
from tddhooks.drive.crew import Crew
from tddhooks.drive.steplog import AttemptRecord

if TYPE_CHECKING:
    from tddhooks.llm.client import ChatResult


def ask(
    crew: Crew, role: str, cycle: int, ctx: TurnContext, record: AttemptRecord
) -> tuple[AgentAnswer | None, ChatResult | None]:
    """One model call; the answer parsed, or None with record.failure saying why."""
    from tddhooks.llm.client import UnusableAnswer

    messages = build_messages(ctx, budget_tokens=crew.context_tokens)
    record.prompt_tokens_estimate = sum(estimate_tokens(m["content"]) for m in messages)
    client = crew.clients[role]
    on_delta = crew.display.delta if crew.display.live else None
    try:
        with crew.display.thinking(role, crew.model_of(role)):
            result = client.complete(
                messages,
                role=role,
                on_delta=on_delta,
                # the offered paths close the schema's `path` only as a small-model aid: a
                # careful answer may grow another test file or start a new module
                schema=answer_schema(role, ctx.write_paths if crew.on("offered-paths") else ()),
                temperature=retry_temperature(client.settings.temperature, record.number),
            )
    except UnusableAnswer as error:
        if error.result is None:
            raise
        result = error.result
        _account(crew, role, cycle, result, record)
        record.failure = error.message
        return None, result
    _account(crew, role, cycle, result, record)
    merged: list[str] = []
    try:
        answer = _parse(result.content, role, _reader(crew), merged, crew.checks.ids())
    except AnswerInvalid as error:
        record.failure = error.message
        return None, result
    record.plan = answer.plan
    crew.display.emit("plan", role=role, plan=answer.plan)
    for path in merged:
        crew.display.emit(
            "note", message=f"{path}: the answer's snippet was merged into the file item by item"
        )
    return answer, result


TEMPERATURE_STEP = 0.2


def retry_temperature(base: float, attempt: int) -> float:
    """The temperature of a turn's attempt: the role's first, then 0.2 more per retry, at most
    1.0 (and never below the role's). A retry's prompt differs from the last only by the same
    failure line, and at the role's low temperature a model may send the same answer again."""
    return round(max(base, min(1.0, base + TEMPERATURE_STEP * (attempt - 1))), 2)


def _parse(
    text: str,
    role: str,
    read: Callable[[str], str | None],
    merged: list[str],
    repairs: frozenset[str],
) -> AgentAnswer:
    from tddhooks.agents.edits import parse_answer

    return parse_answer(text, role, read=read, merged=merged, repairs=repairs)


def _reader(crew: Crew) -> Callable[[str], str | None]:
    """path -> the file as the index holds it (the staged test included), None when the path is
    unusable or names no file: what a snippet answer is merged into (agents/snippets.py)."""
    from tddhooks.agents.edits import normalize_path

    def read(path: str) -> str | None:
        try:
            clean = normalize_path(path)
        except ValueError:
            return None
        return crew.workspace.read_blob(crew.root, ":", clean)

    return read


def _account(crew: Crew, role: str, cycle: int, result: ChatResult, record: AttemptRecord) -> None:
    crew.ledger.add(role, cycle, result)
    record.prompt_tokens = result.prompt_tokens
    record.completion_tokens = result.completion_tokens
    record.cached = result.cached
    record.latency_s = round(result.latency_s, 3)
    crew.display.emit(
        "model-answered",
        role=role,
        prompt_tokens=result.prompt_tokens,
        completion_tokens=result.completion_tokens,
        cached=result.cached,
        cache_enabled=crew.cache_enabled,
        latency_s=round(result.latency_s, 3),
        prompt_estimate=record.prompt_tokens_estimate,
    )
