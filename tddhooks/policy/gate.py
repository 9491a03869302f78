"""The green gate: fmt check, lint and the full test suite on exactly the tree being committed.

pydantic (verdict models) and the runners are imported inside the functions that run the gate:
the pre-commit hook on an already-verified tree only reads two small JSON files, through
policy/stored.py, which does not import this module.
"""

from __future__ import annotations

import fcntl
import importlib
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from tddhooks import git, proc, waits
from tddhooks.errors import EnvironmentProblem
from tddhooks.policy.facts import CODE_SUFFIXES
from tddhooks.policy.gate_env import gate_environment
from tddhooks.policy.settings import PolicySettings
from tddhooks.policy.stored import KEY_MEMO as KEY_MEMO
from tddhooks.policy.stored import VERIFICATION_FIELD as VERIFICATION_FIELD
from tddhooks.policy.stored import cached_green_lines as cached_green_lines
from tddhooks.policy.stored import memoized_key as memoized_key
from tddhooks.policy.stored import sealed_json
from tddhooks.policy.stored import toolchain_stamp as toolchain_stamp
from tddhooks.policy.stored import verdict_file as verdict_file
from tddhooks.policy.stored import verdicts_dir as verdicts_dir

if TYPE_CHECKING:
    from tddhooks.policy.verdicts import Verdict
    from tddhooks.runners.base import Runner, TestReport

OUTPUT_TAIL_CHARS = 8000
_SKIP_DIRS = ("target", "node_modules", "__pycache__", "venv")


def run_gate(
    workdir: Path,
    settings: PolicySettings,
    runner: Runner,
    target_dir: Path | None,
    work_tree: Path | None = None,
) -> Verdict:
    """Run fmt check, lint and tests in workdir (all three, even after a failure); tree=''.

    The format check builds nothing, so it runs beside lint and tests instead of before them.
    work_tree, the repository's, is kept off a Python kata's sys.path (runners/python_confine.py).
    """
    preload = _preload_verdict_models()
    # the policy's environment, not the committer's (policy/gate_env.py)
    env = {**gate_environment(settings.gate_env), **runner.env(target_dir)}
    if settings.runner_hooks:  # the policy's consent, read by runners/python_defined.py
        env["TDDHOOKS_RUNNER_HOOKS"] = "allow"
    if work_tree is not None and settings.language == "python":
        from tddhooks.runners.python_pins import WORK_TREE_VARIABLE, startup_modules_in

        env[WORK_TREE_VARIABLE] = str(work_tree)
        started = startup_modules_in(work_tree)
        if started:
            raise EnvironmentProblem(
                f"Python runs {', '.join(started)} from your work tree at every start, the "
                "gate's pytest included: the verdict would not be the staged tree's own",
                fix="take the work tree off PYTHONPATH (or out of the editable install's "
                "folders), or move that file out of it (docs/runners.md)",
            )
    missing = missing_manifest(workdir, settings, runner)
    if missing is not None:
        return _not_runnable(settings, missing)
    leaving = leaving_tree(workdir, settings.language)
    if leaving is not None:
        return _not_runnable(settings, leaving)
    every = (("fmt", settings.fmt_check), ("lint", settings.lint), ("test", settings.test))
    commands = [(name, cmd) for name, cmd in every if cmd]
    outcomes: dict[str, proc.ProcResult] = {}

    def run_step(name: str, cmd: tuple[str, ...]) -> None:
        run = _pinned(cmd, workdir, settings.language, work_tree)
        outcomes[name] = proc.run(run, cwd=workdir, env=env, timeout_s=settings.timeout_s)

    beside = threading.Thread(target=run_step, args=("fmt", settings.fmt_check))
    if settings.fmt_check:
        beside.start()
    try:
        for name, cmd in commands:
            if name != "fmt":
                run_step(name, cmd)
                # an environment problem (an offline dependency fetch, a missing tool) stops the
                # gate here: the next step would only wait on the same network or tool again
                _stop_on_environment(name, outcomes[name], workdir, settings)
    finally:
        if settings.fmt_check:
            waits.join(beside)
    waits.join(preload)
    results = [(name, cmd, outcomes[name]) for name, cmd in commands]
    files = read_code_files(workdir, settings.language)
    for name, _cmd, result in results:
        _require_executable(name, result, workdir, files if settings.language == "python" else {})
    from tddhooks.policy.verdicts import StepOutcome, Verdict
    from tddhooks.runners.base import TestReport
    from tddhooks.runners.common import tail_chars
    from tddhooks.runners.worktree_paths import to_work_tree

    steps: list[StepOutcome] = []
    report = TestReport()
    names = runner.test_names(files)
    lint_findings: dict[str, int] | None = None
    for name, cmd, result in results:
        returncode = result.returncode
        shown = result.output
        if name == "lint" and settings.lint_mode == "ratchet":
            from tddhooks.policy.ratchet import describe, lint_counts, rendered

            lint_findings = lint_counts(settings.language, result.output, str(workdir))
            ran = lint_findings is not None and returncode == 0
            shown = f"ratchet: {describe(lint_findings or {})}" if ran else rendered(shown)
        if name == "test":
            report = runner.parse_test_output(result.output, result.returncode)
            if result.timed_out:
                report = report.model_copy(update={"timed_out": True})
            report = _require_tests_ran(report, names, cmd, runner)
            report = _require_collected(report, files, settings, runner)
            report = _refuse_untrusted(report, workdir, settings, runner, files)
            report = _name_plugins_off(report, cmd, result)
            # the runner knows what its exit codes mean (pytest's 5: no tests yet, a green start)
            returncode = report.exit_code if report.green else (returncode or report.exit_code)
        steps.append(
            StepOutcome(
                name=name,
                cmd=list(cmd),
                returncode=returncode,
                timed_out=result.timed_out,
                duration_s=round(result.duration_s, 3),
                # work-tree paths, not the snapshot's (runners/worktree_paths.py)
                output_tail=to_work_tree(tail_chars(shown, OUTPUT_TAIL_CHARS), workdir, target_dir),
            )
        )
    green = bool(steps) and all(step.ok for step in steps) and report.green
    return Verdict(
        tree="",
        key="",
        green=green,
        steps=steps,
        report=report,
        test_names=sorted(names),
        duration_s=round(sum(step.duration_s for step in steps), 3),
        created_at=round(time.time(), 3),
        lint_findings=lint_findings,
    )


