"""`tddhooks init DIR`: scaffold, .gitignore, kata.md, tdd.yaml, hooks, and the first commit.

Adds only what is missing; a person's files are never overwritten, and the scaffold commit holds
only files init created (or tracked files it appended to that had no changes of their own).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from tddhooks import git, output
from tddhooks.errors import ConfigError, EnvironmentProblem, PolicyRejection, UsageError
from tddhooks.kata.title import kata_title
from tddhooks.vocabulary import MANIFESTS

DEFAULT_KATA = "string-calculator"
IGNORES = {"rust": ("target/", ".tdd/"), "python": (".tdd/", "__pycache__/", ".venv/")}
_MANIFESTS = MANIFESTS  # one home: tddhooks/vocabulary.py


@dataclass
class Plan:
    """What init did to each path, in order, and which paths the scaffold commit may hold."""

    actions: list[tuple[str, str]] = field(default_factory=list)
    committable: list[str] = field(default_factory=list)
    blocker: str | None = None  # why no scaffold commit can be made now

    def record(self, path: str, action: str, *, commit: bool) -> None:
        self.actions.append((path, action))
        if commit:
            self.committable.append(path)


def project_name(directory_name: str) -> str:
    """A package/crate name from a directory name: ASCII lower case, digits and underscores."""
    name = re.sub(r"[^a-z0-9]+", "_", directory_name.lower()).strip("_")
    name = name.lstrip("0123456789_")
    return name or "kata"


def shipped_katas() -> list[str]:
    """Names of the katas that ship with tddhooks (templates/katas/NAME.md)."""
    from tddhooks.resources import templates

    folder = templates() / "katas"
    if not folder.is_dir():
        return []
    return sorted(item.name[:-3] for item in folder.iterdir() if item.name.endswith(".md"))


def resolve_kata(kata: str) -> tuple[str, str]:
    """(Markdown text, fallback title) of a kata FILE or a shipped kata NAME."""
    path = Path(kata).expanduser()
    if path.is_file():
        try:
            return path.read_text(encoding="utf-8"), path.stem.replace("-", " ")
        except (OSError, UnicodeDecodeError) as error:
            raise UsageError(f"--kata {kata}: cannot read: {error}") from error
    names = shipped_katas()
    if kata in names:
        from tddhooks.resources import read_template

        return read_template(f"katas/{kata}.md"), kata.replace("-", " ")
    if "/" in kata or kata.endswith(".md"):
        raise UsageError(f"--kata {kata}: no such file", fix="give an existing Markdown file")
    raise UsageError(
        f"--kata {kata}: not a file and not a shipped kata",
        fix=f"use a Markdown file, or one of: {', '.join(names) or '(none shipped)'}",
    )


def _status(root: Path, path: str) -> str:
    """`git status --porcelain` code of one path ('' when tracked and unchanged)."""
    return git.out(["status", "--porcelain", "--", path], root).strip()[:2]


def _pick_language(directory: Path, language: str | None) -> str:
    from tddhooks.config import CONFIG_FILE, load_config
    from tddhooks.runners import detected_languages

    manifests = detected_languages(directory)
    detected = next(iter(manifests), None) if len(manifests) == 1 else language
    configured = load_config(directory).language if (directory / CONFIG_FILE).exists() else None
    for source, found in (("tdd.yaml", configured), ("the project manifest", detected)):
        if language and found and found != language:
            raise UsageError(
                f"{directory} is already a {found} project ({source}); --language {language} "
                "does not match",
                fix=f"pass --language {found}, or choose an empty directory",
            )
    return language or configured or detected or "rust"


def _ensure_repo(directory: Path) -> Path:
    root = git.find_root(directory)
    if root is not None and root.resolve() == directory.resolve():
        return root
    if root is not None:
        inside = directory.resolve().relative_to(root.resolve()).as_posix()
        output.warn(
            f"{directory} is inside the repository {root}; making it a repository of its own. "
            f"`git add -A` there would record it as an embedded repository: add {inside}/ to "
            f"{root / '.gitignore'} (or keep the kata outside {root})"
        )
    git.run_git(["init", "-q"], directory)
    return git.require_root(directory)


def _write_new(root: Path, relative: str, text: str, plan: Plan) -> None:
    path = root / relative
    if path.exists():
        _keep(root, relative, plan)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    plan.record(relative, "created", commit=True)


def _keep(root: Path, relative: str, plan: Plan) -> None:
    """An existing tdd.yaml or kata file: the hooks judge by the committed one, so one that git
    does not track yet joins the scaffold commit; one with uncommitted edits is the person's."""
    state = _status(root, relative)
    if state == "??":
        plan.record(relative, "kept (yours, untracked: part of this commit)", commit=True)
    elif state:
        plan.record(relative, "kept (uncommitted edits of yours: commit them yourself)",
                    commit=False)  # fmt: skip
    elif not git.out(["ls-files", "--", f":(literal){relative}"], root):
        plan.record(relative, "kept (git ignores it, so the hooks never see it: "
                    f"`git add -f {relative}` and commit it)", commit=False)  # fmt: skip
    else:
        plan.record(relative, "kept", commit=False)


