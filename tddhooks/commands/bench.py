"""`tddhooks bench`: drive katas with one or more models, score every run, report per model and
kata (docs/bench.md). Each run is a child `tddhooks drive` in its own directory; `--jobs` runs
several at once, `--shard I/N` takes every N-th run for a CI matrix, Ctrl-C keeps what finished."""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from tddhooks import output, waits
from tddhooks.errors import EXIT_INTERRUPTED, UsageError

if TYPE_CHECKING:
    from tddhooks.bench.katas import BenchKata
    from tddhooks.bench.run import Children, RunResult, RunSpec

DEFAULT_STEPS = 6
_SWEEP_S = 0.2  # after Ctrl-C: how often the runs' own commands are killed again
_ENV_NAME = re.compile(r"[A-Z_][A-Z0-9_]*")


def parse_shard(text: str | None) -> tuple[int, int]:
    """`I/N` (1 ≤ I ≤ N) -> (I, N); None -> (1, 1)."""
    if text is None:
        return 1, 1
    match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
    if not match or not 1 <= int(match.group(1)) <= int(match.group(2)):
        raise UsageError(f"--shard {text!r} is not I/N with 1 <= I <= N", fix="e.g. --shard 2/4")
    return int(match.group(1)), int(match.group(2))


def in_shard(items: Sequence[object], shard: tuple[int, int]) -> list[int]:
    """Indexes of the items shard I of N runs: every N-th, starting at I-1."""
    index, count = shard
    return [position for position in range(len(items)) if position % count == index - 1]


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "model"


def model_dir(model: str, profile: str | None) -> str:
    """The folder of a model's runs under --work-root; `<model>.<profile>` under a --profile."""
    return slug(model) + (f".{profile}" if profile else "")


@dataclass(frozen=True)
class BenchLLM:
    """The model flags each child drive gets (the key by environment variable only)."""

    provider: str | None = None
    base_url: str | None = None
    api_key: str | None = None
    role_model: tuple[str, ...] = ()
    no_cache: bool = False
    refresh_cache: bool = False
    max_tokens_total: int | None = None
    timeout_s: float | None = None
    max_tokens: int | None = None
    response_format: str | None = None
    temperature: float | None = 0.0  # a bench samples at 0 with a fixed seed: runs repeat
    seed: int | None = 0

    def args(self) -> tuple[str, ...]:
        args: list[str] = []
        if self.provider:
            args += ["--provider", self.provider]
        if self.base_url:
            args += ["--base-url", self.base_url]
        for value in self.role_model:
            args += ["--role-model", value]
        if self.no_cache:
            args.append("--no-cache")
        if self.refresh_cache:
            args.append("--refresh-cache")
        if self.max_tokens_total:
            args += ["--max-tokens-total", str(self.max_tokens_total)]
        if self.timeout_s:
            args += ["--timeout", f"{self.timeout_s:g}"]
        if self.max_tokens:
            args += ["--max-tokens", str(self.max_tokens)]
        if self.response_format:
            args += ["--response-format", self.response_format]
        if self.temperature is not None:
            args += ["--temperature", f"{self.temperature:g}"]
        if self.seed is not None:
            args += ["--seed", str(self.seed)]
        if self.api_key and _ENV_NAME.fullmatch(self.api_key) and os.environ.get(self.api_key):
            args += ["--api-key", self.api_key]  # a variable's name: the child reads it
        return tuple(args)

    def key_value(self) -> str | None:
        """A key given as such travels to the child in its environment, never in argv."""
        if not self.api_key or (_ENV_NAME.fullmatch(self.api_key) and os.environ.get(self.api_key)):
            return None
        return self.api_key


def run(
    *,
    katas: Sequence[str],
    models: Sequence[str],
    runs: int,
    steps: int,
    jobs: int,
    shard: str | None,
    language: str,
    work_root: Path | None,
    json_file: Path | None,
    markdown_file: Path | None,
    merge: Sequence[Path],
    llm: BenchLLM,
    kata_set: str | None = None,
    profiles: Sequence[str] = (),
) -> int:
    from tddhooks.bench import report

    if merge:
        files = [report.read_json(path) for path in merge]
        results = report.merged([result for file in files for result in file.runs])
        complete = all(file.complete for file in files)
        return _report(results, json_file, markdown_file, complete=complete)
    specs = plan(katas, models, runs, steps, language, work_root, llm, kata_set=kata_set,
                 profiles=profiles)  # fmt: skip
    chosen = [specs[index] for index in in_shard(specs, parse_shard(shard))]
    if jobs < 1:
        raise UsageError(f"--jobs {jobs}: must be at least 1", fix="e.g. --jobs 2")
    where = chosen[0].work_dir.parents[2] if chosen else work_root
    output.say(
        f"tddhooks bench: {len(chosen)} of {len(specs)} runs, {jobs} at a time, in {where}",
        markup=False,
    )
    results, interrupted = execute(chosen, jobs)
    failed = _report(results, json_file, markdown_file, complete=interrupted is None)
    return interrupted or failed


