const NUMERALS: [(u32, &str); 13] = [
    (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"),
    (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
];

pub fn to_roman(n: u32) -> String {
    assert!((1..=3999).contains(&n), "{n} is out of range: 1 to 3999");
    let mut rest = n;
    let mut numeral = String::new();
    for (value, letters) in NUMERALS {
        while rest >= value {
            numeral.push_str(letters);
            rest -= value;
        }
    }
    numeral
}
