use {crate}::to_roman;

fn refusal(n: u32) -> String {
    let caught = std::panic::catch_unwind(|| to_roman(n)).expect_err("must be refused");
    caught
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| caught.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

#[test]
fn ones_are_written_with_i() {
    assert_eq!(to_roman(1), "I");
    assert_eq!(to_roman(3), "III");
}

#[test]
fn five_and_ten_and_what_adds_to_them() {
    assert_eq!(to_roman(5), "V");
    assert_eq!(to_roman(8), "VIII");
    assert_eq!(to_roman(10), "X");
    assert_eq!(to_roman(12), "XII");
}

#[test]
fn four_and_nine_are_subtractive() {
    assert_eq!(to_roman(4), "IV");
    assert_eq!(to_roman(9), "IX");
    assert_eq!(to_roman(19), "XIX");
}

#[test]
fn tens_use_x_l_and_c() {
    assert_eq!(to_roman(40), "XL");
    assert_eq!(to_roman(60), "LX");
    assert_eq!(to_roman(90), "XC");
    assert_eq!(to_roman(38), "XXXVIII");
}

#[test]
fn hundreds_use_c_d_and_m() {
    assert_eq!(to_roman(400), "CD");
    assert_eq!(to_roman(700), "DCC");
    assert_eq!(to_roman(900), "CM");
}

#[test]
fn thousands_use_m() {
    assert_eq!(to_roman(1000), "M");
    assert_eq!(to_roman(2000), "MM");
}

#[test]
fn every_place_at_once() {
    assert_eq!(to_roman(1987), "MCMLXXXVII");
    assert_eq!(to_roman(2421), "MMCDXXI");
    assert_eq!(to_roman(3999), "MMMCMXCIX");
}

#[test]
fn ninety_nine_is_not_ic() {
    assert_eq!(to_roman(99), "XCIX");
    assert_eq!(to_roman(49), "XLIX");
}

#[test]
fn zero_is_out_of_range() {
    assert!(refusal(0).to_lowercase().contains("range"), "message: {}", refusal(0));
}

#[test]
fn four_thousand_is_out_of_range() {
    assert!(refusal(4000).to_lowercase().contains("range"), "message: {}", refusal(4000));
}
