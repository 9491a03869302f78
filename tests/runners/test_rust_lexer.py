"""The one lexer of Rust comments and literals (runners/rust_lexer.py) and its two readings."""

from __future__ import annotations

import pytest

from tddhooks.runners.rust_lexer import Span, blanked, spans, without_comments


def test_spans_are_whole_comments_and_the_insides_of_literals() -> None:
    text = 'let s = "a // b"; // note\nlet c = \'"\'; /* x /* y */ z */ r#"q"#'
    assert [(text[s.start : s.end], s.comment) for s in spans(text)] == [
        ("a // b", False),
        ("// note", True),
        ('"', False),
        ("/* x /* y */ z */", True),  # block comments nest
        ("q", False),
    ]


@pytest.mark.parametrize(
    ("code", "kept"),
    [
        ("fn f<'a>(x: &'a str) // c\n", "fn f<'a>(x: &'a str)  \n"),  # a lifetime is no char
        ('extern "C" fn f() /* a\nb */ {}', 'extern "C" fn f()  \n {}'),  # literals stay
        ('let s = br"/*"; // x', 'let s = br"/*";  '),
        ("let u = '\\u{1F600}'; // x", "let u = '\\u{1F600}';  "),
        ('bar"/* not raw"', 'bar"/* not raw"'),  # `r"` inside a word opens no raw string
    ],
)
def test_without_comments_keeps_the_code_and_its_line_breaks(code: str, kept: str) -> None:
    assert without_comments(code) == kept


def test_an_unclosed_string_runs_to_the_end_as_rustc_reads_it() -> None:
    assert list(spans('f("open // not a comment')) == [Span(3, 24, False)]
    assert without_comments('f("open // not a comment') == 'f("open // not a comment'


def test_blanked_keeps_every_byte_offset_and_blanks_utf8_inside_literals() -> None:
    data = "let c = 'é'; let s = \"{é}\"; // {\nfn f() {}\n".encode()
    out = blanked(data)
    assert len(out) == len(data)
    assert out == b"let c = '  '; let s = \"    \";     \nfn f() {}\n"
