"""What every turn of a drive shares: the repository, the agents' models, the referees (the
Supervisor, the Gate), the Workspace, the display and the step files. The loop builds it once."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from tddhooks.drive.checks import ActiveChecks
from tddhooks.drive.console import Display, model_label
from tddhooks.drive.ports import Gate, GitWorkspace, RealGate, Workspace
from tddhooks.drive.steplog import StepLog, StepWriter
from tddhooks.drive.supervisor import Decision, Supervisor
from tddhooks.policy.settings import PolicySettings

if TYPE_CHECKING:
    from tddhooks.drive.ports import Model
    from tddhooks.llm.usage import UsageLedger


@dataclass
class Crew:
    """What every turn shares: the repository, the agents' clients and the referees."""

    root: Path
    settings: PolicySettings
    clients: Mapping[str, Model]
    supervisor: Supervisor
    ledger: UsageLedger
    display: Display
    steps: StepWriter
    context_tokens: int
    max_attempts: int
    cache_enabled: bool = True
    gate: Gate = field(default_factory=RealGate)
    workspace: Workspace = field(default_factory=GitWorkspace)
    decisions: list[Decision] = field(default_factory=list)
    failed_attempts: int = 0
    # requirements (0-based) a tester's test found already working: the tester moves on
    working: set[int] = field(default_factory=set)
    # requirements whose test the implementor gave up on: the tester takes the others first
    put_off: set[int] = field(default_factory=set)
    handed_focus: int | None = None  # the requirement the last handed-over test was written for
    # requirement -> the tester's `done` answers refused while it was open (drive/turns.py)
    done_refused: dict[int, int] = field(default_factory=dict)
    checks: ActiveChecks = field(default_factory=ActiveChecks)  # drive/checks/registry.py
    refusals: dict[str, int] = field(default_factory=dict)  # check id -> answers it refused

    def on(self, check_id: str) -> bool:
        """Whether the check with this id is in effect for the drive."""
        return self.checks.on(check_id)

    def model_of(self, role: str) -> str:
        return model_label(self.clients[role].settings)

    def decide(self, decision: Decision, log: StepLog | None = None) -> Decision:
        """Show and keep a supervisor decision (every decision is logged with its reason)."""
        self.decisions.append(decision)
        if log is not None:
            log.decisions.append({"action": decision.action, "reason": decision.reason})
        self.steps.log_decision(decision.action, decision.reason)
        self.display.emit("decision", action=decision.action, reason=decision.reason)
        return decision
