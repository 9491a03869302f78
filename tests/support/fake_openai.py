"""A real local OpenAI-compatible HTTP server for tests: scripted answers, injected failures.

Speaks POST /v1/chat/completions (plain JSON, or SSE with `stream: true`) and GET /v1/models.
Each test queues answers (`server.enqueue(...)`) or installs a `responder` callable for whole
scripted sessions, then asserts on `server.requests` (path, headers, JSON body). `refuse` makes it
reject response_format forms the way real servers do (`llama_cpp_python()`: json_schema -> 500).
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


@dataclass(frozen=True)
class Reply:
    """A normal answer; prompt/completion tokens None leaves `usage` out of the response."""

    content: str
    finish_reason: str = "stop"
    prompt_tokens: int | None = 11
    completion_tokens: int | None = 7


@dataclass(frozen=True)
class Fail:
    """An HTTP error with an OpenAI-style JSON error body."""

    status: int
    message: str = "injected failure"
    retry_after: float | str | None = None  # seconds, or an HTTP date
    retry_after_ms: float | None = None


@dataclass(frozen=True)
class Garbage:
    """A body that is not JSON (a proxy's HTML page, a truncated reply)."""

    body: str = "<html><body>502 Bad Gateway... or not</body></html>"
    status: int = 200


@dataclass(frozen=True)
class EmptyChoices:
    """A well-formed completion with an empty `choices` list."""


@dataclass(frozen=True)
class Delay:
    """Wait `seconds` (longer than the client's timeout) before answering `then`."""

    seconds: float
    then: Reply = field(default_factory=lambda: Reply("too late"))


@dataclass(frozen=True)
class Drop:
    """Close the connection without answering."""


Answer = Reply | Fail | Garbage | EmptyChoices | Delay | Drop | str
Responder = Callable[[dict[str, Any]], Answer]
Headers = dict[str, str] | None


@dataclass(frozen=True)
class RecordedRequest:
    """One request the server received; header names are lower-case."""

    method: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any] | None
    at: float = 0.0  # time.monotonic() when it arrived


_ERROR_TYPES = {429: "rate_limit_exceeded", 500: "server_error", 503: "server_error"}
# what llama-cpp-python's server (measured) answers to response_format={"type": "json_schema"}
LLAMA_CPP_PYTHON_REFUSAL = Fail(
    500,
    "1 validation error for CreateChatCompletionRequest\nresponse_format.type\n"
    "  Input should be 'text' or 'json_object' [type=literal_error, input_value='json_schema', "
    "input_type=str]",
)


def response_form(body: dict[str, Any]) -> str:
    """Which structured-output form a request body asks for: json_schema, json_object_schema,
    json_object or text."""
    fmt = body.get("response_format")
    if not isinstance(fmt, dict):
        return "text"
    if fmt.get("type") == "json_object":
        return "json_object_schema" if "schema" in fmt else "json_object"
    return str(fmt.get("type"))


