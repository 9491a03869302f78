"""`tddhooks doctor`'s model checks against the fake server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.fake_openai import Fail, FakeOpenAI, unused_port

from tddhooks.config import TddConfig, parse_config
from tddhooks.llm.health import Check, llm_checks

from .conftest import SECRET

ENV = {"FAKE_KEY": SECRET}


def config_for(url: str, model: str = "fake-model", extra: str = "") -> TddConfig:
    text = f"llm: {{model: 'custom:{model}', base_url: '{url}', api_key_env: FAKE_KEY}}\n{extra}"
    return parse_config(text, Path("tdd.yaml"))


def by_name(checks: list[Check]) -> dict[str, Check]:
    return {check.name: check for check in checks}


def test_a_healthy_endpoint_is_checked_once_for_all_roles(
    fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    fake_openai.responder = lambda _body: "ok"
    checks = by_name(llm_checks(tmp_path, config_for(fake_openai.base_url), environ=ENV))
    for role in ("tester", "implementor", "refactorer"):
        assert checks[f"{role} model"].detail == "custom:fake-model"
        assert checks[f"{role} key"].detail == "from FAKE_KEY (llm.api_key_env in tdd.yaml)"
        assert checks[f"{role} endpoint"].status == "ok"
        assert "lists 2 models" in checks[f"{role} endpoint"].detail
        assert checks[f"{role} model listed"].status == "ok"
        assert checks[f"{role} round-trip"].status == "ok"
        assert checks[f"{role} round-trip"].detail.startswith("answered in ")
    assert [r.method for r in fake_openai.requests] == ["GET", "POST"]
    ping = fake_openai.chat_requests[0].body or {}
    assert "response_format" not in ping
    assert ping["max_tokens"] == 16


def test_a_model_the_endpoint_does_not_list_is_a_warning(
    fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    fake_openai.responder = lambda _body: "ok"
    config = config_for(fake_openai.base_url, model="gpt-5-übercoder")
    checks = by_name(llm_checks(tmp_path, config, roles=["tester"], environ=ENV))
    listed = checks["tester model listed"]
    assert listed.status == "warn"
    assert "'gpt-5-übercoder' is not among the models" in listed.detail
    assert "fake-coder:7b" in (listed.fix or "")


def test_a_rejected_key_fails_and_skips_the_round_trip(
    fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    fake_openai.models_status = 401
    checks = by_name(llm_checks(tmp_path, config_for(fake_openai.base_url), roles=["tester"],
                                environ=ENV))  # fmt: skip
    assert checks["tester endpoint"].status == "fail"
    assert "HTTP 401" in checks["tester endpoint"].detail
    assert "FAKE_KEY" in checks["tester endpoint"].detail
    assert "tester round-trip" not in checks
    assert not fake_openai.chat_requests


def test_an_endpoint_without_a_models_list_still_gets_the_round_trip(
    fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    fake_openai.models_status = 404
    fake_openai.responder = lambda _body: "ok"
    checks = by_name(llm_checks(tmp_path, config_for(fake_openai.base_url), roles=["tester"],
                                environ=ENV))  # fmt: skip
    assert checks["tester endpoint"].status == "ok"
    assert checks["tester model listed"].status == "warn"
    assert checks["tester round-trip"].status == "ok"


def test_a_failing_round_trip_fails(fake_openai: FakeOpenAI, tmp_path: Path) -> None:
    fake_openai.enqueue(Fail(404, "no such model"))
    checks = by_name(llm_checks(tmp_path, config_for(fake_openai.base_url), roles=["tester"],
                                environ=ENV))  # fmt: skip
    assert checks["tester round-trip"].status == "fail"
    assert "HTTP 404" in checks["tester round-trip"].detail


def test_an_unreachable_host_fails(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{unused_port()}/v1"
    checks = by_name(llm_checks(tmp_path, config_for(url), roles=["tester"], environ=ENV))
    assert checks["tester endpoint"].status == "fail"
    assert f"cannot reach {url}" in checks["tester endpoint"].detail
    assert "tester round-trip" not in checks


def test_offline_never_touches_the_network(fake_openai: FakeOpenAI, tmp_path: Path) -> None:
    checks = llm_checks(tmp_path, config_for(fake_openai.base_url), offline=True, environ=ENV)
    assert {check.name.split(" ", 1)[1] for check in checks} == {"model", "key"}
    assert fake_openai.requests == []


def test_no_model_anywhere_is_one_warning(tmp_path: Path) -> None:
    checks = llm_checks(tmp_path, TddConfig(), environ={})
    assert len(checks) == 1
    assert checks[0].status == "warn"
    assert "tester, implementor, refactorer" in checks[0].detail
    assert "tddhooks demo" in (checks[0].fix or "")


def test_a_missing_key_fails_naming_the_variables(tmp_path: Path) -> None:
    config = parse_config("roles: {tester: {model: 'groq:llama-3.3-70b'}}", Path("tdd.yaml"))
    checks = by_name(llm_checks(tmp_path, config, roles=["tester"], environ={}))
    assert checks["tester model"].status == "fail"
    assert "GROQ_API_KEY" in checks["tester model"].detail


@pytest.mark.parametrize("relative", [True, False])
def test_a_replay_session_is_checked_per_role(tmp_path: Path, relative: bool) -> None:
    session = tmp_path / "recorded.jsonl"
    session.write_text(json.dumps({"role": "tester", "answer": "{}"}) + "\n", encoding="utf-8")
    name = "recorded.jsonl" if relative else str(session)
    config = parse_config(f"llm: {{model: 'replay:{name}'}}", Path("tdd.yaml"))
    checks = by_name(llm_checks(tmp_path, config, environ={}))
    assert checks["tester session"].status == "ok"
    assert "1 recorded answers" in checks["tester session"].detail
    assert checks["implementor session"].status == "warn"


def test_doctor_reads_a_relative_session_as_the_drive_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # noticed: doctor preferred the kata's file, the drive the current directory's
    kata, elsewhere = tmp_path / "kata", tmp_path / "elsewhere"
    kata.mkdir()
    elsewhere.mkdir()
    (kata / "s.jsonl").write_text(json.dumps({"role": "tester", "answer": "{}"}) + "\n", "utf-8")
    two = "".join(json.dumps({"role": "tester", "answer": "{}"}) + "\n" for _ in range(2))
    (elsewhere / "s.jsonl").write_text(two, encoding="utf-8")
    monkeypatch.chdir(elsewhere)
    config = parse_config("llm: {model: 'replay:s.jsonl'}", Path("tdd.yaml"))
    checks = by_name(llm_checks(kata, config, roles=["tester"], environ={}))
    assert "2 recorded answers" in checks["tester session"].detail


def test_a_shipped_session_name_is_checked_as_the_drive_reads_it(tmp_path: Path) -> None:
    # red team: a file named like the shipped session in the kata made doctor check that file,
    # while the drive replays the shipped session (llm/replay.py load_session)
    (tmp_path / "string-calculator").write_bytes(b"\x7fELF\x02\x01")
    config = parse_config("llm: {model: 'replay:string-calculator'}", Path("tdd.yaml"))
    checks = by_name(llm_checks(tmp_path, config, roles=["tester"], environ={}))
    assert checks["tester session"].status == "ok", checks["tester session"].detail


def test_a_missing_replay_session_fails(tmp_path: Path) -> None:
    config = parse_config("llm: {model: 'replay:nowhere'}", Path("tdd.yaml"))
    checks = by_name(llm_checks(tmp_path, config, roles=["tester"], environ={}))
    assert checks["tester session"].status == "fail"
