"""A Python kata whose ops.py holds a test beside its code (pytest collects it)."""

from __future__ import annotations

PYPROJECT = (
    '[project]\nname = "calc"\nversion = "0.1.0"\n\n[tool.pytest.ini_options]\n'
    'pythonpath = ["src"]\npython_files = ["test_*.py", "ops.py"]\n'
)
OPS = (
    "def sub(a: int, b: int) -> int:\n    return a - b\n\n\n"
    "def test_sub() -> None:\n    assert sub(5, 3) == 2\n"
)
