"""Snippet merge and Rust blanking on hostile inputs near the 200 kB file limit (agents/snippets.py,
runners/rust_items.py `blank`): each is one linear pass. Target: each under 1 s (measured on
the 2-core box: the slowest, mods nested 20,000 deep, ~0.45 s; before the fixes, an open
string of escaped quotes took 198 s to blank).

    python tests/bench/bench_snippets.py [--runs 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

from tddhooks.agents.snippets import merge_snippet
from tddhooks.runners.rust_items import blank

TARGET_S = 1.0
FNS = "\n".join(f"fn f{i}() -> u32 {{ {i} }}" for i in range(7000))
IMPL = (
    "impl G {\n" + "\n".join(f"    fn m{i}(&self) -> u32 {{ {i} }}" for i in range(5000)) + "\n}\n"
)
CLASS = "class G:\n" + "\n".join(f"    def m{i}(self):\n        return {i}\n" for i in range(4000))
NESTED = "mod a { " * 20_000 + "}" * 20_000
CASES: dict[str, Callable[[], object]] = {
    "rust: 7000 fns by name": lambda: merge_snippet("src/lib.rs", FNS, FNS),
    "rust: 5000 methods of one impl": lambda: merge_snippet("src/lib.rs", IMPL, IMPL),
    "rust: mods 20000 deep": lambda: merge_snippet("src/lib.rs", NESTED, NESTED),
    "rust: 90000 nested braces": lambda: merge_snippet(
        "src/lib.rs", "fn g() {}\n", "fn f() " + "{" * 90_000 + "}" * 90_000
    ),
    "python: 4000 methods of one class": lambda: merge_snippet("a.py", CLASS, CLASS),
    "python: 150 kB of ----1": lambda: merge_snippet("a.py", "x = 1\n", "-" * 150_000 + "1"),
    "blank: open string of escaped quotes": lambda: blank('"' + '\\"' * 100_000),
    "blank: open raw strings": lambda: blank(' r#"' * 50_000),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    slow = []
    for name, case in CASES.items():
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            case()
            times.append(time.perf_counter() - started)
        worst = max(times)
        print(f"{name:40} worst {worst:.3f} s")
        if worst > TARGET_S:
            slow.append(name)
    if slow:
        print(f"over {TARGET_S} s: {', '.join(slow)}")
    return 1 if slow else 0


if __name__ == "__main__":
    sys.exit(main())
