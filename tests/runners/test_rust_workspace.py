"""Which files of a tree cargo builds from the top (pure)."""

from __future__ import annotations

from tddhooks.runners.rust import rust_test_names
from tddhooks.runners.rust_workspace import built_files, built_packages

TEST = "#[cfg(test)]\nmod tests {\n    #[test]\n    fn works() {}\n}\n"


def _package(name: str) -> str:
    return f'[package]\nname = "{name}"\nversion = "0.1.0"\nedition = "2021"\n'


def test_a_crate_beside_the_workspace_is_not_built() -> None:
    files = {
        "Cargo.toml": '[workspace]\nmembers = ["stack"]\n',
        "stack/Cargo.toml": _package("stack"),
        "stack/src/lib.rs": TEST,
        "old/queue/Cargo.toml": _package("queue"),
        "old/queue/src/lib.rs": TEST,
    }
    assert set(built_files(files)) == {"Cargo.toml", "stack/Cargo.toml", "stack/src/lib.rs"}
    assert rust_test_names(files) == {"stack/src/lib.rs::tests::works"}


def test_member_globs_match_one_folder_level_and_exclude_wins() -> None:
    manifests = {
        "": '[workspace]\nmembers = ["katas/*"]\nexclude = ["katas/draft"]\n',
        "katas/a": _package("a"),
        "katas/draft": _package("draft"),
        "katas/a/nested": _package("nested"),
    }
    assert built_packages(manifests) == {"katas/a"}


def test_the_root_package_and_its_path_dependencies_are_built() -> None:
    manifests = {
        "": _package("app") + '\n[dependencies]\nscore = { path = "libs/score" }\n',
        "libs/score": _package("score") + '\n[dev-dependencies]\nkit = { path = "../kit" }\n',
        "libs/kit": _package("kit"),
        "attic/old": _package("old"),
    }
    assert built_packages(manifests) == {"", "libs/score", "libs/kit"}


def test_a_root_package_keeps_files_of_its_own_below_other_folders() -> None:
    files = {
        "Cargo.toml": _package("app"),
        "src/lib.rs": TEST,
        "tests/score.rs": "#[test]\nfn scores() {}\n",
        "attic/Cargo.toml": _package("attic"),
        "attic/src/lib.rs": TEST,
    }
    assert set(rust_test_names(files)) == {"src/lib.rs::tests::works", "tests/score.rs::scores"}


def test_without_a_readable_root_manifest_every_file_counts() -> None:
    files = {
        "Cargo.toml": "[workspace\nmembers = [",
        "a/Cargo.toml": _package("a"),
        "a/src/lib.rs": TEST,
    }
    assert built_files(files) == files
    no_root = {"a/Cargo.toml": _package("a"), "a/src/lib.rs": TEST, "b/src/lib.rs": TEST}
    assert built_files(no_root) == no_root


def test_a_crate_hidden_inside_a_member_folder_is_its_own_package() -> None:
    """A test moved into a crate folder nested in a member is no longer built: it leaves the
    names the tree defines, as a deleted test does (the rules then judge its removal)."""
    files = {
        "Cargo.toml": '[workspace]\nmembers = ["stack"]\n',
        "stack/Cargo.toml": _package("stack"),
        "stack/src/lib.rs": "pub fn f() {}\n",
        "stack/hidden/Cargo.toml": _package("hidden"),
        "stack/hidden/src/lib.rs": TEST,
    }
    assert rust_test_names(files) == set()
