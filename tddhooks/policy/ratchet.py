"""`lint: ratchet` (docs/gate.md, "A legacy repository: lint: ratchet"): the linter's findings
are counted per file, and a commit may not add findings to any file.

The gate runs the linter with machine-readable output (`ruff check --output-format json`,
`cargo clippy --message-format json`), counts the findings per file of the tree, and passes the
lint step; the hooks and `audit` then compare the counts with those of the parent's tree. The
counting is pure; the comparison reads two verdicts.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable

TYPE_CHECKING = False  # not typing's: the hook path does not import typing; mypy reads it
if TYPE_CHECKING:
    from tddhooks.policy.settings import PolicySettings
    from tddhooks.policy.verdicts import Verdict

STRICT = "strict"
RATCHET = "ratchet"
LINT_MODES = (STRICT, RATCHET)


def ratchet_command(language: str) -> tuple[str, ...]:
    """The linter with JSON output and findings that do not fail the command by themselves."""
    if language == "python":
        return (
            sys.executable,
            "-m",
            "ruff",
            "check",
            "--output-format",
            "json",
            "--exit-zero",
            ".",
        )
    return ("cargo", "clippy", "--all-targets", "--quiet", "--message-format", "json")


def _ruff_counts(output: str, workdir: str) -> dict[str, int] | None:
    start = output.find("[")
    try:
        findings = json.loads(output[start:]) if start >= 0 else None
    except ValueError:
        return None
    if not isinstance(findings, list):
        return None
    counts: dict[str, int] = {}
    for finding in findings:
        name = finding.get("filename") if isinstance(finding, dict) else None
        if isinstance(name, str):
            path = os.path.relpath(name, workdir).replace(os.sep, "/")
            counts[path] = counts.get(path, 0) + 1
    return counts


def _clippy_counts(output: str) -> dict[str, int]:
    seen: set[tuple[str, int, str]] = set()  # a lib's warning also shows in its test target
    for line in output.splitlines():
        if not line.startswith("{"):
            continue
        try:
            record = json.loads(line)
        except ValueError:
            continue
        message = record.get("message") if record.get("reason") == "compiler-message" else None
        if not isinstance(message, dict) or message.get("level") not in ("warning", "error"):
            continue
        primary = [span for span in message.get("spans") or [] if span.get("is_primary")]
        if not primary:
            continue  # "N warnings emitted", "aborting due to …"
        code = (message.get("code") or {}).get("code") or message.get("message", "")
        first = primary[0]
        seen.add((str(first.get("file_name")), int(first.get("line_start") or 0), str(code)))
    counts: dict[str, int] = {}
    for path, _line, _code in seen:
        counts[path] = counts.get(path, 0) + 1
    return counts


def rendered(output: str) -> str:
    """The human text of JSON linter output (clippy's `rendered` fields), else output as is."""
    texts = []
    for line in output.splitlines():
        if line.startswith("{"):
            try:
                text = json.loads(line).get("message", {}).get("rendered")
            except (ValueError, AttributeError):
                text = None
            if isinstance(text, str):
                texts.append(text)
        else:
            texts.append(line)
    return "\n".join(texts)


def lint_counts(language: str, output: str, workdir: str) -> dict[str, int] | None:
    """path -> number of findings in the linter's JSON output; None when it is not JSON the
    counting understands (the linter failed before judging)."""
    if language == "python":
        return _ruff_counts(output, workdir)
    return _clippy_counts(output)


def describe(counts: dict[str, int]) -> str:
    """'3 finding(s) in 2 file(s): a.py 2, b.py 1' (the most first)."""
    if not counts:
        return "no findings"
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    shown = ", ".join(f"{path} {count}" for path, count in ranked[:6])
    more = " …" if len(ranked) > 6 else ""
    return f"{sum(counts.values())} finding(s) in {len(counts)} file(s): {shown}{more}"


def added_findings(before: dict[str, int], after: dict[str, int]) -> list[str]:
    """The files with more findings after than before, as 'path: 1 → 2 finding(s)' (pure)."""
    return [
        f"{path}: {before.get(path, 0)} → {count} finding(s)"
        for path, count in sorted(after.items())
        if count > before.get(path, 0)
    ]


def ratchet_problems(
    settings: PolicySettings, after: Verdict, verdict_of: Callable[[], Verdict | None]
) -> list[str]:
    """Under `lint: ratchet`, the files to which `after` adds findings against the parent's
    verdict (`verdict_of`, asked only when needed; None for a root commit). A parent whose
    findings could not be counted (its linter did not run) has nothing to compare with."""
    if settings.lint_mode != RATCHET or after.lint_findings is None:
        return []
    before = verdict_of()
    if before is None or before.lint_findings is None:
        return []
    return added_findings(before.lint_findings, after.lint_findings)


def ratchet_message(problems: list[str]) -> str:
    """What the hooks and audit say when a commit adds lint findings."""
    return (
        "lint: ratchet: this commit adds lint findings to "
        + "; ".join(problems[:6])
        + (" …" if len(problems) > 6 else "")
        + " (findings may only go down: fix them, or leave that code as it was)"
    )
