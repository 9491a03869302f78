"""Benchmark of the drive loop with a zero-latency model (a replayed session), on a real kata.

    python tests/bench/bench_drive.py [--cycles N]

Prints (1) the loop's own overhead per cycle beyond the cargo and git work it triggers (time
spent inside `tddhooks.proc.run` for cargo and git, hooks included, against the wall time; target
under 15%), and (2) the prompt size per role per cycle as the kata grows (bounded by
llm.context_tokens plus the system prompt, not growing with history).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tddhooks import proc  # noqa: E402

HEADER = "//! The `{crate}` kata, grown one test at a time: tests go in `tests/`, code here.\n\n"
NUMBERS = """
/// The number parts of the input, after any "//<separator>\\n" header.
fn numbers(text: &str) -> Vec<&str> {
    if text.is_empty() {
        return Vec::new();
    }
    match text.strip_prefix("//").and_then(|rest| rest.split_once('\\n')) {
        Some((separator, body)) => body.split(SEPARATOR).collect(),
        None => text.split([',', '\\n']).collect(),
    }
}

/// One number of the input.
fn number(part: &str) -> i32 {
    part.parse().unwrap()
}
"""
REFUSE = """
/// Panics naming every negative number, as the kata asks.
fn refuse_negatives(values: &[i32]) {
    let negatives: Vec<String> = values.iter().filter(|v| **v < 0).map(|v| v.to_string()).collect();
    if !negatives.is_empty() {
        panic!("negatives not allowed: {}", negatives.join(", "));
    }
}
"""
BRACKETS = (
    "{ let separator = separator.strip_prefix('[').and_then(|s| s.strip_suffix(']'))"
    ".unwrap_or(separator); body.split(separator).collect() }"
)


def _lib(add_body: str, *, refuse: bool = False, brackets: bool = False) -> str:
    numbers = NUMBERS.replace(
        "body.split(SEPARATOR).collect()",
        BRACKETS if brackets else "body.split(separator).collect()",
    )
    add = (
        f"/// The sum of the numbers in `text`.\npub fn add(text: &str) -> i32 {{\n{add_body}\n}}\n"
    )
    return HEADER + add + numbers + (REFUSE if refuse else "")


def _answer(plan: str, path: str | None = None, content: str | None = None) -> str:
    edits = [{"path": path, "action": "upsert", "content": content}] if path else []
    return json.dumps({"plan": plan, "edits": edits, "done": False})


def _test(name: str, body: str, attribute: str = "") -> str:
    return f"use {{crate}}::add;\n\n#[test]\n{attribute}fn {name}() {{\n    {body}\n}}\n"


COLLECT = "    let values: Vec<i32> = numbers(text).into_iter().map(number).collect();\n"
# cycles 4-8 of the string calculator, after the three recorded in the demo session
MORE_CYCLES = [
    (_test("newline_separates_too", 'assert_eq!(add("1\\n2,3"), 6);'),
     HEADER + "/// The sum of the numbers in `text`.\npub fn add(text: &str) -> i32 {\n"
     "    if text.is_empty() {\n        return 0;\n    }\n"
     "    text.split([',', '\\n']).map(number).sum()\n}\n\n"
     "/// One number of the input.\nfn number(part: &str) -> i32 {\n    part.parse().unwrap()\n}\n",
     None),
    (_test("a_header_chooses_the_separator", 'assert_eq!(add("//;\\n2;5"), 7);'),
     HEADER + "/// The sum of the numbers in `text`.\npub fn add(text: &str) -> i32 {\n"
     "    if text.is_empty() {\n        return 0;\n    }\n"
     "    if let Some(rest) = text.strip_prefix(\"//\") {\n"
     "        let (separator, numbers) = rest.split_once('\\n').unwrap();\n"
     "        return numbers.split(separator).map(number).sum();\n    }\n"
     "    text.split([',', '\\n']).map(number).sum()\n}\n\n"
     "/// One number of the input.\nfn number(part: &str) -> i32 {\n    part.parse().unwrap()\n}\n",
     _lib("    numbers(text).into_iter().map(number).sum()")),
    (_test("negatives_are_refused_and_listed", 'add("4,-1,-6");',
           '#[should_panic(expected = "negatives not allowed: -1, -6")]\n'),
     _lib(COLLECT + "    let negatives: Vec<String> = values.iter().filter(|v| **v < 0)"
          ".map(|v| v.to_string()).collect();\n    if !negatives.is_empty() {\n"
          "        panic!(\"negatives not allowed: {}\", negatives.join(\", \"));\n    }\n"
          "    values.iter().sum()"),
     None),
    (_test("numbers_above_1000_are_left_out", 'assert_eq!(add("2,1001"), 2);'),
     _lib(COLLECT + "    let negatives: Vec<String> = values.iter().filter(|v| **v < 0)"
          ".map(|v| v.to_string()).collect();\n    if !negatives.is_empty() {\n"
          "        panic!(\"negatives not allowed: {}\", negatives.join(\", \"));\n    }\n"
          "    values.iter().filter(|value| **value <= 1000).sum()"),
     _lib(COLLECT + "    refuse_negatives(&values);\n"
          "    values.iter().filter(|value| **value <= 1000).sum()", refuse=True)),
    (_test("a_separator_of_any_length_in_brackets", 'assert_eq!(add("//[***]\\n1***2***3"), 6);'),
     _lib(COLLECT + "    refuse_negatives(&values);\n"
          "    values.iter().filter(|value| **value <= 1000).sum()", refuse=True, brackets=True),
     None),
]  # fmt: skip
TEST_FILES = ["newline", "custom_separator", "negatives", "big_numbers", "long_separator"]


def session_lines(cycles: int) -> list[str]:
    """The demo's three recorded cycles, then the ones above, as replay lines."""
    from tddhooks.resources import read_template

    lines = [
        line
        for line in read_template("sessions/string-calculator.jsonl").splitlines()
        if line.strip()
    ]
    for index, (test, code, refactor) in enumerate(MORE_CYCLES):
        name = TEST_FILES[index]
        answers = [
            ("tester", _answer(f"next requirement: {name}", f"tests/{name}.rs", test)),
            ("implementor", _answer(f"the least code for {name}", "src/lib.rs", code)),
            (
                "refactorer",
                _answer("tidy", "src/lib.rs", refactor)
                if refactor
                else _answer("nothing worth changing"),
            ),
        ]
        lines += [
            json.dumps({"role": role, "messages_sha": "", "answer": text}) for role, text in answers
        ]
    return lines[: 3 * cycles]


