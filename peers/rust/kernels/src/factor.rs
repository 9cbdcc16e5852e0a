//! Trial division for the `mixed` benchmark.
//!
//! Each worker factorises [`TARGET`] = 28350160440309881 = 86028157 × 329545133 by trial
//! division: divide out 2, then try every odd divisor `d` while `d * d <= n`, dividing
//! each one out as often as it goes. The smaller factor is found after about 43 million
//! trial divisions; what is left after it is then prime (it is below `d * d`). This is
//! the CPU work the benchmark mixes with its message passing, so it is done honestly
//! each time, never cached.
//!
//! The collector accepts a factorisation only if [`is_verified`] holds: the factors are
//! exactly the two known primes and their product is the target.

/// The number every `mixed` worker factorises.
pub const TARGET: u64 = 28_350_160_440_309_881;

/// Its prime factors, in increasing order.
pub const FACTORS: [u64; 2] = [86_028_157, 329_545_133];

/// The prime factors of `n` (with multiplicity, increasing), by trial division.
/// `factorise(0)` and `factorise(1)` are empty.
///
/// ```
/// use peer_kernels::factor::factorise;
/// assert_eq!(factorise(360), [2, 2, 2, 3, 3, 5]);
/// assert_eq!(factorise(97), [97]);
/// ```
pub fn factorise(mut n: u64) -> Vec<u64> {
    let mut factors = Vec::new();
    if n < 2 {
        return factors;
    }
    while n.is_multiple_of(2) {
        factors.push(2);
        n /= 2;
    }
    let mut d = 3u64;
    while d.saturating_mul(d) <= n {
        if n.is_multiple_of(d) {
            factors.push(d);
            n /= d;
        } else {
            d += 2;
        }
    }
    if n > 1 {
        factors.push(n);
    }
    factors
}

/// Whether `factors` is the factorisation of [`TARGET`]: exactly [`FACTORS`], and their
/// product (computed without overflow) equals the target.
///
/// ```
/// use peer_kernels::factor::{is_verified, FACTORS};
/// assert!(is_verified(&FACTORS));
/// assert!(!is_verified(&[FACTORS[0]]));
/// ```
pub fn is_verified(factors: &[u64]) -> bool {
    let product = factors.iter().try_fold(1u64, |acc, &f| acc.checked_mul(f));
    factors == FACTORS && product == Some(TARGET)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_numbers() {
        assert!(factorise(0).is_empty());
        assert!(factorise(1).is_empty());
        assert_eq!(factorise(2), [2]);
        assert_eq!(factorise(9), [3, 3]);
        assert_eq!(factorise(1 << 20), [2; 20]);
        assert_eq!(factorise(u64::MAX), [3, 5, 17, 257, 641, 65537, 6700417]);
    }

    #[test]
    fn target_factorises_to_the_known_primes() {
        let factors = factorise(TARGET);
        assert_eq!(factors, FACTORS);
        assert!(is_verified(&factors));
    }

    #[test]
    fn wrong_factorisations_are_rejected() {
        assert!(!is_verified(&[]));
        assert!(!is_verified(&[TARGET]));
        assert!(!is_verified(&[FACTORS[1], FACTORS[0]]));
        assert!(!is_verified(&[FACTORS[0], FACTORS[1], 1]));
    }
}
