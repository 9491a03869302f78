"""Red team: code kept in files whose names do not say so (issue 7, item 5). The type rules judge a
file as the build reads it: a symlink's target as the link, a file named by include!, include_str!,
include_bytes! or #[path] as the Rust file naming it (docs/policy.md). Each test is one attack on a
real kata through the real hooks: refused with its rule, HEAD where it was."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.gatekit import rust_feature_kata_fixture, unhooked_commit
from support.redteam import commit, git, head, msg, refused
from support.redteam import rust_code as _code
from support.redteam import rust_test as _test
from support.redteam import write_crate_files as _write

pytestmark = pytest.mark.cargo
__all__ = ["rust_feature_kata_fixture"]  # the `kata` fixture

UNTESTED = "\npub fn untested() -> i32 {\n    7\n}\n"


def _land(repo: Path, files: dict[str, str], message: str) -> None:
    """The history an attack starts from, made past the hooks (the attack is the next commit)."""
    _write(repo, files)
    git(repo, "add", "-A")
    unhooked_commit(repo, message)


def _append(repo: Path, relative: str, text: str) -> str:
    path = repo / relative
    changed = path.read_text(encoding="utf-8") + text
    path.write_text(changed, encoding="utf-8")
    git(repo, "add", "-A")
    return changed


def test_a_module_file_named_by_a_path_attribute_is_code(kata: Path) -> None:
    lib = _code("0", '\n#[path = "../docs/notes.md"]\nmod notes;\n')
    _land(kata, {"docs/notes.md": "//! notes\n", "src/lib.rs": lib}, msg("refactor", "notes"))
    before = head(kata)
    changed = _append(kata, "docs/notes.md", "#[allow(dead_code)]" + UNTESTED)

    text = refused(commit(kata, "docs: notes\n"), "[type-rules]", before, kata)

    assert "docs: commits may not change source files: docs/notes.md" in text
    assert (kata / "docs/notes.md").read_text(encoding="utf-8") == changed


def test_data_compiled_in_by_include_str_is_code(kata: Path) -> None:
    # decided: include_str!/include_bytes! data is compiled into the binary, so a change to it
    # changes behaviour: it is source code for the type rules, like include!
    lib = _code(
        "TABLE.trim().len() as i32 - 1", '\nconst TABLE: &str = include_str!("table.txt");\n'
    )
    _land(kata, {"src/table.txt": "1\n", "src/lib.rs": lib}, msg("refactor", "a table"))
    before = head(kata)
    (kata / "src/table.txt").write_text("2\n", encoding="utf-8")
    git(kata, "add", "-A")

    text = refused(commit(kata, "chore: table\n"), "[type-rules]", before, kata)

    assert "chore: commits may not change source files: src/table.txt" in text


def test_turning_a_source_file_into_a_symlink_in_a_docs_commit_is_refused(kata: Path) -> None:
    lib = (kata / "src/lib.rs").read_text(encoding="utf-8")
    _land(kata, {"docs/lib.md": lib + UNTESTED}, "docs: a copy of the code\n")
    before = head(kata)
    (kata / "src/lib.rs").unlink()
    (kata / "src/lib.rs").symlink_to("../docs/lib.md")
    git(kata, "add", "-A")

    text = refused(
        commit(kata, "docs: point the code at its notes\n"), "[type-rules]", before, kata
    )

    assert "src/lib.rs" in text
    assert (kata / "src/lib.rs").is_symlink()


def test_retargeting_a_source_symlink_in_a_docs_commit_is_refused(kata: Path) -> None:
    lib = (kata / "src/lib.rs").read_text(encoding="utf-8")
    (kata / "docs").mkdir()
    (kata / "src/lib.rs").rename(kata / "docs/lib.md")
    (kata / "src/lib.rs").symlink_to("../docs/lib.md")
    _land(kata, {"docs/other.md": lib + UNTESTED}, msg("refactor", "code beside its notes"))
    before = head(kata)
    (kata / "src/lib.rs").unlink()
    (kata / "src/lib.rs").symlink_to("../docs/other.md")
    git(kata, "add", "-A")

    refused(commit(kata, "docs: the other notes\n"), "[type-rules]", before, kata)

    assert (kata / "src/lib.rs").readlink() == Path("../docs/other.md")


def test_a_file_a_test_includes_is_a_test_for_the_type_rules(kata: Path) -> None:
    cases = '#[test]\nfn one_is_zero() {\n    assert_eq!(CRATE::add("1"), 0);\n}\n'
    tests = _test("empty_is_zero", '""', 0) + '\ninclude!("../docs/cases.md");\n'
    _land(kata, {"docs/cases.md": cases, "tests/add.rs": tests}, msg("test", "more cases"))
    before = head(kata)
    _write(kata, {"docs/cases.md": cases.replace('"1"), 0', '"2"), 0')})
    git(kata, "add", "-A")

    text = refused(commit(kata, msg("refactor", "tidy the cases")), "[type-rules]", before, kata)

    assert "refactor: commits may not change docs/cases.md" in text


def test_a_refactor_may_not_drop_a_test_kept_in_an_included_file(kata: Path) -> None:
    unit = (
        "#[cfg(test)]\nmod more {\n    #[test]\n    fn zero() {\n"
        '        assert_eq!(crate::add(""), 0);\n    }\n}\n'
    )
    lib = _code("0", '\ninclude!("../docs/more.md");\n')
    _land(kata, {"docs/more.md": unit, "src/lib.rs": lib}, msg("feat", "a unit test"))
    before = head(kata)
    (kata / "docs/more.md").write_text("// nothing\n", encoding="utf-8")
    git(kata, "add", "-A")

    text = refused(commit(kata, msg("refactor", "drop a test")), "[type-rules]", before, kata)

    assert "must keep the set of test names; removed src/lib.rs::more::zero" in text


def test_a_feature_may_change_an_included_file_with_its_test(kata: Path) -> None:
    # the legal way still works: code behind an include! changes in a feat: with a test
    lib = _code("0", '\ninclude!("../docs/lib.md");\n')
    _land(kata, {"docs/lib.md": "// notes\n", "src/lib.rs": lib}, msg("refactor", "notes"))
    _write(
        kata,
        {
            "docs/lib.md": "/// Seven.\npub fn seven() -> i32 {\n    7\n}\n",
            "tests/seven.rs": "#[test]\nfn seven() {\n    assert_eq!(CRATE::seven(), 7);\n}\n",
        },
    )
    git(kata, "add", "-A")

    result = commit(kata, msg("feat", "seven"))

    assert result.returncode == 0, result.stdout + result.stderr


def test_a_path_attribute_inside_an_inline_module_is_followed(kata: Path) -> None:
    # in `mod outer { #[path = "notes.md"] mod inner; }` rustc looks in src/outer/
    lib = _code("0", '\nmod outer {\n    #[path = "notes.md"]\n    mod inner;\n}\n')
    _land(kata, {"src/outer/notes.md": "//! notes\n", "src/lib.rs": lib}, msg("refactor", "in"))
    before = head(kata)
    _append(kata, "src/outer/notes.md", "#[allow(dead_code)]" + UNTESTED)

    text = refused(commit(kata, "docs: notes\n"), "[type-rules]", before, kata)

    assert "src/outer/notes.md" in text


def test_a_file_included_by_an_included_file_is_code(kata: Path) -> None:
    lib = _code("0", '\ninclude!("../docs/a.md");\n')
    files = {"docs/a.md": 'include!("b.md");\n', "docs/b.md": "// b\n", "src/lib.rs": lib}
    _land(kata, files, msg("refactor", "two levels"))
    before = head(kata)
    _append(kata, "docs/b.md", UNTESTED)

    text = refused(commit(kata, "docs: b\n"), "[type-rules]", before, kata)

    assert "docs: commits may not change source files: docs/b.md" in text


def test_a_library_path_named_in_the_manifest_is_code(kata: Path) -> None:
    manifest = (kata / "Cargo.toml").read_text(encoding="utf-8") + '\n[lib]\npath = "docs/lib.md"\n'
    lib = (kata / "src/lib.rs").read_text(encoding="utf-8")
    (kata / "src/lib.rs").unlink()
    _land(kata, {"Cargo.toml": manifest, "docs/lib.md": lib}, msg("refactor", "the lib moves"))
    before = head(kata)
    _append(kata, "docs/lib.md", UNTESTED)

    text = refused(commit(kata, "docs: notes\n"), "[type-rules]", before, kata)

    assert "docs: commits may not change source files: docs/lib.md" in text


def test_a_library_path_under_an_escaped_key_is_code(kata: Path) -> None:
    # TOML lets a quoted key use escapes and cargo reads `"p\u0061th"` as `path`: the hooks'
    # cheap pre-check (no manifest parse when no text can name a file) must not skip it
    manifest = (kata / "Cargo.toml").read_text(encoding="utf-8")
    manifest += '\n[lib]\n"p\\u0061th" = "docs/lib.md"\n'
    lib = (kata / "src/lib.rs").read_text(encoding="utf-8")
    (kata / "src/lib.rs").unlink()
    _land(kata, {"Cargo.toml": manifest, "docs/lib.md": lib}, msg("refactor", "the lib moves"))
    before = head(kata)
    changed = _append(kata, "docs/lib.md", UNTESTED)

    text = refused(commit(kata, "docs: notes\n"), "[type-rules]", before, kata)

    assert "docs: commits may not change source files: docs/lib.md" in text
    assert (kata / "docs/lib.md").read_text(encoding="utf-8") == changed


def test_a_build_script_named_in_the_manifest_is_code(kata: Path) -> None:
    manifest = (kata / "Cargo.toml").read_text(encoding="utf-8")
    manifest = manifest.replace("[package]\n", '[package]\nbuild = "tools/gen.txt"\n', 1)
    _land(kata, {"Cargo.toml": manifest, "tools/gen.txt": "fn main() {}\n"}, msg("refactor", "b"))
    before = head(kata)
    (kata / "tools/gen.txt").write_text('fn main() {\n    println!("hi");\n}\n', encoding="utf-8")
    git(kata, "add", "-A")

    text = refused(commit(kata, "build: say hi\n"), "[type-rules]", before, kata)

    assert "build: commits may not change source files: tools/gen.txt" in text
