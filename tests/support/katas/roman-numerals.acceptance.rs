//! Hidden acceptance tests of the Roman numerals kata (tests/support/katas/roman-numerals.md).

use {crate}::to_roman;

#[test]
fn ones() {
    assert_eq!(to_roman(2), "II");
}

#[test]
fn four_and_six() {
    assert_eq!(to_roman(4), "IV");
    assert_eq!(to_roman(6), "VI");
}

#[test]
fn nine_and_fourteen() {
    assert_eq!(to_roman(9), "IX");
    assert_eq!(to_roman(14), "XIV");
}

#[test]
fn forty_four() {
    assert_eq!(to_roman(44), "XLIV");
}

#[test]
fn ninety_nine() {
    assert_eq!(to_roman(99), "XCIX");
}

#[test]
fn five_hundred_and_nine_hundred() {
    assert_eq!(to_roman(500), "D");
    assert_eq!(to_roman(900), "CM");
}

#[test]
fn years() {
    assert_eq!(to_roman(1666), "MDCLXVI");
    assert_eq!(to_roman(2024), "MMXXIV");
}

#[test]
fn largest() {
    assert_eq!(to_roman(3999), "MMMCMXCIX");
}

#[test]
#[should_panic(expected = "zero")]
fn zero_panics() {
    to_roman(0);
}
