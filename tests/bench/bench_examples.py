"""Benchmark: the kata-example check (agents/examples.py) on pathological inputs: a requirement of
20,000 digits, 3,000 `gives` on one line, a test file of 2,000 assertions. Each took 3 to 12 s
before the red team's fixes. And the kata's goal line (policy/compose.py) of 20,000 `[` or `<`:
2.6 to 4.5 s before 2026-11-27, of 10,000 `**a ` 16 s, a heading of 2,000 spaces over 10 s; the
target is well under a second, so a person's odd kata or a model's long test never stalls a turn.
A stray a format string gives (drive/strays.py) took 26 s with a regex of lazy `.+?`.

Run: .venv/bin/python tests/bench/bench_examples.py [N]   (N: repetitions, default 3)
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from tddhooks.agents.examples import contradicted_example, kata_examples
from tddhooks.drive.strays import stray_values
from tddhooks.policy.compose import kata_goal, kata_requirements
from tddhooks.resources import read_template


def best_of(runs: int, body: Callable[[], object]) -> float:
    """The fastest of `runs` timings, in milliseconds (the least disturbed by machine load)."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        body()
        times.append((time.perf_counter() - started) * 1000)
    return min(times)


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    fizzbuzz = kata_requirements(read_template("katas/fizzbuzz.md"), whole=True)

    def long_test(line: str) -> Callable[[], object]:
        test = f"use fizzbuzz::say;\n\n#[test]\nfn t() {{\n{line * 2000}}}\n"
        return lambda: contradicted_example({"tests/t.rs": test}, fizzbuzz, "rust", "fizzbuzz")

    cases = {
        "requirement of 20,000 digits": lambda: kata_examples(["1" * 20000 + " x"]),
        '3,000 "1 gives" on one line': lambda: kata_examples(["1 gives " * 3000]),
        '3,000 "\\"abc\\" gives" on one line': lambda: kata_examples(['"abc" gives ' * 3000]),
        "test of 2,000 assert_eq!": long_test('    assert_eq!(say(1), "1");\n'),
        "test of 2,000 assert!(!….is_empty())": long_test("    assert!(!say(1).is_empty());\n"),
        # the kata's goal line strips Markdown links and tags: 2.6–4.5 s before 2026-11-27
        "kata goal of 20,000 `[`": lambda: kata_goal("# K\n\n" + "[" * 20000 + "\n"),
        "kata goal of 20,000 `<`": lambda: kata_goal("# K\n\n" + "<" * 20000 + "\n"),
        # emphasis, sentence ends and headings: 1.5 s to minutes before the red team's r43 fixes
        "kata goal of 10,000 `**a `": lambda: kata_goal("# K\n\n" + "**a " * 10000 + "\n"),
        "kata goal of 10,000 `_a `": lambda: kata_goal("# K\n\n" + "_a " * 10000 + "\n"),
        "kata goal of 10,000 `*a `": lambda: kata_goal("# K\n\n" + "*a " * 10000 + "\n"),
        "kata goal of 8,000 `a. b `": lambda: kata_goal("# K\n\n" + "a. b " * 8000 + "\n"),
        "heading of 20,000 spaces": lambda: kata_requirements("# R" + " " * 20000 + "s\n\n- a\n"),
        # a stray a format string gives (drive/strays.py): a regex of lazy `.+?` took 26 s here
        "format string of 4 `{}a` vs 400 `a`": lambda: stray_values(
            f'  left: "{"a" * 400}"\n  right: "x"\n', {"src/lib.rs": '"{}a{}a{}a{}ab"'}, {}, ""
        ),
        "arrows: 20,000 `→` on one line": lambda: kata_examples(["→" * 20000]),
    }
    for name, body in cases.items():
        print(f"{name:40} {best_of(runs, body):8.1f} ms")


if __name__ == "__main__":
    main()
