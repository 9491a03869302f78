"""Audit benchmark: a 31-commit kata history (tiny crate) audited end to end, and the read side
of the history walk three ways.

    python tests/bench/bench_audit.py [--commits 31] [--runs 2] [--jobs 1,2]

The history has the shapes met in real katas: feat commits with their test, refactors, a few
red commits (a failing test committed), a few lint-only ones (tests pass, clippy warns), and
re-commits of an earlier tree (a revert). Prints the audit's wall time against the 15 s target
for each --jobs value (cold: empty cargo target and verdict store; warm: every tree gated again,
--fresh), the time of an audit that reads the verdicts an earlier audit stored, and, for
reading commit metadata and messages: one `git` process per object, one persistent
`git cat-file --batch`, and GitPython.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_S = 15.0
CARGO_TOML = '[package]\nname = "kata"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n'


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "CARGO_TARGET"))}
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    return env


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *args], cwd=repo, env=_env(), check=True, capture_output=True, text=True
    )
    return done.stdout


def _commit(repo: Path, files: dict[str, str], message: str) -> None:
    for relative, text in files.items():
        path = repo / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "--no-verify", "-m", message)


def _lib(count: int, *, lint: bool = False) -> str:
    body = "".join(
        f"/// Returns {i}.\npub fn f{i}() -> i32 {{\n    {i}\n}}\n\n" for i in range(count)
    )
    if lint:
        body += (
            "/// Has a clippy warning.\npub fn noisy() -> bool {\n    let x = 1;\n    x == x\n}\n"
        )
    return "//! A kata.\n\n" + body


def _tests(count: int, *, red: int | None = None) -> str:
    lines = ["use kata::*;\n"]
    for i in range(count):
        expected = i + 1 if i == red else i
        lines.append(f"#[test]\nfn f{i}_works() {{\n    assert_eq!(f{i}(), {expected});\n}}\n")
    return "\n".join(lines)


def _message(kind: str, summary: str, step: int, files: list[str]) -> str:
    role = {"feat": "Implementor", "refactor": "Refactorer", "test": "Tester"}[kind]
    return (
        f"{kind}(kata): {summary}\n\nContext:\n- Role: {role}\n- Step: {step}\n"
        "- Kata goal: grow the kata\n\nRationale:\n- the next requirement\n\n"
        "Diff summary:\n" + "".join(f"- {name}\n" for name in files) + "\n"
        "Verification:\n- cargo test: passed\n"
    )


def build_history(folder: Path, commits: int = 31) -> Path:
    """A kata repository with `commits` commits of the shapes above (no hooks installed)."""
    repo = folder / "kata"
    repo.mkdir(parents=True)
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "config", "user.name", "Bench")
    _git(repo, "config", "user.email", "bench@example.com")
    files = {"Cargo.toml": CARGO_TOML, "src/lib.rs": _lib(0), "tests/kata.rs": "use kata as _;\n",
             ".gitignore": "/target\n", "tdd.yaml": "language: rust\n"}  # fmt: skip
    _commit(repo, files, "chore: scaffold the kata")
    made, count, step = 1, 0, 1
    while made < commits:
        count += 1
        lint = count % 5 == 0
        red = count % 7 == 0
        if red and made + 1 < commits:
            files = {"tests/kata.rs": _tests(count, red=count - 1)}
            _commit(repo, files, _message("test", f"f{count - 1} (red)", step, list(files)))
            made += 1
        files = {"src/lib.rs": _lib(count, lint=lint), "tests/kata.rs": _tests(count)}
        _commit(repo, files, _message("feat", f"f{count - 1}", step, list(files)))
        made += 1
        if made < commits and count % 4 == 0:  # the same tree again: a revert of a revert
            _git(repo, "revert", "--no-edit", "HEAD")
            _git(repo, "revert", "--no-edit", "HEAD")
            made += 2
        elif made < commits:
            files = {"src/lib.rs": _lib(count, lint=lint).replace("A kata.", f"A kata ({count}).")}
            _commit(repo, files, _message("refactor", "reword the docs", step, list(files)))
            made += 1
        step += 1
    return repo


def time_audit(repo: Path, *args: str) -> tuple[float, int]:
    start = time.monotonic()
    done = subprocess.run(["tddhooks", "audit", "-C", str(repo), *args], env=_env(),
                          capture_output=True, text=True)  # fmt: skip
    return time.monotonic() - start, done.returncode


def private_folder(repo: Path) -> Path:
    """The audit's snapshots, cargo targets and verdict store for repo (removed after a run)."""
    from tddhooks.policy.snapshot import private_dir

    return private_dir(repo)


