//! A tiny pseudo-random generator (SplitMix64) for picking ping partners in `big`.
//!
//! Each worker owns one, seeded from its index, so runs are reproducible and no two
//! workers share state. Quality needs are modest: partners must be spread uniformly
//! over a neighbourhood, which [`SplitMix64::below`] does without modulo bias.

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

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
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