NO_MANIFEST = "no Cargo.toml at the top of the tree"


def missing_manifest(workdir: Path, settings: PolicySettings, runner: Runner) -> str | None:
    """Why the default Rust commands cannot run in workdir (no Cargo.toml at its top), with the
    exact file to add: a workspace naming the crates found below, or the other language."""
    if settings.language != "rust" or (workdir / "Cargo.toml").is_file():
        return None
    if settings.test != runner.default_commands().test:
        return None
    from tddhooks.vocabulary import crate_folders

    found = []
    for folder, dirs, names in os.walk(workdir):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIP_DIRS)
        if "Cargo.toml" in names:
            found.append(Path(folder, "Cargo.toml").relative_to(workdir).as_posix())
    crates = crate_folders(found)
    if crates:
        members = ", ".join(f'"{crate}"' for crate in crates)
        return (
            f"{NO_MANIFEST}: a folder of {len(crates)} crate(s) without a root manifest "
            f"({', '.join(crates[:4])}{' …' if len(crates) > 4 else ''}), which cargo cannot "
            "build as one project; add a workspace Cargo.toml at the top (a build: commit): "
            f'[workspace] members = [{members}] resolver = "2"'
        )
    return (
        f"{NO_MANIFEST}: cargo cannot build it; for a Rust kata add one (`cargo init`, a build: "
        "commit); for another language say it in tdd.yaml: `language: python`"
    )


def _name_plugins_off(
    report: TestReport, cmd: tuple[str, ...], result: proc.ProcResult
) -> TestReport:
    """A red run whose output names a plugin the gate turned off (`-p no:NAME` it added, for the
    plugins only tddhooks' requirements brought) says so: pytest's own advice there is to install
    what is already installed."""
    if report.green:
        return report
    mine = set(cmd)
    off = [
        word[3:]
        for before, word in zip(result.cmd, result.cmd[1:], strict=False)
        if before == "-p" and word.startswith("no:") and word not in mine
    ]
    named = [name for name in off if name in result.output]
    if not named:
        return report
    line = (
        f"the gate ran pytest without the plugin(s) {', '.join(named)}, which only tddhooks' own "
        "requirements installed: a kata whose tests use one declares the distribution that "
        'provides it (pyproject.toml dependencies or requirements.txt; docs/gate.md, "pytest '
        'and ruff configuration")'
    )
    return report.model_copy(update={"error_lines": [*report.error_lines, line]})


