"""One model call of an attempt: build the prompt, ask the role's Model, account the tokens, parse
the answer. What the answer then comes to is the turn's to judge (drive/turnkit.py)."""

from __future__ import annotations

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
                messages, role=role, on_delta=on_delta, schema=answer_schema(role, ctx.write_paths)
            )
    except UnusableAnswer as error:
        if error.result is None:
            raise
        result = error.result
        _account(crew, role, cycle, result, record)
        record.failure = error.message
        return None, result
    _account(crew, role, cycle, result, record)
    try:
        answer = _parse(result.content, role)
    except AnswerInvalid as error:
        record.failure = error.message
        return None, result
    record.plan = answer.plan
    crew.display.emit("plan", role=role, plan=answer.plan)
    return answer, result


def _parse(text: str, role: str) -> AgentAnswer:
    from tddhooks.agents.edits import parse_answer

    return parse_answer(text, role)


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
        latency_s=round(result.latency_s, 3),
        prompt_estimate=record.prompt_tokens_estimate,
    )
