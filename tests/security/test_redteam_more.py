"""Red team, a second pass on the merged issue 7: a hostile person with a real kata made by
`tddhooks init` (default install) and real git. Each test is one attack; it asserts the exact
outcome: the commit refused with its rule, HEAD where it was, the person's files as they were.
Attacks that were refused from the start stay here as guards against regressions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.gatekit import crate_of as _crate
from support.gatekit import rust_feature_kata_fixture, unhooked_commit
from support.redteam import (
    RED_ONE,
    RED_PY,
    SECRET,
    UNTESTED,
    commit,
    git,
    head,
    msg,
    refused,
)
from support.redteam import rust_code as _code
from support.redteam import rust_test as _test
from support.redteam import write_crate_files as _write

pytestmark = pytest.mark.cargo
__all__ = ["rust_feature_kata_fixture"]  # the `kata` fixture


def test_a_committed_runner_that_filters_tests_cannot_land(kata: Path) -> None:
    # a `build:` commit may change toolchain configuration; this runner passes `--skip red_` to
    # every test binary, so a later red test named red_* would never run: the default test
    # command runs under no committed runner at all (policy/tool_config.py)
    runner = (
        "[target.'cfg(all())']\n"
        'runner = ["/bin/sh", "-c", "exec \\"$0\\" \\"$@\\" --skip red_"]\n'
    )
    _write(kata, {".cargo/config.toml": runner})
    git(kata, "add", "-A")
    before = head(kata)

    text = refused(commit(kata, "build: a test runner\n"), "[green]", before, kata)

    assert "the committed .cargo/config.toml sets target.cfg(all()).runner" in text


def test_a_hand_made_merge_head_that_descends_from_head_is_no_merge(kata: Path) -> None:
    # git drops HEAD from the parents when MERGE_HEAD contains it: the "merge" is an ordinary
    # one-parent commit, and its untested code must be judged as one
    tree = git(kata, "write-tree").stdout.strip()
    child = git(kata, "commit-tree", "-p", "HEAD", "-m", "x", tree).stdout.strip()
    (kata / ".git" / "MERGE_HEAD").write_text(child + "\n", encoding="ascii")
    _write(kata, {"src/lib.rs": UNTESTED})
    git(kata, "add", "-A")
    before = head(kata)

    result = commit(kata, "Merge branch 'feature'\n")

    refused(result, "[prefixed]", before, kata)
    assert (kata / "src/lib.rs").read_text(encoding="utf-8") == UNTESTED


def test_commit_all_with_an_unstaged_red_test_is_refused_and_the_file_stays(kata: Path) -> None:
    text = _test("empty_is_zero", '""', 0) + "\n" + RED_ONE
    _write(kata, {"tests/add.rs": text})
    before = head(kata)

    refused(commit(kata, msg("test", "one number"), "-a"), "red_one", before, kata)

    assert (kata / "tests/add.rs").read_text(encoding="utf-8") == text.replace(
        "CRATE", _crate(kata)
    )


def test_commit_of_a_path_with_a_red_test_is_refused(kata: Path) -> None:
    _write(kata, {"tests/add.rs": _test("empty_is_zero", '""', 0) + "\n" + RED_ONE})
    before = head(kata)

    refused(commit(kata, msg("test", "one number"), "tests/add.rs"), "red_one", before, kata)


def test_another_index_file_with_a_red_test_is_judged(kata: Path, tmp_path: Path) -> None:
    other = tmp_path / "other-index"
    other.write_bytes((kata / ".git" / "index").read_bytes())
    _write(kata, {"tests/add.rs": _test("empty_is_zero", '""', 0) + "\n" + RED_ONE})
    env = {"GIT_INDEX_FILE": str(other)}
    git(kata, "add", "tests/add.rs", env=env)
    before = head(kata)

    refused(commit(kata, msg("test", "one"), env=env), "red_one", before, kata)


def test_an_amend_through_a_command_line_alias_is_judged_against_the_parent(kata: Path) -> None:
    # judged against HEAD, the empty amend would be a harmless refactor; it replaces the feature
    # commit, so it is judged against its parent, where it adds a test
    before = head(kata)
    path = kata.parent / "refactor.txt"
    path.write_text(msg("refactor", "tidy"), encoding="utf-8")

    result = git(kata, "-c", "alias.ca=commit --amend", "ca", "-q", "-F", str(path))

    refused(result, "[type-rules]", before, kata)


@pytest.mark.parametrize(
    "subject",
    ["feat\uff1a untested", "chore\u200b: untested", "Chore: untested", "\ufefffeat: untested"],
    ids=["fullwidth-colon", "zero-width", "capital", "bom"],
)
def test_look_alike_headers_are_not_a_type(kata: Path, subject: str) -> None:
    _write(kata, {"src/lib.rs": UNTESTED})
    git(kata, "add", "-A")
    before = head(kata)

    refused(commit(kata, subject + "\n"), "[prefixed]", before, kata)


def test_crlf_chore_may_not_change_code(kata: Path) -> None:
    _write(kata, {"src/lib.rs": UNTESTED})
    git(kata, "add", "-A")
    before = head(kata)

    refused(commit(kata, "chore: tidy\r\n\r\nbody\r\n"), "[type-rules]", before, kata)


def test_a_policy_change_beside_a_red_test_is_judged_by_the_old_policy(kata: Path) -> None:
    policy = (kata / "tdd.yaml").read_text(encoding="utf-8")
    loose = policy.replace("disabled_rules: []", "disabled_rules: [green, type-rules, no-skip]")
    assert loose != policy
    _write(kata, {"tdd.yaml": loose, "tests/add.rs": _test("empty_is_zero", '""', 0) + RED_ONE})
    git(kata, "add", "-A")
    before = head(kata)

    refused(commit(kata, msg("test", "one number")), "red_one", before, kata)


def test_an_ignore_in_a_new_module_file_is_a_skip(kata: Path) -> None:
    ignored = '#[test]\n#[ignore]\nfn later() {\n    assert_eq!(CRATE::add("1"), 1);\n}\n'
    _write(
        kata,
        {
            "tests/common/mod.rs": ignored,
            "tests/add.rs": _test("empty_is_zero", '""', 0) + "\nmod common;\n",
        },
    )
    git(kata, "add", "-A")
    before = head(kata)

    refused(commit(kata, msg("test", "later")), "[no-skip]", before, kata)


def test_a_committed_cargo_config_in_a_chore_is_refused(kata: Path) -> None:
    _write(kata, {".cargo/config.toml": "[build]\nrustflags = []\n"})
    git(kata, "add", "-A")
    before = head(kata)

    refused(commit(kata, "chore: cargo settings\n"), "[type-rules]", before, kata)


def test_a_key_in_the_committing_shell_never_reaches_the_test(kata: Path) -> None:
    printing = (
        '#[test]\nfn leaks() {\n    let key = std::env::var("OPENAI_API_KEY")'
        '.unwrap_or_default();\n    assert_eq!(key, "none");\n}\n'
    )
    _write(kata, {"tests/leak.rs": printing})
    git(kata, "add", "-A")
    before = head(kata)

    text = refused(
        commit(kata, msg("test", "leak"), env={"OPENAI_API_KEY": SECRET}), "leaks", before, kata
    )

    assert SECRET[:8] not in text
    for path in (kata / ".git" / "tddhooks").rglob("*.json"):
        assert SECRET[:8] not in path.read_text(encoding="utf-8", errors="replace")
    verdicts = list((kata / ".git" / "tddhooks" / "verdicts").glob("*.json"))
    assert any("leaks" in json.dumps(json.loads(p.read_text())) for p in verdicts)


DESELECT = """\
def pytest_collection_modifyitems(config, items):
    kept = [item for item in items if "red_" not in item.name]
    config.hook.pytest_deselected(items=[item for item in items if item not in kept])
    items[:] = kept
