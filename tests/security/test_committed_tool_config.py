"""Red team: committed tool configuration that fakes the default test command's result (issue 7).

A cargo runner, linker or compiler wrapper sits between cargo and the test binary and can print
libtest's lines for every test; a pytest hook can rewrite a failure into a pass. With the default
test command such a tree is red (policy/tool_config.py, docs/hooks.md "Committed tool
configuration"); a kata that needs one commits its own ci.test_cmd first. Real git, real cargo."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.gatekit import rust_feature_kata_fixture
from support.redteam import RED_ONE, commit, git, head, msg, refused
from support.redteam import rust_code as _code
from support.redteam import rust_test as _test
from support.redteam import write_crate_files as _write

__all__ = ["rust_feature_kata_fixture"]  # the `kata` fixture

# prints libtest's lines for both tests, whatever the binary would have said
FAKE = (
    "'printf \"\\nrunning 2 tests\\ntest empty_is_zero ... ok\\ntest red_one ... ok\\n\\n"
    "test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in "
    "0.00s\\n\\n\"'"
)
RUNNER = f"[target.x86_64-unknown-linux-gnu]\nrunner = ['/bin/sh', '-c', {FAKE}]\n"


def _stage(repo: Path, files: dict[str, str]) -> str:
    _write(repo, files)
    git(repo, "add", "-A")
    return head(repo)


@pytest.mark.cargo
def test_a_runner_that_prints_a_fake_green_run_is_refused_with_the_red_test(kata: Path) -> None:
    red = _test("empty_is_zero", '""', 0) + "\n" + RED_ONE
    before = _stage(kata, {".cargo/config.toml": RUNNER, "tests/add.rs": red})

    text = refused(commit(kata, msg("feat", "one number")), "[green]", before, kata)

    assert "the committed .cargo/config.toml sets target.x86_64-unknown-linux-gnu.runner" in text
    assert "ci.test_cmd" in text
    assert (kata / ".cargo/config.toml").read_text(encoding="utf-8") == RUNNER


@pytest.mark.cargo
def test_a_fake_runner_cannot_land_first_in_a_build_commit(kata: Path) -> None:
    before = _stage(kata, {".cargo/config.toml": RUNNER})

    text = refused(commit(kata, "build: a test runner\n"), "[green]", before, kata)

    assert "target.x86_64-unknown-linux-gnu.runner" in text


@pytest.mark.cargo
@pytest.mark.parametrize(
    ("name", "config", "key"),
    [
        (
            ".cargo/config.toml",
            "[target.'cfg(all())']\nrunner = 'true'\n",
            "target.cfg(all()).runner",
        ),
        (".cargo/config", "[target.x86_64-unknown-linux-gnu]\nrunner = 'true'\n", "runner"),
        (".cargo/config.toml", "[build]\nrustc-wrapper = '/bin/true'\n", "build.rustc-wrapper"),
        (".cargo/config.toml", "[build]\nrustdoc = '/bin/true'\n", "build.rustdoc"),
        (".cargo/config.toml", "[build]\nrustflags = ['-C', 'linker=/bin/true']\n", "rustflags"),
        (".cargo/config.toml", "target.x86_64-unknown-linux-gnu.linker = 'cc'\n", "linker"),
        (".cargo/config.toml", "[env]\nLD_PRELOAD = '/tmp/fake.so'\n", "env.LD_PRELOAD"),
        (".cargo/config.toml", "include = ['more.toml']\n", "include"),
    ],
)
def test_every_way_to_put_a_program_between_cargo_and_the_tests_is_refused(
    kata: Path, name: str, config: str, key: str
) -> None:
    before = _stage(kata, {name: config})

    text = refused(commit(kata, "build: cargo settings\n"), "[green]", before, kata)

    assert f"the committed {name} sets" in text
    assert key in text


@pytest.mark.cargo
def test_a_committed_alias_for_test_is_ignored_by_cargo_and_the_red_test_is_caught(
    kata: Path,
) -> None:
    alias = "[alias]\ntest = 'build'\n"
    red = _test("empty_is_zero", '""', 0) + "\n" + RED_ONE
    before = _stage(kata, {".cargo/config.toml": alias, "tests/add.rs": red})

    text = refused(commit(kata, msg("feat", "one number")), "[green]", before, kata)

    assert "red_one" in text


@pytest.mark.cargo
def test_harmless_cargo_settings_still_land(kata: Path) -> None:
    _stage(kata, {".cargo/config.toml": "[term]\nverbose = false\n[build]\njobs = 1\n"})

    result = commit(kata, "build: cargo settings\n")

    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.cargo
def test_a_kata_that_needs_a_runner_commits_its_own_test_command_first(kata: Path) -> None:
    policy = (kata / "tdd.yaml").read_text(encoding="utf-8")
    own = policy.replace("  test_cmd: null ", "  test_cmd: [cargo, test, --all] ")
    assert own != policy
    _stage(kata, {"tdd.yaml": own})
    assert commit(kata, "chore: our own test command\n").returncode == 0
    _stage(kata, {".cargo/config.toml": "[target.x86_64-unknown-linux-gnu]\nrunner = 'env'\n"})

    result = commit(kata, "build: run the tests through env\n")

    assert result.returncode == 0, result.stdout + result.stderr


OUTCOME_FLIP = """\
import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    report.outcome = "passed"
"""
SPECNAME_FLIP = """\
import pytest


@pytest.hookimpl(hookwrapper=True, specname="pytest_runtest_makereport")
def tidy(item, call):
    outcome = yield
    outcome.get_result().outcome = "passed"
