"""The replay provider and the recorder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.fake_openai import FakeOpenAI, Reply

from tddhooks.errors import ConfigError, LLMAnswerError
from tddhooks.llm.client import ChatClient
from tddhooks.llm.replay import (
    Recorder,
    ReplayEntry,
    ReplaySession,
    load_session,
    messages_sha,
    shipped_sessions,
)
from tddhooks.llm.settings import ModelSettings

from .conftest import SettingsFactory

TESTER = [{"role": "system", "content": "tester"}, {"role": "user", "content": "Schritt 1 ✓"}]
IMPLEMENTOR = [{"role": "system", "content": "implementor"}, {"role": "user", "content": "go"}]


def line(role: str, answer: str, messages: list[dict[str, str]] | None = None, **extra: int) -> str:
    sha = messages_sha(messages) if messages is not None else ""
    return json.dumps({"role": role, "messages_sha": sha, "answer": answer, **extra})


def test_answers_are_served_per_role_in_order() -> None:
    text = "\n".join([
        line("tester", "t1", TESTER),
        line("implementor", "i1", IMPLEMENTOR),
        line("tester", "t2", TESTER),
        "",
    ])  # fmt: skip
    session = ReplaySession.from_text(text, "s.jsonl", warn=lambda _: None)
    assert session.next_answer("implementor", IMPLEMENTOR) == "i1"
    assert session.next_answer("tester", TESTER) == "t1"
    assert session.next_answer("tester", TESTER) == "t2"
    assert session.mismatches == 0
    assert session.remaining("tester") == 0


def test_an_exhausted_session_says_which_role() -> None:
    session = ReplaySession.from_text(line("tester", "t1"), "kata.jsonl")
    session.next_answer("tester", TESTER)
    with pytest.raises(LLMAnswerError) as caught:
        session.next_answer("tester", TESTER)
    assert "the recorded session has no more answers for role tester" in caught.value.message
    with pytest.raises(LLMAnswerError, match="role refactorer"):
        session.next_answer("refactorer", TESTER)


def test_a_different_request_only_warns_once() -> None:
    warnings: list[str] = []
    text = "\n".join(line("tester", f"t{i}", TESTER) for i in range(3))
    session = ReplaySession.from_text(text, "s", warn=warnings.append)
    other = [{"role": "user", "content": "something else"}]
    assert [session.next_answer("tester", other) for _ in range(3)] == ["t0", "t1", "t2"]
    assert session.mismatches == 3
    assert len(warnings) == 1
    assert "request 1 of the tester differs" in warnings[0]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "s.jsonl:1: not a JSON line"),
        (line("tester", "ok") + "\n[1, 2]", "s.jsonl:2: expected an object with a 'role'"),
        ('{"role": "tester", "answer": 3}', "s.jsonl:1: expected a string 'answer'"),
    ],
)
def test_a_broken_session_names_file_and_line(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        ReplaySession.from_text(text, "s.jsonl")
    assert message in caught.value.message


def test_load_session_by_path_or_shipped_name(tmp_path: Path) -> None:
    shipped = tmp_path / "sessions"
    shipped.mkdir()
    (shipped / "römisch.jsonl").write_text(line("tester", "shipped"), encoding="utf-8")
    (shipped / "notes.txt").write_text("ignored", encoding="utf-8")
    own = tmp_path / "own.jsonl"
    own.write_text(line("tester", "own"), encoding="utf-8")
    assert shipped_sessions(shipped) == ["römisch"]
    by_name = load_session("römisch", directory=shipped)
    assert by_name.next_answer("tester", TESTER) == "shipped"
    assert load_session("römisch.jsonl", directory=shipped).source == "römisch"
    assert load_session(str(own), directory=shipped).next_answer("tester", TESTER) == "own"
    with pytest.raises(ConfigError) as caught:
        load_session("nosuch", directory=shipped)
    assert "römisch" in (caught.value.fix or "")


def test_a_shipped_name_is_not_taken_from_a_file_in_the_current_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Red team: `tddhooks demo` asks the drive for `replay:string-calculator`; run in a folder
    holding a `string-calculator` file (a kata's built binary), it read that file as the session
    and stopped on "not a JSON line"."""
    shipped = tmp_path / "sessions"
    shipped.mkdir()
    (shipped / "calc.jsonl").write_text(line("tester", "shipped"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "calc").write_bytes(b"\x7fELF\x02\x01")
    (tmp_path / "calc.jsonl").write_text(line("tester", "own"), encoding="utf-8")

    assert load_session("calc", directory=shipped).next_answer("tester", TESTER) == "shipped"
    # a path, or a name with its suffix, is the file: a recording of one's own
    assert load_session("calc.jsonl", directory=shipped).next_answer("tester", TESTER) == "own"
    with pytest.raises(ConfigError, match="not a JSON line"):
        load_session("./calc", directory=shipped)


def test_a_relative_path_is_the_current_directorys_file_else_the_katas(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`tddhooks drive -C kata --model replay:own.jsonl` and doctor read the same file: the
    current directory's when it has one (a command-line path), else the kata's (tdd.yaml)."""
    kata, elsewhere = tmp_path / "kata", tmp_path / "elsewhere"
    kata.mkdir()
    elsewhere.mkdir()
    (kata / "own.jsonl").write_text(line("tester", "kata's"), encoding="utf-8")
    monkeypatch.chdir(elsewhere)
    shipped = tmp_path / "none"

    found = load_session("own.jsonl", directory=shipped, base=kata)
    assert found.next_answer("tester", TESTER) == "kata's"
    with pytest.raises(ConfigError, match="neither a file nor a shipped session"):
        load_session("own.jsonl", directory=shipped)  # without the kata: nowhere
    (elsewhere / "own.jsonl").write_text(line("tester", "here"), encoding="utf-8")
    found = load_session("own.jsonl", directory=shipped, base=kata)
    assert found.next_answer("tester", TESTER) == "here"


def test_the_recorder_writes_what_replay_reads(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "session.jsonl"
    with Recorder(path) as recorder:
        recorder.write("tester", TESTER, '{"plan": "ü"}', 10, 3)
        recorder.write("implementor", IMPLEMENTOR, "impl", 20, 4)
    rows = [json.loads(row) for row in path.read_text(encoding="utf-8").splitlines()]
    assert rows[0] == {"role": "tester", "messages_sha": messages_sha(TESTER),
                       "answer": '{"plan": "ü"}', "prompt_tokens": 10,
                       "completion_tokens": 3, "messages": TESTER}  # fmt: skip
    assert rows[1]["messages"] == IMPLEMENTOR  # what the model was asked, whole
    entry = ReplaySession.from_file(path).next_entry("tester", TESTER)
    assert entry == ReplayEntry("tester", messages_sha(TESTER), '{"plan": "ü"}', 10, 3)


def test_a_key_inside_a_request_never_reaches_the_recording(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A prompt quotes the gate's output, and a test may print the environment: the request is
    redacted like every other record before it is written."""
    secret = "sk-proj-RECORDED-7c1e0b9a-never-written"
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    asked = [{"role": "user", "content": f"the test printed OPENAI_API_KEY={secret} and failed"}]
    path = tmp_path / "session.jsonl"
    with Recorder(path) as recorder:
        recorder.write("implementor", asked, "fix")
    text = path.read_text(encoding="utf-8")
    assert secret not in text
    assert secret[:12] not in text
    assert "the test printed OPENAI_API_KEY=[key] and failed" in text


def test_a_recording_without_the_requests_still_replays(tmp_path: Path) -> None:
    """Recordings made before the requests were written (and the shipped sessions) have only
    the fingerprint; replay never needed more."""
    path = tmp_path / "old.jsonl"
    path.write_text(
        json.dumps({"role": "tester", "messages_sha": messages_sha(TESTER), "answer": "old"})
        + "\n",
        encoding="utf-8",
    )
    assert ReplaySession.from_file(path).next_answer("tester", TESTER) == "old"


def test_recorder_truncates_unless_appending(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    with Recorder(path) as recorder:
        recorder.write("tester", TESTER, "one")
    with Recorder(path, append=True) as recorder:
        recorder.write("tester", TESTER, "two")
    assert len(path.read_text(encoding="utf-8").splitlines()) == 2
    Recorder(path).close()
    assert path.read_text(encoding="utf-8") == ""


def test_a_live_run_recorded_replays_without_http(
    fake_openai: FakeOpenAI, make_settings: SettingsFactory, tmp_path: Path
) -> None:
    fake_openai.enqueue(Reply("t-answer", prompt_tokens=40, completion_tokens=5), "i-answer")
    path = tmp_path / "run.jsonl"
    with Recorder(path) as recorder:
        live = ChatClient(make_settings(), None, recorder=recorder)
        live.complete(TESTER, role="tester")
        live.complete(IMPLEMENTOR, role="implementor")
    requests_before = len(fake_openai.requests)
    replay_settings = ModelSettings("replay", str(path), f"replay:{path}")
    replayed = ChatClient(replay_settings, None)
    pieces: list[str] = []
    first = replayed.complete(TESTER, role="tester", on_delta=pieces.append)
    assert (first.content, first.prompt_tokens, first.completion_tokens) == ("t-answer", 40, 5)
    assert not first.estimated_usage
    assert not first.cached
    assert pieces == ["t-answer"]
    assert replayed.complete(IMPLEMENTOR, role="implementor").content == "i-answer"
    assert len(fake_openai.requests) == requests_before
    with pytest.raises(LLMAnswerError, match="no more answers for role tester"):
        replayed.complete(TESTER, role="tester")


def test_replay_without_usage_estimates_it(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(line("tester", "x" * 8), encoding="utf-8")
    result = ChatClient(ModelSettings("replay", str(path), "replay:"), None).complete(
        TESTER, role="tester"
    )
    assert result.estimated_usage
    assert result.completion_tokens == 2


def test_a_replay_client_ignores_the_cache(tmp_path: Path) -> None:
    from tddhooks.llm.cache import AnswerCache

    path = tmp_path / "s.jsonl"
    path.write_text(line("tester", "a") + "\n" + line("tester", "b"), encoding="utf-8")
    client = ChatClient(ModelSettings("replay", str(path), "replay:"), AnswerCache(tmp_path / "c"))
    assert client.complete(TESTER, role="tester").content == "a"
    assert client.complete(TESTER, role="tester").content == "b"
    assert client.cache is None


@pytest.mark.parametrize("base", [None, Path("kata")])
def test_a_home_of_no_known_user_is_no_session_not_a_crash(
    tmp_path: Path, base: Path | None
) -> None:
    # red team: `replay:~nobody-rt2/s.jsonl` raised RuntimeError from Path.expanduser
    with pytest.raises(ConfigError, match="neither a file nor a shipped session"):
        load_session("~nobody-rt2/s.jsonl", directory=tmp_path, base=base)


@pytest.mark.parametrize(
    ("kata", "language", "said"),
    [
        ("string-calculator", "rust", None),
        ("fizzbuzz", "rust", "the shipped session 'string-calculator' answers the String "
         "Calculator kata, and this kata is FizzBuzz: its answers would write String "
         "Calculator's code here"),
        ("string-calculator", "python", "the shipped session 'string-calculator' answers the "
         "String Calculator kata in rust, and this kata is in python"),
        (None, "rust", None),  # no kata.md: nothing to tell
    ],
)  # fmt: skip
def test_a_shipped_session_fits_only_the_kata_and_language_it_was_recorded_on(
    kata: str | None, language: str, said: str | None
) -> None:
    from tddhooks.llm.replay import shipped_misfit
    from tddhooks.resources import read_template

    text = read_template(f"katas/{kata}.md") if kata else ""
    assert shipped_misfit("string-calculator", text, language) == said
    # a person's own session is theirs to replay anywhere
    assert shipped_misfit("./string-calculator.jsonl", text, language) is None


@pytest.mark.cargo
def test_a_shipped_session_on_another_kata_is_refused_before_any_answer(tmp_path: Path) -> None:
    """Newcomer: `tddhooks drive --model replay:string-calculator` in a FizzBuzz kata wrote
    String Calculator's `add` and landed two green cycles of the wrong kata."""
    import subprocess

    from click.testing import CliRunner

    from tddhooks.cli import cli

    runner = CliRunner()
    made = runner.invoke(cli, ["init", "-k", "fizzbuzz", str(tmp_path / "fb")])
    assert made.exit_code == 0, made.output
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=tmp_path / "fb", text=True,
                          capture_output=True, check=True).stdout  # fmt: skip

    result = runner.invoke(cli, ["drive", "-C", str(tmp_path / "fb"), "--model",
                                 "replay:string-calculator", "--steps", "1"])  # fmt: skip

    assert result.exit_code == 2
    assert "answers the String Calculator kata, and this kata is FizzBuzz" in result.output
    assert "tddhooks init -k string-calculator DIR" in result.output
    assert subprocess.run(["git", "rev-parse", "HEAD"], cwd=tmp_path / "fb", text=True,
                          capture_output=True, check=True).stdout == head  # fmt: skip
    assert subprocess.run(["git", "status", "--porcelain"], cwd=tmp_path / "fb", text=True,
                          capture_output=True, check=True).stdout == ""  # fmt: skip


def test_a_session_of_the_persons_own_in_the_kata_is_theirs_from_any_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Red team: `tddhooks drive -C KATA` replays KATA/string-calculator.jsonl, a recording of
    the person's own (load_session reads a relative path in the kata too), but the misfit check
    looked only in the current directory and refused it as the shipped session."""
    from tddhooks.llm.replay import load_session, shipped_misfit
    from tddhooks.resources import read_template

    kata = tmp_path / "kata"
    kata.mkdir()
    line = json.dumps({"role": "tester", "messages_sha": "0" * 64, "answer": "mine"})
    (kata / "string-calculator.jsonl").write_text(line + "\n", encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    fizzbuzz = read_template("katas/fizzbuzz.md")

    own = kata / "string-calculator.jsonl"
    assert load_session("string-calculator.jsonl", base=kata).source == str(own)
    assert shipped_misfit("string-calculator.jsonl", fizzbuzz, "rust", base=kata) is None
    # the bare name is the shipped session, wherever a file of that name is
    assert shipped_misfit("string-calculator", fizzbuzz, "rust", base=kata) is not None


@pytest.mark.parametrize(
    "title", ["String-Calculator", "string_calculator", "String  Calculator", "STRING CALCULATOR."]
)
def test_the_kata_title_written_otherwise_still_fits_the_shipped_session(title: str) -> None:
    """Red team: a kata.md of String Calculator titled `# String-Calculator` was refused as
    another kata."""
    from tddhooks.llm.replay import shipped_misfit
    from tddhooks.resources import read_template

    text = read_template("katas/string-calculator.md").replace(
        "# String Calculator", f"# {title}", 1
    )
    assert shipped_misfit("string-calculator", text, "rust") is None
    fizz = text.replace(f"# {title}", "# String Calculator II", 1)
    assert shipped_misfit("string-calculator", fizz, "rust") is not None
