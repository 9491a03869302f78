use {crate}::prime_factors;

#[test]
fn one_has_no_factors() {
    assert!(prime_factors(1).is_empty());
}

#[test]
fn a_prime_is_its_own_factor() {
    assert_eq!(prime_factors(2), vec![2]);
    assert_eq!(prime_factors(5), vec![5]);
    assert_eq!(prime_factors(29), vec![29]);
}

#[test]
fn a_power_of_a_prime_repeats_it() {
    assert_eq!(prime_factors(9), vec![3, 3]);
    assert_eq!(prime_factors(32), vec![2, 2, 2, 2, 2]);
}

#[test]
fn two_primes_come_smallest_first() {
    assert_eq!(prime_factors(10), vec![2, 5]);
    assert_eq!(prime_factors(35), vec![5, 7]);
}

#[test]
fn a_factor_repeats_as_often_as_it_divides() {
    assert_eq!(prime_factors(20), vec![2, 2, 5]);
    assert_eq!(prime_factors(50), vec![2, 5, 5]);
}

#[test]
fn larger_numbers_break_down() {
    assert_eq!(prime_factors(720), vec![2, 2, 2, 2, 3, 3, 5]);
    assert_eq!(prime_factors(2310), vec![2, 3, 5, 7, 11]);
}

#[test]
fn a_large_prime_factor_is_found() {
    assert_eq!(prime_factors(10_403), vec![101, 103]);
    assert_eq!(prime_factors(2 * 2_147_483_647), vec![2, 2_147_483_647]);
}

#[test]
fn the_factors_multiply_back_and_are_prime() {
    for n in 2..=300u64 {
        let factors = prime_factors(n);
        assert_eq!(factors.iter().product::<u64>(), n, "{n}: {factors:?}");
        assert!(factors.windows(2).all(|w| w[0] <= w[1]), "{n}: {factors:?}");
        assert!(factors.iter().all(|f| (2..*f).all(|d| f % d != 0)), "{n}: {factors:?}");
    }
}

#[test]
fn zero_is_refused() {
    let caught = std::panic::catch_unwind(|| prime_factors(0)).expect_err("zero must be refused");
    let message = caught
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| caught.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default();
    assert!(message.to_lowercase().contains("zero"), "message: {message}");
}
