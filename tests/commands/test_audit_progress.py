"""The audit's progress bar on a narrow terminal: the bar and the count stay whole, a long
commit subject is what gets cut (pure rendering, no process)."""

from __future__ import annotations

import io

from rich.console import Console
from rich.progress import Progress

from tddhooks.commands.audit import progress_columns


def test_a_long_subject_never_squeezes_the_bar_or_the_count() -> None:
    buffer = io.StringIO()
    console = Console(file=buffer, width=80, force_terminal=True, soft_wrap=True, color_system=None)
    progress = Progress(*progress_columns(), console=console, expand=True, auto_refresh=False)
    subject = "gate 0226a4d0ba Default seperator is now comma. Added tests and implementation " * 2
    task = progress.add_task(subject, total=144)
    progress.update(task, completed=76)
    console.print(progress.make_tasks_table(progress.tasks))
    lines = [line for line in buffer.getvalue().splitlines() if line.strip()]
    assert len(lines) == 1, lines  # one line, never wrapped
    line = lines[0]
    assert line.startswith("auditing ")
    assert " 76/144 " in line
    assert "gate 0226a4d0ba Default" in line
    assert line.rstrip().endswith("…")
    assert len(line) <= 80
