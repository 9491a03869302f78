use {crate}::wrap;

#[test]
fn an_empty_text_stays_empty() {
    assert_eq!(wrap("", 1), "");
    assert_eq!(wrap("", 10), "");
}

#[test]
fn a_short_text_is_left_alone() {
    assert_eq!(wrap("word", 4), "word");
    assert_eq!(wrap("two words", 20), "two words");
}

#[test]
fn a_long_text_breaks_at_a_space() {
    assert_eq!(wrap("hello world", 7), "hello\nworld");
}

#[test]
fn a_text_breaks_as_often_as_it_needs() {
    assert_eq!(wrap("x y z w", 1), "x\ny\nz\nw");
    assert_eq!(wrap("ab cd ef gh", 5), "ab cd\nef gh");
}

#[test]
fn a_line_takes_every_word_that_fits() {
    assert_eq!(
        wrap("four score and seven years ago", 12),
        "four score\nand seven\nyears ago"
    );
}

#[test]
fn a_word_longer_than_the_width_is_cut() {
    assert_eq!(wrap("abcdefg", 3), "abc\ndef\ng");
}

#[test]
fn a_cut_word_is_followed_by_the_next_words() {
    let wrapped = wrap("abcdefgh ij", 5);
    assert_eq!(wrapped, "abcde\nfgh\nij");
}

#[test]
fn no_line_starts_or_ends_with_a_space() {
    let wrapped = wrap("one two  three   four", 6);
    assert_eq!(wrapped, "one\ntwo\nthree\nfour");
}

#[test]
fn the_width_counts_characters() {
    assert_eq!(wrap("äöü äöü", 3), "äöü\näöü");
    assert_eq!(wrap("ééééé", 2), "éé\néé\né");
}

#[test]
fn a_zero_width_is_refused() {
    let caught = std::panic::catch_unwind(|| wrap("word", 0)).expect_err("must be refused");
    let message = caught
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| caught.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default();
    assert!(message.to_lowercase().contains("width"), "message: {message}");
}
