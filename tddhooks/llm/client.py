"""The one place that talks to a model: the official openai SDK, our retries, the cache, replay.

`openai` is imported on the first real call (it costs ~0.6 s and more to import).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING, Any, cast

from tddhooks import keys
from tddhooks.errors import LLMAnswerError, LLMError, TddhooksError
from tddhooks.llm.cache import AnswerCache, CachedAnswer
from tddhooks.llm.providers import REPLAY
from tddhooks.llm.usage import estimate_tokens

if TYPE_CHECKING:
    import openai

    from tddhooks.llm.replay import Recorder, ReplaySession
    from tddhooks.llm.settings import ModelSettings

JSON_OBJECT = {"type": "json_object"}
Delta = Callable[[str], None]
Messages = list[dict[str, str]]


@dataclass(frozen=True)
class ChatResult:
    """One answer and what it cost; `cached` answers cost nothing this time."""

    content: str
    prompt_tokens: int
    completion_tokens: int
    cached: bool
    finish_reason: str | None
    latency_s: float
    cache_key: str
    estimated_usage: bool


class UnusableAnswer(LLMAnswerError):
    """The model answered but the answer cannot be used; `result` still carries the usage."""

    def __init__(self, message: str, *, fix: str, result: ChatResult | None = None) -> None:
        super().__init__(message, fix=fix)
        self.result = result


class TruncatedAnswer(UnusableAnswer):
    """finish_reason == "length": the answer was cut off by max_tokens."""


def _fresh(messages: Messages, content: str, finish: str | None, usage: Any) -> ChatResult:
    """A just-received answer; usage the API did not report is estimated (~4 chars/token)."""
    prompt = getattr(usage, "prompt_tokens", None)
    completion = getattr(usage, "completion_tokens", None)
    estimated = not prompt and not completion
    if estimated:
        prompt = sum(estimate_tokens(message.get("content") or "") for message in messages)
        completion = estimate_tokens(content)
    return ChatResult(content, prompt or 0, completion or 0, False, finish, 0.0, "", estimated)


class ChatClient:
    """Completes chats for one role's settings. Pass `cache=None` for --no-cache."""

    def __init__(
        self,
        settings: ModelSettings,
        cache: AnswerCache | None,
        *,
        replay: ReplaySession | None = None,
        recorder: Recorder | None = None,
        sleep: Callable[[float], None] = time.sleep,
        backoff_base_s: float = 0.5,
        backoff_cap_s: float = 8.0,
        connect_timeout_s: float = 10.0,
    ) -> None:
        if settings.provider == REPLAY and replay is None:
            from tddhooks.llm.replay import load_session

            replay = load_session(settings.model)
        self.settings = settings
        self.cache = None if replay is not None else cache  # a replay is already deterministic
        self.replay = replay
        self.recorder = recorder
        self._sleep = sleep
        self._backoff = (backoff_base_s, backoff_cap_s)
        self._connect_timeout_s = min(connect_timeout_s, settings.timeout_s)
        self._json_mode = settings.json_mode
        self._sdk: openai.OpenAI | None = None
        self._secrets = [settings.api_key] if settings.api_key else []

    def complete(
        self, messages: Messages, *, role: str, on_delta: Delta | None = None
    ) -> ChatResult:
        """One completion from the replay session, the cache, or the model (with retries); raises
        LLMError (the endpoint) or UnusableAnswer/TruncatedAnswer (the answer)."""
        start = time.monotonic()
        settings = self.settings
        if self.replay is not None:
            entry = self.replay.next_entry(role, messages)
            result = _fresh(messages, entry.answer, "stop", entry)
            return self._deliver(result, messages, role, start, on_delta)
        response_format = JSON_OBJECT if self._json_mode else None
        key = AnswerCache.key_for(
            settings.base_url, settings.model, settings.temperature, messages, response_format
        )
        cached = self.cache.get(key) if self.cache is not None else None
        if cached is not None:
            result = ChatResult(**asdict(cached), cached=True, latency_s=0.0, cache_key=key)
            return self._deliver(result, messages, role, start, on_delta)
        result = replace(self._with_retries(messages, response_format, on_delta), cache_key=key)
        # a server that echoes the key in an answer must not get it into the cache, a recording,
        # a prompt or a committed file
        result = replace(result, content=keys.redact(result.content, self._secrets))
        self._check(result, role)
        if self.cache is not None:
            kept = {name: getattr(result, name) for name in CachedAnswer.__dataclass_fields__}
            self.cache.put(key, CachedAnswer(**kept))
        return self._deliver(result, messages, role, start, None)

    def mark_bad(self, cache_key: str) -> None:
        """The caller found the answer unusable: a retry must not get it from the cache again."""
        if self.cache is not None and cache_key:
            self.cache.mark_bad(cache_key)

    def _check(self, result: ChatResult, role: str) -> None:
        limit = self.settings.max_tokens
        if result.finish_reason == "length":
            raise TruncatedAnswer(
                f"the {role}'s answer was cut off at max_tokens={limit} ({self.settings.spec}); "
                "it is incomplete, not invalid",
                fix=f"raise roles.{role}.max_tokens in tdd.yaml (e.g. to {(limit or 4096) * 2})",
                result=result,
            )
        if not result.content.strip():
            raise UnusableAnswer(
                f"{self.settings.spec} returned an empty answer",
                fix="ask again; if it keeps happening, try another model",
                result=result,
            )

    def _deliver(self, result: ChatResult, messages: Messages, role: str, start: float,
                 on_delta: Delta | None) -> ChatResult:  # fmt: skip
        if on_delta is not None:
            on_delta(result.content)  # a cached or replayed answer arrives in one piece
        if self.recorder is not None:
            self.recorder.write(role, messages, result.content, result.prompt_tokens,
                                result.completion_tokens)  # fmt: skip
        return replace(result, latency_s=time.monotonic() - start)

    def _client(self) -> openai.OpenAI:
        if self._sdk is None:
            import openai

            self._sdk = openai.OpenAI(
                base_url=self.settings.base_url,
                api_key=self.settings.api_key or "not-needed",
                timeout=openai.Timeout(self.settings.timeout_s, connect=self._connect_timeout_s),
                max_retries=0,  # ours below: it knows our error messages and injectable sleep
            )
        return self._sdk

    def _with_retries(
        self, messages: Messages, response_format: dict[str, str] | None, on_delta: Delta | None
    ) -> ChatResult:
        import openai

        attempt = 0
        while True:
            try:
                return self._call(messages, response_format, on_delta)
            except openai.BadRequestError as error:
                if response_format is None:
                    raise translate_error(error, self.settings) from error
                # some servers reject response_format: ask again without it, for this client
                self._json_mode = False
                response_format = None
            except (openai.RateLimitError, openai.InternalServerError,
                    openai.APIConnectionError) as error:  # fmt: skip
                if attempt >= self.settings.max_retries:
                    raise translate_error(error, self.settings, attempts=attempt + 1) from error
                self._sleep(self._delay(attempt, error))
                attempt += 1
            except (openai.APIError, ValueError) as error:
                raise translate_error(error, self.settings) from error

    def _delay(self, attempt: int, error: Exception) -> float:
        base, cap = self._backoff
        delay = base * (2**attempt)
        response = getattr(error, "response", None)  # connection errors have none
        retry_after = str(getattr(response, "headers", {}).get("retry-after", ""))
        if retry_after.replace(".", "", 1).isdigit():  # seconds; an HTTP date is ignored
            delay = max(delay, float(retry_after))
        return float(min(delay, cap))

    def _call(
        self, messages: Messages, response_format: dict[str, str] | None, on_delta: Delta | None
    ) -> ChatResult:
        from openai import omit

        settings = self.settings
        # OpenAI's newer models only accept max_completion_tokens; other servers know max_tokens
        limit_name = "max_completion_tokens" if settings.provider == "openai" else "max_tokens"
        options: dict[str, Any] = {
            "model": settings.model,
            "messages": cast(Any, messages),
            "temperature": settings.temperature,
            limit_name: settings.max_tokens or omit,
            "response_format": cast(Any, response_format) if response_format else omit,
        }
        completions = self._client().chat.completions
        if on_delta is not None:
            return self._stream(completions, options, messages, on_delta)
        response = completions.create(**options)
        if not response.choices:
            fix = "ask again; if it keeps happening, check the endpoint"
            raise UnusableAnswer(f"{settings.spec} answered with no choices", fix=fix)
        choice = response.choices[0]
        return _fresh(messages, choice.message.content or "", choice.finish_reason, response.usage)

    @staticmethod
    def _stream(
        completions: Any, options: dict[str, Any], messages: Messages, on_delta: Delta
    ) -> ChatResult:
        parts: list[str] = []
        finish, usage = None, None
        stream = completions.create(**options, stream=True,
                                    stream_options={"include_usage": True})  # fmt: skip
        for chunk in stream:
            usage = chunk.usage or usage
            for choice in chunk.choices[:1]:
                if choice.delta.content:
                    parts.append(choice.delta.content)
                    on_delta(choice.delta.content)
                finish = choice.finish_reason or finish
        return _fresh(messages, "".join(parts), finish, usage)


