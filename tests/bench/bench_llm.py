"""Benchmark: ChatClient's overhead over a bare openai SDK call, and a cached answer's latency.

Run: .venv/bin/python tests/bench/bench_llm.py [N]   (against the local fake server; no network)
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for `support`

from support.fake_openai import FakeOpenAI, Reply

from tddhooks.llm.cache import AnswerCache
from tddhooks.llm.client import ChatClient
from tddhooks.llm.settings import ModelSettings

ANSWER = '{"plan": "add a failing test", "edits": [], "done": false}'
SYSTEM = "You are the tester in a TDD kata. " * 40  # a realistic ~1,400 character prompt


def messages(index: int) -> list[dict[str, str]]:
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": f"turn {index}"}]


def ask(client: ChatClient, index: int) -> None:
    client.complete(messages(index), role="tester")


def interleaved(calls: int, cases: dict[str, Callable[[int], Any]]) -> dict[str, list[float]]:
    """Milliseconds per call for each case, taking turns so machine load hits all alike."""
    for index, body in enumerate(cases.values()):
        body(-1 - index)  # warm-up: imports, connection set-up
    samples: dict[str, list[float]] = {name: [] for name in cases}
    for index in range(calls):
        for name, body in cases.items():
            start = time.perf_counter()
            body(index)
            samples[name].append((time.perf_counter() - start) * 1000)
    return samples


def main(calls: int = 50) -> None:
    import openai

    server = FakeOpenAI().start()
    server.responder = lambda _body: Reply(ANSWER, prompt_tokens=350, completion_tokens=15)
    settings = ModelSettings("custom", "fake-model", server.base_url, api_key="bench",
                             key_source="bench", max_tokens=256, max_retries=0)  # fmt: skip
    bare = openai.OpenAI(base_url=server.base_url, api_key="bench", max_retries=0)

    def bare_call(index: int) -> None:
        payload: Any = messages(index)  # the SDK wants its TypedDicts; ours are plain dicts
        bare.chat.completions.create(
            model="fake-model", messages=payload, temperature=0.2, max_tokens=256
        )

    plain = ChatClient(settings, None)
    with tempfile.TemporaryDirectory() as directory:
        cache = AnswerCache(Path(directory))
        cached = ChatClient(settings, cache)
        rows = interleaved(calls, {
            "bare openai SDK call (uncached)": bare_call,
            "ChatClient.complete, --no-cache": lambda i: ask(plain, i),
            "ChatClient.complete, cache miss + store": lambda i: ask(cached, calls + i),
        })  # fmt: skip
        rows.update(interleaved(calls * 4, {
            "ChatClient.complete, cached answer": lambda _i: ask(cached, calls),
        }))  # fmt: skip
        cache.close()
    server.stop()

    bare_median = statistics.median(rows["bare openai SDK call (uncached)"])
    print(f"{'case':<42} {'calls':>5} {'median ms':>10} {'mean ms':>8} {'vs bare':>8}")
    for name, samples in rows.items():
        median = statistics.median(samples)
        print(f"{name:<42} {len(samples):>5} {median:>10.2f} {statistics.mean(samples):>8.2f} "
              f"{median - bare_median:>+8.2f}")  # fmt: skip


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
