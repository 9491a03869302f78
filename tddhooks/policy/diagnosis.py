"""Onboarding a repository as it is: what the gate says about HEAD, and the first legal commit
that gets it green; and the red-start rule that lets the install commit land on a red HEAD.

The red-start rule (docs/gate.md, "A red start"): a commit whose tree is red is still accepted
when (1) it has a parent, (2) it changes nothing but tddhooks' own files, exactly the paths
`.pre-commit-config.yaml`, `tdd.yaml` and `kata.md` at the top of the repository, and (3) the
parent's tree is red under the same policy and commands. Such a commit cannot make anything red
(no code, test, manifest or build file changes), so its red is its parent's doing; the next commit
that touches code must be green.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from tddhooks import git
from tddhooks.errors import EnvironmentProblem
from tddhooks.vocabulary import FORMATTERS, LINT_FIXERS

if TYPE_CHECKING:
    from tddhooks.policy.settings import PolicySettings
    from tddhooks.policy.verdicts import Verdict

OWN_FILES = frozenset((".pre-commit-config.yaml", "tdd.yaml", "kata.md"))
_FEATURE = re.compile(r"#!\[feature\((?P<names>[^)]*)\)\]")
_NIGHTLY = re.compile(r"E0554|may not be used on the stable release channel|requires? (a )?nightly")
_LINES = 6


@dataclass(frozen=True)
class Diagnosis:
    """What the gate found on a tree, in a person's words, and the way to green."""

    # green | no-tests | no-manifest | lint-only | failing-tests | does-not-compile |
    # does-not-import | nightly | timeout | tool
    state: str
    summary: str
    first_commit: str
    details: list[str] = field(default_factory=list)

    @property
    def green(self) -> bool:
        return self.state == "green"

    def lines(self) -> list[str]:
        return [self.summary, *(f"  {line}" for line in self.details), f"next: {self.first_commit}"]


INSTALL_NOTE = (
    "the install commit (`chore: install tddhooks hooks`, adding only .pre-commit-config.yaml, "
    'tdd.yaml and kata.md) lands on this red start (docs/gate.md, "A red start")'
)


def diagnose(verdict: Verdict, language: str, *, install_pending: bool = True) -> Diagnosis:
    """Classify a verdict: green, lint/format only, failing tests, nightly, no compile, timeout;
    the hints name the tools of `language`, and the install commit only while install_pending
    (the work tree holds tddhooks' own files that HEAD does not)."""
    note = f"; {INSTALL_NOTE}" if install_pending else ""
    if verdict.green and verdict.report.no_tests:
        return Diagnosis(
            "no-tests",
            "no tests found: nothing is red, and nothing is tested yet",
            "a first test: stage a failing test, then `feat: …` with the code that makes it "
            "pass (or `test: …` for behaviour the code already has)",
        )
    if verdict.green:
        return Diagnosis(
            "green",
            "green: " + "; ".join(verdict.verification_lines()),
            "any commit that follows the policy (see README, policy table)",
        )
    report, failed = verdict.report, [s for s in verdict.steps if not s.ok]
    text = "\n".join(step.output_tail for step in failed)
    if verdict.timed_out:
        return Diagnosis(
            "timeout",
            "red: the test suite did not finish in time",
            "`fix:` the hanging test or code, or raise ci.timeout_s in tdd.yaml "
            f"in its own commit{note}",
            verdict.failure_excerpt(_LINES).splitlines(),
        )
    if _NIGHTLY.search(text):
        features = sorted(
            {n.strip() for m in _FEATURE.finditer(text) for n in m["names"].split(",")}
        )
        named = ", ".join(f"`{name}`" for name in features) or "an unstable feature"
        return Diagnosis(
            "nightly",
            f"red: the code needs a nightly toolchain ({named})",
            "`build: pin the nightly toolchain` adding rust-toolchain.toml with "
            '[toolchain] channel = "nightly" (only the toolchain file), or a `fix:` '
            f"that drops the feature{note}",
        )
    from tddhooks.policy.gate import NO_MANIFEST

    unbuildable = [line for line in report.error_lines if line.startswith(NO_MANIFEST)]
    if unbuildable:
        what, _, fix = unbuildable[0].partition("; ")
        return Diagnosis("no-manifest", f"red: {what}", fix)
    names = {step.name for step in failed}
    uncollected = [line for line in report.error_lines if "pytest does not collect" in line]
    if uncollected and not report.failed:
        return Diagnosis(
            "no-tests",
            f"red: {uncollected[0].split(';', 1)[0]}",
            uncollected[0].split("; ", 1)[-1] + f"{note}",
        )
    if report.failed or report.failing_tests:
        shown = ", ".join(report.failing_tests[:_LINES]) or f"{report.failed} test(s)"
        return Diagnosis(
            "failing-tests",
            f"red: failing tests: {shown}",
            "`fix: …` that changes the code (not the tests) until they pass; or a "
            f"`test:` commit that deletes a test that is wrong{note}",
            report.error_lines[:_LINES],
        )
    if report.compile_errors and report.error_kind == "import":
        return Diagnosis(
            "does-not-import",
            "red: pytest cannot import the tests (collection errors: a missing module, an "
            "import or syntax error)",
            "`fix: …` that makes every test module import (the code it imports, or "
            f"pythonpath/packages in pyproject.toml){note}",
            report.compile_errors[:_LINES],
        )
    if report.compile_errors:
        return Diagnosis(
            "does-not-compile",
            "red: the code does not compile",
            f"`fix: …` that makes it compile{note}",
            report.compile_errors[:_LINES],
        )
    if names <= {"lint", "fmt"}:
        which = " and ".join(sorted(names))
        lint = verdict.step("lint")
        lint_text = lint.output_tail if lint and not lint.ok else ""
        findings = [
            line for line in lint_text.splitlines() if line.startswith(("error", "warning"))
        ]
        first = _lint_first_commit(names, language)
        if "lint" in names:
            first += (
                "; or start from the code as it is: add `lint: ratchet` to tdd.yaml and commit "
                "it (`chore: lint ratchet`); from then on a commit may not add lint findings "
                'to a file (docs/gate.md, "A legacy repository")'
            )
        return Diagnosis(
            "lint-only",
            f"red because of {which} only: "
            + ("no tests found" if report.no_tests else "every test passes"),
            f"{first}{note}",
            findings[:_LINES],
        )
    return Diagnosis(
        "red",
        "red: " + "; ".join(verdict.verification_lines()),
        f"`fix: …` that gets the gate green{note}",
        verdict.failure_excerpt(_LINES).splitlines(),
    )


