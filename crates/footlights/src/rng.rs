//! A tiny per-thread random number generator (xorshift64) for choices that only need to
//! be cheap and spread out: which worker to steal from first, when to sample next.

use std::cell::Cell;

/// xorshift64 state; never zero.
pub(crate) struct XorShift(Cell<u64>);

impl XorShift {
    /// A generator seeded from `seed` (any value; zero is replaced).
    pub(crate) fn new(seed: u64) -> XorShift {
        XorShift(Cell::new(if seed == 0 {
            0x9E37_79B9_7F4A_7C15
        } else {
            seed
        }))
    }

    /// The next value.
    pub(crate) fn next(&self) -> u64 {
        let mut x = self.0.get();
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0.set(x);
        x
    }

    /// A value in `0..n` (`n > 0`).
    pub(crate) fn below(&self, n: u64) -> u64 {
        self.next() % n
    }
}