"""
RED_PY = "from calc import add\n\n\ndef test_red_one() -> None:\n    assert add(1, 1) == 3\n"


def _python_kata(make_repo: object) -> Path:
    from support.hookkit import install_shims
    from support.pykata import FILES

    repo: Path = make_repo(FILES)  # type: ignore[operator]
    install_shims(repo)
    return repo


@pytest.mark.pygate
def test_a_conftest_that_turns_failures_into_passes_is_refused(make_repo: object) -> None:
    repo = _python_kata(make_repo)
    (repo / "conftest.py").write_text(OUTCOME_FLIP, encoding="utf-8")
    (repo / "tests" / "test_red.py").write_text(RED_PY, encoding="utf-8")
    git(repo, "add", "-A")
    before = head(repo)

    text = refused(commit(repo, msg("feat", "a red one")), "[green]", before, repo)

    assert "the committed conftest.py implements the pytest hook pytest_runtest_makereport" in text


@pytest.mark.pygate
def test_a_hook_under_another_function_name_is_refused(make_repo: object) -> None:
    # pytest finds the hook by its specname; a name assembled at run time is out of scope
    # (docs/hooks.md): conftest.py is code under test, judged by the type rules
    repo = _python_kata(make_repo)
    (repo / "tests" / "conftest.py").write_text(SPECNAME_FLIP, encoding="utf-8")
    git(repo, "add", "-A")
    before = head(repo)

    refused(commit(repo, msg("refactor", "tidy reports")), "[green]", before, repo)


@pytest.mark.cargo
def test_a_source_symlink_out_of_the_tree_is_red(kata: Path, tmp_path: Path) -> None:
    # the gate would build a file the commit does not hold (and a clone would not have)
    outside = tmp_path / "elsewhere.rs"
    outside.write_text((kata / "src/lib.rs").read_text(encoding="utf-8"), encoding="utf-8")
    (kata / "src/lib.rs").unlink()
    (kata / "src/lib.rs").symlink_to(outside)
    git(kata, "add", "-A")
    before = head(kata)

    text = refused(commit(kata, msg("refactor", "elsewhere")), "[green]", before, kata)

    assert f"src/lib.rs is a symlink to {outside}, outside the committed tree" in text
    assert (kata / "src/lib.rs").is_symlink()


@pytest.mark.cargo
def test_an_include_out_of_the_tree_is_red(kata: Path, tmp_path: Path) -> None:
    outside = tmp_path / "more.rs"
    outside.write_text("// more\n", encoding="utf-8")
    before = _stage(kata, {"src/lib.rs": _code("0", f'\ninclude!("{outside}");\n')})

    text = refused(commit(kata, msg("refactor", "more")), "[green]", before, kata)

    assert f"src/lib.rs includes {outside}, outside the committed tree" in text


FAKE_PYTEST = """\
import sys

print("tests/test_red.py::test_red_one PASSED")
print("tests/test_calc.py::test_adds_two_numbers PASSED")
print("==== 2 passed in 0.01s ====")
sys.exit(0)
"""


@pytest.mark.pygate
def test_a_top_level_module_that_shadows_pytest_is_refused(make_repo: object) -> None:
    # `python -m pytest` puts the tree's top folder first on sys.path: ./pytest.py would run
    repo = _python_kata(make_repo)
    (repo / "pytest.py").write_text(FAKE_PYTEST, encoding="utf-8")
    (repo / "tests" / "test_red.py").write_text(RED_PY, encoding="utf-8")
    git(repo, "add", "-A")
    before = head(repo)

    text = refused(commit(repo, msg("feat", "a red one")), "[green]", before, repo)

    assert "the committed pytest.py shadows the module pytest" in text


@pytest.mark.pygate
def test_a_top_level_package_named_like_the_standard_library_is_refused(
    make_repo: object,
) -> None:
    repo = _python_kata(make_repo)
    (repo / "argparse").mkdir()
    (repo / "argparse" / "__init__.py").write_text('"""Not the real one."""\n', "utf-8")
    git(repo, "add", "-A")
    before = head(repo)

    text = refused(commit(repo, msg("refactor", "a package")), "[green]", before, repo)

    assert "the committed argparse shadows the module argparse" in text


LIBTEST = (
    "\\nrunning 2 tests\\ntest empty_is_zero ... ok\\ntest red_one ... ok\\n\\ntest result: ok. "
    "2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\\n\\n"
)
FAKE_CARGO = (
    '#!/bin/sh\ncase "$1" in\n  --version) echo "cargo 1.95.0 (fake)" ;;\n'
    f"  test) printf '{LIBTEST}' ;;\nesac\nexit 0\n"
)


@pytest.mark.cargo
def test_a_toolchain_file_that_points_at_a_fake_toolchain_is_red(
    kata: Path, tmp_path: Path
) -> None:
    # rustup runs cargo from `path = …` (absolute only): a cargo that prints a green run
    fake = tmp_path / "fake-toolchain"
    (fake / "bin").mkdir(parents=True)
    (fake / "lib").mkdir()
    for tool, text in (("cargo", FAKE_CARGO), ("rustc", '#!/bin/sh\necho "rustc 1.95.0 (fake)"\n')):
        (fake / "bin" / tool).write_text(text, encoding="utf-8")
        (fake / "bin" / tool).chmod(0o755)
    red = _test("empty_is_zero", '""', 0) + "\n" + RED_ONE
    toolchain = f'[toolchain]\npath = "{fake}"\n'
    before = _stage(kata, {"rust-toolchain.toml": toolchain, "tests/add.rs": red})

    text = refused(commit(kata, msg("feat", "one number")), "[green]", before, kata)

    assert f"the committed rust-toolchain.toml picks the toolchain in {fake}" in text
