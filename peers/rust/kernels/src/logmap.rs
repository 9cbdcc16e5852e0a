//! logmap's arithmetic, in IEEE double exactly as the contract spells it.
//!
//! Rates and the increment are parameters in units of 1/10000. Rate actor `i` has the rate
//! `R + d` with `R = rate / 10000.0` and `d = (i as f64) * D`, `D = increment / 10000.0`;
//! series `i` starts from `(i + 1) / (series + 1)`; the next term of `x` is
//! `(r * x) * (1.0 - x)`; a series adds `floor(x * 2^32)` of every term it receives to
//! its sum, wrapping, and reports the sum. Rust never fuses a multiply
//! and an add unless asked to (`mul_add`), so each operation here is rounded on its own,
//! as the contract requires.

/// The rate of rate actor `i`.
///
/// ```
/// assert_eq!(peer_kernels::logmap::rate(34600, 25, 0), 3.46);
/// ```
pub fn rate(rate: u64, increment: u64, i: u64) -> f64 {
    let base = rate as f64 / 10000.0;
    let step = increment as f64 / 10000.0;
    let offset = i as f64 * step;
    base + offset
}

/// The first term of series `i` of `series`.
///
/// ```
/// assert_eq!(peer_kernels::logmap::start(0, 1), 0.5);
/// ```
pub fn start(i: u64, series: u64) -> f64 {
    (i + 1) as f64 / (series + 1) as f64
}

/// The term after `x` at rate `r`: `(r * x) * (1.0 - x)`.
///
/// ```
/// assert_eq!(peer_kernels::logmap::next_term(4.0, 0.5), 1.0);
/// ```
pub fn next_term(r: f64, x: f64) -> f64 {
    (r * x) * (1.0 - x)
}

/// What a term `x` adds to its series' sum: `floor(x * 2^32)` as an integer.
///
/// ```
/// assert_eq!(peer_kernels::logmap::fixed_point(0.5), 1 << 31);
/// ```
pub fn fixed_point(x: f64) -> u64 {
    (x * 4294967296.0).floor() as u64
}
