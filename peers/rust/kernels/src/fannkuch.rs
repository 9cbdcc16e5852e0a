//! fannkuch-redux over ranges of permutation indices.
//!
//! The permutations of `0..n` are visited in the order of the Computer Language
//! Benchmarks Game program. That order has a counter per position: going from one
//! permutation to the next rotates the prefix `0..=1` left by one; whenever the prefix
//! `0..=i` has been rotated `i + 1` times (a full turn, back where it started) its counter
//! resets and the longer prefix `0..=i+1` turns by one instead, like the digits of an
//! odometer. Reading the counters as a mixed-radix number (digit `i` in `0..=i`) gives the
//! permutation's index, so the permutation at any index is built directly: start from the
//! identity and, for `i` from `n - 1` down to `1`, rotate the prefix `0..=i` left by digit
//! `i` of the index. That lets the `n!` permutations be cut into independent index ranges
//! ([`task_ranges`]) that workers run in parallel ([`run_range`]).
//!
//! For each permutation, the flips are counted by reversing the prefix `0..=p[0]` until
//! `p[0] == 0`. The checksum adds the flips of even-indexed permutations and subtracts
//! those of odd-indexed ones; the answer is `CHECKSUM:MAXFLIPS`, and [`Partial`]s of
//! disjoint ranges combine by adding checksums and taking the larger maximum.

use std::fmt;
use std::ops::Range;

/// The largest `n` supported (`12! < 2^32`, and the contract's range ends there).
pub const MAX_N: usize = 12;

/// `n!`.
///
/// ```
/// assert_eq!(peer_kernels::fannkuch::factorial(5), 120);
/// ```
pub fn factorial(n: usize) -> u64 {
    (1..=n as u64).product()
}

/// The result of one range of permutations, or of several combined.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Partial {
    /// Sum of `+flips` (even index) and `-flips` (odd index).
    pub checksum: i64,
    /// The most flips any permutation needed.
    pub max_flips: u32,
}

impl Partial {
    /// This partial result merged with another from a disjoint range.
    ///
    /// ```
    /// use peer_kernels::fannkuch::Partial;
    /// let a = Partial { checksum: 5, max_flips: 3 };
    /// let b = Partial { checksum: -2, max_flips: 7 };
    /// assert_eq!(a.combine(b), Partial { checksum: 3, max_flips: 7 });
    /// ```
    pub fn combine(self, other: Partial) -> Partial {
        Partial {
            checksum: self.checksum + other.checksum,
            max_flips: self.max_flips.max(other.max_flips),
        }
    }
}

impl fmt::Display for Partial {
    /// `CHECKSUM:MAXFLIPS`, the benchmark's check value.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.checksum, self.max_flips)
    }
}

/// How many tasks a run is cut into: enough that a dozen workers pulling tasks one at a
/// time all stay busy until near the end, few enough that handing one out costs nothing
/// next to running it.
pub const TASKS: u64 = 240;

/// The `n!` permutation indices cut into at most [`TASKS`] contiguous, non-empty ranges
/// of nearly equal length, in order.
///
/// ```
/// let ranges = peer_kernels::fannkuch::task_ranges(3);
/// assert_eq!(ranges, [0..1, 1..2, 2..3, 3..4, 4..5, 5..6]);
/// ```
pub fn task_ranges(n: usize) -> Vec<Range<u64>> {
    let total = factorial(n);
    let tasks = total.min(TASKS);
    (0..tasks)
        .map(|t| (total * t / tasks)..(total * (t + 1) / tasks))
        .collect()
}

/// fannkuch-redux over the permutations with indices in `range` (`3 <= n <= 12`).
///
/// ```
/// use peer_kernels::fannkuch::{factorial, run_range};
/// assert_eq!(run_range(7, 0..factorial(7)).to_string(), "228:16");
/// ```
pub fn run_range(n: usize, range: Range<u64>) -> Partial {
    assert!((3..=MAX_N).contains(&n), "fannkuch n={n} outside 3..=12");
    assert!(range.end <= factorial(n), "range {range:?} beyond {n}!");
    let mut perm = [0u8; MAX_N];
    let mut count = [0usize; MAX_N];
    for (i, p) in perm.iter_mut().enumerate().take(n) {
        *p = i as u8;
    }
    // Jump to the first permutation of the range: digit i of the index turns prefix 0..=i.
    let mut rest = range.start;
    for i in (1..n).rev() {
        let radix = factorial(i);
        let digit = (rest / radix) as usize;
        rest %= radix;
        count[i] = digit;
        perm[..=i].rotate_left(digit);
    }
    let mut result = Partial::default();
    let mut scratch = [0u8; MAX_N];
    for index in range {
        let flips = count_flips(&perm, &mut scratch);
        result.checksum += if index.is_multiple_of(2) {
            flips as i64
        } else {
            -(flips as i64)
        };
        result.max_flips = result.max_flips.max(flips);
        // Step the odometer to the next permutation.
        let mut i = 1;
        while i < n {
            perm[..=i].rotate_left(1);
            count[i] += 1;
            if count[i] <= i {
                break;
            }
            count[i] = 0;
            i += 1;
        }
    }
    result
}

/// Flips of one permutation: reverse the prefix `0..=p[0]` until `p[0] == 0`.
fn count_flips(perm: &[u8; MAX_N], scratch: &mut [u8; MAX_N]) -> u32 {
    if perm[0] == 0 {
        return 0;
    }
    *scratch = *perm;
    let mut flips = 0;
    loop {
        let first = scratch[0] as usize;
        if first == 0 {
            return flips;
        }
        scratch[..=first].reverse();
        flips += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn whole(n: usize) -> String {
        run_range(n, 0..factorial(n)).to_string()
    }

    #[test]
    fn known_answers() {
        assert_eq!(whole(3), "2:2");
        assert_eq!(whole(5), "11:7");
        assert_eq!(whole(7), "228:16");
        assert_eq!(whole(9), "8629:30");
    }

    #[test]
    fn ranges_cover_every_index_once() {
        for n in 3..=MAX_N {
            let ranges = task_ranges(n);
            assert!(ranges.len() as u64 <= TASKS);
            assert_eq!(ranges.first().unwrap().start, 0);
            assert_eq!(ranges.last().unwrap().end, factorial(n));
            for pair in ranges.windows(2) {
                assert_eq!(pair[0].end, pair[1].start);
                assert!(!pair[0].is_empty());
            }
        }
    }

    #[test]
    fn split_runs_combine_to_the_whole() {
        for n in [3, 6, 8] {
            let combined = task_ranges(n)
                .into_iter()
                .map(|r| run_range(n, r))
                .fold(Partial::default(), Partial::combine);
            assert_eq!(combined.to_string(), whole(n), "n={n}");
        }
    }
}