"""


@pytest.mark.pygate
def test_a_committed_conftest_that_deselects_tests_cannot_land_a_red_test(
    make_repo: object,
) -> None:
    from support.hookkit import install_shims
    from support.pykata import FILES

    # a policy that allows runner hooks (policy/runner_hooks.py) still runs every test
    allowed = {**FILES, "tdd.yaml": "language: python\npython:\n  runner_hooks: allow\n"}
    repo: Path = make_repo(allowed)  # type: ignore[operator]
    install_shims(repo)
    (repo / "conftest.py").write_text(DESELECT, encoding="utf-8")
    git(repo, "add", "-A")
    landed = commit(repo, msg("refactor", "a conftest"))
    assert landed.returncode == 0, landed.stderr  # no test is deselected yet: all ran, green
    (repo / "tests" / "test_red.py").write_text(RED_PY, encoding="utf-8")
    git(repo, "add", "-A")
    before = head(repo)

    text = refused(commit(repo, msg("test", "a red one")), "test_red_one", before, repo)

    assert "did not run" in text


def _docs_change_of_code(repo: Path) -> str:
    """Add untested code to docs/lib.md in a docs: commit; HEAD before it."""
    before = head(repo)
    lib = repo / "docs" / "lib.md"
    lib.write_text(lib.read_text(encoding="utf-8") + "\npub fn untested() -> i32 {\n    7\n}\n")
    git(repo, "add", "-A")
    refused(commit(repo, "docs: notes\n"), "[type-rules]", before, repo)
    return before


def test_code_behind_a_symlink_cannot_change_in_a_docs_commit(kata: Path) -> None:
    (kata / "docs").mkdir()
    (kata / "src" / "lib.rs").rename(kata / "docs" / "lib.md")
    (kata / "src" / "lib.rs").symlink_to("../docs/lib.md")
    git(kata, "add", "-A")
    unhooked_commit(kata, msg("refactor", "code beside its notes"))

    _docs_change_of_code(kata)


def test_code_included_from_a_markdown_file_cannot_change_in_a_docs_commit(kata: Path) -> None:
    _write(
        kata,
        {"docs/lib.md": "// notes\n", "src/lib.rs": _code("0", '\ninclude!("../docs/lib.md");\n')},
    )
    git(kata, "add", "-A")
    unhooked_commit(kata, msg("refactor", "include the notes"))

    _docs_change_of_code(kata)


def test_a_file_staged_after_the_gate_judged_the_index_is_judged_too(kata: Path) -> None:
    # git commits the index as it stands after pre-commit: a red test staged meanwhile (here by
    # the hook chained after ours; a second terminal or an agent does the same while cargo runs)
    _write(
        kata,
        {
            "src/lib.rs": _code("0", "\n// tidy\n"),
            "tests/zero.rs": _test("zero_again", '""', 0),
            "tests/red.rs": RED_ONE,
        },
    )
    git(kata, "add", "src/lib.rs", "tests/zero.rs")
    chained = kata / ".git" / "hooks" / "pre-commit.tddhooks-chained"
    chained.write_text("#!/bin/sh\ngit add tests/red.rs\n", encoding="utf-8")
    chained.chmod(0o755)
    before = head(kata)

    text = refused(commit(kata, msg("feat", "zero again")), "[green]", before, kata)

    assert "changed after the pre-commit gate" in text
    assert (kata / "tests/red.rs").read_text(encoding="utf-8") == RED_ONE.replace(
        "CRATE", _crate(kata)
    )


def test_a_commit_msg_hook_alone_does_not_gate(tmp_path: Path) -> None:
    # without our pre-commit (no record of a judged tree), commit-msg judges the message only
    from support.rules_kit import SUB_CODE, commit_with, make_kata, tdd, write

    repo = make_kata(tmp_path)
    write(repo, {"src/lib.rs": SUB_CODE, "tests/red.rs": "#[test]\nfn red() {\n    panic!();\n}\n"})
    git(repo, "add", "-A")

    assert commit_with(repo, tdd("feat", "subtract")).returncode == 0


@pytest.mark.pygate
def test_pytest_addopts_in_a_build_commit_cannot_hide_a_red_test(make_repo: object) -> None:
    # `build:` may change the manifest; its pytest options deselect every test named *red*
    from support.hookkit import install_shims
    from support.pykata import FILES, PYPROJECT

    repo: Path = make_repo(FILES)  # type: ignore[operator]
    install_shims(repo)
    hidden = PYPROJECT.replace(
        'pythonpath = ["src"]\n', 'pythonpath = ["src"]\naddopts = "-k \'not red\'"\n'
    )
    (repo / "pyproject.toml").write_text(hidden, encoding="utf-8")
    git(repo, "add", "-A")
    landed = commit(repo, "build: pytest options\n")
    assert landed.returncode == 0, landed.stdout + landed.stderr
    (repo / "tests" / "test_red.py").write_text(RED_PY, encoding="utf-8")
    git(repo, "add", "-A")
    before = head(repo)

    text = refused(commit(repo, msg("test", "a red one")), "test_red_one", before, repo)

    assert "did not run" in text


@pytest.mark.pygate
def test_a_conftest_in_a_chore_commit_is_refused(make_repo: object) -> None:
    from support.hookkit import install_shims
    from support.pykata import FILES

    # a policy that allows runner hooks (policy/runner_hooks.py) still runs every test
    allowed = {**FILES, "tdd.yaml": "language: python\npython:\n  runner_hooks: allow\n"}
    repo: Path = make_repo(allowed)  # type: ignore[operator]
    install_shims(repo)
    (repo / "conftest.py").write_text(DESELECT, encoding="utf-8")
    git(repo, "add", "-A")
    before = head(repo)

    refused(commit(repo, "chore: test settings\n"), "[type-rules]", before, repo)
