//! The contract's generator and unit of work (docs/benchmarks.md, "The generator and the
//! arithmetic"), shared by the Savina benchmarks.
//!
//! SplitMix64: the state advances by a fixed odd constant, and each draw is the state run
//! through a mixing function of two xor-shifts and two multiplications. The same mixing of
//! `x + GAMMA` is the contract's unit of CPU work, [`step`], and [`work`] repeats it; an
//! actor that Savina makes busy-wait computes `work` instead, and the result goes into the
//! check. All arithmetic wraps, as the contract says.

/// SplitMix64's increment.
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One unit of work: `mix(x + GAMMA)`.
pub fn step(x: u64) -> u64 {
    mix(x.wrapping_add(GAMMA))
}

/// [`step`] applied `n` times to `x`.
pub fn work(mut x: u64, n: u64) -> u64 {
    for _ in 0..n {
        x = step(x);
    }
    x
}

/// One drawing actor's generator.
pub struct SplitMix {
    state: u64,
}

impl SplitMix {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> SplitMix {
        SplitMix { state: seed }
    }

    /// The next draw.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GAMMA);
        mix(self.state)
    }

    /// The next draw modulo `n` (`n >= 1`), as the contract defines `below`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_contracts_known_values() {
        let mut g = SplitMix::new(0);
        assert_eq!(g.next_u64(), 16294208416658607535);
        assert_eq!(g.next_u64(), 7960286522194355700);
        assert_eq!(g.next_u64(), 487617019471545679);
        assert_eq!(SplitMix::new(1).next_u64(), 10451216379200822465);
        assert_eq!(step(0), 16294208416658607535);
        assert_eq!(work(0, 2), 12035550249420947055);
        assert_eq!(work(5, 1000), 2513630078224190977);
    }
}
