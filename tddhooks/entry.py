"""The `tddhooks` console script: git hooks go straight to their handler, the rest to click.

A hook runs on every commit; click's import alone costs ~50 ms of a 150 ms budget, so
`tddhooks hook NAME ...` is dispatched before click is imported (`--help` still goes to click).
"""

from __future__ import annotations

import gc
import sys

# A hook is one short process that imports ~14,000 objects it keeps to its end: with the cyclic
# collector's default first threshold (700) that import pays ~19 collections (4-5 ms of a ~90 ms
# commit-msg hook). Raised, the hook path triggers none; a long run (a gate) still collects.
HOOK_GC_THRESHOLD = 50_000


def _hook_start() -> None:
    gc.set_threshold(HOOK_GC_THRESHOLD, *gc.get_threshold()[1:])


def main() -> None:
    argv = sys.argv[1:]
    if argv[:4] == ["hook", "agent", "aider", "gate"]:  # aider's test-cmd/lint-cmd (+ file names)
        from tddhooks.commands.hook_aider import main as run_aider_gate

        sys.exit(run_aider_gate())
    if len(argv) >= 2 and argv[:2] == ["hook", "agent"]:
        _hook_start()
        from tddhooks.agenthooks.handlers import main as run_agent_hook

        sys.exit(run_agent_hook(argv[2:]))
    if len(argv) >= 2 and argv[0] == "hook" and argv[1] in {"reference-transaction", "pre-push"}:
        _hook_start()  # every branch move runs it: none of the commit hooks' imports
        from tddhooks.commands.refcheck import main as run_ref_hook

        sys.exit(run_ref_hook(argv[1:]))
    if len(argv) >= 2 and argv[0] == "hook" and not {"-h", "--help"} & set(argv[1:]):
        _hook_start()
        from tddhooks.commands.hook import main as run_hook

        sys.exit(run_hook(argv[1:]))
    from tddhooks.cli import main as run_cli

    run_cli()


if __name__ == "__main__":
    main()
