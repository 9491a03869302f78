"""The one kit of the security tests: installed katas (built once per session in a home of their
own, copied per test with their gate state), real git commits through the installed hooks, and
the one way to commit with every hook off."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

IDENTITY = ("-c", "user.name=Test Person", "-c", "user.email=person@example.com")
PACKAGE = "kata"
ADD_CODE = "def add(text: str) -> int:\n    return 0\n"
ADD_TEST = (
    f'from {PACKAGE} import add\n\n\ndef test_empty_is_zero() -> None:\n    assert add("") == 0\n'
)
RED_TEST = f'from {PACKAGE} import add\n\n\ndef test_one() -> None:\n    assert add("1") == 1\n'
RUST_ADD_TEST = '#[test]\nfn empty_is_zero() {\n    assert_eq!(CRATE::add(""), 0);\n}\n'
RUST_ADD_CODE = "//! kata\npub fn add(_text: &str) -> i32 {\n    0\n}\n"
# every hook off through git's environment (core.hooksPath): history made "past the hooks",
# which `--no-verify` no longer makes (the reference-transaction hook judges it on landing)
UNHOOKED = {"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "core.hooksPath",
            "GIT_CONFIG_VALUE_0": os.devnull}  # fmt: skip
_HOME_VARIABLES = {
    "HOME": ".",
    "XDG_CACHE_HOME": ".cache",
    "TDDHOOKS_HOME": ".tddhooks",
    "TDDHOOKS_CACHE_DIR": ".tddhooks-cache",
}


@dataclass(frozen=True)
class _Template:
    repo: Path
    private: Path  # the gate's private folder of repo (snapshot, verdicts)
    secret: Path  # the sealing secret that sealed repo's records


_TEMPLATES: dict[str, _Template] = {}
_HOME: dict[str, Path] = {}
Setup = Callable[[Path], None]


def python_kata(
    tmp_path: Path, session_dir: Path, *, scaffold: str = "init", setup: Setup | None = None
) -> Path:
    """A fresh copy of an installed Python kata. scaffold "init": `tddhooks init`'s
    string-calculator with one judged feature (`add('')` is 0, tests/test_add.py); "calc": the
    `calc` kata of support.pykata committed past the hooks, then `tddhooks install`. setup, when
    given, adds history through the hooks once, before the copy."""
    build = {"init": _python_init, "calc": _python_calc}[scaffold]
    return kata_copy(tmp_path, session_dir, f"python-{scaffold}", build, setup)


def rust_kata(
    tmp_path: Path, session_dir: Path, *, direct: bool = True, feature: bool = False
) -> Path:
    """A fresh copy of `tddhooks init`'s Rust string-calculator (direct hooks, or through the
    pre-commit framework); with feature, one judged commit where `add("")` is 0 (tests/add.rs)."""
    name = f"rust-{'direct' if direct else 'framework'}"
    return kata_copy(tmp_path, session_dir, name, lambda repo: _rust_init(repo, direct),
                     _rust_feature if feature else None)  # fmt: skip


@pytest.fixture(name="kata")
def python_kata_fixture(tmp_path: Path, session_dir: Path) -> Path:
    """`kata`: python_kata's default, for a module that imports this fixture."""
    return python_kata(tmp_path, session_dir)


@pytest.fixture(name="kata")
def calc_kata_fixture(tmp_path: Path, session_dir: Path) -> Path:
    """`kata`: python_kata's `calc` scaffold, for a module that imports this fixture."""
    return python_kata(tmp_path, session_dir, scaffold="calc")


@pytest.fixture(name="kata")
def rust_feature_kata_fixture(tmp_path: Path, session_dir: Path) -> Path:
    """`kata`: the Rust kata with its one judged feature, for a module that imports this."""
    return rust_kata(tmp_path, session_dir, feature=True)


def kata_copy(tmp_path: Path, session_dir: Path, name: str, build: Setup,
              setup: Setup | None = None) -> Path:  # fmt: skip
    """tmp_path/kata as `build` (which makes the repository at the path it is given) then `setup`
    left it, built once per session under `name`, as if made in this test: the gate's private
    folder and the secret that sealed its records come along, so nothing is judged again."""
    if setup is not None:
        name += f"+{setup.__module__}.{setup.__qualname__}"
    template = _TEMPLATES.get(name)
    if template is None:
        template = _build(session_dir / "katas", name.replace("/", "_"), build, setup)
        _TEMPLATES[name] = template
    from tddhooks.errors import state_home
    from tddhooks.policy.snapshot import private_dir

    repo = tmp_path / PACKAGE
    shutil.copytree(template.repo, repo, symlinks=True)
    if template.private.is_dir():
        # the ruff cache its gate left is no part of the state, and it is the trace by which the
        # tripwire sees a Python gate this test ran (support/tripwire.py)
        shutil.copytree(template.private, private_dir(repo), symlinks=True, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns(".ruff_cache"))  # fmt: skip
        _refresh_snapshot(repo)
    if template.secret.is_file():
        secret = state_home() / "secret"
        if secret.exists():
            assert secret.read_bytes() == template.secret.read_bytes(), "a second secret"
        else:
            secret.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            shutil.copy2(template.secret, secret)
    return repo