def _refuse_same_names(specs: Sequence[str], resolved: Sequence[BenchKata]) -> None:
    """Two katas of one name would drive into one directory and share a row: refused (a newcomer's
    `--kata a/leap-year --kata b/leap-year` drove both into `…/leap-year/run-1` at once and
    reported one run)."""
    seen: dict[str, str] = {}
    given = list(specs) or [kata.name for kata in resolved]
    for spec, kata in zip(given, resolved, strict=True):
        if kata.name in seen:
            raise UsageError(
                f"--kata {seen[kata.name]} and --kata {spec} are both named {kata.name!r}: their "
                "runs would share one directory and one row of the report",
                fix="give each kata once (--runs N drives one kata N times), and rename one of "
                "two kata directories of the same name",
            )
        seen[kata.name] = spec


def _warn_requirementless(resolved: Sequence[BenchKata]) -> None:
    """A kata.md with no list under a Requirements/Goal/Task heading still drives (docs/agents.md),
    but its tester is pointed at no requirement and its `done` is taken at once: said, not
    refused."""
    from tddhooks.kata.markdown import kata_requirements

    for kata in resolved:
        if kata.kata_file is None:
            continue
        if not kata_requirements(kata.kata_file.read_text(encoding="utf-8")):
            output.warn(
                f"--kata {kata.kata_file.parent}: kata.md lists no requirements (no list under a "
                "Requirements, Goal or Task heading), so the tester is pointed at none and a "
                'done is taken at once; list them as docs/bench.md says ("Your own kata")'
            )


def plan(
    katas: Sequence[str],
    models: Sequence[str],
    runs: int,
    steps: int,
    language: str,
    work_root: Path | None,
    llm: BenchLLM,
    *,
    kata_set: str | None = None,
    profiles: Sequence[str] = (),
) -> list[RunSpec]:
    """Every run of the bench: each model, under each check profile (none given: the one the
    run's tdd.yaml names), on each kata. The katas: those of `kata_set` (a set of shipped katas)
    and the `--kata` ones; with neither, every shipped kata."""
    from tddhooks.bench.katas import kata_set as set_katas
    from tddhooks.bench.katas import resolve_bench_kata, shipped_bench_katas
    from tddhooks.bench.run import RunSpec

    if not models:
        raise UsageError("tddhooks bench needs a model", fix="e.g. --model ollama:qwen2.5-coder:7b")
    if runs < 1 or steps < 1:
        raise UsageError("--runs and --steps must be at least 1", fix="e.g. --runs 3 --steps 6")
    # a kata of the set also given by --kata runs once
    given = [name for name in (set_katas(kata_set) if kata_set else ()) if name not in katas]
    given += katas
    if not given and not kata_set:
        given = shipped_bench_katas()
    resolved = [resolve_bench_kata(name) for name in given]
    if not resolved:
        raise UsageError(
            "no kata to bench: none was given and no shipped kata was found",
            fix="give --kata DIR (kata.md + acceptance/), or reinstall tddhooks",
        )
    check_models(models, llm, resolved, language)
    for kata in resolved:
        kata.suite(language)  # a missing suite fails before any drive starts
    _refuse_same_names(given, resolved)
    _warn_requirementless(resolved)
    root = (work_root or Path(tempfile.mkdtemp(prefix="tddhooks-bench-"))).resolve()
    # none given: one run each, under the profile the run's tdd.yaml names
    chosen_profiles: list[str | None] = [*dict.fromkeys(profiles)] or [None]
    specs = [
        RunSpec(
            model=model,
            kata=kata,
            run=number,
            language=language,
            steps=steps,
            work_dir=root / model_dir(model, profile) / kata.name / f"run-{number}",
            llm_args=llm.args(),
            api_key=llm.key_value(),
            profile=profile,
        )
        for model in models
        for profile in chosen_profiles
        for kata in resolved
        for number in range(1, runs + 1)
    ]
    for spec in specs:
        if spec.work_dir.exists() and any(spec.work_dir.iterdir()):
            raise UsageError(
                f"{spec.work_dir} is not empty: a bench never drives into existing work",
                fix="choose a new --work-root, or remove that directory",
            )
    return specs


