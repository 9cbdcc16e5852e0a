//! The position-weighted sums that the Savina checks are made of.
//!
//! concsll's `CONTENTS` (the list in order), banking's `BALANCES` (the accounts in order)
//! and cigsmok's `WEIGHTED` (each smoker's count) weigh the value at position `p`
//! (from 0) by `p + 1`, so that the same values in another order give another sum. Like
//! every number in those checks, the sum wraps modulo 2^64.

/// The sum of `(p + 1) * value` over the values at positions `p = 0, 1, ...`, wrapping.
///
/// ```
/// use peer_kernels::digest::weighted_sum;
/// assert_eq!(weighted_sum([5, 7]), 5 + 2 * 7);
/// assert_eq!(weighted_sum([u64::MAX, 1]), 1);
/// assert_eq!(weighted_sum([]), 0);
/// ```
pub fn weighted_sum(values: impl IntoIterator<Item = u64>) -> u64 {
    values
        .into_iter()
        .zip(1u64..)
        .fold(0, |sum, (value, weight)| {
            sum.wrapping_add(weight.wrapping_mul(value))
        })
}
