"""`tddhooks doctor`: real git, real tools, real hooks; pure helpers table-tested."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from support.pykata import FILES
from support.repo import write_files

from tddhooks import output
from tddhooks.cli import cli
from tddhooks.commands.doctor import Check, exit_code, parse_git_version, tool_probes

MakeRepo = Callable[..., Path]


@pytest.fixture(autouse=True)
def wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "250")
    output.use_streams()


def doctor(repo: Path) -> tuple[Result, list[str]]:
    result = CliRunner().invoke(cli, ["doctor", "--offline", "-C", str(repo)])
    # one row per check, its wrapped cells joined (a long path wraps a cell onto more lines)
    cells: list[list[str]] = []
    for line in result.output.splitlines():
        parts = line.split("│")[1:-1]
        if not parts:
            cells.append([line])
        elif parts[0].strip() or not cells or len(cells[-1]) != len(parts):
            cells.append([part.strip() for part in parts])
        else:
            pairs = zip(cells[-1], parts, strict=True)
            cells[-1] = [f"{old} {part.strip()}".strip() for old, part in pairs]
    rows = [" ".join(" ".join(row).split()) for row in cells]
    return result, rows


def row(rows: list[str], name: str) -> str:
    return next(line for line in rows if line.startswith(name + " "))


def installed_repo(
    make_repo: MakeRepo, files: dict[str, str] | None = None, *, exit_code: int = 0
) -> Path:
    repo = make_repo(files or FILES)
    installed = CliRunner().invoke(cli, ["install", "--direct", "-C", str(repo)])
    assert installed.exit_code == exit_code, installed.output
    return repo


@pytest.mark.pygate
def test_a_healthy_repository_is_all_ok(make_repo: MakeRepo) -> None:
    repo = installed_repo(make_repo)
    result, rows = doctor(repo)
    assert result.exit_code == 0, result.output
    for name in ("git", "tdd.yaml", "kata", "ruff", "pytest", "hooks", "tddhooks on PATH"):
        assert "✔ ok" in row(rows, name), name
    assert "direct shims" in row(rows, "hooks")
    gate = row(rows, "gate on HEAD")
    assert "✔ ok" in gate
    assert "any commit that follows the policy" not in gate  # an ok check has no fix


@pytest.mark.pygate
@pytest.mark.parametrize(
    ("tdd_yaml", "field"),
    [
        ("language: python\nsteps: zéro\n", "'steps'"),
        ("language: python\ncolour: blue\n", "'colour'"),
        ("language: cobol\n", "'language'"),
    ],
)
def test_a_broken_tdd_yaml_fails_naming_the_field(
    make_repo: MakeRepo, tdd_yaml: str, field: str
) -> None:
    repo = installed_repo(make_repo, {**FILES, "tdd.yaml": tdd_yaml})
    result, rows = doctor(repo)
    assert result.exit_code == 2, result.output
    line = row(rows, "tdd.yaml")
    assert "✘ fail" in line
    assert field in line
    assert "tdd.yaml" in line.split("✘ fail", 1)[1]  # the detail names the file too


@pytest.mark.pygate
def test_a_kata_file_named_in_tdd_yaml_and_missing_is_a_config_failure(
    make_repo: MakeRepo,
) -> None:
    files = {k: v for k, v in FILES.items() if k != "kata.md"}
    files["tdd.yaml"] += "kata_description: kata.md\n"
    repo = installed_repo(make_repo, files)
    result, rows = doctor(repo)
    assert result.exit_code == 2
    assert "✘ fail" in row(rows, "kata")


@pytest.mark.pygate
def test_a_project_without_kata_file_or_tdd_yaml_is_fine_and_never_told_to_init(
    make_repo: MakeRepo,
) -> None:
    files = {k: v for k, v in FILES.items() if k not in ("kata.md", "tdd.yaml")}
    repo = installed_repo(make_repo, files)
    result, rows = doctor(repo)
    assert result.exit_code == 0, result.output
    assert "free text" in row(rows, "kata")
    assert "tddhooks init" not in result.output
    assert "every field: README.md," in row(rows, "tdd.yaml")  # a section that exists
    assert "docs/config.md" not in result.output
    assert "python: detected from pyproject.toml;" in row(rows, "runner")
    assert "ruff and pytest" in row(rows, "runner")


@pytest.mark.cargo
def test_a_project_with_two_languages_is_asked_which(make_repo: MakeRepo) -> None:
    files = {k: v for k, v in FILES.items() if k != "tdd.yaml"}
    files["Cargo.toml"] = '[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n'
    repo = make_repo(files)
    result, rows = doctor(repo)
    assert result.exit_code != 0
    line = row(rows, "tdd.yaml")
    assert "✘ fail" in line
    assert "several languages: rust (Cargo.toml); python" in line
    assert "language: rust" in result.output


@pytest.mark.pygate
def test_a_missing_tool_exits_3_with_the_fix(make_repo: MakeRepo) -> None:
    tdd_yaml = "language: python\nci:\n  test_cmd: [no-such-test-tool-ü, -q]\n"
    # install puts the hooks in and exits 3 too: HEAD's check met an environment problem
    repo = installed_repo(make_repo, {**FILES, "tdd.yaml": tdd_yaml}, exit_code=3)
    result, rows = doctor(repo)
    assert result.exit_code == 3
    assert "✔ ok" in row(rows, "hooks")
    line = row(rows, "no-such-test-tool-ü")
    assert "✘ fail" in line
    assert "install no-such-test-tool-ü" in line


@pytest.mark.pygate
def test_missing_hooks_fail(make_repo: MakeRepo) -> None:
    repo = make_repo(FILES)
    result, rows = doctor(repo)
    assert result.exit_code == 3
    line = row(rows, "hooks")
    assert "✘ fail" in line
    assert "missing: pre-commit, commit-msg, prepare-commit-msg" in line
    assert "tddhooks install" in line


@pytest.mark.pygate
def test_pre_commit_without_our_ids_fails(make_repo: MakeRepo) -> None:
    repo = make_repo(FILES)
    assert CliRunner().invoke(cli, ["install", "--pre-commit", "-C", str(repo)]).exit_code == 0
    (repo / ".pre-commit-config.yaml").write_text("repos: []\n", "utf-8")
    result, rows = doctor(repo)
    assert result.exit_code == 3
    assert "lacks tddhooks-pre-commit" in row(rows, "hooks")


@pytest.mark.pygate
def test_pre_commit_with_our_ids_is_ok(make_repo: MakeRepo) -> None:
    repo = make_repo(FILES)
    assert CliRunner().invoke(cli, ["install", "--pre-commit", "-C", str(repo)]).exit_code == 0
    result, rows = doctor(repo)
    assert result.exit_code == 0, result.output
    assert "(pre-commit)" in row(rows, "hooks")


@pytest.mark.pygate
def test_an_outdated_shim_is_a_warning(make_repo: MakeRepo) -> None:
    repo = installed_repo(make_repo)
    shim = repo / ".git" / "hooks" / "commit-msg"
    shim.write_text(shim.read_text("utf-8").replace("INSTALL_PYTHON=", "INSTALL_PYTHON=/old"))
    result, rows = doctor(repo)
    assert result.exit_code == 0
    line = row(rows, "hooks")
    assert "! warn" in line
    assert "commit-msg" in line
    assert "tddhooks install" in line


@pytest.mark.cargo
def test_outside_a_repository_exits_3(tmp_path: Path) -> None:
    write_files(tmp_path, {"kata.md": "# K\n"})
    result, rows = doctor(tmp_path)
    assert result.exit_code == 3
    assert "✘ fail" in row(rows, "repository")


@pytest.mark.parametrize(
    ("text", "version"),
    [
        ("git version 2.39.5", (2, 39, 5)),
        ("git version 2.24.0.windows.1", (2, 24, 0)),
        ("git version 2.45", (2, 45)),
        ("gît: no version", None),
    ],
)
def test_parse_git_version(text: str, version: tuple[int, ...] | None) -> None:
    assert parse_git_version(text) == version


def test_tool_probes_for_rust_defaults() -> None:
    commands = [
        ["cargo", "test", "--all"],
        ["cargo", "clippy", "--all-targets", "--", "-D", "warnings"],
        ["cargo", "fmt", "--check"],
    ]
    probes = [(name, argv) for name, argv, _ in tool_probes(commands)]
    assert probes == [
        ("cargo", ["cargo", "--version"]),
        ("clippy", ["cargo", "clippy", "--version"]),
        ("rustfmt", ["cargo", "fmt", "--version"]),
    ]


def test_tool_probes_for_python_modules_and_plain_programs() -> None:
    commands = [["/venv/bin/python", "-m", "pytest", "-q"], ["ruff", "check", "."], []]
    probes = [(name, argv) for name, argv, _ in tool_probes(commands)]
    assert probes == [
        ("python", ["/venv/bin/python", "--version"]),
        ("pytest", ["/venv/bin/python", "-m", "pytest", "--version"]),
        ("ruff", ["ruff", "--version"]),
    ]


@pytest.mark.parametrize(
    ("statuses", "code"),
    [
        ([("ok", "environment"), ("warn", "config")], 0),
        ([("fail", "config")], 2),
        ([("fail", "environment")], 3),
        ([("fail", "config"), ("fail", "environment")], 3),
    ],
)
def test_exit_code(statuses: list[tuple[str, str]], code: int) -> None:
    checks = [Check("x", status, "d", None, category) for status, category in statuses]
    assert exit_code(checks) == code


@pytest.mark.pygate
def test_our_shim_kept_by_pre_commit_as_legacy_is_ok_not_stale(make_repo: MakeRepo) -> None:
    import subprocess
    import sys

    repo = installed_repo(make_repo, {**FILES, ".pre-commit-config.yaml": "repos: []\n"})
    framework = [sys.executable, "-m", "pre_commit", "install"]
    assert subprocess.run(framework, cwd=repo, capture_output=True).returncode == 0
    result, rows = doctor(repo)
    assert result.exit_code == 0, result.output
    assert "✔ ok" in row(rows, "hooks")
    assert "direct shims" in row(rows, "hooks")


@pytest.mark.pygate
@pytest.mark.parametrize("route", ["--direct", "--pre-commit"])
def test_after_uninstall_the_framework_s_hooks_are_told_from_ours(
    make_repo: MakeRepo, route: str
) -> None:
    """The pre-commit framework stays installed after `tddhooks uninstall`: the row says which
    hooks are the framework's (without a tddhooks entry), which are missing, and none is ours."""
    from support.frameworks import THEIR_CONFIG, framework_install

    repo = make_repo({**FILES, ".pre-commit-config.yaml": THEIR_CONFIG})
    framework_install(repo, "pre-commit")
    assert CliRunner().invoke(cli, ["install", route, "-C", str(repo)]).exit_code == 0
    _result, rows = doctor(repo)
    assert "✔ ok" in row(rows, "hooks") or "ok" in row(rows, "hooks")
    assert CliRunner().invoke(cli, ["uninstall", "-C", str(repo)]).exit_code == 0
    result, rows = doctor(repo)
    assert result.exit_code == 3
    assert "the pre-commit framework's, without tddhooks" in row(rows, "hooks")
    from tddhooks.commands.doctor import _hook_checks

    [check] = _hook_checks(repo)
    assert check.detail == (
        "the pre-commit framework's, without tddhooks (.pre-commit-config.yaml lacks "
        "tddhooks-pre-commit): pre-commit; missing: commit-msg, prepare-commit-msg, "
        "reference-transaction, pre-push"
    )
    assert "tddhooks install" in (check.fix or "")