def time_jobs(source: Path, folder: Path, jobs: int, label: str) -> tuple[float, float, int]:
    """A copy of the history (so cargo's target and audit's store start empty): a cold audit,
    then a warm one that re-gates every tree (--fresh); (cold s, warm s, exit code)."""
    repo = folder / f"kata-{label}"
    shutil.copytree(source, repo, symlinks=True)
    try:
        cold, code = time_audit(repo, "--json", "--jobs", str(jobs))
        warm, _ = time_audit(repo, "--json", "--fresh", "--jobs", str(jobs))
    finally:
        shutil.rmtree(private_folder(repo), ignore_errors=True)
        shutil.rmtree(repo, ignore_errors=True)
    return cold, warm, code


def read_per_process(repo: Path, shas: list[str]) -> int:
    total = 0
    for sha in shas:
        total += len(_git(repo, "show", "-s", "--format=%B", sha))
        total += len(_git(repo, "rev-parse", f"{sha}^{{tree}}"))
    return total


def read_batch(repo: Path, shas: list[str]) -> int:
    """One `git cat-file --batch` kept open; commit objects parsed by hand."""
    process = subprocess.Popen(["git", "cat-file", "--batch"], cwd=repo, env=_env(),
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE)  # fmt: skip
    assert process.stdin is not None
    assert process.stdout is not None
    total = 0
    for sha in shas:
        process.stdin.write(f"{sha}\n".encode())
        process.stdin.flush()
        header = process.stdout.readline().split()
        body = process.stdout.read(int(header[2]) + 1)[:-1].decode()
        head, _, message = body.partition("\n\n")
        tree = head.split("\n", 1)[0].split()[1]
        total += len(message) + len(tree)
    process.stdin.close()
    process.wait()
    return total


def read_gitpython(repo: Path, shas: list[str]) -> int:
    import git as gitpython

    repository = gitpython.Repo(repo)
    total = 0
    for sha in shas:
        commit = repository.commit(sha)
        message = commit.message
        total += len(message if isinstance(message, str) else message.decode())
        total += len(commit.tree.hexsha)
    repository.close()
    return total


def _timed_import(probe: str) -> float:
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return float(done.stdout)


def bench(commits: int, runs: int, jobs_list: list[int]) -> None:
    if shutil.which("cargo") is None:
        sys.exit("cargo is not on PATH")
    with tempfile.TemporaryDirectory(prefix="tddhooks-bench-audit-") as folder:
        repo = build_history(Path(folder), commits)
        shas = _git(repo, "rev-list", "--reverse", "HEAD").split()
        print(f"history: {len(shas)} commits in {repo}")
        readers = [("git process per object", read_per_process),
                   ("one git cat-file --batch", read_batch)]  # fmt: skip
        if importlib.util.find_spec("git") is not None:  # GitPython: `pip install GitPython`
            readers.append(("GitPython", read_gitpython))
        for name, reader in readers:
            times = []
            for _ in range(max(runs, 3)):
                start = time.monotonic()
                reader(repo, shas)
                times.append(time.monotonic() - start)
            print(f"read messages+trees, {name:26s} {statistics.median(times) * 1000:8.1f} ms")
        if len(readers) == 3:
            probe = (
                "import time; t = time.perf_counter(); import git; print(time.perf_counter() - t)"
            )
            imports = [_timed_import(probe) for _ in range(3)]
            median_ms = statistics.median(imports) * 1000
            print(f"import GitPython (once per process)     {median_ms:8.1f} ms")
        print(f"load average before the audits: {os.getloadavg()[0]:.2f} ({os.cpu_count()} cores)")
        results: dict[int, list[tuple[float, float, int]]] = {jobs: [] for jobs in jobs_list}
        for run in range(runs):
            for jobs in jobs_list:
                results[jobs].append(time_jobs(repo, Path(folder), jobs, f"{run}-{jobs}"))
                cold, warm, _code = results[jobs][-1]
                load = os.getloadavg()[0]
                print(f"  run {run + 1}, --jobs {jobs}: cold {cold:.1f} s, warm {warm:.1f} s "
                      f"(load {load:.2f})", flush=True)  # fmt: skip
        for jobs, rows in results.items():
            colds = ", ".join(f"{row[0]:.1f}" for row in rows)
            warms = ", ".join(f"{row[1]:.1f}" for row in rows)
            codes = {row[2] for row in rows}
            print(f"audit --jobs {jobs}: cold cargo target {colds} s; warm, --fresh {warms} s "
                  f"(exit {codes}; target < {TARGET_S:g} s)")  # fmt: skip
        time_audit(repo, "--json")  # fills audit's verdict store
        stored = [time_audit(repo, "--json")[0] for _ in range(runs)]
        print(f"audit again, verdicts from audit's store: {statistics.median(stored):.2f} s")
        shutil.rmtree(private_folder(repo), ignore_errors=True)
        print(f"load average after: {os.getloadavg()[0]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=31)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--jobs", default="1,2", help="comma-separated --jobs values to time")
    args = parser.parse_args()
    bench(args.commits, args.runs, [int(jobs) for jobs in args.jobs.split(",")])


if __name__ == "__main__":
    main()
