"""The bench's figures per model and kata: a rich table, a Markdown table for the README and the
JSON file (every run, then the summaries)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict, ValidationError

from tddhooks.bench.run import RunResult
from tddhooks.errors import UsageError

COLUMNS = (
    "model", "profile", "kata", "runs", "cycles landed/run", "commits", "red commits",
    "audit clean", "acceptance", "refusals", "calls", "tokens", "model time", "wall time",
    "stop reasons",
)  # fmt: skip
_NAMED = 3  # the columns that name a row: model, profile, kata


class Summary(BaseModel):
    """One model under one check profile on one kata, over its runs."""

    model_config = ConfigDict(extra="forbid")

    model: str
    profile: str = ""
    kata: str
    runs: int
    cycles: int
    cycles_landed: int
    commits: int
    red_commits: int
    audit_clean: int
    acceptance_passed: int
    acceptance_total: int
    refusals: dict[str, int] = {}  # check id (or outcome) -> answers not taken
    calls: int = 0
    tokens: int  # what the answers cost, cached or not
    model_time_s: float
    wall_time_s: float
    stop_reasons: dict[str, int]

    def row(self) -> list[str]:
        reasons = ", ".join(f"{name} ×{count}" for name, count in sorted(self.stop_reasons.items()))
        # no drive of them finished, nor started a cycle (one that errored later has figures)
        errored = self.stop_reasons.get("error", 0) == self.runs and not self.cycles
        cycles = f"{self.cycles_landed / self.runs:.1f} of {self.cycles / self.runs:.1f}"
        acceptance = "—"  # never scored: a "0/0 (0%)" would read as a model that passed nothing
        if self.acceptance_total:
            share = self.acceptance_passed / self.acceptance_total
            acceptance = f"{self.acceptance_passed}/{self.acceptance_total} ({share:.0%})"
        refused = sorted(self.refusals.items(), key=lambda item: (-item[1], item[0]))
        return [
            self.model, self.profile or "—", self.kata, str(self.runs),
            "errored" if errored else cycles, str(self.commits), str(self.red_commits),
            "—" if errored else f"{self.audit_clean}/{self.runs}",  # the bare scaffold is clean
            acceptance, ", ".join(f"{name} ×{count}" for name, count in refused) or "0",
            str(self.calls), str(self.tokens), f"{self.model_time_s:.1f} s",
            f"{self.wall_time_s:.1f} s", reasons,
        ]  # fmt: skip


def summarise(results: Sequence[RunResult]) -> list[Summary]:
    """One summary per (model, profile, kata), in the order they first appear."""
    groups: dict[tuple[str, str, str], list[RunResult]] = {}
    for result in results:
        groups.setdefault((result.model, result.profile, result.kata), []).append(result)
    summaries = []
    for (model, profile, kata), runs in groups.items():
        reasons: dict[str, int] = {}
        refusals: dict[str, int] = {}
        for run in runs:
            reasons[run.stop_reason or "?"] = reasons.get(run.stop_reason or "?", 0) + 1
            for name, count in run.refusals.items():
                refusals[name] = refusals.get(name, 0) + count
        summaries.append(
            Summary(
                model=model,
                profile=profile,
                kata=kata,
                runs=len(runs),
                cycles=sum(r.cycles for r in runs),
                cycles_landed=sum(r.cycles_landed for r in runs),
                commits=sum(r.commits for r in runs),
                red_commits=sum(r.red_commits for r in runs),
                audit_clean=sum(1 for r in runs if r.audit_clean),
                acceptance_passed=sum(r.acceptance_passed for r in runs),
                acceptance_total=sum(r.acceptance_total for r in runs),
                refusals=dict(sorted(refusals.items())),
                calls=sum(r.calls for r in runs),
                tokens=sum(t.get("tokens", 0) for r in runs for t in r.tokens.values()),
                model_time_s=round(sum(r.model_time_s for r in runs), 2),
                wall_time_s=round(sum(r.wall_time_s for r in runs), 2),
                stop_reasons=reasons,
            )
        )
    return summaries


def markdown(summaries: Sequence[Summary]) -> str:
    """The summaries as a Markdown table (for the README)."""
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    for summary in summaries:
        cells = [cell.replace("|", "\\|") for cell in summary.row()]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def print_table(summaries: Sequence[Summary]) -> None:
    """One table, a row per model and kata; where that does not fit the terminal (a narrow one,
    or a log file: 80 columns), a two-column table per model and kata, so no cell is cut."""
    from rich.measure import Measurement
    from rich.table import Table

    from tddhooks import output

    console = output.console()
    table = Table(title="tddhooks bench")
    for column in COLUMNS:
        table.add_column(column, no_wrap=True)
    for summary in summaries:
        table.add_row(*summary.row())
    unbounded = console.options.update(max_width=10_000)
    if Measurement.get(console, unbounded, table).maximum <= console.width:
        console.print(table)
        return
    for summary in summaries:
        row = summary.row()
        card = Table(title=f"tddhooks bench · {' · '.join(row[:_NAMED])}", show_header=False)
        card.add_column(style="bold", no_wrap=True)
        card.add_column(overflow="fold")
        for column, cell in zip(COLUMNS[_NAMED:], row[_NAMED:], strict=True):
            card.add_row(column, cell)
        console.print(card)


def write_json(path: Path, results: Sequence[RunResult], *, complete: bool) -> None:
    data = {
        "complete": complete,
        "runs": [result.model_dump() for result in results],
        "summaries": [summary.model_dump() for summary in summarise(results)],
    }
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


class BenchFile(NamedTuple):
    """What a bench JSON file holds for a merge: its runs, and whether its bench ran them all."""

    runs: list[RunResult]
    complete: bool  # an interrupted shard says `"complete": false`, and so does a merge of it


def read_json(path: Path) -> BenchFile:
    """The runs of a bench JSON file (e.g. one per CI shard, to merge), read once."""
    fix = "give files written by `tddhooks bench --json FILE`"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        runs = data.get("runs") if isinstance(data, dict) else None
        if not isinstance(runs, list):
            raise UsageError(f"--merge {path}: not a bench JSON file: it has no \"runs\" list",
                             fix=fix)  # fmt: skip
        results = [RunResult.model_validate(run) for run in runs]
        return BenchFile(results, data.get("complete") is not False)
    except (OSError, ValueError, TypeError, ValidationError) as error:
        raise UsageError(f"--merge {path}: not a bench JSON file: {error}", fix=fix) from error


def merged(results: list[RunResult]) -> list[RunResult]:
    """The runs of several files, each once: the same run twice (a file given twice, two shards
    of one plan that overlap) would count twice."""
    seen: set[tuple[str, str, str, str, int]] = set()
    for result in results:
        key = (result.model, result.profile, result.kata, result.language, result.run)
        if key in seen:
            profile = f" [{result.profile}]" if result.profile else ""
            raise UsageError(
                f"--merge: {result.model}{profile} {result.kata} ({result.language}) run "
                f"{result.run} is in more than one file",
                fix="give each shard's file once",
            )
        seen.add(key)
    return results
