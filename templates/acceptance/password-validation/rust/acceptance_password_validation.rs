use {crate}::validate;

const LENGTH: &str = "must be at least 8 characters";
const DIGIT: &str = "must contain a digit";
const UPPER: &str = "must contain an uppercase letter";
const LOWER: &str = "must contain a lowercase letter";
const SPECIAL: &str = "must contain a special character";
const SPACES: &str = "must not contain spaces";

#[test]
fn a_good_password_has_no_errors() {
    assert!(validate("Abcdef1!").is_empty());
    assert!(validate("Zz9#Zz9#Zz9#").is_empty());
}

#[test]
fn a_short_password() {
    assert_eq!(validate("Abc1!"), vec![LENGTH]);
}

#[test]
fn a_password_without_a_digit() {
    assert_eq!(validate("Abcdefg!"), vec![DIGIT]);
}

#[test]
fn a_password_without_an_uppercase_letter() {
    assert_eq!(validate("abcdef1!"), vec![UPPER]);
}

#[test]
fn a_password_without_a_lowercase_letter() {
    assert_eq!(validate("ABCDEF1!"), vec![LOWER]);
}

#[test]
fn a_password_without_a_special_character() {
    assert_eq!(validate("Abcdefg1"), vec![SPECIAL]);
    assert_eq!(validate("Abcdefg1?"), vec![SPECIAL]);
}

#[test]
fn a_password_with_a_space() {
    assert_eq!(validate("Abcd ef1!"), vec![SPACES]);
}

#[test]
fn every_broken_rule_in_order() {
    assert_eq!(validate("abc"), vec![LENGTH, DIGIT, UPPER, SPECIAL]);
    assert_eq!(validate(""), vec![LENGTH, DIGIT, UPPER, LOWER, SPECIAL]);
}

#[test]
fn characters_are_counted_not_bytes() {
    assert_eq!(validate("Äbc1!xy"), vec![LENGTH]);
    assert!(validate("Äbcdef1!").is_empty());
}
