"""Hook latency benchmark on a small kata crate in a temporary directory.

    python tests/bench/bench_hooks.py [--runs 15] [--gate-runs 5]

Measures (medians): the commit-msg hook; the gate on a changed tree against the bare
`cargo fmt --check && cargo clippy --all-targets -- -D warnings && cargo test` on the same change
(a source file changes before every round so both rebuild); the pre-commit hook on an
already-verified tree; and a whole `git commit` of an already-verified tree three ways, in the
same rounds: bare git (no hooks), the default `tddhooks install` (shims: pre-commit,
prepare-commit-msg, commit-msg and reference-transaction; pre-push does not run on a commit), and
the pre-commit framework path (`tddhooks install --pre-commit`); and the reference-transaction
hook alone, moving the branch onto a commit the hooks judged. In the same round robin as the
commit-msg hook it also measures two reference points under the same load: `python -c pass`
(the interpreter floor every Python hook pays) and the peer `conventional-pre-commit` (installed
once into a throwaway venv under ~/.cache/tddhooks-bench/; its row is skipped with a note when it
cannot be installed), run as its hook runs: its console script with the message file. Prints a
table with the targets.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

PEER = "conventional-pre-commit"
PEER_VENV = Path.home() / ".cache" / "tddhooks-bench" / PEER
TARGETS = {
    "commit-msg": 0.08,
    "gate overhead": 1.3,
    "verified tree": 0.3,
    "commit": 0.22,
    "reference-transaction": 0.04,
}
BARE = (
    ("cargo", "fmt", "--check"),
    ("cargo", "clippy", "--all-targets", "--", "-D", "warnings"),
    ("cargo", "test"),
)
LIB = """\
/// Score of a bowling game given the pins knocked down by each roll.
pub fn score(rolls: &[u32]) -> u32 {
    let mut total = 0;
    let mut frame_start = 0;
    for _ in 0..10 {
        if rolls[frame_start] == 10 {
            total += 10 + rolls[frame_start + 1] + rolls[frame_start + 2];
            frame_start += 1;
        } else if rolls[frame_start] + rolls[frame_start + 1] == 10 {
            total += 10 + rolls[frame_start + 2];
            frame_start += 2;
        } else {
            total += rolls[frame_start] + rolls[frame_start + 1];
            frame_start += 2;
        }
    }
    total
}
"""
TESTS = """\
use bowling::score;

#[test]
fn gutter_game() {
    assert_eq!(score(&[0; 20]), 0);
}

#[test]
fn all_ones() {
    assert_eq!(score(&[1; 20]), 20);
}

#[test]
fn one_spare() {
    let mut rolls = vec![5, 5, 3];
    rolls.extend([0; 17]);
    assert_eq!(score(&rolls), 16);
}

#[test]
fn perfect_game() {
    assert_eq!(score(&[10; 12]), 300);
}
"""
MESSAGE = """\
feat: score a bowling game

Context:
- Role: Implementor
- Step: 1
- Kata goal: Score a game of ten-pin bowling.

Rationale:
- the tests demand frame scoring

Diff summary:
- src/lib.rs: score
- tests/score.rs: four games

Verification:
- cargo test: 4 passed, 0 failed; clippy clean; fmt clean
"""


def _env() -> dict[str, str]:
    """The person's environment: no git or cargo variables from the caller, our tddhooks first."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("GIT_", "CARGO_TARGET_DIR"))
    }
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env["CARGO_TERM_COLOR"] = "never"
    return env


def _run(cmd: Sequence[str], cwd: Path, *, check: bool = True) -> float:
    start = time.perf_counter()
    result = subprocess.run(list(cmd), cwd=cwd, env=_env(), capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if check and result.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{result.stdout}{result.stderr}")
    return elapsed


def _git(repo: Path, *args: str) -> None:
    _run(["git", "-c", "user.name=Bench", "-c", "user.email=bench@example.com", *args], repo)


def make_kata(folder: Path) -> Path:
    repo = folder / "bowling"
    (repo / "src").mkdir(parents=True)
    (repo / "tests").mkdir()
    (repo / "Cargo.toml").write_text(
        '[package]\nname = "bowling"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n'
    )
    (repo / ".gitignore").write_text("target/\n")
    (repo / "src/lib.rs").write_text("\n")
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "chore: scaffold bowling")
    _run(["tddhooks", "install"], repo)  # the default install: our shims
    (repo / "src/lib.rs").write_text(LIB)
    (repo / "tests/score.rs").write_text(TESTS)
    _git(repo, "add", "-A")
    return repo


