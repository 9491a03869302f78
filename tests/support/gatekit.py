"""Shared by the gate security tests: a Python kata made by `tddhooks init` (made once per
session, copied per test) and real git commits through its installed hooks."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path

IDENTITY = ("-c", "user.name=Test Person", "-c", "user.email=person@example.com")
_TEMPLATES: dict[str, Path] = {}
PACKAGE = "kata"
ADD_CODE = "def add(text: str) -> int:\n    return 0\n"
ADD_TEST = (
    f'from {PACKAGE} import add\n\n\ndef test_empty_is_zero() -> None:\n    assert add("") == 0\n'
)
RED_TEST = f'from {PACKAGE} import add\n\n\ndef test_one() -> None:\n    assert add("1") == 1\n'


def python_kata(tmp_path: Path, session_dir: Path) -> Path:
    """A fresh copy of a Python string-calculator kata with tddhooks' hooks and one green
    feature committed (`add('')` is 0, in tests/test_add.py)."""
    template = _TEMPLATES.get("python")
    if template is None:
        from tddhooks.commands import init_cmd

        template = session_dir / "gatekit" / PACKAGE
        init_cmd.run(template, language="python", kata="string-calculator", direct=True)
        write(template, {f"src/{PACKAGE}/__init__.py": ADD_CODE, "tests/test_add.py": ADD_TEST})
        git(template, "add", "-A")
        done = commit(template, message("feat", "an empty string sums to zero"))
        assert done.returncode == 0, done.stdout + done.stderr
        _TEMPLATES["python"] = template
    repo = tmp_path / PACKAGE
    shutil.copytree(template, repo, symlinks=True)
    return repo


def git(
    repo: Path, *args: str, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Real git in repo, with the person's identity; env adds to the test's environment."""
    return subprocess.run(
        ["git", *IDENTITY, *args], cwd=repo, capture_output=True, text=True, timeout=600,
        env={**os.environ, **(env or {})},
    )  # fmt: skip


def write(repo: Path, files: Mapping[str, str]) -> None:
    for relative, text in files.items():
        path = repo / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def message(kind: str, summary: str, role: str = "Implementor") -> str:
    """A commit message with every section the TDD types need."""
    return (
        f"{kind}: {summary}\n\nContext:\n- Role: {role}\n- Step: 1\n- Kata goal: Sum numbers.\n\n"
        f"Rationale:\n- {summary}\n\nDiff summary:\n- src/{PACKAGE}/__init__.py: {summary}\n\n"
        "Verification:\n- pytest: all green\n"
    )


def commit(
    repo: Path, text: str, *args: str, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`git commit -F <file> ARGS` through the installed hooks."""
    path = repo.parent / "message.txt"
    path.write_bytes(text.encode("utf-8"))
    return git(repo, "commit", "-q", "-F", str(path), *args, env=env)


def head(repo: Path) -> str:
    return git(repo, "rev-parse", "HEAD").stdout.strip()


def refused(result: subprocess.CompletedProcess[str], rule: str, before: str, repo: Path) -> str:
    """The commit failed with exit 1 naming `rule`, and HEAD did not move; the output."""
    text = result.stdout + result.stderr
    assert result.returncode == 1, text
    assert rule in text, text
    assert head(repo) == before, text
    return text


def landed(result: subprocess.CompletedProcess[str], before: str, repo: Path) -> None:
    text = result.stdout + result.stderr
    assert result.returncode == 0, text
    assert head(repo) != before, text


def gate_venv(folder: Path) -> tuple[Path, Path]:
    """A fresh virtual environment that runs tddhooks, pytest and ruff (those of this test run,
    through a site dir): (its bin folder, its own site-packages, where a test may install)."""
    import sys
    import sysconfig

    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    code = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    found = subprocess.run([str(python), "-c", code], capture_output=True, text=True, check=True)
    site = Path(found.stdout.strip())
    ours = sysconfig.get_paths()["purelib"]
    (site / "zz_tddhooks.pth").write_text(f"import site; site.addsitedir({ours!r})\n", "utf-8")
    script = venv / "bin" / "tddhooks"
    script.write_text(
        f"#!{python}\nimport sys\nfrom tddhooks.entry import main\nsys.exit(main())\n",
        encoding="utf-8",
    )
    script.chmod(0o755)
    return venv / "bin", site
