"""The example answers in the role prompts carry placeholders (`SIMPLEST_BODY`…); an answer
that copies one is refused before anything is written (agents/edits.py, EXAMPLE_PLACEHOLDERS)."""

from __future__ import annotations

from tddhooks.agents.edits import EXAMPLE_PLACEHOLDERS, FileEdit, copied_placeholder
from tddhooks.resources import read_template


def test_every_placeholder_is_in_an_example_answer() -> None:
    prompts = "".join(read_template(f"prompts/{role}.md")
                      for role in ("tester", "implementor", "refactorer"))  # fmt: skip
    # the JSON examples escape nothing in the placeholders: each appears as written
    missing = [placeholder for placeholder in EXAMPLE_PLACEHOLDERS if placeholder not in prompts]
    assert missing == []


def test_a_copied_placeholder_is_found_in_a_path_or_a_content() -> None:
    body = FileEdit(
        path="src/lib.rs", content="pub fn add(text: &str) -> i32 {\n    SIMPLEST_BODY\n}\n"
    )
    path = FileEdit(path="tests/PATH_UNDER_WRITE_TO.rs", content="#[test]\nfn t() {}\n")
    real = FileEdit(path="src/lib.rs", content="pub fn add(text: &str) -> i32 {\n    0\n}\n")

    assert copied_placeholder([real, body]) == "SIMPLEST_BODY"
    assert copied_placeholder([path]) == "PATH_UNDER_WRITE_TO"
    assert copied_placeholder([real]) is None
    # a copied assertion message is only text: the test it is in is valid
    message = FileEdit(
        path="tests/a.rs", content='#[test]\nfn a() {\n    assert!(true, "WHAT IT CHECKS");\n}\n'
    )
    assert copied_placeholder([message]) is None
    assert copied_placeholder([FileEdit(path="src/old.rs", action="delete")]) is None


# --- red team: legitimate code that only looks like a placeholder ------------------------------


def _upsert(content: str, path: str = "src/lib.rs") -> FileEdit:
    return FileEdit(path=path, content=content)


def test_a_longer_name_holding_a_placeholder_is_real_code() -> None:
    # a Rust constant or a Python name: the placeholder is only part of the identifier
    for content in (
        'pub const DEFAULT_RESULT_TYPE: &str = "i32";\n',
        'pub const RESULT_TYPES: [&str; 2] = ["ok", "err"];\n',
        "const SIMPLEST_BODY_LEN: usize = 3;\n",
        "use my_CRATE::FUNCTION_TABLE;\n",
        "MY_FUNCTION(ARGUMENTS) = 1\n",
    ):
        assert copied_placeholder([_upsert(content)]) is None, content


def test_a_placeholder_the_file_already_had_is_the_persons_code() -> None:
    # a person's file that already names RESULT_TYPE: every whole-file rewrite keeps it, and
    # refusing it would refuse every edit of that file for the whole drive
    head = 'pub const RESULT_TYPE: &str = "i32";\n\npub fn add() -> i32 {\n    0\n}\n'
    edit = _upsert(head.replace("    0\n", "    1\n"))
    assert copied_placeholder([edit], {"src/lib.rs": head}.get) is None
    # ... but a placeholder the file did not have is still refused
    copied = _upsert(head + "\npub fn sub() -> i32 {\n    SIMPLEST_BODY\n}\n")
    assert copied_placeholder([copied], {"src/lib.rs": head}.get) == "SIMPLEST_BODY"
    nothing: dict[str, str] = {}
    assert copied_placeholder([edit], nothing.get) == "RESULT_TYPE"


def test_a_placeholder_standing_alone_is_still_found() -> None:
    assert copied_placeholder([_upsert("fn f() -> RESULT_TYPE {\n    0\n}\n")]) == "RESULT_TYPE"
    assert copied_placeholder([_upsert("use CRATE::FUNCTION;\n")]) == "CRATE::FUNCTION"
    assert copied_placeholder([_upsert("pub fn FUNCTION(ARGUMENTS) {}\n")]) == (
        "FUNCTION(ARGUMENTS)"
    )
    assert copied_placeholder([_upsert("x", path="tests/PATH_UNDER_WRITE_TO.rs")]) == (
        "PATH_UNDER_WRITE_TO"
    )
    assert copied_placeholder([_upsert("fn f() {\n    CLEARER_BODY\n}\n")]) == "CLEARER_BODY"
