"""The API key reaches the endpoint's Authorization header and nothing else we write."""

from __future__ import annotations

import io
import json
import logging
from pathlib import Path

import pytest
from support.fake_openai import Fail, FakeOpenAI, Garbage, Reply

from tddhooks import output
from tddhooks.commands import cache as cache_command
from tddhooks.config import parse_config
from tddhooks.errors import TddhooksError
from tddhooks.llm.cache import AnswerCache
from tddhooks.llm.client import ChatClient
from tddhooks.llm.health import llm_checks
from tddhooks.llm.replay import Recorder
from tddhooks.llm.settings import resolve_role_settings

SECRET = "sk-proj-SECRET-4f1b9c0e-do-not-print"
MESSAGES = [{"role": "system", "content": "tester"}, {"role": "user", "content": "Schritt ✓"}]


def files_containing(root: Path, needle: bytes) -> list[Path]:
    return [path for path in root.rglob("*") if path.is_file() and needle in path.read_bytes()]


def test_the_key_never_leaves_the_authorization_header(
    fake_openai: FakeOpenAI,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    monkeypatch.setenv("OPENAI_LOG", "debug")  # the SDK's own request logging, at its loudest
    monkeypatch.setenv("TDDHOOKS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("MY_KEY_VARIABLE", SECRET)
    out, err = io.StringIO(), io.StringIO()
    output.use_streams(out, err)
    texts: list[str] = []
    config = parse_config(
        f"llm: {{model: 'custom:fake-model', base_url: '{fake_openai.base_url}'}}",
        Path("tdd.yaml"),
    )
    direct = resolve_role_settings(config, "tester", api_key=SECRET)
    by_name = resolve_role_settings(config, "implementor", api_key="MY_KEY_VARIABLE")
    assert direct.api_key == by_name.api_key == SECRET
    texts += [repr(direct), str(direct), direct.describe(), json.dumps(direct.public_dict())]
    texts += [repr(by_name), str(by_name), by_name.describe()]

    echoed = f"Incorrect API key provided: {SECRET}"
    fake_openai.enqueue(
        Reply('{"plan": "fine"}'),
        Fail(401, echoed),
        Fail(404, echoed),
        Fail(400, echoed),
        Fail(500, echoed, retry_after_ms=1),
        Fail(500, echoed, retry_after_ms=1),
        Garbage(f"<html>{SECRET}</html>"),
    )
    fake_openai.responder = lambda _body: Fail(500, echoed, retry_after_ms=1)  # quick retries
    with Recorder(tmp_path / "recording.jsonl") as recorder:
        client = ChatClient(direct, AnswerCache(), recorder=recorder)
        client.complete(MESSAGES, role="tester")
        # the next drive (its own AnswerCache) finds the answer cached
        again = ChatClient(direct, AnswerCache())
        assert again.complete(MESSAGES, role="tester").cached
        for turn in range(5):
            with pytest.raises(TddhooksError) as caught:
                client.complete([*MESSAGES, {"role": "user", "content": f"turn {turn}"}],
                                role="tester")  # fmt: skip
            error = caught.value
            texts += [str(error), repr(error), error.message, error.fix or ""]
            output.report_error(error)

    fake_openai.models_status = 401
    monkeypatch.setenv("FAKE_KEY", SECRET)
    keyed = parse_config(
        f"llm: {{model: 'custom:fake-model', base_url: '{fake_openai.base_url}', "
        "api_key_env: FAKE_KEY}",
        Path("tdd.yaml"),
    )
    for check in llm_checks(tmp_path, keyed):
        texts += [check.name, check.detail, check.fix or "", repr(check)]
    cache_command.stats()

    # the key did travel where it must: otherwise this test proves nothing
    assert any(
        request.headers.get("authorization") == f"Bearer {SECRET}"
        for request in fake_openai.requests
    )
    assert not files_containing(tmp_path, SECRET.encode("utf-8"))
    assert (tmp_path / "recording.jsonl").stat().st_size > 0
    assert list((tmp_path / "cache").iterdir())
    for text in [*texts, out.getvalue(), err.getvalue(), caplog.text]:
        assert SECRET not in text
    assert "[key]" in " ".join(texts)  # the 404/400/500 bodies echoed it and were scrubbed
