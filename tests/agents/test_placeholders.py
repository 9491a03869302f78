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
