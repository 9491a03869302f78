"""The checks the drive applies to an agent's answer, each a named plug-in with a profile
(docs/checks.md): `registry.py` lists them, `ActiveChecks` says which are in effect."""

from __future__ import annotations

from tddhooks.drive.checks.registry import (
    CHECKS,
    PROFILES,
    ActiveChecks,
    Check,
    active_checks,
    check_of,
)

__all__ = ["CHECKS", "PROFILES", "ActiveChecks", "Check", "active_checks", "check_of"]