KATA_INTERFACE = "# Say\n\nSay numbers.\n\n## Interface\n\n`def say(n: int) -> str`\n\n"


@pytest.mark.pygate
@pytest.mark.parametrize(
    ("kata", "status", "said"),
    [
        # read: the signature and each example
        (KATA_INTERFACE + '## Requirements\n\n1. 3 gives "Fizz", 5 gives "Buzz".\n2. 0 raises.\n',
         "✔ ok", "interface `say`; 3 of 3 examples run as checks"),
        # no signature: the examples cannot be called
        ('# Say\n\n## Requirements\n\n1. 3 gives "Fizz".\n', "! warn",
         "no function signature read"),
        # examples in a table are not read
        (KATA_INTERFACE + "## Requirements\n\n1. Multiples of 3.\n\n| n | says |\n|---|---|\n"
         "| 3 | Fizz |\n", "! warn",
         "no example read from the numbered requirements: the drive checks none "
         "(not read: a table)"),
        # two parameters: a one-value example is no call of it
        ("# Add\n\n## Interface\n\n`def add(a: int, b: int) -> int`\n\n## Requirements\n\n"
         "1. 2 gives 2.\n", "! warn", "1 example read, none the drive can run as a test"),
    ],
)  # fmt: skip
def test_doctor_says_what_the_drive_reads_from_the_kata(
    make_repo: MakeRepo, kata: str, status: str, said: str
) -> None:
    repo = installed_repo(make_repo, {**FILES, "kata.md": kata})
    result, rows = doctor(repo)
    line = row(rows, "kata checks")
    assert status in line, line
    assert said in line, line
    assert result.exit_code == 0, result.output  # a warning: the checks are optional
    if status == "! warn":  # the fix, wrapped in its column
        assert "docs/agents.md#a-refactor-that-changes-what-the-kata-says" in "".join(rows)


