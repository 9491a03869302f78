pub fn prime_factors(n: u64) -> Vec<u64> {
    assert!(n != 0, "zero has no prime factors");
    let (mut rest, mut divisor, mut factors) = (n, 2, Vec::new());
    while divisor * divisor <= rest {
        while rest % divisor == 0 {
            factors.push(divisor);
            rest /= divisor;
        }
        divisor += 1;
    }
    if rest > 1 {
        factors.push(rest);
    }
    factors
}
