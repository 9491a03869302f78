"""Fakes of the drive's ports for fast loop scenarios (drive/ports.py): a Gate that judges a tree by
markers instead of running a suite, and a Workspace that commits with real git but without hooks.
Real git repositories throughout; only the suite run and the hooks' gate are replaced."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Collection, Mapping
from pathlib import Path

from tddhooks.drive import gather
from tddhooks.drive.ports import GitWorkspace, Model
from tddhooks.drive.workspace import CommitOutcome
from tddhooks.policy.settings import PolicySettings
from tddhooks.policy.verdicts import StepOutcome, Verdict
from tddhooks.runners.base import TestReport

# a test file says what the source must contain for it to pass: `# needs: def add`
NEEDS = re.compile(r"#\s*needs:\s*(.+)$", re.MULTILINE)


def _git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=root, check=True, capture_output=True, text=True
    ).stdout


def marker_verdict(files: dict[str, str], settings: PolicySettings, tree: str) -> Verdict:
    """Green when every test file's `# needs:` text is in some source file of `files`."""
    tests = {path: text for path, text in files.items() if path.startswith("tests/")}
    source = "\n".join(text for path, text in files.items() if path.startswith("src/"))
    names = sorted(gather.test_names(settings, tests))
    failing = [
        name
        for name in names
        if any(need.strip() not in source for need in NEEDS.findall(tests[name.split("::")[0]]))
    ]
    report = TestReport(
        passed=len(names) - len(failing), failed=len(failing),
        passing_tests=[n for n in names if n not in failing], failing_tests=failing,
        error_lines=[f"{name}: needs what the source lacks" for name in failing],
        exit_code=1 if failing else 0,
    )  # fmt: skip
    step = StepOutcome(name="test", cmd=["marker-gate"], returncode=report.exit_code,
                       timed_out=False, duration_s=0.0, output_tail="")  # fmt: skip
    return Verdict(tree=tree, key="marker", green=not failing, steps=[step], report=report,
                   test_names=names, duration_s=0.0, created_at=0.0)  # fmt: skip


class MarkerGate:
    """Green when every test file's `# needs:` text is in some source file of the tree."""

    def __init__(self) -> None:
        self.judged: list[str] = []

    def _files(self, root: Path, rev: str) -> dict[str, str]:
        if rev == ":":
            names = _git(root, "ls-files").split()
            return {name: _git(root, "show", f":{name}") for name in names}
        names = _git(root, "ls-tree", "-r", "--name-only", rev).split()
        return {name: _git(root, "show", f"{rev}:{name}") for name in names}

    def _verdict(self, root: Path, rev: str, settings: PolicySettings) -> Verdict:
        self.judged.append(rev)
        return marker_verdict(self._files(root, rev), settings, rev)

    def staged(self, root: Path, settings: PolicySettings) -> Verdict:
        return self._verdict(root, ":", settings)

    def tree(self, root: Path, tree: str, settings: PolicySettings) -> Verdict:
        return self._verdict(root, tree, settings)


class HooklessWorkspace(GitWorkspace):
    """Real files and git; commits skip the hooks (whose gate would run the real suite)."""

    def format_files(
        self, root: Path, settings: PolicySettings, paths: Collection[str], *, repairs: bool = True
    ) -> None:
        return None

    def commit(self, root: Path, message: str, settings: PolicySettings) -> CommitOutcome:
        ident = [
            "-c",
            f"user.name={settings.author_name}",
            "-c",
            f"user.email={settings.author_email}",
        ]
        done = subprocess.run(
            ["git", *ident, "commit", "-q", "--no-verify", "-F", "-"],
            cwd=root, input=message, capture_output=True, text=True,
        )  # fmt: skip
        if done.returncode != 0:
            return CommitOutcome(False, None, done.stdout + done.stderr)
        return CommitOutcome(True, _git(root, "rev-parse", "HEAD").strip(), "")


def one_cycle(repo: Path, models: Mapping[str, Model], profile: str = "core") -> None:
    """One cycle of the real drive loop on `repo`: real git, cargo and gate (RealGate), commits
    without the hooks (HooklessWorkspace), the models' answers queued (support/fake_model.py),
    under the answer checks of `profile` (docs/checks.md)."""
    from tddhooks.drive.checks import active_checks
    from tddhooks.drive.console import QuietDisplay
    from tddhooks.drive.crew import Crew
    from tddhooks.drive.loop import Drive, DrivePlan
    from tddhooks.drive.ports import RealGate
    from tddhooks.drive.steplog import StepWriter
    from tddhooks.drive.supervisor import Supervisor
    from tddhooks.llm.usage import UsageLedger
    from tddhooks.policy.settings import load_settings

    (repo / ".gitignore").write_text(".tdd/\n", encoding="utf-8")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "--no-verify", "-m", "chore: ignore the scratch folder")
    crew = Crew(
        root=repo, settings=load_settings(repo), clients=dict(models),
        supervisor=Supervisor(max_attempts=3, max_failed_cycles=3, steps=1, budget_tokens=None),
        ledger=UsageLedger(), display=QuietDisplay(), steps=StepWriter(repo), context_tokens=1800,
        max_attempts=3, gate=RealGate(), workspace=HooklessWorkspace(),
        checks=active_checks(profile),
    )  # fmt: skip
    Drive(crew, DrivePlan(agent_roles=frozenset(models))).run()