def _refresh_snapshot(repo: Path) -> None:
    """The copied snapshot's index takes the copies' file stats, so the gate rewrites no file
    and cargo's copied target folder (its fingerprints name no folder) stays fresh."""
    from tddhooks.policy.snapshot import gate_dirs, snapshot_env

    snapshot = gate_dirs(repo)[0]
    if snapshot.is_dir():
        env = {**os.environ, **snapshot_env(snapshot)}
        subprocess.run(["git", "update-index", "-q", "--refresh"], cwd=snapshot, env=env,
                       capture_output=True, check=False)  # fmt: skip


def _build(folder: Path, name: str, build: Setup, setup: Setup | None) -> _Template:
    """Every template shares the first one's home (one secret, so a test may copy several)."""
    repo = folder / name / PACKAGE
    repo.parent.mkdir(parents=True)
    _HOME.setdefault("home", folder / "home")
    with _home_of_its_own(_HOME["home"]):
        from tddhooks.errors import state_home
        from tddhooks.policy.snapshot import private_dir

        build(repo)
        if setup is not None:
            setup(repo)
        return _Template(repo, private_dir(repo), state_home() / "secret")


@contextmanager
def _home_of_its_own(home: Path) -> Iterator[None]:
    """HOME, caches and TDDHOOKS_HOME in home for the block (the test's own stay untouched)."""
    home.mkdir(parents=True, exist_ok=True)
    gitconfig = Path(os.environ["HOME"]) / ".gitconfig"
    if gitconfig.is_file() and not (home / ".gitconfig").exists():
        shutil.copy2(gitconfig, home / ".gitconfig")
    with pytest.MonkeyPatch.context() as patch:
        for variable, relative in _HOME_VARIABLES.items():
            patch.setenv(variable, str((home / relative).resolve()))
        yield


def _python_init(repo: Path) -> None:
    from tddhooks.commands import init_cmd

    init_cmd.run(repo, language="python", kata="string-calculator", direct=True)
    write(repo, {f"src/{PACKAGE}/__init__.py": ADD_CODE, "tests/test_add.py": ADD_TEST})
    git(repo, "add", "-A")
    done = commit(repo, message("feat", "an empty string sums to zero"))
    assert done.returncode == 0, done.stdout + done.stderr


def _python_calc(repo: Path) -> None:
    from support.pykata import FILES
    from tddhooks.commands.install import install_hooks

    repo.mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    write(repo, FILES)
    git(repo, "add", "-A")
    unhooked_commit(repo, "chore: initial files")
    install_hooks(repo)


def _rust_init(repo: Path, direct: bool) -> None:
    from tddhooks.commands import init_cmd

    init_cmd.run(repo, language="rust", kata="string-calculator", direct=direct)


def _rust_feature(repo: Path) -> None:
    crate = crate_of(repo)
    files = {"tests/add.rs": RUST_ADD_TEST, "src/lib.rs": RUST_ADD_CODE}
    write(repo, {path: text.replace("CRATE", crate) for path, text in files.items()})
    git(repo, "add", "-A")
    done = commit(repo, message("feat", "an empty string sums to zero", check="cargo test"))
    assert done.returncode == 0, done.stdout + done.stderr


def crate_of(repo: Path) -> str:
    """The Rust kata's crate name as code spells it."""
    for line in (repo / "Cargo.toml").read_text(encoding="utf-8").splitlines():
        if line.startswith("name"):
            return line.split('"')[1].replace("-", "_")
    raise AssertionError("no package name")


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


def message(kind: str, summary: str, role: str = "Implementor", *, check: str = "pytest") -> str:
    """A commit message with every section the TDD types need."""
    changed = "src/lib.rs" if check == "cargo test" else f"src/{PACKAGE}/__init__.py"
    return (
        f"{kind}: {summary}\n\nContext:\n- Role: {role}\n- Step: 1\n- Kata goal: Sum numbers.\n\n"
        f"Rationale:\n- {summary}\n\nDiff summary:\n- {changed}: {summary}\n\n"
        f"Verification:\n- {check}: all green\n"
    )


def commit(
    repo: Path, text: str, *args: str, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`git commit -F <file> ARGS` through the installed hooks."""
    path = repo.parent / "message.txt"
    path.write_bytes(text.encode("utf-8"))
    return git(repo, "commit", "-q", "-F", str(path), *args, env=env)


def unhooked_commit(repo: Path, text: str, *args: str) -> str:
    """Commit what is staged with every hook off (no hook judges it); the new HEAD."""
    done = commit(repo, text, *args, env=UNHOOKED)
    assert done.returncode == 0, done.stdout + done.stderr
    return head(repo)


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