def peer_hook() -> tuple[list[str] | None, str]:
    """The peer's commit-msg hook command (argv without the message file), or None and why not.
    Installed once into its own venv (never into ours: it must not change what we measure)."""
    script = PEER_VENV / "bin" / PEER
    if not script.exists():
        steps = (
            [sys.executable, "-m", "venv", "--clear", str(PEER_VENV)],
            [str(PEER_VENV / "bin" / "python"), "-m", "pip", "install", "-q", PEER],
        )
        for step in steps:
            try:
                result = subprocess.run(step, capture_output=True, text=True, timeout=600)
            except (OSError, subprocess.TimeoutExpired) as error:
                return None, f"{PEER} not installed ({error})"
            if result.returncode != 0:
                tail = (result.stderr or result.stdout).strip().splitlines()[-1:]
                return None, f"{PEER} not installed: {' '.join(step[:3])}: {' '.join(tail)}"
    if not script.exists():
        return None, f"{PEER} not installed: no {script}"
    return [str(script)], ""


def _change_source(repo: Path, round_number: int) -> None:
    """A real edit (fmt-clean) that makes cargo rebuild the crate and its tests."""
    (repo / "src/lib.rs").write_text(LIB + f"\n/// Revision {round_number}.\npub const REV: u32 = "
                                     f"{round_number};\n")  # fmt: skip
    _git(repo, "add", "src/lib.rs")


def _cargo_critical_path(repo: Path) -> float:
    """Seconds the last gate spent waiting for cargo: lint then test (fmt runs beside them)."""
    tree = subprocess.run(["git", "write-tree"], cwd=repo, env=_env(), capture_output=True,
                          text=True, check=True).stdout.strip()  # fmt: skip
    found = list((repo / ".git" / "tddhooks" / "verdicts").glob(f"{tree}-*.json"))
    steps = json.loads(found[0].read_text())["steps"] if found else []
    durations = {str(step["name"]): float(step["duration_s"]) for step in steps}
    return max(durations.get("fmt", 0.0), durations.get("lint", 0.0)) + durations.get("test", 0.0)


def _commit(repo: Path, message: Path, *git_options: str) -> float:
    """Seconds for one `git commit` of the staged (verified) tree; then HEAD goes back."""
    elapsed = _run(
        [
            "git",
            *git_options,
            "-c",
            "user.name=Bench",
            "-c",
            "user.email=bench@example.com",
            "commit",
            "-q",
            "-F",
            str(message),
        ],
        repo,
    )
    _run(["git", "reset", "-q", "--soft", "HEAD~1"], repo)
    return elapsed  # fmt: skip


def bench_commits(repo: Path, message: Path, runs: int) -> list[tuple[str, float, str, bool]]:
    """`git commit` of an already-verified tree: bare git, default install, framework path."""
    framework = repo.parent / "framework"
    shutil.copytree(repo, framework, symlinks=True)  # same tree, same cached verdict
    _run(["tddhooks", "uninstall"], framework)
    _run(["tddhooks", "install", "--pre-commit"], framework)  # config stays untracked
    sides: dict[str, Callable[[], float]] = {
        "bare": lambda: _commit(repo, message, "-c", "core.hooksPath=/dev/null"),
        "default": lambda: _commit(repo, message),
        "framework": lambda: _commit(framework, message),
    }
    for side in sides.values():  # warm: page cache, pre-commit's own start-up files
        side()
    samples: dict[str, list[float]] = {name: [] for name in sides}
    for _ in range(runs):  # round robin in one run, so the three are comparable
        for name, side in sides.items():
            samples[name].append(side())
    default = statistics.median(samples["default"])
    ref_hook = bench_ref_hook(repo, message, runs)
    return [
        ("git commit, bare git (no hooks)", statistics.median(samples["bare"]), "", True),
        ("git commit, default install", default, "<= 0.22 s", default <= TARGETS["commit"]),
        ("git commit, pre-commit framework", statistics.median(samples["framework"]), "", True),
        (
            "reference-transaction, a judged commit",
            ref_hook,
            "<= 0.04 s",
            ref_hook <= TARGETS["reference-transaction"],
        ),
    ]


def bench_ref_hook(repo: Path, message: Path, runs: int) -> float:
    """Median seconds of the reference-transaction hook (`prepared`) moving the branch onto a
    commit the hooks judged (its sealed record is read; nothing is judged again)."""
    _run(["git", "-c", "user.name=Bench", "-c", "user.email=bench@example.com", "commit", "-q",
          "-F", str(message)], repo)  # fmt: skip
    judged = subprocess.run(["git", "rev-parse", "HEAD", "HEAD~1"], cwd=repo, env=_env(),
                            capture_output=True, text=True, check=True).stdout.split()  # fmt: skip
    _run(["git", "reset", "-q", "--soft", "HEAD~1"], repo)  # back: the commit stays judged
    update = f"{judged[1]} {judged[0]} refs/heads/{_branch(repo)}\n"
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        done = subprocess.run(["tddhooks", "hook", "reference-transaction", "prepared"], cwd=repo,
                              env=_env(), input=update, capture_output=True, text=True)  # fmt: skip
        samples.append(time.perf_counter() - started)
        if done.returncode != 0:
            raise SystemExit(f"the reference-transaction hook refused: {done.stdout}{done.stderr}")
    return statistics.median(samples)