def leaving_tree(workdir: Path, language: str) -> str | None:
    """Why the tools may not run on the tree, when a committed symlink or a Rust include leads
    out of it: the tree is red whatever they say, and one to /dev/zero (a `pyproject.toml`, a
    test file, `include!("/dev/zero")`) would have ruff, pytest or rustc read without end, until
    the machine runs out of memory."""
    from tddhooks.policy.tool_config import outside_references

    rust = read_code_files(workdir, language) if language == "rust" else {}
    found = outside_references(workdir, rust)
    if not found:
        return None
    return "\n".join(f'{item} (docs/gate.md, "Committed tool configuration")' for item in found)


def _not_runnable(settings: PolicySettings, why: str) -> Verdict:
    """A red verdict that ran nothing: the project cannot be built as it is."""
    from tddhooks.policy.verdicts import StepOutcome, Verdict
    from tddhooks.runners.base import TestReport

    step = StepOutcome(
        name="test", cmd=list(settings.test), returncode=1, timed_out=False, duration_s=0.0,
        output_tail=why,
    )  # fmt: skip
    report = TestReport(exit_code=1, error_lines=[why], output_tail=why)
    return Verdict(
        tree="", key="", green=False, steps=[step], report=report, test_names=[],
        duration_s=0.0, created_at=round(time.time(), 3),
    )  # fmt: skip


def _require_tests_ran(
    report: TestReport, names: set[str], cmd: tuple[str, ...], runner: Runner
) -> TestReport:
    """A green run of the default test command that did not run every test the tree defines is
    red: something in the tree (a committed `.cargo/config.toml` runner that passes `--skip`, a
    conftest that collects or deselects tests) kept some from running, and a red test among them
    would land. Names are compared by their last part (the function), since the static and the
    reported names may spell modules and parameters differently. Custom commands are not
    second-guessed (their output need not name tests)."""
    if not report.green or not names or cmd != runner.default_commands().test:
        return report
    reported = {*report.passing_tests, *report.failing_tests, *report.ignored_tests}
    ran = {_function_of(name) for name in reported}
    missing = sorted(name for name in names if _function_of(name) not in ran)
    if not missing:
        return report
    shown = ", ".join(missing[:3]) + (" ..." if len(missing) > 3 else "")
    counted = report.passed + report.failed + report.ignored
    what = "no test ran" if not counted else f"{len(missing)} test(s) did not run"
    line = (
        f"{what}, though the tree defines {len(names)} ({shown} did not run): check the "
        "committed tool configuration (.cargo/config.toml runner, conftest.py, pytest settings)"
    )
    return report.model_copy(update={"exit_code": 1, "error_lines": [line]})


def _require_collected(
    report: TestReport, files: dict[str, str], settings: PolicySettings, runner: Runner
) -> TestReport:
    """Red, with the fix, when the tree holds test modules (unittest style: `tests.py`,
    `test*.py`) that the default pytest command does not collect: their tests would never run,
    and a tree whose tests do not run is not green (docs/runners.md, "No tests")."""
    if settings.language != "python" or settings.test != runner.default_commands().test:
        return report
    from tddhooks.runners.python_items import collect_fix, uncollected_test_modules

    modules = uncollected_test_modules(files)
    if not modules:
        return report
    shown = ", ".join(modules[:3]) + (" ..." if len(modules) > 3 else "")
    what = "no tests found" if report.no_tests else f"{len(modules)} test module(s) not collected"
    line = (
        f"{what}: pytest does not collect {shown}; {collect_fix(modules, files)} "
        "(a build: commit), or move the tests to tests/test_*.py"
    )
    return report.model_copy(
        update={"exit_code": report.exit_code or 1, "error_lines": [line, *report.error_lines]}
    )


