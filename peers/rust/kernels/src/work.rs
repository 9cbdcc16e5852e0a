//! The unit of CPU work of the Savina benchmarks: `step` and `work` from the contract
//! (`docs/benchmarks.md`, "The generator and the arithmetic").
//!
//! `step(x)` is one SplitMix64 step: add the golden-ratio gamma, then mix. `work(x, n)`
//! applies `step` `n` times, so its cost grows linearly with `n` and its result depends on
//! every step: wherever Savina busy-waits, the actor computes `work` and the result goes
//! into the check, so the work cannot be skipped.

/// SplitMix64's increment.
pub const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output mix of `z`.
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One step: `mix(x + GAMMA)`.
///
/// ```
/// assert_eq!(peer_kernels::work::step(0), 16294208416658607535);
/// ```
pub fn step(x: u64) -> u64 {
    mix(x.wrapping_add(GAMMA))
}

/// `step` applied `n` times to `x` (`work(x, 0) = x`).
///
/// ```
/// use peer_kernels::work::work;
/// assert_eq!(work(7, 0), 7);
/// assert_eq!(work(0, 2), 12035550249420947055);
/// assert_eq!(work(5, 1000), 2513630078224190977);
/// ```
pub fn work(mut x: u64, n: u64) -> u64 {
    for _ in 0..n {
        x = step(x);
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// The known values that docs/benchmarks.md gives for the generator and `work`.
    #[test]
    fn matches_the_contract_s_known_values() {
        let mut zero = SplitMix64::new(0);
        let drawn: Vec<u64> = (0..3).map(|_| zero.next_u64()).collect();
        assert_eq!(
            drawn,
            [
                16294208416658607535,
                7960286522194355700,
                487617019471545679
            ]
        );
        let mut one = SplitMix64::new(1);
        let drawn: Vec<u64> = (0..3).map(|_| one.next_u64()).collect();
        assert_eq!(
            drawn,
            [
                10451216379200822465,
                13757245211066428519,
                17911839290282890590
            ]
        );
        assert_eq!(step(0), 16294208416658607535);
        assert_eq!(work(0, 2), 12035550249420947055);
        assert_eq!(work(5, 1000), 2513630078224190977);
    }

    #[test]
    fn next_is_step_of_the_state_before() {
        let mut rng = SplitMix64::new(42);
        let mut state = 42u64;
        for _ in 0..10 {
            assert_eq!(rng.next_u64(), step(state));
            state = state.wrapping_add(GAMMA);
        }
    }
}
