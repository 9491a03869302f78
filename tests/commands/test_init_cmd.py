"""`tddhooks init`: new kata repositories (real cargo, real pytest) and existing projects."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from support.pykata import FILES
from support.repo import git, write_files

from tddhooks import output
from tddhooks.cli import cli
from tddhooks.commands.hook_files import SHIM_TYPES
from tddhooks.commands.init_cmd import project_name
from tddhooks.commands.install import hooks_status
from tddhooks.config import load_config
from tddhooks.kata.title import kata_title

MakeRepo = Callable[..., Path]
ALL_HOOKS = SHIM_TYPES


@pytest.fixture(autouse=True)
def wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    output.use_streams()


def init(*args: str) -> Result:
    return CliRunner().invoke(cli, ["init", *args], catch_exceptions=False)


def flat(text: str) -> str:
    """Terminal output on one line, table borders removed."""
    return " ".join(text.replace("│", " ").split())


def subjects(repo: Path) -> list[str]:
    return git(repo, "log", "--format=%s").stdout.splitlines()


def committed_files(repo: Path, rev: str = "HEAD") -> list[str]:
    return sorted(git(repo, "show", "--name-only", "--format=", rev).stdout.split())


@pytest.mark.cargo
def test_init_rust_makes_a_green_scaffold_commit(tmp_path: Path) -> None:
    repo = tmp_path / "String Kata ü"
    result = init(str(repo), "--language", "rust")
    assert result.exit_code == 0, result.output
    assert subjects(repo) == ["chore: scaffold String Calculator kata (rust)"]
    assert git(repo, "status", "--porcelain").stdout == ""
    files = committed_files(repo)
    for path in ("Cargo.toml", "src/lib.rs", ".gitignore", "kata.md", "tdd.yaml"):
        assert path in files
    assert ".pre-commit-config.yaml" not in files  # shims: nothing for the framework
    assert re.search(r'name = "string[-_]kata"', (repo / "Cargo.toml").read_text("utf-8"))
    assert (repo / ".gitignore").read_text("utf-8").splitlines() == ["target/", ".tdd/"]
    assert "# String Calculator" in (repo / "kata.md").read_text("utf-8")
    assert load_config(repo).language == "rust"
    assert hooks_status(repo) == dict.fromkeys(ALL_HOOKS, "direct")
    # the commit went through the gate, which left a green verdict for status to show
    status = CliRunner().invoke(cli, ["status", "-C", str(repo)])
    text = flat(status.output)
    assert status.exit_code == 0
    assert "phase green" in text
    assert "HEAD's tree: green" in text
    assert "cargo test" in text


@pytest.mark.pygate
def test_init_python_makes_a_green_scaffold_commit(tmp_path: Path) -> None:
    repo = tmp_path / "bowling"
    result = init(str(repo), "--language", "python", "--kata", "bowling")
    assert result.exit_code == 0, result.output
    assert subjects(repo) == ["chore: scaffold Bowling Score kata (python)"]
    assert git(repo, "status", "--porcelain").stdout == ""
    assert "pyproject.toml" in committed_files(repo)
    assert (repo / ".gitignore").read_text("utf-8").splitlines() == [
        ".tdd/", "__pycache__/", ".venv/",
    ]  # fmt: skip
    assert load_config(repo).language == "python"


@pytest.mark.pygate
def test_init_in_an_existing_repository_commits_only_what_it_created(
    make_repo: MakeRepo, tmp_path: Path
) -> None:
    project = {k: v for k, v in FILES.items() if k not in ("tdd.yaml", "kata.md")}
    repo = make_repo({**project, "README.md": "mine\n"})
    kata = tmp_path / "addition.md"
    kata.write_text("# Kata: Addition für alle\n\nAdd two numbers.\n", "utf-8")
    write_files(repo, {"README.md": "mine, edited\n", "notes ü.txt": "untracked\n"})
    result = init(str(repo), "--kata", str(kata), "--direct")
    assert result.exit_code == 0, result.output
    assert subjects(repo)[0] == "chore: scaffold Addition für alle kata (python)"
    assert committed_files(repo) == ["kata.md", "tdd.yaml"]
    assert (repo / "kata.md").read_text("utf-8") == kata.read_text("utf-8")
    assert (repo / "README.md").read_text("utf-8") == "mine, edited\n"
    assert git(repo, "status", "--porcelain").stdout.splitlines() == [
        " M README.md", '?? "notes \\303\\274.txt"',
    ]  # fmt: skip
    assert hooks_status(repo) == dict.fromkeys(ALL_HOOKS, "direct")
    again = init(str(repo), "--direct")
    assert again.exit_code == 0, again.output
    assert "nothing new to commit" in again.output
    assert len(subjects(repo)) == 2


@pytest.mark.pygate
def test_a_kata_inside_another_repository_says_how_to_keep_it_out_of_that_one(
    make_repo: MakeRepo,
) -> None:
    outer = make_repo({"README.md": "my katas\n"})
    result = init(str(outer / "katas" / "roman"), "--language", "python", "--kata", "fizzbuzz")
    assert result.exit_code == 0, result.output
    assert subjects(outer / "katas" / "roman") == ["chore: scaffold FizzBuzz kata (python)"]
    warning = flat(result.stderr)
    assert f"is inside the repository {outer}; making it a repository of its own" in warning
    # git add -A in the outer repository would record the kata as an embedded repository
    assert f"add katas/roman/ to {outer / '.gitignore'}" in warning
    assert git(outer, "status", "--porcelain").stdout == "?? katas/\n"  # the outer one untouched


def test_init_on_an_existing_project_keeps_its_files(tmp_path: Path) -> None:
    project = tmp_path / "project"
    mine = {
        "Cargo.toml": '[package]\nname = "mine"\nversion = "1.0.0"\n',
        "src/main.rs": "fn main() {}\n",
        "kata.md": "# Meine Kata\n",
        ".gitignore": "target/\n/dist",
    }
    write_files(project, mine)
    result = init(str(project))
    assert result.exit_code == 0, result.output
    for path, text in mine.items():
        if path != ".gitignore":
            assert (project / path).read_text("utf-8") == text
    assert (project / ".gitignore").read_text("utf-8") == "target/\n/dist\n.tdd/\n"
    assert load_config(project).language == "rust"  # detected from Cargo.toml
    assert not (project / "src" / "lib.rs").exists()  # no scaffold over a project
    text = flat(result.output)
    assert "Cargo.toml kept" in text
    assert "tdd.yaml created" in text
    assert "not committing" in text
    assert git(project, "rev-parse", "-q", "--verify", "HEAD", check=False).returncode != 0


def test_init_leaves_the_persons_staged_changes_alone(make_repo: MakeRepo) -> None:
    repo = make_repo({k: v for k, v in FILES.items() if k != "tdd.yaml"})
    write_files(repo, {"src/calc/__init__.py": "X = 1\n"})
    git(repo, "add", "src/calc/__init__.py")
    result = init(str(repo), "--direct")
    assert result.exit_code == 0, result.output
    assert subjects(repo) == ["chore: initial files"]
    assert "staged changes of your own" in flat(result.output)
    staged = git(repo, "diff", "--cached", "--name-only").stdout.split()
    assert staged == ["src/calc/__init__.py"]
    assert (repo / "tdd.yaml").exists()


def test_an_unknown_kata_name_lists_the_shipped_ones(tmp_path: Path) -> None:
    result = init(str(tmp_path / "k"), "--kata", "tennis")
    assert result.exit_code == 2
    assert "tennis" in result.output
    for name in (
        "bowling", "fizzbuzz", "game-of-life", "mars-rover", "password-validation",
        "string-calculator",
    ):  # fmt: skip
        assert name in result.output
    assert not (tmp_path / "k").exists()  # nothing is created for a wrong flag


def test_a_missing_kata_file_is_a_usage_error(tmp_path: Path) -> None:
    result = init(str(tmp_path / "k"), "--kata", str(tmp_path / "nowhere.md"))
    assert result.exit_code == 2
    assert "no such file" in result.output
    assert not (tmp_path / "k").exists()


def test_a_language_that_contradicts_the_project_is_refused(tmp_path: Path) -> None:
    write_files(tmp_path, {"Cargo.toml": "[package]\nname = 'x'\n"})
    result = init(str(tmp_path), "--language", "python")
    assert result.exit_code == 2
    assert "--language rust" in result.output
    assert not (tmp_path / "tdd.yaml").exists()
    assert not (tmp_path / ".git").exists()


@pytest.mark.parametrize(
    ("directory", "name"),
    [
        ("bowling", "bowling"),
        ("String Kata ü", "string_kata"),
        ("Mars-Rover", "mars_rover"),
        ("2048-game", "game"),
        ("über", "ber"),
        ("日本", "kata"),
        ("___", "kata"),
    ],
)
def test_project_name(directory: str, name: str) -> None:
    assert project_name(directory) == name


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("# Bowling Score\n\nRules.", "Bowling Score"),
        ("Intro\n# Mars Rover Kata\n", "Mars Rover"),
        ("# Kata: Römische Zahlen\n", "Römische Zahlen"),
        ("## Only a subheading\n", "fallback"),
        ("# \n", "fallback"),
    ],
)
def test_kata_title(text: str, title: str) -> None:
    assert kata_title(text, "fallback") == title


@pytest.mark.pygate
def test_init_leaves_their_pre_commit_config_and_its_unstaged_edit_alone(
    make_repo: MakeRepo,
) -> None:
    config = (
        "repos:\n- repo: local\n  hooks:\n  - {id: x, name: x, entry: 'true', language: system}\n"
    )
    repo = make_repo({**FILES, ".pre-commit-config.yaml": config})
    (repo / "tdd.yaml").unlink()
    git(repo, "commit", "-q", "-a", "--no-verify", "-m", "chore: no tdd.yaml yet")
    (repo / ".pre-commit-config.yaml").write_text(config + "# mine, unstaged\n", "utf-8")
    result = init(str(repo))
    assert result.exit_code == 0, result.output
    assert subjects(repo)[0].startswith("chore: scaffold")
    assert ".pre-commit-config.yaml" not in committed_files(repo)
    assert (repo / ".pre-commit-config.yaml").read_text("utf-8") == config + "# mine, unstaged\n"
    assert git(repo, "status", "--porcelain").stdout == " M .pre-commit-config.yaml\n"


def test_a_broken_tdd_yaml_stops_init_before_anything_is_written(tmp_path: Path) -> None:
    project = tmp_path / "project"
    write_files(project, {"tdd.yaml": "language: rust\nsteps: -1\n"})
    result = init(str(project))
    assert result.exit_code == 2
    assert "field 'steps'" in flat(result.output)
    assert sorted(p.name for p in project.iterdir()) == ["tdd.yaml"]


@pytest.mark.cargo
def test_a_toolchain_that_cannot_run_is_exit_3_not_a_rejection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The gate could not judge the scaffold (its hook exits 3, git's commit only 1): init says
    environment problem, exit 3, and leaves the scaffold staged for the commit it names."""
    monkeypatch.setenv("RUSTUP_TOOLCHAIN", "nightly-2020-01-01")  # not installed
    repo = tmp_path / "kata"
    result = init(str(repo), "--language", "rust")
    assert result.exit_code == 3, result.output
    assert "cannot run the" in result.output
    assert "is not installed" in result.output
    assert git(repo, "rev-parse", "--verify", "-q", "HEAD", check=False).returncode != 0
    assert "Cargo.toml" in git(repo, "diff", "--cached", "--name-only").stdout.split()