class FakeOpenAI:
    """The server and its script; `base_url` ends in /v1 like a real provider's."""

    def __init__(self, models: tuple[str, ...] = ("fake-model", "fake-coder:7b")) -> None:
        self.models = list(models)
        self.models_status = 200
        self.responder: Responder | None = None
        self.requests: list[RecordedRequest] = []
        self.chunk_size = 5
        self.refuse: dict[str, Fail] = {}  # response form -> the error it gets (no answer used)
        self._answers: deque[Answer] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _make_handler(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def start(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving (a test may stop it early to prove nothing needs it); idempotent."""
        if self._stopping.is_set():
            return
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()

    def llama_cpp_python(self) -> FakeOpenAI:
        """Behave like llama-cpp-python's server: json_schema is refused with its HTTP 500."""
        self.refuse["json_schema"] = LLAMA_CPP_PYTHON_REFUSAL
        return self

    def enqueue(self, *answers: Answer) -> None:
        """Answers served in order to the next chat completion requests."""
        with self._lock:
            self._answers.extend(answers)

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._answers)

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        return [request for request in self.requests if request.path.endswith("/completions")]

    def _next_answer(self, body: dict[str, Any]) -> Answer:
        with self._lock:
            if self._answers:
                return self._answers.popleft()
        if self.responder is not None:
            return self.responder(body)
        return Fail(500, "fake server: no scripted answer left for this request")


def _envelope(body: dict[str, Any], kind: str, choices: list[Any]) -> dict[str, Any]:
    return {"id": "chatcmpl-fake", "object": kind, "created": int(time.time()),
            "model": body.get("model", "fake-model"), "choices": choices}  # fmt: skip


def _usage(reply: Reply) -> dict[str, int] | None:
    if reply.prompt_tokens is None or reply.completion_tokens is None:
        return None
    total = reply.prompt_tokens + reply.completion_tokens
    return {"prompt_tokens": reply.prompt_tokens, "completion_tokens": reply.completion_tokens,
            "total_tokens": total}  # fmt: skip


def _completion(body: dict[str, Any], reply: Reply) -> dict[str, Any]:
    message = {"role": "assistant", "content": reply.content}
    choice = {"index": 0, "message": message, "finish_reason": reply.finish_reason}
    data = _envelope(body, "chat.completion", [choice])
    if _usage(reply) is not None:
        data["usage"] = _usage(reply)
    return data


def _chunk(body: dict[str, Any], delta: dict[str, str], finish: str | None) -> dict[str, Any]:
    choice = {"index": 0, "delta": delta, "finish_reason": finish}
    return _envelope(body, "chat.completion.chunk", [choice])


def _stream_events(body: dict[str, Any], reply: Reply, size: int) -> Iterator[dict[str, Any]]:
    yield _chunk(body, {"role": "assistant", "content": ""}, None)
    text = reply.content
    for start in range(0, len(text), size):
        yield _chunk(body, {"content": text[start : start + size]}, None)
    yield _chunk(body, {}, reply.finish_reason)
    include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
    if include_usage and _usage(reply) is not None:
        yield {**_envelope(body, "chat.completion.chunk", []), "usage": _usage(reply)}


def _make_handler(fake: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def setup(self) -> None:
            super().setup()
            # headers and body go out as separate writes: without this, Nagle's algorithm and
            # delayed ACKs add ~40 ms to every keep-alive request
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

        def log_message(self, format: str, *args: Any) -> None:
            return  # keep test output clean

        def _send_json(self, status: int, data: object, headers: Headers = None) -> None:
            self._send_raw(status, json.dumps(data).encode("utf-8"), "application/json", headers)

        def _send_raw(self, status: int, payload: bytes, kind: str, headers: Headers) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(payload)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(payload)

        def _read_body(self) -> dict[str, Any] | None:
            length = int(self.headers.get("Content-Length") or 0)
            if not length:
                return None
            data = json.loads(self.rfile.read(length).decode("utf-8"))
            return data if isinstance(data, dict) else {"_": data}

        def _record(self, body: dict[str, Any] | None) -> None:
            headers = {name.lower(): value for name, value in self.headers.items()}
            with fake._lock:
                fake.requests.append(
                    RecordedRequest(self.command, self.path, headers, body, time.monotonic())
                )

        def do_GET(self) -> None:
            self._record(None)
            if self.path.rstrip("/").endswith("/models"):
                if fake.models_status != 200:
                    self._send_error(Fail(fake.models_status, "no models endpoint here"))
                    return
                data = [{"id": name, "object": "model", "created": 0, "owned_by": "fake"}
                        for name in fake.models]  # fmt: skip
                self._send_json(200, {"object": "list", "data": data})
                return
            self._send_error(Fail(404, f"unknown path {self.path}"))

        def do_POST(self) -> None:
            body = self._read_body() or {}
            self._record(body)
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._send_error(Fail(404, f"unknown path {self.path}"))
                return
            refusal = fake.refuse.get(response_form(body))
            if refusal is not None:
                self._send_error(refusal)
                return
            # the client may have given up (timeout tests): nothing left to do then
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                self._serve(body, fake._next_answer(body))

        def _serve(self, body: dict[str, Any], answer: Answer) -> None:
            if isinstance(answer, str):
                answer = Reply(answer)
            if isinstance(answer, Delay):
                fake._stopping.wait(answer.seconds)  # stop() cuts the wait short
                answer = answer.then
            if isinstance(answer, Fail):
                self._send_error(answer)
            elif isinstance(answer, Garbage):
                payload = answer.body.encode("utf-8")
                self._send_raw(answer.status, payload, "application/json", None)
            elif isinstance(answer, EmptyChoices):
                self._send_json(200, _envelope(body, "chat.completion", []))
            elif isinstance(answer, Drop):
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)
            elif body.get("stream"):
                self._stream(body, answer)
            else:
                self._send_json(200, _completion(body, answer))

        def _stream(self, body: dict[str, Any], reply: Reply) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            for event in _stream_events(body, reply, fake.chunk_size):
                self.wfile.write(f"data: {json.dumps(event)}\n\n".encode())
                self.wfile.flush()
            self.wfile.write(b"data: [DONE]\n\n")
            self.wfile.flush()

        def _send_error(self, failure: Fail) -> None:
            kind = _ERROR_TYPES.get(failure.status, "invalid_request_error")
            error = {"message": failure.message, "type": kind, "param": None, "code": None}
            wait, headers = failure.retry_after, {}
            if wait is not None:
                headers["Retry-After"] = wait if isinstance(wait, str) else f"{wait:g}"
            if failure.retry_after_ms is not None:
                headers["retry-after-ms"] = f"{failure.retry_after_ms:g}"
            self._send_json(failure.status, {"error": error}, headers)

    return Handler


def unused_port() -> int:
    """A localhost port nothing listens on (for unreachable-host tests)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    """A started FakeOpenAI, stopped after the test (import this fixture into a conftest)."""
    server = FakeOpenAI().start()
    try:
        yield server
    finally:
        server.stop()