def _detail(error: Exception, settings: ModelSettings) -> str:
    body = getattr(error, "body", None)
    if isinstance(body, dict) and isinstance(body.get("error"), dict):
        body = body["error"]  # some servers nest it once more than the SDK unwraps
    if isinstance(body, dict) and body.get("message"):
        text = str(body["message"])
    elif str(error) == "Connection error." and error.__cause__ is not None:
        text = str(error.__cause__)  # "[Errno 111] Connection refused" says more
    else:
        text = str(getattr(error, "message", None) or error)
    # a server may echo the key, or part of it (OpenAI's 401 does): redact BEFORE cutting, or a
    # cut key no longer matches and its prefix gets through
    secrets = [settings.api_key] if settings.api_key else []
    return keys.redact(" ".join(text.split()), secrets)[:300]


def translate_error(
    error: Exception, settings: ModelSettings, *, attempts: int = 1
) -> TddhooksError:
    """The SDK's exception as our error: what failed, where, and what to do about it."""
    import openai

    url, spec, detail = settings.base_url, settings.spec, _detail(error, settings)
    tries = f" after {attempts} attempts" if attempts > 1 else ""
    url_fix = "the base URL (--base-url / llm.base_url; it usually ends in /v1)"
    if isinstance(error, openai.AuthenticationError):
        message = (
            f"{url} rejected the API key for {spec} (HTTP 401; key from {settings.key_source})"
        )
        fix = f"check or renew the key (e.g. in {settings.preset.key_env or 'TDDHOOKS_API_KEY'})"
    elif isinstance(error, openai.PermissionDeniedError):
        message = f"the key from {settings.key_source} may not use {spec} (HTTP 403): {detail}"
        fix = "check the key's permissions, or pick a model it may use"
    elif isinstance(error, openai.NotFoundError):
        message = (
            f"model {settings.model!r} or the endpoint {url} was not found (HTTP 404): {detail}"
        )
        fix = f"check the model name (`tddhooks doctor` lists the endpoint's models) and {url_fix}"
    elif isinstance(error, openai.RateLimitError):
        message = f"{url} is still rate-limiting {spec} (HTTP 429){tries}: {detail}"
        fix = "wait a minute and run the command again, or raise llm.max_retries in tdd.yaml"
    elif isinstance(error, openai.APITimeoutError):
        message = f"no answer from {url} within {settings.timeout_s:g} s{tries}"
        fix = f"raise roles.{settings.role or '<role>'}.timeout_s or llm.timeout_s in tdd.yaml"
    elif isinstance(error, openai.APIConnectionError):
        message = f"cannot reach {url}{tries}: {detail}"
        hint = "start the local server" if settings.preset.local else "check the network"
        fix = f"{hint}, and check {url_fix}"
    elif isinstance(error, openai.APIStatusError):
        status = f"(HTTP {error.status_code}){tries}: {detail}"
        if error.status_code >= 500:
            message = f"{url} keeps failing for {spec} {status}"
            fix = "check the provider's status page or the server's log, then try again"
        else:
            message = f"{url} refused the request for {spec} {status}"
            fix = "check the model's limits (max_tokens, context length) and the request"
    else:
        return UnusableAnswer(
            f"{url} sent a response that is not an OpenAI-style completion: {detail}",
            fix=f"check that {url_fix} points at an OpenAI-compatible endpoint",
        )
    return LLMError(message, fix=fix)