def _pinned(
    cmd: tuple[str, ...], workdir: Path, language: str, work_tree: Path | None
) -> tuple[str, ...]:
    """The command as run: pytest's and ruff's configuration pinned to the snapshot, so no
    configuration file in a parent folder (the person's home) judges the tree, pytest kept off
    the work tree (runners/python_confine.py) and without the plugins only tddhooks'
    requirements brought (runners/python_plugins.py)."""
    if language != "python":
        return cmd
    from tddhooks.policy.dependencies import declared_distributions
    from tddhooks.runners.python_pins import pinned
    from tddhooks.runners.python_plugins import canonical

    pytest = any(Path(word).name in ("pytest", "py.test") for word in cmd)
    declared = {canonical(name) for name in declared_distributions(workdir)} if pytest else set()
    return pinned(cmd, workdir, work_tree, declared)


def _refuse_untrusted(
    report: TestReport,
    workdir: Path,
    settings: PolicySettings,
    runner: Runner,
    files: dict[str, str],
) -> TestReport:
    """The test result is red when the tree reaches outside itself (a symlink or include! to a
    file it does not hold), when a Python tree commits test-runner hooks the policy did not allow
    (policy/runner_hooks.py), or, with the default test command, when it could fake the result: a
    committed cargo runner, linker or compiler wrapper, a pytest hook that rewrites outcomes, a
    module shadowing pytest (policy/tool_config.py). A kata that needs one of those says so with
    its own ci.test_cmd."""
    from tddhooks.policy.tool_config import outside_references, untrusted_settings

    found = outside_references(workdir, files)
    if settings.language == "python":
        from tddhooks.policy.runner_hooks import runner_hook_findings, tree_addopts

        addopts = tree_addopts(workdir)
        found += runner_hook_findings(files, addopts, hooks_allowed=settings.runner_hooks)
    if settings.test == runner.default_commands().test:
        found += untrusted_settings(workdir, settings.language, files)
    if not found:
        return report
    lines = [f'{item} (docs/gate.md, "Committed tool configuration")' for item in found]
    return report.model_copy(
        update={"exit_code": report.exit_code or 1, "error_lines": [*lines, *report.error_lines]}
    )


def _function_of(name: str) -> str:
    """`tests/add.rs::module::adds` -> `adds`; `tests/test_a.py::TestA::test_b[1]` -> `test_b`."""
    return name.rsplit("::", 1)[-1].split("[", 1)[0].strip()


def _preload_verdict_models() -> threading.Thread:
    """Import pydantic and the verdict models while the tools run, not after (~0.15 s)."""
    thread = threading.Thread(
        target=importlib.import_module, args=("tddhooks.policy.verdicts",), daemon=True
    )
    thread.start()
    return thread


def _require_executable(
    step: str, result: proc.ProcResult, workdir: Path, python_files: dict[str, str]
) -> None:
    """A missing tool, a dependency the tree declares but cannot import, a dependency cargo
    could not fetch: an environment problem, not a red tree (and never cached)."""
    if result.returncode == proc.MISSING_EXECUTABLE and result.stderr.startswith(
        f"{result.cmd[0]}: "
    ):
        raise EnvironmentProblem(
            f"cannot run the {step} step `{' '.join(result.cmd)}`: {result.stderr.strip()}",
            fix="install the toolchain (see `tddhooks doctor`) or set the command under ci: in "
            "tdd.yaml",
        )
    from tddhooks.policy.envcheck import environment_problem

    own: set[str] = set()
    declared: set[str] = set()
    if python_files and not result.ok and "No module named" in result.output:
        from tddhooks.policy.dependencies import declared_modules, own_modules

        own, declared = own_modules(python_files), declared_modules(workdir)
    problem = environment_problem(step, result, own, declared)
    if problem is not None:
        raise problem


def _stop_on_environment(
    step: str, result: proc.ProcResult, workdir: Path, settings: PolicySettings
) -> None:
    """_require_executable for one finished step; the tree's Python files are read only for a
    failed run that could not import a module."""
    if result.ok:
        return
    wanted = settings.language == "python" and "No module named" in result.output
    _require_executable(step, result, workdir, read_code_files(workdir, "python") if wanted else {})


def read_code_files(workdir: Path, language: str) -> dict[str, str]:
    """Source files of the language under workdir ("/"-separated path -> text), no build dirs.
    Only regular files: a `test_x.py` committed as a symlink to /dev/zero would never end (it is
    outside the tree, which turns the result red on its own)."""
    suffixes = CODE_SUFFIXES.get(language, ())
    files: dict[str, str] = {}
    for folder, dirs, names in os.walk(workdir):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIP_DIRS)
        for name in names:
            if name.endswith(suffixes) and Path(folder, name).is_file():
                path = Path(folder, name)
                relative = path.relative_to(workdir).as_posix()
                files[relative] = path.read_text(encoding="utf-8", errors="replace")
    return files