def _gitignore(root: Path, language: str, plan: Plan, created_before: bool) -> None:
    path = root / ".gitignore"
    existing = path.read_text(encoding="utf-8") if path.exists() else None
    present = {line.strip() for line in (existing or "").splitlines()}
    missing = [line for line in IGNORES[language] if line not in present]
    if existing is None:
        path.write_text("\n".join(missing) + "\n", encoding="utf-8")
        plan.record(".gitignore", "created", commit=True)
    elif missing:
        clean_before = created_before or _status(root, ".gitignore") == ""
        prefix = "" if not existing or existing.endswith("\n") else "\n"
        path.write_text(existing + prefix + "\n".join(missing) + "\n", encoding="utf-8")
        if not created_before:
            plan.record(".gitignore", "appended " + ", ".join(missing), commit=clean_before)
    elif not created_before:
        plan.record(".gitignore", "kept", commit=False)


def run(directory: Path, *, language: str | None, kata: str | None, direct: bool) -> int:
    """Make `directory` a kata repository; adds what is missing and reports what it did."""
    from tddhooks.config import CONFIG_FILE, default_config_yaml, load_config
    from tddhooks.runners import get_runner

    # flags and tdd.yaml are checked before anything is created
    given = resolve_kata(kata) if kata is not None else None
    directory = directory.expanduser().resolve()
    language = _pick_language(directory, language)
    directory.mkdir(parents=True, exist_ok=True)
    root = _ensure_repo(directory)
    config = load_config(root)
    kata_file = config.kata_description if (root / CONFIG_FILE).exists() else "kata.md"
    if (root / kata_file).exists():
        kata_text = (root / kata_file).read_text(encoding="utf-8", errors="replace")
        fallback = root.name
        if given is not None and given[0] != kata_text:
            output.warn(f"{kata_file} exists and differs from --kata {kata}; keeping yours")
    else:
        kata_text, fallback = given or resolve_kata(DEFAULT_KATA)
    title = kata_title(kata_text, fallback)
    user_staged = _has_staged_changes(root)
    plan = Plan()

    runner = get_runner(language)
    manifest = next((m for m in _MANIFESTS[language] if (root / m).exists()), None)
    if manifest is None:
        for written in runner.scaffold(root, project_name(root.name)):
            relative = Path(written)
            relative = relative.relative_to(root) if relative.is_absolute() else relative
            plan.record(relative.as_posix(), "created", commit=True)
    else:
        plan.record(manifest, "kept (project exists: no scaffold)", commit=False)
    _gitignore(root, language, plan, ".gitignore" in plan.committable)
    _write_new(root, kata_file, kata_text, plan)
    _write_new(root, CONFIG_FILE, default_config_yaml(language, kata_file), plan)
    _install_hooks(root, direct, plan)
    _report(plan)
    _commit(root, plan, f"chore: scaffold {title} kata ({language})", language, user_staged)
    return 0