@contextmanager
def timed_processes(spans: list[tuple[float, float, str]]) -> Iterator[None]:
    """Record (start, end, program) of every proc.run call (the gate runs some side by side)."""
    real = proc.run

    def run(cmd: Any, **kwargs: Any) -> proc.ProcResult:
        start = time.monotonic()
        try:
            return real(cmd, **kwargs)
        finally:
            program = Path(str(cmd[0])).name
            spans.append(
                (start, time.monotonic(), program if program in ("cargo", "git") else "other")
            )

    proc.run = run
    try:
        yield
    finally:
        proc.run = real


def covered(spans: list[tuple[float, float, str]]) -> float:
    """Wall time covered by at least one of the spans (overlaps counted once)."""
    total, end = 0.0, float("-inf")
    for start, stop, _ in sorted(spans):
        if stop > end:
            total += stop - max(start, end)
            end = stop
    return total


def isolate(scratch: Path) -> None:
    """A private HOME (git identity), caches and cargo target dir for the run."""
    real_home = Path.home()
    # the toolchains stay where they are installed
    os.environ.setdefault("RUSTUP_HOME", str(real_home / ".rustup"))
    os.environ.setdefault("CARGO_HOME", str(real_home / ".cargo"))
    home = scratch / "home"
    home.mkdir()
    (home / ".gitconfig").write_text(
        "[user]\n\tname = Bench\n\temail = bench@example.org\n[init]\n\tdefaultBranch = main\n",
        encoding="utf-8",
    )
    os.environ.update(
        {
            "HOME": str(home),
            "TDDHOOKS_CACHE_DIR": str(scratch / "llm-cache"),
            "PRE_COMMIT_HOME": str(scratch / "pre-commit"),
            "CARGO_TARGET_DIR": str(scratch / "target"),
            "CARGO_TERM_COLOR": "never",
        }
    )
    os.environ["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    for key in [key for key in os.environ if key.startswith("GIT_")]:
        del os.environ[key]


def prompt_table(repo: Path, cycles: int) -> list[tuple[int, dict[str, int]]]:
    rows = []
    for cycle in range(1, cycles + 1):
        sizes = {}
        for role in ("tester", "implementor", "refactorer"):
            log = json.loads((repo / ".tdd/logs" / f"step-{cycle}-{role}.json").read_text("utf-8"))
            sizes[role] = max(a["prompt_tokens_estimate"] for a in log["attempts"])
        rows.append((cycle, sizes))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=8, help="cycles to drive (at most 8)")
    cycles = min(parser.parse_args().cycles, 8)
    from tddhooks.agents.context import crate_name
    from tddhooks.commands import drive, init_cmd
    from tddhooks.config import load_config

    with tempfile.TemporaryDirectory(prefix="tddhooks-bench-") as scratch_name:
        scratch = Path(scratch_name)
        isolate(scratch)
        repo = scratch / "bench-kata"
        init_cmd.run(repo, language="rust", kata="string-calculator", direct=False)
        crate = crate_name((repo / "Cargo.toml").read_text(encoding="utf-8")) or "kata"
        session = scratch / "session.jsonl"
        session.write_text(
            "\n".join(line.replace("{crate}", crate) for line in session_lines(cycles)) + "\n",
            encoding="utf-8",
        )
        spans: list[tuple[float, float, str]] = []
        start = time.monotonic()
        with timed_processes(spans):
            code = drive.run(
                work_dir=repo,
                steps=cycles,
                provider="replay",
                model=str(session),
                no_cache=True,
                quiet=True,
            )
        total = time.monotonic() - start
        if code != 0:
            print(f"drive exited {code}", file=sys.stderr)
            return code
        budget = load_config(repo).llm.context_tokens
        spent = {
            kind: covered([s for s in spans if s[2] == kind]) for kind in ("cargo", "git", "other")
        }
        own = total - covered(spans)
        print(f"\n{cycles} cycles of string-calculator, replayed (zero model latency)")
        print(f"  wall time            {total:7.1f} s  ({total / cycles:.2f} s per cycle)")
        print(
            f"  inside cargo         {spent['cargo']:7.1f} s  (fmt check runs beside clippy/test)"
        )
        print(f"  inside git (+hooks)  {spent['git']:7.1f} s")
        print(f"  other processes      {spent['other']:7.1f} s")
        print(
            f"  the loop's own work  {own:7.1f} s  ({own / cycles:.2f} s per cycle, "
            f"{100 * own / total:.1f}% of the drive; target < 15%)"
        )
        print(f"\nprompt tokens (estimate, largest attempt) per role; context budget {budget}")
        print("  cycle  tester  implementor  refactorer")
        for cycle, sizes in prompt_table(repo, cycles):
            print(
                f"  {cycle:5d}  {sizes['tester']:6d}  {sizes['implementor']:11d}  "
                f"{sizes['refactorer']:10d}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
