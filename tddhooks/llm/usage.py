"""Token accounting per call, role, cycle and drive, and the optional drive budget."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tddhooks.llm.client import ChatResult

CHARS_PER_TOKEN = 4


def estimate_tokens(text: str) -> int:
    """A rough count (~4 characters per token) for providers that report no usage."""
    return math.ceil(len(text) / CHARS_PER_TOKEN)


@dataclass
class UsageTotals:
    """Sums over some calls. Cached answers cost nothing: their tokens count as `saved_tokens`."""

    calls: int = 0
    cached_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    saved_tokens: int = 0
    estimated: bool = False  # at least one figure is an estimate

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def add(self, result: ChatResult) -> None:
        self.calls += 1
        if result.cached:
            self.cached_calls += 1
            self.saved_tokens += result.prompt_tokens + result.completion_tokens
            return
        self.prompt_tokens += result.prompt_tokens
        self.completion_tokens += result.completion_tokens
        self.estimated = self.estimated or result.estimated_usage

    def summary(self) -> str:
        """e.g. '3 calls (1 cached): 1,200 prompt + 340 completion = 1,540 tokens'."""
        approx = "~" if self.estimated else ""
        cached = f" ({self.cached_calls} cached)" if self.cached_calls else ""
        return (
            f"{self.calls} call{'s' if self.calls != 1 else ''}{cached}: "
            f"{approx}{self.prompt_tokens:,} prompt + {approx}{self.completion_tokens:,} "
            f"completion = {approx}{self.total_tokens:,} tokens"
        )


@dataclass
class UsageLedger:
    """Every call of one drive; the drive checks `over_budget` before asking a model again."""

    _by_role: dict[str, UsageTotals] = field(default_factory=dict)
    _by_cycle: dict[int, UsageTotals] = field(default_factory=dict)
    _drive: UsageTotals = field(default_factory=UsageTotals)

    def add(self, role: str, cycle: int, result: ChatResult) -> None:
        self._by_role.setdefault(role, UsageTotals()).add(result)
        self._by_cycle.setdefault(cycle, UsageTotals()).add(result)
        self._drive.add(result)

    def per_role(self) -> dict[str, UsageTotals]:
        return dict(self._by_role)

    def per_cycle(self) -> dict[int, UsageTotals]:
        return dict(sorted(self._by_cycle.items()))

    @property
    def drive(self) -> UsageTotals:
        return self._drive

    @property
    def total(self) -> int:
        """Tokens spent in this drive (prompt + completion, cached answers excluded)."""
        return self._drive.total_tokens

    def over_budget(self, limit: int | None) -> bool:
        """True once the tokens spent reach `limit` (llm.max_tokens_total / --max-tokens-total)."""
        return limit is not None and self.total >= limit
