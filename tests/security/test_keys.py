"""Red team, keys: no key variable reaches a child process, and a key (or any run of 8 of its
characters) never lands in a file the tool wrote, a request body, the console or `--json`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.e2e_kit import (
    Script,
    answer,
    crate_of,
    git,
    run_cli,
    shipped_answers,
    upsert,
)
from support.fake_openai import Fail, FakeOpenAI
from support.gatekit import rust_kata, unhooked_commit

from tddhooks import git as tgit
from tddhooks import keys, output, proc

SECRET = "sk-Mq7Hq2ZpX9LmR4tV6wB8nCqJ"  # held in MY_KEY, passed as --api-key MY_KEY
OTHERS = {
    "OPENAI_API_KEY": "sk-Zr8Kw2Lp0Qx7Vt5NyHg3",
    "TDDHOOKS_API_KEY": "tk-Bq4Hs6Jd8Fg1Ke3Wz5",
    "DEEPSEEK_API_KEY": "sk-Pm5Tn7Wr9Ys2Uv4Lq8",
    "GH_TOKEN": "ghp_Xc3Vb5Nm7Qw9Er1Ty2Ui",
}
ALL_VALUES = [SECRET, *OTHERS.values()]
PRINTED = ["MY_KEY", "COPY_OF_MY_KEY", *OTHERS]


def fragments(value: str, size: int = keys.FRAGMENT) -> list[str]:
    return [value[i : i + size] for i in range(len(value) - size + 1)]


def assert_no_key(text: str, where: str) -> None:
    for value in ALL_VALUES:
        for piece in fragments(value):
            assert piece not in text, f"{piece!r} (part of a key) found in {where}"


def files_under(*roots: Path) -> Iterator[tuple[Path, str]]:
    for root in roots:
        if not root.exists():
            continue
        for path in root.rglob("*"):
            if path.is_file() and path.stat().st_size < 5_000_000:
                yield path, path.read_bytes().decode("utf-8", errors="replace")


@pytest.fixture(autouse=True)
def _fresh_registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("COLUMNS", "250")
    output.use_streams()  # rich writes to this test's streams (CliRunner's), not an old one's
    keys.forget()
    yield
    keys.forget()


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    fake = FakeOpenAI().start()
    try:
        yield fake
    finally:
        fake.stop()


@pytest.fixture
def keyed_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_KEY", SECRET)
    monkeypatch.setenv("COPY_OF_MY_KEY", SECRET)
    for name, value in OTHERS.items():
        monkeypatch.setenv(name, value)


# --- the child's environment -----------------------------------------------------------------


def _child_env(**kwargs: Any) -> dict[str, str]:
    script = "import json, os; print(json.dumps(dict(os.environ)))"
    result = proc.run([sys.executable, "-c", script], **kwargs)
    env: dict[str, str] = json.loads(result.stdout)
    return env


@pytest.mark.usefixtures("keyed_env")
def test_no_provider_or_generic_key_variable_reaches_a_child() -> None:
    env = _child_env()
    for name in OTHERS:
        assert name not in env
    assert_no_key(json.dumps(env), "a child's environment")


@pytest.mark.usefixtures("keyed_env")
def test_a_key_passed_by_name_is_scrubbed_with_every_copy_of_its_value() -> None:
    keys.register(name="MY_KEY", value=SECRET)
    env = _child_env()
    assert "MY_KEY" not in env
    assert "COPY_OF_MY_KEY" not in env
    assert_no_key(json.dumps(env), "a child's environment")


@pytest.mark.usefixtures("keyed_env")
def test_an_explicit_env_mapping_is_scrubbed_too() -> None:
    env = _child_env(env={**os.environ, "SOME_SERVICE_TOKEN": "tok-Zz9Yy8Xx7Ww6"})
    assert "SOME_SERVICE_TOKEN" not in env
    assert "OPENAI_API_KEY" not in env
    assert "PATH" in env


@pytest.mark.usefixtures("keyed_env")
def test_git_clean_env_and_the_agents_commit_env_hold_no_key() -> None:
    keys.register(name="MY_KEY", value=SECRET)
    for env in (tgit.clean_env(), tgit.commit_env(), tgit.clean_env({"X_API_KEY": "abcdefgh12"})):
        assert not any(keys.is_key_name(name) for name in env)
        assert_no_key(json.dumps(env), "git's environment")


def test_resolving_a_key_by_name_registers_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    from tddhooks.llm.providers import get_preset
    from tddhooks.llm.settings import resolve_api_key

    monkeypatch.setenv("PLAIN_NAME", "value-Qw8Er7Ty6Ui5")
    key, _source = resolve_api_key(
        get_preset("custom"), "https://example.com/v1", api_key="PLAIN_NAME",
        api_key_env=None, environ=os.environ,
    )  # fmt: skip
    assert key == "value-Qw8Er7Ty6Ui5"
    assert "PLAIN_NAME" not in _child_env()


# --- redaction -------------------------------------------------------------------------------


@pytest.mark.usefixtures("keyed_env")
@pytest.mark.parametrize(
    "failure",
    [
        Fail(400, f"Incorrect API key provided: {SECRET}"),
        Fail(403, f"key {SECRET[:12]}… is not valid"),
        Fail(404, f"key ending …{SECRET[-10:]} is not valid"),
        Fail(400, "x" * 290 + SECRET),  # a cut at 300 before redacting leaves 10 characters
        Fail(500, " ".join(ALL_VALUES)),
    ],
    ids=["full", "prefix", "suffix", "cut", "every-key"],
)
def test_error_detail_is_redacted_before_it_is_cut(server: FakeOpenAI, failure: Fail) -> None:
    from tddhooks.errors import TddhooksError
    from tddhooks.llm.client import ChatClient
    from tddhooks.llm.settings import ModelSettings

    settings = ModelSettings("custom", "fake-model", server.base_url, api_key=SECRET, max_retries=0)
    server.enqueue(failure)
    with pytest.raises(TddhooksError) as caught:
        ChatClient(settings, None).complete([{"role": "user", "content": "hi"}], role="tester")
    assert_no_key(str(caught.value), "the translated error")
    assert "[key]" in caught.value.message


def test_redact_leaves_text_without_keys_alone() -> None:
    keys.register(value="sk-only-Hj7Kl9Mn2Bv4")
    text = "thread 'x' panicked at src/lib.rs:3:5\nassertion failed"
    assert keys.redact(text) == text
    assert keys.redact("prefix sk-only-Hj7K suffix") == "prefix [key] suffix"


# --- end to end: a drive whose kata test prints every key ------------------------------------


def _leaky_kata(tmp_path: Path, session_dir: Path) -> Path:
    """A kata whose build script and failing test print every key variable they can see."""
    repo = rust_kata(tmp_path, session_dir, direct=False)
    names = ", ".join(f'"{name}"' for name in PRINTED)
    (repo / "build.rs").write_text(
        f"fn main() {{\n    for name in [{names}] {{\n"
        '        println!("cargo:warning=LEAKB[{}]", std::env::var(name).unwrap_or_default());\n'
        "    }\n}\n",
        encoding="utf-8",
    )
    lib = repo / "src" / "lib.rs"
    lib.write_text(
        lib.read_text(encoding="utf-8")
        + "\n/// The sum of the numbers in `text`.\npub fn add(_text: &str) -> i32 {\n    1\n}\n",
        encoding="utf-8",
    )
    git(repo, "add", "-A")
    unhooked_commit(repo, "refactor: a stub add and a build script")
    return repo


def _leaky_test(crate: str) -> str:
    names = ", ".join(f'"{name}"' for name in PRINTED)
    return (
        f"use {crate}::add;\n\n#[test]\nfn empty_string_sums_to_zero() {{\n"
        f"    let seen: Vec<String> = [{names}]\n"
        '        .iter().map(|n| format!("LEAKT[{}]", std::env::var(n).unwrap_or_default()))\n'
        "        .collect();\n"
        '    println!("{}", seen.join(" "));\n'
        '    assert_eq!(add(""), 0, "{}", seen.join(" "));\n}\n'
    )


def _tool_files(repo: Path, home: Path) -> Iterator[tuple[Path, str]]:
    roots = [repo, home, Path(os.environ["TDDHOOKS_HOME"]), Path(os.environ["TDDHOOKS_CACHE_DIR"])]
    yield from files_under(*roots)


@pytest.mark.cargo
@pytest.mark.e2e
@pytest.mark.usefixtures("keyed_env")
def test_a_drive_whose_tests_print_every_key_leaves_no_trace(
    tmp_path: Path, session_dir: Path, server: FakeOpenAI, isolated_home: Path
) -> None:
    repo = _leaky_kata(tmp_path, session_dir)
    crate = crate_of(repo)
    shipped = shipped_answers(crate)
    tester = answer(
        "a failing test that prints the environment",
        [upsert("tests/empty_string.rs", _leaky_test(crate))],
        commit=shipped["tester"][0]["commit"],
        done=False,
        reason=None,
    )
    script = Script().add("tester", tester).add("implementor", *shipped["implementor"][:2])
    script.add("refactorer", *shipped["refactorer"][:1])
    server.responder = script
    args = ["--provider", "custom", "--base-url", server.base_url, "--model", "fake-model"]
    result = run_cli("drive", "-C", str(repo), "--steps", "1", "--json", *args,
                     "--api-key", "MY_KEY")  # fmt: skip
    # the test ran and printed what it could see: nothing (proves the check below is real)
    prompts = "\n".join(script.prompts("implementor"))
    assert "LEAKT[]" in prompts or "LEAKB[]" in prompts, result.output[-3000:]
    assert '"event": "drive-finished"' in result.output, "the --json output was not captured"
    assert_no_key(result.output, "the drive's console/--json output")
    for request in server.requests:
        assert_no_key(json.dumps(request.body), f"a request body to {request.path}")
    for path, text in _tool_files(repo, isolated_home):
        assert_no_key(text, str(path))


@pytest.mark.cargo
@pytest.mark.usefixtures("keyed_env")
@pytest.mark.parametrize(
    "failure",
    [
        Fail(400, "x" * 290 + SECRET),
        Fail(403, f"the key {SECRET[:12]} may not use this model"),
        Fail(404, f"no model for key …{SECRET[-9:]}"),
        Fail(500, f"upstream said: {SECRET} {OTHERS['OPENAI_API_KEY']}"),
    ],
    ids=["cut-prefix", "prefix", "suffix", "full"],
)
def test_a_server_echoing_the_key_leaves_no_fragment_anywhere(
    tmp_path: Path, session_dir: Path, server: FakeOpenAI, isolated_home: Path,
    failure: Fail,
) -> None:  # fmt: skip
    repo = rust_kata(tmp_path, session_dir, direct=False)
    server.responder = lambda _body: failure
    args = ["--provider", "custom", "--base-url", server.base_url, "--model", "fake-model",
            "--api-key", "MY_KEY"]  # fmt: skip
    for extra in (["--json"], []):
        result = run_cli("drive", "-C", str(repo), "--steps", "1", *extra, *args)
        assert result.exit_code == 3, result.output
        assert_no_key(result.output, f"drive {' '.join(extra)} output")
    doctor = _doctor(repo, server)
    assert "fake-model" in doctor, "doctor printed nothing: the check would be empty"
    assert "[key]" in doctor or failure.status in (500,), doctor
    assert_no_key(doctor, "doctor's output")
    for path, text in _tool_files(repo, isolated_home):
        assert_no_key(text, str(path))


def _doctor(repo: Path, server: FakeOpenAI) -> str:
    """`tddhooks doctor` with every role on the fake server, its key named in tdd.yaml."""
    import yaml

    config = repo / "tdd.yaml"
    data = yaml.safe_load(config.read_text(encoding="utf-8"))
    llm = {"provider": "custom", "model": "fake-model", "base_url": server.base_url,
           "api_key_env": "MY_KEY", "max_retries": 0}  # fmt: skip
    data["llm"] = {**(data.get("llm") or {}), **llm}
    config.write_text(yaml.safe_dump(data), encoding="utf-8")
    result = run_cli("doctor", "-C", str(repo))
    return result.output


def test_every_preset_key_variable_is_known_as_a_key() -> None:
    from tddhooks.llm.providers import GENERIC_KEY_ENV, PRESETS

    names = [preset.key_env for preset in PRESETS.values() if preset.key_env]
    assert names, "no preset names a key variable"
    for name in [*names, GENERIC_KEY_ENV]:
        assert keys.is_key_name(name), name


@pytest.mark.parametrize(
    "name",
    [
        "GITHUB_TOKEN",
        "HF_TOKEN",
        "AWS_SECRET_ACCESS_KEY",
        "my_api_key",
        "API_KEY",
        "MY_KEY",
        "DB_PASSWORD",
        "CLIENT_SECRET",
    ],
)
def test_look_alike_key_names_are_scrubbed(name: str) -> None:
    env = keys.scrub_env({"PATH": "/bin", name: "value-Tt5Rr4Ee3Ww2"})
    assert env == {"PATH": "/bin"}


def test_ordinary_variables_survive_the_scrub() -> None:
    kept = {"PATH": "/bin", "HOME": "/h", "CARGO_HOME": "/c", "RUSTUP_TOOLCHAIN": "stable",
            "TOKENIZERS_PARALLELISM": "false", "KEYBOARD": "us", "KEY_MAP": "x",
            "CARGO_TARGET_DIR": "/t"}  # fmt: skip
    assert keys.scrub_env(kept) == kept


def test_a_process_holding_a_key_hides_its_environment_from_other_processes() -> None:
    # /proc/<drive pid>/environ would otherwise hand the key to a test that walks up its ppid
    probe = (
        "import ctypes, sys\n"
        "from tddhooks import keys\n"
        "libc = ctypes.CDLL(None)\n"
        "before = libc.prctl(3, 0, 0, 0, 0)\n"  # PR_GET_DUMPABLE
        "keys.register(name='MY_KEY', value='sk-Hh5Jj6Kk7Ll8Zz9')\n"
        "print(before, libc.prctl(3, 0, 0, 0, 0))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)  # fmt: skip
    assert done.stdout.split() == ["1", "0"]
    child = proc.run(
        [sys.executable, "-c", "import ctypes; print(ctypes.CDLL(None).prctl(3,0,0,0,0))"]
    )
    assert child.stdout.strip() == "1", "children must stay ordinary (dumpable after exec)"


@pytest.mark.cargo
@pytest.mark.usefixtures("keyed_env")
def test_a_persons_commit_with_keys_exported_leaks_none_through_the_gate(
    tmp_path: Path, session_dir: Path
) -> None:
    repo = rust_kata(tmp_path, session_dir)
    names = ", ".join(f'"{name}"' for name in PRINTED)
    (repo / "tests" / "leak.rs").write_text(
        "#[test]\nfn leak() {\n"
        f"    let seen: Vec<String> = [{names}].iter()\n"
        '        .map(|n| format!("LEAKT[{}]", std::env::var(n).unwrap_or_default())).collect();\n'
        '    let all: Vec<String> = std::env::vars().map(|(k, v)| format!("{k}={v}")).collect();\n'
        '    panic!("{} || {}", seen.join(" "), all.join(" "));\n}\n',
        encoding="utf-8",
    )
    git(repo, "add", "tests/leak.rs")
    done = subprocess.run(["git", "commit", "-m", "test: leak"], cwd=repo, capture_output=True,
                          text=True)  # fmt: skip
    assert done.returncode != 0
    shown = done.stdout + done.stderr
    assert "LEAKT[]" in shown, shown[-2000:]  # the test ran and printed what it saw: nothing
    assert_no_key(shown, "the rejection the person sees")
    for path, text in files_under(repo / ".git" / "tddhooks", repo / ".tdd"):
        if "target" not in path.parts:
            assert_no_key(text, str(path))


def test_a_key_echoed_in_an_answer_reaches_neither_the_caller_nor_the_cache(
    server: FakeOpenAI, tmp_path: Path
) -> None:
    from support.fake_openai import Reply

    from tddhooks.llm.cache import AnswerCache
    from tddhooks.llm.client import ChatClient
    from tddhooks.llm.settings import ModelSettings

    settings = ModelSettings("custom", "fake-model", server.base_url, api_key=SECRET)
    server.enqueue(Reply(f'{{"plan": "your key is {SECRET}, its start {SECRET[:10]}"}}'))
    cache = AnswerCache(tmp_path / "cache")
    result = ChatClient(settings, cache).complete([{"role": "user", "content": "hi"}], role="t")
    assert_no_key(result.content, "the answer")
    assert "[key]" in result.content
    cache.close()
    for path, text in files_under(tmp_path / "cache"):
        assert_no_key(text, str(path))


def test_a_value_too_short_to_be_a_key_never_garbles_text() -> None:
    keys.register(value="k")
    keys.register(value="sk-1")
    try:
        text = "Traceback in hooks.py: keep sk-1 and sk-12 apart"
        assert keys.redact(text) == "Traceback in hooks.py: keep [key] and sk-12 apart"
    finally:
        keys.forget()
