use {crate}::add;

fn panic_message(text: &'static str) -> String {
    let caught = std::panic::catch_unwind(|| add(text)).expect_err("a negative must be refused");
    caught
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| caught.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

#[test]
fn empty_string_is_zero() {
    assert_eq!(add(""), 0);
}

#[test]
fn one_number_is_itself() {
    assert_eq!(add("7"), 7);
}

#[test]
fn two_numbers_are_added() {
    assert_eq!(add("3,4"), 7);
}

#[test]
fn any_count_of_numbers() {
    assert_eq!(add("1,2,3,4"), 10);
}

#[test]
fn newline_separates_too() {
    assert_eq!(add("1\n2,3"), 6);
}

#[test]
fn custom_single_character_separator() {
    assert_eq!(add("//;\n2;5"), 7);
}

#[test]
fn negatives_are_refused_and_all_named() {
    let message = panic_message("4,-1,-6");
    assert!(message.contains("-1") && message.contains("-6"), "{message}");
}

#[test]
fn numbers_above_1000_are_ignored() {
    assert_eq!(add("2,1001"), 2);
    assert_eq!(add("1000,1"), 1001);
}

#[test]
fn separator_of_any_length_in_brackets() {
    assert_eq!(add("//[***]\n1***2***3"), 6);
}