@pytest.mark.pygate
def test_an_untracked_tdd_yaml_of_yours_joins_the_scaffold_commit(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    yaml = "language: python\nsteps: 3\n"
    write_files(folder, {"tdd.yaml": yaml})
    result = init(str(folder), "--direct")
    assert result.exit_code == 0, result.output
    assert "tdd.yaml kept (yours, untracked: part of this commit)" in flat(result.output)
    assert git(folder, "show", "HEAD:tdd.yaml").stdout == yaml
    assert git(folder, "status", "--porcelain", "--", "tdd.yaml").stdout == ""


@pytest.mark.pygate
def test_a_tdd_yaml_with_edits_of_yours_is_kept_out_of_the_commit(make_repo: MakeRepo) -> None:
    repo = make_repo({k: v for k, v in FILES.items() if k != "kata.md"})
    edited = FILES["tdd.yaml"] + "steps: 4\n"
    write_files(repo, {"tdd.yaml": edited})
    result = init(str(repo), "--direct")
    assert result.exit_code == 0, result.output
    assert "tdd.yaml kept (uncommitted edits of yours: commit them yourself)" in flat(result.output)
    assert git(repo, "show", "HEAD:tdd.yaml").stdout == FILES["tdd.yaml"]
    assert (repo / "tdd.yaml").read_text("utf-8") == edited
