"""tddhooks/output.py: `ok`, `warn` and `fail` print their text as text, never as rich markup."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest

from tddhooks import output

PATH = "/tmp/katas[draft]/[/x]/[bold]k.md"


@pytest.mark.parametrize("say", [output.ok, output.warn, output.fail])
def test_a_path_with_brackets_is_printed_as_it_is(say: Callable[[str], None]) -> None:
    out, err = io.StringIO(), io.StringIO()
    output.use_streams(out, err)
    try:
        say(f"wrote {PATH}")  # `[/x]` used to raise rich's MarkupError, `[draft]` to vanish
    finally:
        output.use_streams()
    assert f"wrote {PATH}" in out.getvalue() + err.getvalue()


def test_a_bench_progress_line_keeps_the_brackets_of_an_error(tmp_path: Path) -> None:
    from tddhooks.bench.run import RunResult
    from tddhooks.commands import bench as bench_cmd
    from tddhooks.commands.bench import BenchLLM, plan

    out = io.StringIO()
    output.use_streams(out)
    try:
        (spec,) = plan(["bowling"], ["ollama:x"], 1, 1, "rust", tmp_path, BenchLLM())
        failed = RunResult(
            model="ollama:x", kata="bowling", language="rust", run=1, stop_reason="error",
            error="error: [test] cargo test failed: error[E0308] in /w/[/x]",
        )  # fmt: skip
        bench_cmd._progress(spec, failed)
    finally:
        output.use_streams()
    assert "stop: error: [test] cargo test failed: error[E0308] in /w/[/x]" in out.getvalue()
