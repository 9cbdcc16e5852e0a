//! A tiny pseudo-random generator (SplitMix64): `big`'s workers pick ping partners with
//! it, and it is the one generator of the Savina benchmarks' contract.
//!
//! Each drawing actor owns one, seeded from its index, so runs are reproducible and no two
//! actors share state. `big` needs partners spread uniformly over a neighbourhood, which
//! [`SplitMix64::below`] does without modulo bias; the Savina benchmarks draw with
//! [`SplitMix64::below_mod`], the contract's `below(n) = next() mod n`, which every
//! implementation in every language computes alike.

use crate::work::{GAMMA, mix};

/// SplitMix64: a 64-bit state advanced by a constant, then mixed.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits (the contract's `next()`).
    ///
    /// ```
    /// let mut rng = peer_kernels::rng::SplitMix64::new(1);
    /// assert_eq!(rng.next_u64(), 10451216379200822465);
    /// assert_eq!(rng.next_u64(), 13757245211066428519);
    /// ```
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GAMMA);
        mix(self.state)
    }

    /// The contract's `below(n)`: `next() mod n` (`bound > 0`), slightly biased towards
    /// small values when `bound` does not divide 2^64, and the same in every language.
    ///
    /// ```
    /// let mut rng = peer_kernels::rng::SplitMix64::new(0);
    /// assert_eq!(rng.below_mod(1000), 16294208416658607535 % 1000);
    /// ```
    pub fn below_mod(&mut self, bound: u64) -> u64 {
        assert!(bound > 0, "below_mod(0)");
        self.next_u64() % bound
    }

    /// A uniform value in `0..bound` (`bound > 0`), by rejection of the biased tail.
    ///
    /// ```
    /// let mut rng = peer_kernels::rng::SplitMix64::new(7);
    /// assert!((0..1000).all(|_| rng.below(3) < 3));
    /// ```
    pub fn below(&mut self, bound: u64) -> u64 {
        assert!(bound > 0, "below(0)");
        let zone = u64::MAX - u64::MAX % bound;
        loop {
            let x = self.next_u64();
            if x < zone {
                return x % bound;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_covers_the_whole_range() {
        let mut rng = SplitMix64::new(1);
        let mut seen = [0u32; 5];
        for _ in 0..5000 {
            seen[rng.below(5) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| c > 800), "{seen:?}");
    }

    #[test]
    fn same_seed_same_sequence() {
        let (mut a, mut b) = (SplitMix64::new(42), SplitMix64::new(42));
        assert!((0..100).all(|_| a.next_u64() == b.next_u64()));
    }
}