@pytest.mark.pygate
def test_a_kata_outside_a_package_is_told_where_the_checks_import_from(
    make_repo: MakeRepo,
) -> None:
    files = {k: v for k, v in FILES.items() if not k.startswith("src/")}
    kata = KATA_INTERFACE + '## Requirements\n\n1. 3 gives "Fizz".\n'
    repo = installed_repo(make_repo, {**files, "say.py": "def say(n): ...\n", "kata.md": kata})
    _result, rows = doctor(repo)
    line = " ".join(rows)  # the fix, wrapped in its column
    assert "there is none: move `say.py` to `say/__init__.py`" in line


@pytest.mark.pygate
def test_a_kata_file_that_is_no_text_is_a_warning_not_a_crash(make_repo: MakeRepo) -> None:
    repo = installed_repo(make_repo)
    (repo / "kata.md").write_bytes(b"# K\n\xff\xfe\n")
    result, rows = doctor(repo)
    assert "! warn" in row(rows, "kata checks")
    assert "UTF-8" in row(rows, "kata checks")
    assert result.exit_code == 0


@pytest.mark.cargo
def test_a_cargo_toml_that_is_no_text_leaves_the_kata_checks_without_a_crate(
    make_repo: MakeRepo,
) -> None:
    kata = "# Say\n\n## Interface\n\n`pub fn say(n: u32) -> String`\n\n## Requirements\n\n"
    files = {"tdd.yaml": "language: rust\n", "kata.md": kata + '1. 3 gives "Fizz".\n'}
    repo = make_repo(files)
    (repo / "Cargo.toml").write_bytes(b'[package]\nname = "say\xff"\n')
    result, rows = doctor(repo)
    assert "unexpected error" not in result.output, result.output
    assert "from Cargo.toml, and there is none" in row(rows, "kata checks")


