"""What the build makes of a file (pure): symlinks both ways, folders, include macros, #[path]."""

from __future__ import annotations

import pytest

from tddhooks.policy.build_inputs import (
    cargo_targets,
    may_name_files,
    resolve,
    rust_references,
    stand_ins,
    tree_stand_ins,
)


@pytest.mark.parametrize(
    ("directory", "target", "want"),
    [
        ("src", "../docs/lib.md", "docs/lib.md"),
        ("src", "./x/../y.rs", "src/y.rs"),
        ("", "docs/a.md", "docs/a.md"),
        ("src", "../../outside.rs", None),
        ("src", "/etc/passwd", None),
        ("", "..", None),
        ("src", "", None),
    ],
)
def test_resolve_stays_inside_the_repository(directory: str, target: str, want: str | None) -> None:
    assert resolve(directory, target) == want


def test_rust_references_find_every_include_macro_and_path_attribute() -> None:
    text = (
        'include!("a.md");\nconst T: &str = include_str!( "t.txt" );\n'
        'static B: &[u8] = include_bytes![r#"in.bin"#];\n#[path = "../m.md"]\nmod m;\n'
        'let _ = "include"; // not a macro call\n'
    )

    assert rust_references(text) == ["a.md", "t.txt", "in.bin", "../m.md"]


def test_a_symlink_target_is_built_as_the_link_and_the_link_as_its_target() -> None:
    found = stand_ins(
        ["src/lib.rs", "docs/lib.md"], {"src/lib.rs": "../docs/lib.md\n"}, {}, rust=True
    )

    assert found["docs/lib.md"] == {"src/lib.rs"}
    assert found["src/lib.rs"] == {"docs/lib.md"}


def test_everything_under_a_symlinked_folder_is_built_under_the_link() -> None:
    found = stand_ins(
        ["tests/more", "extra/cases.txt", "extra/deep/x.txt", "extras.txt"],
        {"tests/more": "../extra"},
        {},
        rust=False,
    )

    assert found["extra/cases.txt"] == {"tests/more/cases.txt"}
    assert found["extra/deep/x.txt"] == {"tests/more/deep/x.txt"}
    assert "extras.txt" not in found


def test_included_files_follow_chains_through_symlinks() -> None:
    # src/lib.rs includes gen.txt, a symlink to notes/gen.md: both are built as src/lib.rs
    found = stand_ins(
        ["src/lib.rs", "src/gen.txt", "notes/gen.md"],
        {"src/gen.txt": "../notes/gen.md"},
        {"src/lib.rs": 'include!("gen.txt");'},
        rust=True,
    )

    assert "src/lib.rs" in found["notes/gen.md"]
    assert "src/lib.rs" in found["src/gen.txt"]


def test_includes_are_read_only_for_rust_and_escaping_targets_are_ignored() -> None:
    sources = {"src/lib.rs": 'include!("../docs/a.md");'}

    assert stand_ins(["src/lib.rs"], {}, sources, rust=False) == {}
    assert stand_ins(["src/lib.rs"], {"src/lib.rs": "../../x.rs"}, {}, rust=True) == {}


PACKAGE = '[package]\nname = "k"\nversion = "0.1.0"\nedition = "2021"\n'
# every spelling cargo reads as `[lib] path` or `package.build`: quoted keys may use escapes
LIB = ("docs/lib.md", "src/lib.rs")
MANIFESTS_THAT_NAME_FILES = {
    "lib path": (PACKAGE + '[lib]\npath = "docs/lib.md"\n', *LIB),
    "dotted key": ('lib.path = "docs/lib.md"\n' + PACKAGE, *LIB),
    "literal key": (PACKAGE + "[lib]\n'path' = \"docs/lib.md\"\n", *LIB),
    "escaped key": (PACKAGE + '[lib]\n"p\\u0061th" = "docs/lib.md"\n', *LIB),
    "long escape": (PACKAGE + '[lib]\n"\\U00000070ath" = "docs/lib.md"\n', *LIB),
    "escaped build": (
        PACKAGE.replace("[package]\n", '[package]\n"b\\u0075ild" = "tools/gen.txt"\n'),
        "tools/gen.txt",
        "build.rs",
    ),
    "escaped table": (PACKAGE + '["\\u006cib"]\npath = "docs/lib.md"\n', *LIB),
}


@pytest.mark.parametrize("case", sorted(MANIFESTS_THAT_NAME_FILES))
def test_the_textual_pre_check_never_skips_a_manifest_that_names_a_file(case: str) -> None:
    """tree_stand_ins skips parsing the manifest (tomllib) when no text can name a file: each
    spelling cargo reads must still be found, through the real tree_stand_ins."""
    manifest, named, built_as = MANIFESTS_THAT_NAME_FILES[case]
    tree = {"Cargo.toml": ("100644", "m"), named: ("100644", "n"), "src/x.rs": ("100644", "x")}
    texts = {"m": manifest, "n": "pub fn f() {}\n", "x": "pub fn g() {}\n"}

    built = tree_stand_ins(tree, {"src/x.rs": "x"}, texts, lambda blobs: {}, rust=True)

    assert built == {named: {built_as}}
    assert cargo_targets("Cargo.toml", manifest) == [(named, built_as)]


def test_a_plain_manifest_and_source_are_not_parsed() -> None:
    manifest = PACKAGE + "\n[dependencies]\n"
    tree = {"Cargo.toml": ("100644", "m"), "src/lib.rs": ("100644", "x")}
    texts = {"m": manifest, "x": "pub fn add(a: i32) -> i32 { a }\n"}

    assert not may_name_files([texts["x"]], [manifest])
    assert tree_stand_ins(tree, {"src/lib.rs": "x"}, texts, lambda blobs: {}, rust=True) == {}