def _lint_first_commit(names: set[str], language: str) -> str:
    """The one commit that gets a tree red on fmt and/or lint only green under strict lint: a
    lone `style:` cannot land while lint is red, and neither `refactor:` nor `style:` may change
    a test by hand, so the hint names the tools whose changes a style: commit may make to tests,
    and `fix:` for a test that needs more (pure)."""
    formatter = FORMATTERS.get(language, "the formatter")
    if names == {"fmt"}:
        return f"`style: {formatter}` (formatting only, tests included)"
    fixer = LINT_FIXERS.get(language)
    used = (fixer, formatter if "fmt" in names else None)
    tools = " and ".join(f"`{tool}`" for tool in used if tool)
    if "fmt" in names or fixer:
        first = f"one `style: …` commit: run {tools}, " if tools else "one `style: …` commit: "
        first += (
            "fix what is left in the code by hand (a style: commit may change code as a refactor "
            f"does, and tests only through {tools or f'`{formatter}`'})"
        )
    else:
        first = (
            "`refactor: …` fixing the lint findings (e.g. remove dead code; the same tests "
            "pass before and after)"
        )
    return first + "; when a test must change by hand too, commit it all as `fix: …`"


def diagnose_head(root: Path) -> Diagnosis | None:
    """Run (or reuse) the gate on HEAD's tree under the policy that judges the next commit; None
    when there is no commit yet. A missing tool is a diagnosis too, not an error."""
    from tddhooks.policy.gate import tree_verdict
    from tddhooks.policy.settings import load_settings

    if git.head(root) is None:
        return None
    settings = load_settings(root, git.tddhooks_dir(root))
    try:
        verdict = tree_verdict(root, git.tree_of(root, "HEAD"), settings)
    except EnvironmentProblem as problem:
        return Diagnosis(
            "tool",
            f"cannot run the gate: {problem.message}",
            problem.fix or "install the toolchain (`tddhooks doctor`)",
        )
    return diagnose(verdict, settings.language, install_pending=install_pending(root))


def install_pending(root: Path) -> bool:
    """Whether tddhooks' own files (OWN_FILES) in the work tree differ from HEAD: an install
    commit is there to make."""
    changed = git.run_git(
        ["status", "--porcelain", "-z", "--untracked-files=all", "--", *sorted(OWN_FILES)],
        root,
        check=False,
    ).stdout
    return bool(changed.strip("\0"))


def own_files_only(root: Path, base: str, index_file: str | None) -> bool:
    """The staged tree differs from commit `base` only in tddhooks' own top-level files."""
    text = git.out(
        ["diff", "--cached", "--name-only", "-z", "--no-renames", base],
        root,
        env_extra=git.index_env(index_file),
    )
    changed = [path for path in text.split("\0") if path]
    return bool(changed) and all(path in OWN_FILES for path in changed)


def red_start(
    root: Path, base: str | None, index_file: str | None, settings: PolicySettings
) -> bool:
    """The red-start rule of the module doc: may this red staged tree land anyway?"""
    from tddhooks.policy.gate import tree_verdict

    if base is None or not own_files_only(root, base, index_file):
        return False
    return not tree_verdict(root, git.tree_of(root, base), settings).green


def _steps_said(root: Path) -> str:
    """The gate's commands as install waits on them: `cargo fmt …`, `cargo clippy …`, …"""
    from tddhooks.errors import TddhooksError
    from tddhooks.policy.settings import load_settings

    try:
        settings = load_settings(root, git.tddhooks_dir(root))
    except TddhooksError:
        return "format, lint and tests"
    steps = (settings.fmt_check, settings.lint, settings.test)
    return ", ".join(f"`{' '.join(cmd[:2])}`" for cmd in steps if cmd)


def report_head(root: Path) -> Diagnosis | None:
    """Print what the gate says about HEAD and the first legal commit to green (install)."""
    from tddhooks import output
    from tddhooks.errors import TddhooksError

    output.say(f"checking HEAD with the gate: {_steps_said(root)} (the first run builds "
               "everything) ...", style="dim")  # fmt: skip
    try:
        found = diagnose_head(root)
    except TddhooksError as error:
        output.warn(f"could not judge HEAD: {error.message}")
        return None
    if found is None:
        return None
    # a tool diagnosis is no state of HEAD: "HEAD: cannot run the gate: …", not "HEAD is cannot …"
    said = f"HEAD: {found.summary}" if found.state == "tool" else f"HEAD is {found.summary}"
    (output.ok if found.green else output.warn)(said)
    for line in found.details:
        output.say(f"  {line}", markup=False)
    output.say(f"next: {found.first_commit}", markup=False)
    return found
