"""Reference solution of the prime-factors kata: its acceptance suite must pass on it."""

from __future__ import annotations


def prime_factors(n: int) -> list[int]:
    if n < 1:
        raise ValueError(f"{n} has no prime factorisation")
    factors, divisor = [], 2
    while divisor * divisor <= n:
        while n % divisor == 0:
            factors.append(divisor)
            n //= divisor
        divisor += 1
    return factors + ([n] if n > 1 else [])
