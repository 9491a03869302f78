"""rustc's diagnostics reach a prompt in a stable order (agents/diagnostics.py): cargo prints the
errors of test crates built in parallel in the order the builds finished. Measured: a replayed
Password Validation bench quoted `function validate is private` from one test file, where the
drive had quoted it from another, and asked the model anew."""

from __future__ import annotations

from tddhooks.agents.context import scrub
from tddhooks.agents.diagnostics import in_location_order


def _private(path: str) -> str:
    return (
        "error[E0603]: function `validate` is private\n"
        f" --> {path}:1:12\n  |\n1 | use run_1::validate;\n"
        "  |            ^^^^^^^^ private function\n"
        "\nFor more information about this error, try `rustc --explain E0603`.\n"
        'error: could not compile `run-1` (test "x") due to 1 previous error\n'
    )


def test_the_errors_of_crates_built_in_parallel_read_the_same_whichever_finished_first() -> None:
    one, other = (
        _private("tests/password_without_lowercase.rs"),
        _private("tests/password_short.rs"),
    )
    head = "[test] cargo test --all --no-fail-fast: failed (exit 101)\n"
    tail = "[lint] cargo clippy: failed (exit 101)\nerror: boom\n --> src/lib.rs:1:4\n"
    first, second = scrub(head + one + other + tail), scrub(head + other + one + tail)
    assert first == second
    assert first.index("tests/password_short.rs") < first.index("tests/password_without_lowercase")
    assert first.startswith(head)  # a step's header stays where it is, and ends the run
    assert first.endswith(
        "[lint] cargo clippy: failed (exit 101)\nerror: boom\n --> src/lib.rs:1:4"
    )
    assert "rustc --explain" not in first
    assert "could not compile" not in first


def test_a_diagnostic_keeps_its_own_lines_and_other_lines_stay_in_place() -> None:
    lines = [
        "failing tests: a", "warning: unused\n", "  --> src/lib.rs:9:1", "   |", "9 | x",
        "= note: y", "error[E1]: first", " --> src/lib.rs:2:1", "help: z", "", "done",
        "error: no location", "error[E2]: second", " --> src/a.rs:5:5",
    ]  # fmt: skip
    assert in_location_order(lines) == [
        "failing tests: a", "error[E1]: first", " --> src/lib.rs:2:1", "help: z", "",
        "warning: unused\n", "  --> src/lib.rs:9:1", "   |", "9 | x", "= note: y", "done",
        "error[E2]: second", " --> src/a.rs:5:5", "error: no location",
    ]  # fmt: skip
    assert in_location_order([]) == []
