"""The katas a bench runs: shipped ones (templates/katas/NAME.md with a hidden acceptance suite in
templates/acceptance/NAME/LANGUAGE/) or a user's directory holding kata.md and acceptance/."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from tddhooks.errors import UsageError

SUFFIXES = {".rs": "rust", ".py": "python"}
_PATTERNS = {"rust": "*.rs", "python": "test_*.py"}
TEMPLATE_SUFFIX = ".tmpl"
_STORED = (".rs", ".py.tmpl")
# what acceptance files write for the kata's crate/package name, filled in after the drive
CRATE = "{crate}"
PACKAGE = "{package}"

# The shipped katas aids may be developed on; every other shipped kata is held out, judged on
# only (docs/bench.md, "Development and held-out katas").
DEVELOPMENT = ("fizzbuzz", "password-validation")
SETS = ("all", "development", "held-out")


@dataclass(frozen=True)
class AcceptanceFile:
    name: str
    text: str


@dataclass(frozen=True)
class BenchKata:
    """A kata to drive and the hidden tests that score it afterwards."""

    name: str
    kata_file: Path | None  # None: a shipped kata, initialised by name
    suites: dict[str, tuple[AcceptanceFile, ...]] = field(default_factory=dict)
    given: str = ""  # the --kata DIR as the person wrote it, for messages

    def text(self) -> str:
        """The kata's Markdown ("" when it cannot be read)."""
        from tddhooks.resources import templates

        try:
            if self.kata_file is not None:
                return self.kata_file.read_text(encoding="utf-8")
            return (templates() / "katas" / f"{self.name}.md").read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return ""

    @property
    def init_argument(self) -> str:
        return str(self.kata_file) if self.kata_file is not None else self.name

    def suite(self, language: str) -> tuple[AcceptanceFile, ...]:
        suite = self.suites.get(language, ())
        if not suite:
            shown = self.given or (self.kata_file.parent if self.kata_file else "")
            where = f"--kata {shown}" if self.kata_file else f"kata {self.name!r}"
            others = sorted(other for other, files in self.suites.items() if files)
            found = "; ".join(
                f"it has {other} ones: {', '.join(f.name for f in self.suites[other])}"
                for other in others
            )
            raise UsageError(
                f"{where} has no acceptance tests for {language} (--language {language})"
                + (f"; {found}" if found else ""),
                fix=f"add {language} test files ({_PATTERNS[language]}) to its acceptance/ "
                "folder" + (f", or bench it with --language {others[0]}" if others else ""),
            )
        return suite


def shipped_bench_katas() -> list[str]:
    """Shipped katas that have an acceptance suite."""
    from tddhooks.resources import templates

    folder = templates() / "acceptance"
    if not folder.is_dir():
        return []
    return sorted(item.name for item in folder.iterdir() if item.is_dir())


def kata_set(name: str) -> list[str]:
    """The shipped bench katas of a set: `development`, `held-out` (every other one) or `all`."""
    if name not in SETS:
        raise UsageError(f"--set {name!r} is not a kata set", fix=f"sets: {', '.join(SETS)}")
    shipped = shipped_bench_katas()
    if name == "all":
        return shipped
    return [kata for kata in shipped if (kata in DEVELOPMENT) == (name == "development")]


def set_of(kata: str) -> str:
    """`development` or `held-out`, for a shipped kata's name."""
    return "development" if kata in DEVELOPMENT else "held-out"


def _shipped(name: str) -> BenchKata:
    from tddhooks.resources import templates

    suites: dict[str, tuple[AcceptanceFile, ...]] = {}
    folder = templates() / "acceptance" / name
    for language_dir in folder.iterdir():
        # Python files are stored as NAME.py.tmpl: pip must not byte-compile `{package}` imports
        files = sorted(
            (item for item in language_dir.iterdir() if item.name.endswith(_STORED)),
            key=lambda item: item.name,
        )
        suites[language_dir.name] = tuple(
            AcceptanceFile(item.name.removesuffix(TEMPLATE_SUFFIX), item.read_text("utf-8"))
            for item in files
        )
    return BenchKata(name, None, suites)


def _user_kata(directory: Path) -> BenchKata:
    kata_file, acceptance = directory / "kata.md", directory / "acceptance"
    found = {"kata.md": kata_file.is_file(), "acceptance/": acceptance.is_dir()}
    missing = [name for name, present in found.items() if not present]
    if missing:
        raise UsageError(
            f"--kata {directory}: a kata directory needs kata.md and an acceptance/ folder "
            f"({' and '.join(missing)} {'are' if len(missing) > 1 else 'is'} missing)",
            fix="put the kata description in kata.md and the hidden tests in acceptance/",
        )
    suites: dict[str, list[AcceptanceFile]] = {}
    ignored: list[str] = []
    for path in sorted(acceptance.iterdir()):
        language = SUFFIXES.get(path.suffix)
        if language is not None and path.is_file():
            text = path.read_text(encoding="utf-8")
            suites.setdefault(language, []).append(AcceptanceFile(path.name, text))
        else:
            ignored.append(path.name + ("/" if path.is_dir() else ""))
    if not suites:
        held = f" (it holds {', '.join(ignored)}: not read)" if ignored else " (it is empty)"
        raise UsageError(
            f"--kata {directory}: acceptance/ holds no test files (.rs or .py){held}",
            fix="add at least one acceptance test file directly in acceptance/: *.rs for Rust, "
            "test_*.py for Python (write {crate} or {package} where the kata's name goes)",
        )
    read = {language: tuple(files) for language, files in suites.items()}
    return BenchKata(directory.name, kata_file.resolve(), read, given=str(directory))


def resolve_bench_kata(spec: str) -> BenchKata:
    """A user's kata directory, else a shipped kata name."""
    path = Path(spec).expanduser()
    if path.is_dir():
        return _user_kata(path)
    known = shipped_bench_katas()
    if spec in known:
        return _shipped(spec)
    raise UsageError(
        f"--kata {spec}: neither a kata directory (kata.md + acceptance/) nor a shipped kata",
        fix=f"shipped katas: {', '.join(known)}",
    )