def check_models(
    models: Sequence[str], llm: BenchLLM, katas: Sequence[BenchKata] = (), language: str = "rust"
) -> None:
    """Every model resolves for every role, with its key, as `tddhooks drive` would resolve it,
    and a replayed session exists and fits each kata (a shipped session answers the kata it was
    recorded on): a model no drive can use fails before any run starts."""
    from tddhooks.config import TddConfig
    from tddhooks.llm.replay import load_session, shipped_misfit
    from tddhooks.llm.settings import resolve_role_settings
    from tddhooks.vocabulary import ROLE_NAMES

    config = TddConfig()
    for model in models:
        for role in ROLE_NAMES:
            found = resolve_role_settings(
                config, role, model=model, provider=llm.provider, api_key=llm.api_key,
                base_url=llm.base_url, role_models=llm.role_model,
            )  # fmt: skip
            if found.provider != "replay":
                continue
            load_session(found.model)
            for kata in katas:
                misfit = shipped_misfit(found.model, kata.text(), language)
                if misfit is not None:
                    raise UsageError(
                        f"--model {model} on kata {kata.name!r}: {misfit}",
                        fix="bench a shipped session only on its own kata "
                        f"(--kata {found.model}), or bench a model",
                    )


def execute(specs: Sequence[RunSpec], jobs: int) -> tuple[list[RunResult], int | None]:
    """Run the specs, `jobs` at a time; on Ctrl-C, SIGTERM or SIGHUP the running drives stop,
    no other starts, and only the finished runs are kept. Returns (results in plan order, the
    exit code of the interruption or None)."""
    from tddhooks.bench.run import Children, run_one
    from tddhooks.errors import Terminated

    children = Children()
    pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="bench")
    futures: dict[Future[RunResult], int] = {}
    interrupted: int | None = None
    finished: dict[int, RunResult] = {}  # only runs that ended before any Ctrl-C
    try:
        # queued inside the try: a signal while they are queued stops the started ones too
        for index, spec in enumerate(specs):
            futures[pool.submit(run_one, spec, children)] = index
        for done in waits.completed(futures):  # Ctrl-C raises meanwhile, in whatever thread
            if done.exception() is None:
                finished[futures[done]] = result = waits.result(done)
                _progress(specs[futures[done]], result)
    except (KeyboardInterrupt, Terminated) as stop:
        # a SIGTERM (`kill`, `timeout`, a CI job cancelled) stops the bench as Ctrl-C does: it
        # once killed the running drive and went on with the next ones
        interrupted = 128 + stop.signum if isinstance(stop, Terminated) else EXIT_INTERRUPTED
        _stop_runs(children, pool, list(futures))
    finally:
        pool.shutdown(wait=True)
    return [finished[index] for index in sorted(finished)], interrupted


def _stop_runs(
    children: Children, pool: ThreadPoolExecutor, futures: list[Future[RunResult]]
) -> None:
    """Stop every run after a signal. Another signal meanwhile (a second Ctrl-C, a SIGTERM
    after a SIGHUP) does not cut this short, which lost the finished runs' report: the drives
    are then killed outright (their work is the bench's own scratch) and the sweep goes on."""
    from tddhooks import reaper
    from tddhooks.errors import Terminated

    output.warn("interrupted: stopping the running drives; finished runs are kept")
    hard = False
    while True:
        try:
            children.interrupt()
            pool.shutdown(wait=False, cancel_futures=True)
            # a run's thread may be starting a command just now: sweep until every run has
            # ended. A run cancelled before it started never counts as done for wait() (no
            # worker takes it up to notify it): with more runs queued than --jobs the sweep
            # waited for ever
            started = [future for future in futures if not future.cancelled()]
            while wait(started, timeout=_SWEEP_S).not_done:
                if hard:
                    reaper.kill_all_running()
                else:
                    children.stop_commands()
            return
        except (KeyboardInterrupt, Terminated):
            hard = True


def _progress(spec: RunSpec, result: RunResult) -> None:
    output.say(
        f"  {spec.label}: {result.cycles_landed}/{result.cycles} cycles landed, "
        f"{result.red_commits} red commits, acceptance {result.acceptance_passed}/"
        f"{result.acceptance_total}, stop: {_stop(result)}",
        markup=False,  # an error quotes `[test]`, `error[E0308]`, paths: text, not markup
    )


def _stop(result: RunResult) -> str:
    """`steps`, or `error: <what the drive said>` (its text starts with `error:`) once, not
    `error (error: …)`."""
    if not result.error:
        return result.stop_reason
    if result.stop_reason == "error" and result.error.lower().startswith("error"):
        return result.error
    return f"{result.stop_reason} ({result.error})"


def _report(results: list[RunResult], json_file: Path | None, markdown_file: Path | None,
            *, complete: bool) -> int:  # fmt: skip
    from tddhooks.bench import report

    summaries = report.summarise(results)
    report.print_table(summaries)
    if json_file is not None:
        report.write_json(json_file, results, complete=complete)
        output.ok(f"wrote {len(results)} runs to {json_file}")
    if markdown_file is not None:
        markdown_file.write_text(report.markdown(summaries), encoding="utf-8")
        output.ok(f"wrote the Markdown table to {markdown_file}")
    failed = [result for result in results if result.stop_reason == "error"]
    for result in failed:
        output.warn(f"{result.model} {result.kata} run {result.run}: {result.error}")
    return 1 if failed else 0
