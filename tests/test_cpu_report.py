"""The per-test CPU report (support/cpu_report.py) counts the children a test waited for."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from support.cpu_report import CpuRecorder, cpu_seconds


def test_a_child_that_was_waited_for_counts() -> None:
    before = cpu_seconds()
    busy = "import time\nend = time.process_time() + 0.3\nwhile time.process_time() < end: pass"
    subprocess.run([sys.executable, "-c", busy], check=True)
    assert cpu_seconds() - before >= 0.3


def test_the_report_is_one_line_a_test(tmp_path: Path) -> None:
    recorder = CpuRecorder(tmp_path / "cpu" / "cpu-main.tsv")
    recorder.rows = [(1.25, "tests/test_a.py::test_one"), (0.0, "tests/test_a.py::test_two")]
    recorder.pytest_sessionfinish()
    assert (tmp_path / "cpu" / "cpu-main.tsv").read_text(encoding="utf-8") == (
        "1.250\ttests/test_a.py::test_one\n0.000\ttests/test_a.py::test_two\n"
    )