@pytest.mark.pygate
def test_an_index_git_cannot_list_is_a_warning_of_the_kata_checks_not_the_end_of_doctor(
    make_repo: MakeRepo,
) -> None:
    kata = KATA_INTERFACE + '## Requirements\n\n1. 3 gives "Fizz".\n'
    repo = installed_repo(make_repo, {**FILES, "kata.md": kata})
    (repo / ".git/index").write_text("garbage\n", encoding="utf-8")
    result, rows = doctor(repo)
    assert "! warn" in row(rows, "kata checks"), result.output
    assert "ls-files" in row(rows, "kata checks")
    assert row(rows, "tddhooks on PATH")  # the checks after it still run


@pytest.mark.pygate
def test_outside_a_repository_the_kata_checks_find_the_package_in_the_work_tree(
    tmp_path: Path,
) -> None:
    kata = KATA_INTERFACE + '## Requirements\n\n1. 3 gives "Fizz".\n'
    write_files(tmp_path, {**FILES, "src/calc/__init__.py": "def say(n): ...\n", "kata.md": kata})
    result, rows = doctor(tmp_path)
    assert result.exit_code != 0  # no repository
    assert "interface `say`; 1 of 1 examples run as checks" in row(rows, "kata checks")


@pytest.mark.pygate
def test_without_tddhooks_on_path_our_shims_still_judge_commits_so_it_is_no_warning(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = installed_repo(make_repo)
    monkeypatch.setenv("PATH", "/usr/bin:/bin")  # git, and no tddhooks: `.venv/bin/tddhooks doctor`
    result, rows = doctor(repo)
    line = row(rows, "tddhooks on PATH")
    assert "✔ ok" in line, result.output
    assert "-m tddhooks" in line  # what the hooks run instead


@pytest.mark.pygate
def test_without_tddhooks_on_path_shims_of_another_python_are_a_warning(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = installed_repo(make_repo)
    shim = repo / ".git/hooks/commit-msg"
    text = shim.read_text(encoding="utf-8")
    shim.write_text(text.replace("INSTALL_PYTHON=", "INSTALL_PYTHON=/gone/python3 #"), "utf-8")
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    result, rows = doctor(repo)
    line = row(rows, "tddhooks on PATH")
    assert "! warn" in line, result.output
    assert "activate the environment" in line
