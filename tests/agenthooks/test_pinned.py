"""The text an agent's edit leaves, read from its hook input (pure)."""

from __future__ import annotations

import json

from tddhooks.agenthooks.pinned import edited_text

TEXT = "fn a() {}\nfn b() {}\nfn b() {}\n"


def test_one_replacement_many_and_a_whole_new_content() -> None:
    one = {"tool_input": {"old_string": "fn b", "new_string": "fn c"}}
    assert edited_text(one, TEXT) == "fn a() {}\nfn c() {}\nfn b() {}\n"
    every = {"tool_input": {"old_string": "fn b", "new_string": "fn c", "replace_all": True}}
    assert edited_text(every, TEXT) == "fn a() {}\nfn c() {}\nfn c() {}\n"
    multi = {
        "tool_input": {
            "edits": [{"old_string": "a", "new_string": "x"}, {"old_str": "x(", "new_str": "y("}]
        }
    }
    assert edited_text(multi, TEXT) == "fn y() {}\nfn b() {}\nfn b() {}\n"
    assert edited_text({"tool_input": {"content": "ü"}}, TEXT) == "ü"
    assert edited_text({"tool_input": json.dumps({"file_text": "new"})}, TEXT) == "new"


def test_an_edit_that_does_not_say_its_result_is_none() -> None:
    assert edited_text({"tool_input": {"old_string": "absent", "new_string": "x"}}, TEXT) is None
    assert edited_text({"tool_input": {"command": "*** Update File: a.rs"}}, TEXT) is None
    assert edited_text({"tool_input": {"edits": ["not an edit"]}}, TEXT) is None
    assert edited_text({"tool_input": "{not json"}, TEXT) is None
