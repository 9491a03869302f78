"""`lint: ratchet`: findings counted per file from the linters' JSON, and a commit may not add
any to a file (pure; the shapes test runs it through the hooks)."""

from __future__ import annotations

import json

import pytest

from tddhooks.errors import ConfigError
from tddhooks.policy.ratchet import added_findings, describe, lint_counts
from tddhooks.policy.settings import settings_from_text


def test_ruff_json_is_counted_per_file_of_the_tree() -> None:
    findings = [
        {"filename": "/snap/gilded_rose.py", "code": "F401"},
        {"filename": "/snap/gilded_rose.py", "code": "E711"},
        {"filename": "/snap/tests/test_g.py", "code": "F401"},
    ]
    counts = lint_counts("python", json.dumps(findings), "/snap")
    assert counts == {"gilded_rose.py": 2, "tests/test_g.py": 1}
    assert (
        describe(counts or {}) == "3 finding(s) in 2 file(s): gilded_rose.py 2, tests/test_g.py 1"
    )
    assert lint_counts("python", "error: ruff crashed", "/snap") is None


def _clippy(path: str, line: int, code: str | None, level: str = "warning") -> str:
    span = {"file_name": path, "line_start": line, "is_primary": True}
    message = {"level": level, "code": code and {"code": code}, "message": "m", "spans": [span]}
    return json.dumps({"reason": "compiler-message", "message": message})


def test_clippy_json_counts_each_finding_once() -> None:
    lines = [
        _clippy("src/old.rs", 3, "dead_code"),
        _clippy("src/old.rs", 3, "dead_code"),  # the lib's warning again in its test target
        _clippy("src/old.rs", 9, "clippy::needless_return"),
        json.dumps(
            {
                "reason": "compiler-message",
                "message": {"level": "warning", "message": "2 warnings emitted", "spans": []},
            }
        ),
        json.dumps({"reason": "build-finished", "success": True}),
    ]
    assert lint_counts("rust", "\n".join(lines), "/snap") == {"src/old.rs": 2}


def test_findings_may_only_go_down_per_file() -> None:
    before = {"a.py": 2, "b.py": 1}
    assert added_findings(before, {"a.py": 1}) == []
    assert added_findings(before, {"a.py": 2, "b.py": 2}) == ["b.py: 1 → 2 finding(s)"]
    # moving a finding to another file adds one there: the ratchet is per file
    assert added_findings(before, {"a.py": 1, "b.py": 1, "c.py": 1}) == ["c.py: 0 → 1 finding(s)"]


def test_the_ratchet_needs_the_default_linter() -> None:
    assert settings_from_text("language: python\nlint: ratchet\n").lint_mode == "ratchet"
    assert "--output-format" in settings_from_text("language: python\nlint: ratchet\n").lint
    assert settings_from_text("language: rust\n").lint_mode == "strict"
    with pytest.raises(ConfigError) as raised:
        settings_from_text("language: python\nlint: ratchet\nci:\n  check_cmd: [flake8]\n")
    assert "remove ci.check_cmd" in (raised.value.fix or "")