def _branch(repo: Path) -> str:
    result = subprocess.run(["git", "symbolic-ref", "--short", "HEAD"], cwd=repo, env=_env(),
                            capture_output=True, text=True, check=True)  # fmt: skip
    return result.stdout.strip()


def bench(runs: int, gate_runs: int) -> list[tuple[str, float, str, bool]]:
    with tempfile.TemporaryDirectory(prefix="tddhooks-bench-") as folder:
        repo = make_kata(Path(folder))
        message = repo / ".git" / "BENCH_MSG"
        message.write_text(MESSAGE)
        scratch = repo / ".git" / "BENCH_SCRATCH_MSG"  # prepare-commit-msg may rewrite it
        scratch.write_text(MESSAGE)
        # warm both build directories and the verdict key memo: the first build is not measured
        _run(["tddhooks", "hook", "pre-commit"], repo)
        for cmd in BARE:
            _run(cmd, repo)

        peer, peer_note = peer_hook()
        fast = {
            "floor": [sys.executable, "-c", "pass"],
            "startup": ["tddhooks", "--version"],
            "commit-msg": ["tddhooks", "hook", "commit-msg", str(message)],
            "direct": [sys.executable, "-m", "tddhooks.commands.hook", "commit-msg", str(message)],
            "verified": ["tddhooks", "hook", "pre-commit"],
            "prepare": ["tddhooks", "hook", "prepare-commit-msg", str(scratch), "message"],
        }
        if peer is not None:
            _run([*peer, str(message)], repo)  # it accepts the message: a fair comparison
            fast["peer"] = [*peer, str(message)]
        samples: dict[str, list[float]] = {name: [] for name in fast}
        for _ in range(runs):  # round robin: a busy moment hurts every measurement alike
            for name, argv in fast.items():
                samples[name].append(_run(argv, repo))
        startup, commit_msg = samples["startup"], samples["commit-msg"]
        direct, verified = samples["direct"], samples["verified"]
        commits = bench_commits(repo, message, runs)
        gate: list[float] = []
        bare: list[float] = []
        own: list[float] = []  # gate wall time minus its cargo critical path
        for round_number in range(gate_runs):
            _change_source(repo, round_number)
            # alternate who goes first, so neither always profits from a warm page cache
            gate_first = round_number % 2 == 0
            for side in ("gate", "bare") if gate_first else ("bare", "gate"):
                if side == "gate":
                    gate.append(_run(["tddhooks", "hook", "pre-commit"], repo))
                    own.append(gate[-1] - _cargo_critical_path(repo))
                else:
                    bare.append(sum(_run(cmd, repo) for cmd in BARE))
        gate_median, bare_median = statistics.median(gate), statistics.median(bare)
        ratio = gate_median / bare_median
        if peer is None:
            print(f"note: the {PEER} row is skipped: {peer_note}", file=sys.stderr)
        peer_rows = [(f"{PEER} (peer commit-msg)", statistics.median(samples["peer"]), "", True)]
        return [
            ("python -c pass (interpreter floor)", statistics.median(samples["floor"]), "", True),
            ("tddhooks --version (CLI startup)", statistics.median(startup), "", True),
            ("commit-msg hook", statistics.median(commit_msg), "<= 0.08 s",
             statistics.median(commit_msg) <= TARGETS["commit-msg"]),
            *(peer_rows if peer is not None else []),
            ("commit-msg, click-free entry", statistics.median(direct), "", True),
            ("pre-commit, verified tree", statistics.median(verified), "< 0.30 s",
             statistics.median(verified) < TARGETS["verified tree"]),
            ("prepare-commit-msg hook (-F)", statistics.median(samples["prepare"]), "", True),
            *commits,
            ("pre-commit, changed tree (gate)", gate_median, "", True),
            ("  of which not cargo", statistics.median(own), "", True),
            ("bare cargo fmt+clippy+test", bare_median, "", True),
            ("gate / bare cargo", ratio, "< 1.3x", ratio < TARGETS["gate overhead"]),
        ]  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=15, help="runs of each fast hook")
    parser.add_argument("--gate-runs", type=int, default=5, help="rounds of gate vs bare cargo")
    args = parser.parse_args()
    if shutil.which("cargo") is None:
        print("cargo is not on PATH", file=sys.stderr)
        return 3
    rows = bench(args.runs, args.gate_runs)
    print(f"{'measurement':<42} {'median':>9}  {'target':<9} ok")
    for name, value, target, ok in rows:
        shown = f"{value:.2f}x" if name.startswith("gate /") else f"{value:.3f} s"
        print(f"{name:<42} {shown:>9}  {target:<9} {'yes' if ok else 'NO'}")
    return 0 if all(ok for *_, ok in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
