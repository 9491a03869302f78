"""The one place that talks to a model: the official openai SDK (its own retries and backoff),
the cache, replay.

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
from tddhooks.llm.formats import FormatMemory, ResponseForm, is_refusal, request_format
from tddhooks.llm.providers import REPLAY
from tddhooks.llm.usage import estimate_tokens

if TYPE_CHECKING:
    import openai

    from tddhooks.llm.replay import Recorder, ReplaySession
    from tddhooks.llm.settings import ModelSettings

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
        connect_timeout_s: float = 10.0,
        formats: FormatMemory | None = None,
    ) -> None:
        if settings.provider == REPLAY and replay is None:
            from tddhooks.llm.replay import load_session

            replay = load_session(settings.model)
        self.settings = settings
        self.cache = None if replay is not None else cache  # a replay is already deterministic
        self.replay = replay
        self.recorder = recorder
        self._connect_timeout_s = min(connect_timeout_s, settings.timeout_s)
        self.formats = formats if formats is not None else FormatMemory()
        self._sdk: openai.OpenAI | None = None
        self._secrets = [settings.api_key] if settings.api_key else []

    def complete(
        self,
        messages: Messages,
        *,
        role: str,
        on_delta: Delta | None = None,
        schema: dict[str, Any] | None = None,
        temperature: float | None = None,
    ) -> ChatResult:
        """One completion from the replay session, the cache, or the model (with retries); raises
        LLMError (the endpoint) or UnusableAnswer/TruncatedAnswer (the answer). `schema` is the
        answer's JSON schema, sent in the most precise form the endpoint takes (llm/formats.py);
        `temperature` overrides the role's for this call (a retry asks with more variety)."""
        start = time.monotonic()
        settings = self.settings
        temperature = settings.temperature if temperature is None else temperature
        if self.replay is not None:
            entry = self.replay.next_entry(role, messages)
            result = _fresh(messages, entry.answer, "stop", entry)
            return self._deliver(result, messages, role, start, on_delta)
        # keyed by the form asked for, not the one an endpoint fell back to: a replay from the
        # cache knows nothing of the fallback and must find the same answers
        asked = request_format(settings.response_format, schema, _schema_name(role))
        key = AnswerCache.key_for(
            settings.base_url, settings.model, temperature, messages, asked,
            settings.max_tokens, settings.seed,
        )  # fmt: skip
        # the n-th identical request of this drive gets the n-th stored answer (cache.py)
        key = self.cache.next_slot(key) if self.cache is not None else key
        cached = self.cache.get(key) if self.cache is not None else None
        if cached is not None:
            result = ChatResult(**asdict(cached), cached=True, latency_s=0.0, cache_key=key)
            self._check(result, role)  # a cut-off answer is cut off again, offline too
            return self._deliver(result, messages, role, start, on_delta)
        result = self._with_retries(messages, schema, role, on_delta, temperature)
        result = replace(result, cache_key=key)
        # a server that echoes the key in an answer must not get it into the cache, a recording,
        # a prompt or a committed file
        result = replace(result, content=keys.redact(result.content, self._secrets))
        if self.cache is not None:
            # every answer is kept, a cut-off or empty one too: a replay must meet it again
            kept = {name: getattr(result, name) for name in CachedAnswer.__dataclass_fields__}
            self.cache.put(key, CachedAnswer(**kept))
        # a cut-off answer took the model's time too: the drive and bench count it
        self._check(replace(result, latency_s=time.monotonic() - start), role)
        return self._deliver(result, messages, role, start, None)

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
                # the SDK retries 408/409/429/5xx, timeouts and dropped connections with
                # exponential backoff (0.5 s doubling, at most 8 s, jittered) and honours
                # Retry-After (seconds or an HTTP date) and retry-after-ms up to 60 s
                max_retries=self.settings.max_retries,
            )
        return self._sdk

    def _form(self) -> ResponseForm:
        settings = self.settings
        return self.formats.form_for(settings.base_url, settings.model, settings.response_format)

    def _with_retries(
        self,
        messages: Messages,
        schema: dict[str, Any] | None,
        role: str,
        on_delta: Delta | None,
        temperature: float,
    ) -> ChatResult:
        """The SDK's call with its retries; a structured-output form the endpoint has not taken
        yet is tried once without retries, so a refusal (llama-cpp-python's is an HTTP 500)
        falls back at once instead of being retried."""
        import openai

        settings, form = self.settings, self._form()
        if schema is None and form in ("json_schema", "json_object_schema"):
            form = "json_object"  # nothing to send but JSON mode
        while form != "text" and not self.formats.confirmed(settings.base_url, settings.model):
            response_format = request_format(form, schema, _schema_name(role))
            try:
                result = self._call(messages, response_format, on_delta, temperature, retries=False)
            except openai.APIStatusError as error:
                if not is_refusal(error.status_code, _detail(error, settings), form):
                    break  # not about the form: ask again, with the SDK's retries
                # the endpoint does not take this form: the next one, for the whole drive
                form = self.formats.refused(settings.base_url, settings.model, form)
                continue
            except (openai.APIConnectionError, openai.APITimeoutError):
                break
            except (openai.APIError, ValueError) as error:
                raise translate_error(error, settings) from error
            self.formats.accepted(settings.base_url, settings.model)
            return result
        try:
            asked = request_format(form, schema, _schema_name(role))
            return self._call(messages, asked, on_delta, temperature)
        except (openai.RateLimitError, openai.InternalServerError,
                openai.APIConnectionError) as error:  # fmt: skip
            raise translate_error(error, settings, attempts=settings.max_retries + 1) from error
        except openai.APIStatusError as error:
            if error.status_code in (408, 409):  # the SDK retries these too
                raise translate_error(error, settings, attempts=settings.max_retries + 1) from error
            raise translate_error(error, settings) from error
        except (openai.APIError, ValueError) as error:
            raise translate_error(error, settings) from error

    def _call(
        self,
        messages: Messages,
        response_format: dict[str, Any] | None,
        on_delta: Delta | None,
        temperature: float,
        *,
        retries: bool = True,
    ) -> ChatResult:
        from openai import omit

        settings = self.settings
        # OpenAI's newer models only accept max_completion_tokens; other servers know max_tokens
        limit_name = "max_completion_tokens" if settings.provider == "openai" else "max_tokens"
        options: dict[str, Any] = {
            "model": settings.model,
            "messages": cast(Any, messages),
            "temperature": temperature,
            limit_name: settings.max_tokens or omit,
            "response_format": cast(Any, response_format) if response_format else omit,
            # a server that samples with a seed answers the same request the same way again
            "seed": settings.seed if settings.seed is not None else omit,
        }
        client = self._client() if retries else self._client().with_options(max_retries=0)
        completions = client.chat.completions
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


def _schema_name(role: str) -> str:
    """`json_schema.name`: letters, digits, _ and - only."""
    return "".join(c if c.isalnum() or c in "_-" else "_" for c in role or "answer") + "_answer"


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
