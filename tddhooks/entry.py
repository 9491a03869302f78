"""The `tddhooks` console script: git hooks go straight to their handler, the rest to click.

A hook runs on every commit; click's import alone costs ~50 ms of a 150 ms budget, so
`tddhooks hook NAME ...` is dispatched before click is imported (`--help` still goes to click).
"""

from __future__ import annotations

import sys


def main() -> None:
    argv = sys.argv[1:]
    if len(argv) >= 2 and argv[:2] == ["hook", "agent"]:
        from tddhooks.agenthooks.handlers import main as run_agent_hook

        sys.exit(run_agent_hook(argv[2:]))
    if len(argv) >= 2 and argv[0] == "hook" and not {"-h", "--help"} & set(argv[1:]):
        from tddhooks.commands.hook import main as run_hook

        sys.exit(run_hook(argv[1:]))
    from tddhooks.cli import main as run_cli

    run_cli()


if __name__ == "__main__":
    main()
