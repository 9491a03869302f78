"""Red team, processes: nothing a command started outlives it, signals kill the whole tree, and
output is capped while it is read."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tddhooks import proc


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _gone(pid: int, within_s: float = 5.0) -> bool:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if not _alive(pid):
            return True
        time.sleep(0.05)
    return False


def _spawner(pid_file: Path, how: str) -> str:
    """A script that starts a sleeping grandchild detached in the given way, then sleeps."""
    sleeper = "import time; time.sleep(120)"
    if how == "setsid":
        start = f"subprocess.Popen([sys.executable, '-c', {sleeper!r}], start_new_session=True)"
    elif how == "setsid-no-env":
        start = (
            f"subprocess.Popen([sys.executable, '-c', {sleeper!r}], start_new_session=True, "
            "env={})"
        )
    elif how == "double-fork":
        inner = (
            "import os, subprocess, sys\n"
            f"p = subprocess.Popen([sys.executable, '-c', {sleeper!r}], start_new_session=True,"
            " env={})\n"
            f"open({str(pid_file)!r}, 'w').write(str(p.pid))\n"
        )
        start = f"subprocess.Popen([sys.executable, '-c', {inner!r}]).wait()"
        return f"import subprocess, sys, time\n{start}\ntime.sleep(120)\n"
    else:
        raise ValueError(how)
    return (
        "import subprocess, sys, time\n"
        f"p = {start}\n"
        f"open({str(pid_file)!r}, 'w').write(str(p.pid))\n"
        "time.sleep(120)\n"
    )


def _in_a_tddhooks_process(script: str, *, timeout_s: float) -> str:
    """proc.run(script) inside a fresh Python process, as a hook or a CLI command runs it (the
    test process itself has run hundreds of commands from many threads)."""
    probe = (
        "import sys\nfrom tddhooks import proc\n"
        f"r = proc.run([sys.executable, '-c', {script!r}], timeout_s={timeout_s})\n"
        "print('timed-out' if r.timed_out else r.returncode)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=120, check=True)  # fmt: skip
    return done.stdout.strip()


@pytest.mark.parametrize("how", ["setsid", "setsid-no-env", "double-fork"])
def test_a_detached_grandchild_dies_with_the_timeout(tmp_path: Path, how: str) -> None:
    pid_file = tmp_path / "grandchild.pid"
    assert _in_a_tddhooks_process(_spawner(pid_file, how), timeout_s=2) == "timed-out"
    assert _gone(int(pid_file.read_text())), f"{how} grandchild survived the timeout"


def test_a_detached_daemon_left_by_a_finished_command_is_killed(tmp_path: Path) -> None:
    pid_file = tmp_path / "daemon.pid"
    script = _spawner(pid_file, "setsid").removesuffix("time.sleep(120)\n")
    assert _in_a_tddhooks_process(script, timeout_s=60) == "0"
    assert _gone(int(pid_file.read_text()))


def test_output_is_capped_while_read_not_after(tmp_path: Path) -> None:
    # 400 MB of output: kept in memory whole this would show in the peak RSS
    script = (
        "import sys\nchunk = 'x' * 1_000_000 + '\\n'\n"
        "for _ in range(400): sys.stdout.write(chunk)\n"
    )
    # VmHWM after clear_refs: ru_maxrss would include the forked test process's own memory
    probe = (
        "import re, sys\n"
        "from tddhooks import proc\n"
        "open('/proc/self/clear_refs', 'w').write('5')\n"
        f"r = proc.run([sys.executable, '-c', {script!r}], output_cap=100_000)\n"
        "status = open('/proc/self/status').read()\n"
        "print(len(r.stdout), re.search(r'VmHWM:\\s+(\\d+)', status).group(1))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    length, peak_kb = map(int, done.stdout.split())
    assert length < 100_200
    assert peak_kb < 150_000, f"peak memory {peak_kb} kB: the output was held in memory"


def test_the_cut_keeps_head_and_tail_and_says_how_much_went() -> None:
    script = "import sys\nsys.stdout.write('HEAD' + 'x' * 500_000 + 'TAIL')\n"
    result = proc.run([sys.executable, "-c", script], output_cap=1000)
    assert result.stdout.startswith("HEAD")
    assert result.stdout.endswith("TAIL")
    assert "characters cut] …" in result.stdout
    assert len(result.stdout) < 1100


def _hook_like(tmp_path: Path, pid_file: Path) -> subprocess.Popen[bytes]:
    """A tddhooks process (error_handler + proc.run), as the pre-commit hook is, running a
    command in its own session that would sleep for two minutes."""
    script = (
        "import sys\n"
        "from tddhooks import proc\n"
        "from tddhooks.errors import error_handler\n"
        "with error_handler(lambda e: print(e, file=sys.stderr)) as result:\n"
        f"    proc.run([sys.executable, '-c', {_spawner(pid_file, 'setsid')!r}], timeout_s=300)\n"
        "sys.exit(result[0])\n"
    )
    return subprocess.Popen([sys.executable, "-c", script], stderr=subprocess.PIPE)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_signal_to_the_hook_kills_the_command_and_its_detached_child(
    tmp_path: Path, signum: int
) -> None:
    pid_file = tmp_path / "grandchild.pid"
    hook = _hook_like(tmp_path, pid_file)
    deadline = time.monotonic() + 20
    while not pid_file.exists() or not pid_file.read_text():
        assert time.monotonic() < deadline, "the command never started"
        time.sleep(0.05)
    grandchild = int(pid_file.read_text())
    hook.send_signal(signum)
    code = hook.wait(timeout=20)
    assert code == (130 if signum == signal.SIGINT else 128 + signum)
    assert _gone(grandchild), "the command's child outlived the signal"


def test_missing_executable_is_not_an_exception() -> None:
    result = proc.run(["no-such-tool-really", "x"], timeout_s=5)
    assert result.returncode == proc.MISSING_EXECUTABLE


def test_stdin_larger_than_a_pipe_buffer_does_not_deadlock() -> None:
    text = "y" * 1_000_000
    script = "import sys; data = sys.stdin.read(); print(len(data))"
    result = proc.run([sys.executable, "-c", script], stdin=text, timeout_s=30)
    assert result.stdout.strip() == str(len(text))


# --- through git and cargo -------------------------------------------------------------------


def _sleeping_test(pid_file: Path, *, detach: bool) -> str:
    """A Rust test that records its pid (or a setsid'd child's) and then sleeps for minutes."""
    spawn = (
        f'    let child = std::process::Command::new("setsid").args(["sleep", "300"])\n'
        f"        .spawn().unwrap();\n"
        f"    std::fs::write({str(pid_file)!r}, child.id().to_string()).unwrap();\n"
        if detach
        else f"    std::fs::write({str(pid_file)!r}, std::process::id().to_string()).unwrap();\n"
    )
    return (
        f"#[test]\nfn sleeps() {{\n{spawn}"
        "    std::thread::sleep(std::time::Duration::from_secs(300));\n}\n"
    ).replace("'", '"')


def _wait_for(
    path: Path, within_s: float = 300, process: subprocess.Popen[bytes] | None = None
) -> int:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if path.exists() and path.read_text().strip():
            return int(path.read_text())
        if process is not None and process.poll() is not None:
            raise AssertionError(f"the commit ended ({process.returncode}) before the test ran")
        time.sleep(0.1)
    raise AssertionError(f"{path} never appeared")


@pytest.mark.cargo
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
@pytest.mark.parametrize("detach", [False, True], ids=["test-binary", "setsid-child"])
def test_a_signal_to_git_commit_kills_cargo_and_the_test(
    tmp_path: Path, session_dir: Path, signum: int, detach: bool
) -> None:
    from support.gatekit import rust_kata
    from support.repo import git

    repo = rust_kata(tmp_path, session_dir)
    pid_file = tmp_path / "test.pid"
    (repo / "tests" / "sleeps.rs").write_text(
        _sleeping_test(pid_file, detach=detach), encoding="utf-8"
    )
    git(repo, "add", "tests/sleeps.rs")
    # its own session, as a terminal's foreground job: the signal goes to the whole job
    commit = subprocess.Popen(
        ["git", "commit", "-q", "-m", "test: sleeps"], cwd=repo, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        victim = _wait_for(pid_file, process=commit)
        os.killpg(commit.pid, signum)
        commit.wait(timeout=30)
        assert _gone(victim, within_s=10), "the test (or its child) outlived `git commit`"
        stray = subprocess.run(["pgrep", "-f", "deps/sleeps-"], capture_output=True, text=True)
        assert stray.stdout.strip() == "", "a test binary is still running"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(commit.pid, signal.SIGKILL)


@pytest.mark.cargo
def test_a_setsid_child_of_a_test_dies_with_the_gate_timeout(
    tmp_path: Path, session_dir: Path
) -> None:
    from support.gatekit import rust_kata, unhooked_commit
    from support.repo import git

    repo = rust_kata(tmp_path, session_dir)
    config = repo / "tdd.yaml"
    text = config.read_text(encoding="utf-8")
    assert "timeout_s: 300" in text
    config.write_text(text.replace("timeout_s: 300", "timeout_s: 20", 1), encoding="utf-8")
    git(repo, "add", "tdd.yaml")
    unhooked_commit(repo, "chore: a short gate timeout")
    pid_file = tmp_path / "test.pid"
    (repo / "tests" / "sleeps.rs").write_text(
        _sleeping_test(pid_file, detach=True), encoding="utf-8"
    )
    git(repo, "add", "tests/sleeps.rs")
    commit = git(repo, "commit", "-q", "-m", "test: sleeps", check=False)
    assert commit.returncode != 0
    assert _gone(_wait_for(pid_file, within_s=5), within_s=10), "setsid child survived"


def test_a_parallel_bench_job_is_no_orphan_to_another_jobs_command(tmp_path: Path) -> None:
    # bench starts drive/audit children itself; a proc.run of another job (with a timeout, so
    # the reaper sweeps afterwards) must not take them for leftovers and kill them
    probe = (
        "import subprocess, sys\n"
        "from pathlib import Path\n"
        "from tddhooks import proc\n"
        "from tddhooks.bench.run import Children\n"
        "children = Children()\n"
        "other = children.start(['sh', '-c', 'sleep 1; echo done > finished'], cwd=Path('.'),\n"
        "                       env={'PATH': '/usr/bin:/bin'}, stdout=subprocess.DEVNULL)\n"
        "proc.run(['true'], timeout_s=5)\n"
        "other.communicate()\n"
        "children.finished(other)\n"
        "print(other.returncode)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    # a killed child may still report 0 (the reaper collected it first): its work tells
    assert (tmp_path / "finished").is_file(), "the other job's child was killed"
    assert done.stdout.strip() == "0"
