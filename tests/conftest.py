"""Shared fixtures: every test gets its own HOME, git identity and caches; cargo builds share one
target directory for the whole session so warm builds stay fast."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
from support import tripwire
from support.cpu_report import CpuRecorder
from support.repo import git, write_files

_REAL_HOME = Path.home()


def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C is answered as a terminal sends it, however the suite was started: a shell without
    job control starts `cmd &` with SIGINT ignored, the ignore is inherited across exec, and
    Python then never raises KeyboardInterrupt (measured: the Ctrl-C tests of tests/drive failed
    under `setsid nohup pytest … &` and passed in the foreground)."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    tripwire.install()
    cpu_folder = os.environ.get("TDDHOOKS_TEST_CPU")
    if cpu_folder:  # CPU seconds per test (support/cpu_report.py)
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        config.pluginmanager.register(CpuRecorder(Path(cpu_folder) / f"cpu-{worker}.tsv"))


# the tiers by what a test costs, longest first: a long test that starts last keeps one core busy
# while the others idle (scripts/test hands the workers one module at a time in this order). The
# real aider comes after the toolchain tier: scripts/test installs it beside the first tiers.
_TIERS = (frozenset({"e2e", "install"}), frozenset({"cargo", "pygate"}), frozenset({"aider"}))


def _tier(item: pytest.Item) -> int:
    names = {mark.name for mark in item.iter_markers()}
    return next((rank for rank, tier in enumerate(_TIERS) if names & tier), len(_TIERS))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """End-to-end tests first, then those that run a toolchain, then the real aider, then the
    rest; within a tier the collection order (a stable sort), so a module's tests of one tier
    stay together."""
    items.sort(key=_tier)


@pytest.fixture(scope="session")
def session_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("session")


@pytest.fixture(scope="session")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One folder for the whole run, shared by every xdist worker (each has a base temp of its
    own below it): toolchain caches that lock themselves live here, so builds stay warm."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session")
def cargo_target_dir(run_dir: Path) -> Path:
    """cargo's own lock serialises the workers that build here at once."""
    shared = os.environ.get("TDDHOOKS_TEST_CARGO_TARGET_DIR")
    path = Path(shared) if shared else run_dir / "cargo-target"
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(autouse=True)
def isolated_home(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    run_dir: Path,
    cargo_target_dir: Path,
) -> Path:
    """A private HOME with a git identity; the real toolchains stay reachable."""
    home = tmp_path / "home"
    home.mkdir()
    (home / ".gitconfig").write_text(
        "[user]\n\tname = Test Person\n\temail = person@example.com\n"
        "[init]\n\tdefaultBranch = main\n"
        "[commit]\n\tgpgsign = false\n"
        "[advice]\n\tdetachedHead = false\n"
        # no `git maintenance run --auto` after every commit: one process less per commit
        "[maintenance]\n\tauto = false\n"
        "[gc]\n\tauto = 0\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("RUSTUP_HOME", os.environ.get("RUSTUP_HOME", str(_REAL_HOME / ".rustup")))
    monkeypatch.setenv("CARGO_HOME", os.environ.get("CARGO_HOME", str(_REAL_HOME / ".cargo")))
    # installed hooks call `tddhooks`: make this interpreter's one the first on PATH
    scripts = str(Path(sys.executable).parent)
    monkeypatch.setenv("PATH", scripts + os.pathsep + os.environ.get("PATH", ""))
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("TDDHOOKS_HOME", str(home / ".tddhooks"))
    monkeypatch.setenv("TDDHOOKS_CACHE_DIR", str(home / ".tddhooks-cache"))
    # pre-commit and prek lock their store: one for the run keeps hook environments warm
    monkeypatch.setenv("PRE_COMMIT_HOME", str(run_dir / "pre-commit-home"))
    monkeypatch.setenv("PREK_HOME", str(run_dir / "prek-home"))
    monkeypatch.setenv("CARGO_TARGET_DIR", str(cargo_target_dir))
    monkeypatch.setenv("CARGO_TERM_COLOR", "never")
    for key in list(os.environ):
        if key.startswith("GIT_") or key.endswith("_API_KEY"):
            monkeypatch.delenv(key, raising=False)
    return home


@pytest.fixture(scope="session")
def tripwire_dir(session_dir: Path) -> Path:
    folder = session_dir / "tripwire"
    tripwire.write_shims(folder)
    return folder


@pytest.fixture(autouse=True)
def toolchain_tripwire(
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
    isolated_home: Path,
    tripwire_dir: Path,
) -> Iterator[None]:
    """A test that starts cargo without `@pytest.mark.cargo`, or pytest without
    `@pytest.mark.pygate`, fails (support/tripwire.py): `scripts/test --quick` relies on it."""
    allowed = tripwire.allowed_kinds(mark.name for mark in request.node.iter_markers())
    for name, value in tripwire.arm(tripwire_dir, set(tripwire.MARKER_OF) - allowed).items():
        monkeypatch.setenv(name, value)
    yield
    started = tripwire.disarm(tripwire_dir, isolated_home / ".cache")
    if started:
        pytest.fail(
            "tripwire: started without its marker (docs/dev/testing.md):\n  "
            + "\n  ".join(started),
            pytrace=False,
        )


@pytest.fixture(autouse=True)
def process_consoles() -> Iterator[None]:
    """Every test starts with tddhooks' consoles on the process streams (which CliRunner swaps):
    a test that pointed them at its own buffers (output.use_streams) once left the next test
    printing into them, so a CliRunner result read '' (order-dependent failures)."""
    from tddhooks import output

    output.use_streams()
    yield
    output.use_streams()


@pytest.fixture(autouse=True)
def forget_keys() -> Iterator[None]:
    """Keys the LLM layer registered in one test (process-wide redaction) never leak into the
    next test's output."""
    from tddhooks import keys

    yield
    keys.forget()


@pytest.fixture
def make_repo(tmp_path: Path) -> object:
    """make_repo(files, name='repo') -> a git repository with `files` committed (if any)."""

    def factory(files: Mapping[str, str] | None = None, name: str = "repo") -> Path:
        repo = tmp_path / name
        repo.mkdir()
        git(repo, "init", "-q")
        if files:
            write_files(repo, files)
            git(repo, "add", "-A")
            git(repo, "commit", "-q", "--no-verify", "-m", "chore: initial files")
        return repo

    return factory