def tree_verdict(
    root: Path,
    tree: str,
    settings: PolicySettings,
    *,
    use_cache: bool = True,
    snapshot_kind: str = "snapshot",
) -> Verdict:
    """The verdict for a tree id: from the store when allowed, else by running the gate on it in
    the private snapshot folder `snapshot_kind` (see policy/snapshot.py: never in the work tree)."""
    from tddhooks.policy.facts import state_dir
    from tddhooks.policy.snapshot import gate_dirs, materialize, remove_legacy
    from tddhooks.runners import get_runner

    runner = get_runner(settings.language)
    state = state_dir(root)
    key = _verdict_key(root, state, settings, runner)
    cached = _stored(state, tree, key) if use_cache else None
    if cached is not None:
        return cached
    if use_cache:
        reused = _docs_only(root, state, tree, key, settings)
        if reused is not None:
            return reused
    dest, target = gate_dirs(root, snapshot_kind, state.parent)
    with _locked(dest.parent / f"{dest.name}.lock"):
        # another gate (a drive, a second terminal) may have judged this tree while we waited
        cached = _stored(state, tree, key) if use_cache else None
        if cached is not None:
            return cached
        remove_legacy(state)  # the snapshot of earlier versions, inside the repository
        workdir = materialize(root, tree, dest)
        verdict = run_gate(workdir, settings, runner, target, root)
        git.forget_index_trees()  # the index may have moved while the gate ran
        verdict = verdict.model_copy(update={"tree": tree, "key": key})
        from tddhooks.policy.verdicts import VerdictStore

        VerdictStore(verdicts_dir(state)).put(verdict)  # before unlocking: waiters find it
    return verdict


def _docs_only(
    root: Path, state: Path, tree: str, key: str, settings: PolicySettings
) -> Verdict | None:
    """HEAD's stored verdict, for a tree that differs from HEAD's only in documentation nothing
    reads (policy/inert.py), stored under this tree too; None otherwise."""
    head = git.run_git(["rev-parse", "-q", "--verify", "HEAD^{tree}"], root, check=False)
    head_tree = head.stdout.strip()
    if not head.ok or head_tree == tree:
        return None
    stored = _stored(state, head_tree, key)
    from tddhooks.policy.inert import inert_change

    if stored is None or not inert_change(root, head_tree, tree, settings):
        return None
    verdict = stored.model_copy(update={"tree": tree, "cached": False})
    from tddhooks.policy.verdicts import VerdictStore

    VerdictStore(verdicts_dir(state)).put(verdict)
    return verdict.model_copy(update={"cached": True})


def _stored(state: Path, tree: str, key: str) -> Verdict | None:
    """The stored verdict; pydantic is only imported when there is one to read."""
    if not verdict_file(verdicts_dir(state), tree, key).exists():
        return None
    from tddhooks.policy.verdicts import VerdictStore

    return VerdictStore(verdicts_dir(state)).get(tree, key)


def staged_tree_verdict(
    root: Path, settings: PolicySettings, *, index_file: str | None = None, use_cache: bool = True
) -> Verdict:
    """The verdict for the tree of the index (or of index_file, a hook's GIT_INDEX_FILE)."""
    tree = git.write_tree(root, index_file=index_file)
    return tree_verdict(root, tree, settings, use_cache=use_cache)


def _verdict_key(root: Path, state: Path, settings: PolicySettings, runner: Runner) -> str:
    key = memoized_key(root, state, settings)
    if key is not None:
        return key
    from tddhooks.policy.verdicts import verdict_key, write_atomic

    tools = list(runner.tool_names)
    key = verdict_key(settings, runner)
    memo = {"tools": tools, "stamp": toolchain_stamp(root, settings, tools), "key": key}
    write_atomic(state / KEY_MEMO, sealed_json(memo))
    return key


@contextmanager
def _locked(lock_file: Path) -> Iterator[None]:
    """One gate at a time per snapshot directory (a drive and a person may commit together)."""
    lock_file.parent.mkdir(parents=True, exist_ok=True)
    with lock_file.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
