"""Token accounting and the drive budget."""

from __future__ import annotations

import pytest

from tddhooks.llm.client import ChatResult
from tddhooks.llm.usage import UsageLedger, UsageTotals, estimate_tokens


def result(
    prompt: int, completion: int, *, cached: bool = False, estimated: bool = False
) -> ChatResult:
    return ChatResult("{}", prompt, completion, cached, "stop", 0.1, "k", estimated)


@pytest.mark.parametrize(
    ("text", "tokens"),
    [("", 0), ("abc", 1), ("abcd", 1), ("abcde", 2), ("x" * 400, 100), ("日本語のテスト", 2),
     ("ünïcödé!", 2)],
)  # fmt: skip
def test_estimate_tokens(text: str, tokens: int) -> None:
    assert estimate_tokens(text) == tokens


def test_ledger_sums_per_role_cycle_and_drive() -> None:
    ledger = UsageLedger()
    ledger.add("tester", 1, result(100, 20))
    ledger.add("implementor", 1, result(300, 80))
    ledger.add("implementor", 1, result(310, 90))
    ledger.add("tester", 2, result(120, 25, estimated=True))
    roles = ledger.per_role()
    assert (roles["tester"].prompt_tokens, roles["tester"].completion_tokens) == (220, 45)
    assert roles["implementor"].calls == 2
    assert roles["implementor"].total_tokens == 780
    assert not roles["implementor"].estimated
    assert roles["tester"].estimated
    assert list(ledger.per_cycle()) == [1, 2]
    assert ledger.per_cycle()[1].total_tokens == 900
    assert ledger.total == 1045
    assert ledger.drive.calls == 4


def test_cached_answers_cost_nothing_but_are_counted() -> None:
    ledger = UsageLedger()
    ledger.add("tester", 1, result(100, 20))
    ledger.add("tester", 1, result(100, 20, cached=True))
    tester = ledger.per_role()["tester"]
    assert (tester.calls, tester.cached_calls, tester.saved_tokens) == (2, 1, 120)
    assert ledger.total == 120


@pytest.mark.parametrize(
    ("limit", "over"), [(None, False), (10_000, False), (421, False), (420, True), (1, True)]
)
def test_budget(limit: int | None, over: bool) -> None:
    ledger = UsageLedger()
    ledger.add("refactorer", 3, result(400, 20))
    assert ledger.over_budget(limit) is over


def test_summary_line() -> None:
    totals = UsageTotals()
    totals.add(result(1200, 340))
    totals.add(result(5, 5, cached=True))
    assert totals.summary() == "2 calls (1 cached): 1,200 prompt + 340 completion = 1,540 tokens"
    totals.add(result(1, 1, estimated=True))
    assert totals.summary().startswith("3 calls (1 cached): ~1,201 prompt")