def _install_hooks(root: Path, direct: bool, plan: Plan) -> None:
    from tddhooks.commands.install import install_hooks
    from tddhooks.commands.precommit_config import CONFIG_FILE

    config = root / CONFIG_FILE
    before = config.read_text(encoding="utf-8") if config.exists() else None
    clean_before = before is not None and _status(root, CONFIG_FILE) == ""
    install_hooks(root, direct=direct, suggest_commit=False)
    after = config.read_text(encoding="utf-8") if config.exists() else None
    if before is None and after is not None:
        plan.record(CONFIG_FILE, "created", commit=True)
    elif before != after:
        plan.record(CONFIG_FILE, "added the tddhooks hooks", commit=clean_before)
        if not clean_before:
            plan.blocker = f"{CONFIG_FILE} has changes of yours, and pre-commit will not run "
            plan.blocker += "while it is unstaged"
    elif after is not None:
        plan.record(CONFIG_FILE, "kept", commit=False)
    plan.record("git hooks", "installed (shims; nothing stashed)", commit=False)


def _report(plan: Plan) -> None:
    from rich.table import Table

    table = Table(title="tddhooks init", show_header=True)
    table.add_column("path")
    table.add_column("action")
    for path, action in plan.actions:
        style = "green" if action == "created" else ("yellow" if action != "kept" else "dim")
        table.add_row(path, f"[{style}]{action}[/{style}]")
    output.console().print(table)


def _has_staged_changes(root: Path) -> bool:
    if git.head(root) is None:
        return bool(git.out(["ls-files"], root).strip())
    return not git.run_git(["diff", "--cached", "--quiet"], root, check=False).ok


_GATE_CANNOT_RUN = re.compile(r"^error: cannot run the \w+ step `", re.MULTILINE)


def _commit(root: Path, plan: Plan, message: str, language: str, user_staged: bool) -> None:
    paths = list(dict.fromkeys(plan.committable))
    if not paths:
        output.say("nothing new to commit")
        return
    if user_staged or plan.blocker:
        why = plan.blocker or "you have staged changes of your own"
        output.warn(
            f"not committing: {why}; commit the files above yourself: "
            f"`git add {' '.join(paths)} && git commit -m '{message}'`"
        )
        return
    manifests = _MANIFESTS[language]
    in_head = git.head(root) is not None and bool(
        git.out(["ls-tree", "--name-only", "HEAD", "--", *manifests], root)
    )
    if not in_head and not any(path in manifests for path in paths):
        output.warn(
            "not committing: your project files are not committed yet, and the scaffold commit "
            f"never includes them; review, then `git add -A && git commit -m '{message}'`"
        )
        return
    git.run_git(["add", "--", *paths], root)
    result = git.run_git(
        [*_identity(root), "commit", "-q", "-m", message],
        root,
        check=False,
        env_extra={"PATH": git.commit_env()["PATH"]},
    )
    if not result.ok:
        # the gate could not run (a missing tool or toolchain): exit 3, not a rejection; the
        # hook's own exit code is lost in git's, its words are not (policy/envcheck.py, gate.py)
        broken = _GATE_CANNOT_RUN.search(result.output) is not None
        raise (EnvironmentProblem if broken else PolicyRejection)(
            f"the scaffold commit was rejected in {root}:\n{result.output.strip()[-3000:]}",
            fix=f"fix what the hooks report (the files stay staged), then "
            f"`git commit -m '{message}'`",
        )
    output.ok(f"committed {git.out(['rev-parse', '--short', 'HEAD'], root)} {message}")


def _identity(root: Path) -> list[str]:
    """Commit as the person; when git knows no identity, as the agents' identity from tdd.yaml."""
    from tddhooks.config import load_config

    if git.run_git(["config", "user.email"], root, check=False).stdout.strip():
        return []
    commit = load_config(root).commit
    output.warn(
        f"git has no user.email here; committing as {commit.author_name} <{commit.author_email}>"
    )
    if not commit.author_email:
        raise ConfigError("tdd.yaml: commit.author_email is empty")
    return ["-c", f"user.name={commit.author_name}", "-c", f"user.email={commit.author_email}"]
