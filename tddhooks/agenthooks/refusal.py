"""A refusal of the guard: the rule, the reason, the legal alternative (pure)."""

from __future__ import annotations

from dataclasses import dataclass

HANDED_OVER = "make it pass; the test is the tester's"
COMMIT_THROUGH_HOOKS = "commit with plain `git commit` and let the hooks judge the staged tree"
BACKSTOP = "`tddhooks audit` in CI re-checks every commit"


@dataclass(frozen=True)
class Refusal:
    """Why a command or edit is refused (rule name, reason) and the legal way instead."""

    rule: str
    reason: str
    alternative: str

    def message(self) -> str:
        return (
            f"tddhooks refused this ({self.rule}): {self.reason}. Instead: {self.alternative}. "
            f"(This guard is a first line; {BACKSTOP}.)"
        )
