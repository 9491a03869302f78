use {crate}::say;

#[test]
fn plain_numbers_are_said_as_themselves() {
    assert_eq!(say(1), "1");
    assert_eq!(say(2), "2");
    assert_eq!(say(97), "97");
}

#[test]
fn multiples_of_three_are_fizz() {
    assert_eq!(say(3), "Fizz");
    assert_eq!(say(99), "Fizz");
}

#[test]
fn multiples_of_five_are_buzz() {
    assert_eq!(say(5), "Buzz");
    assert_eq!(say(100), "Buzz");
}

#[test]
fn multiples_of_fifteen_are_fizzbuzz() {
    assert_eq!(say(15), "FizzBuzz");
    assert_eq!(say(90), "FizzBuzz");
}

#[test]
fn multiples_of_seven_are_whizz() {
    assert_eq!(say(7), "Whizz");
    assert_eq!(say(49), "Whizz");
}

#[test]
fn three_and_seven_make_fizzwhizz() {
    assert_eq!(say(21), "FizzWhizz");
    assert_eq!(say(63), "FizzWhizz");
}

#[test]
fn five_and_seven_make_buzzwhizz() {
    assert_eq!(say(35), "BuzzWhizz");
    assert_eq!(say(70), "BuzzWhizz");
}

#[test]
fn all_three_make_fizzbuzzwhizz() {
    assert_eq!(say(105), "FizzBuzzWhizz");
    assert_eq!(say(210), "FizzBuzzWhizz");
}

#[test]
fn zero_is_refused() {
    let caught = std::panic::catch_unwind(|| say(0)).expect_err("zero must be refused");
    let message = caught
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| caught.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default();
    assert!(message.to_lowercase().contains("zero"), "message: {message}");
}
