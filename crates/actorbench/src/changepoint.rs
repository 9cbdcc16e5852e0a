//! Change points in a history: where a cell's figure moved, found with E-divisive means
//! (Matteson and James, "A Nonparametric Approach for Multiple Change Point Analysis of
//! Multivariate Data", JASA 2014), the method Apache Otava (formerly Hunter) and MongoDB's
//! performance CI use.
//!
//! The divergence between two stretches of a series `x` (length `m`) and `y` (length `k`)
//! is the energy statistic with exponent 1:
//!
//! ```text
//! Q(x, y) = m k / (m + k) * ( 2/(m k) Σ|x_i - y_j|  -  Σ_{i<i'} |x_i - x_i'| / C(m,2)
//!                                                     -  Σ_{j<j'} |y_j - y_j'| / C(k,2) )
//! ```
//!
//! large when the two stretches come from different distributions. The search is a
//! bisection: in every segment of the series found so far, find the split (each side at
//! least [`Options::min_size`] long) that maximises `Q`; take the best of them; test it with
//! a permutation test (shuffle the values within each segment, [`Options::permutations`]
//! times, and count how often the best `Q` of the shuffled series is at least as large);
//! accept it when the p-value `(count + 1) / (permutations + 1)` is below
//! [`Options::alpha`], split that segment there and repeat; stop at the first split that is
//! not significant. The shuffles use a seeded generator, so the same history always gives
//! the same change points. Sums over pairs are kept incrementally, so scanning a segment
//! of `n` values costs `O(n^2)`.

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// How the search runs.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Significance level of the permutation test.
    pub alpha: f64,
    /// Shuffles per test.
    pub permutations: usize,
    /// Fewest values on each side of a change point.
    pub min_size: usize,
    /// Seed of the shuffles.
    pub seed: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            alpha: 0.05,
            permutations: 199,
            min_size: 3,
            seed: 0xC4A9_6E70_1A75,
        }
    }
}

/// One change point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChangePoint {
    /// Index of the first value after the change.
    pub index: usize,
    /// The permutation test's p-value.
    pub p: f64,
    /// The divergence `Q` at the split.
    pub q: f64,
}

/// The change points of `xs`, in index order.
///
/// ```
/// use actorbench::changepoint::{e_divisive, Options};
/// let mut xs = vec![1.0, 1.02, 0.99, 1.01, 1.0, 0.98, 1.01, 1.0];
/// xs.extend([1.3, 1.31, 1.29, 1.32, 1.3, 1.28, 1.31, 1.3]);
/// let cps = e_divisive(&xs, &Options::default());
/// assert_eq!(cps.iter().map(|c| c.index).collect::<Vec<_>>(), [8]);
/// ```
pub fn e_divisive(xs: &[f64], opts: &Options) -> Vec<ChangePoint> {
    let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
    let mut cuts: Vec<usize> = vec![0, xs.len()];
    let mut found = Vec::new();
    while let Some((index, q)) = best_split(xs, &cuts, opts.min_size) {
        let mut shuffled = xs.to_vec();
        let mut as_large = 0usize;
        for _ in 0..opts.permutations {
            for w in cuts.windows(2) {
                shuffled[w[0]..w[1]].shuffle(&mut rng);
            }
            if best_split(&shuffled, &cuts, opts.min_size).is_some_and(|(_, pq)| pq >= q) {
                as_large += 1;
            }
            shuffled.copy_from_slice(xs);
        }
        let p = (as_large + 1) as f64 / (opts.permutations + 1) as f64;
        if p >= opts.alpha {
            break;
        }
        found.push(ChangePoint { index, p, q });
        let at = cuts.partition_point(|&c| c < index);
        cuts.insert(at, index);
    }
    found.sort_by_key(|c| c.index);
    found
}

/// The best split over every segment between consecutive `cuts`: its index and `Q`.
fn best_split(xs: &[f64], cuts: &[usize], min_size: usize) -> Option<(usize, f64)> {
    cuts.windows(2)
        .filter_map(|w| best_in(&xs[w[0]..w[1]], min_size.max(1)).map(|(i, q)| (w[0] + i, q)))
        .max_by(|a, b| a.1.total_cmp(&b.1))
}

/// The split of one segment that maximises `Q`, as an index into it.
fn best_in(seg: &[f64], min_size: usize) -> Option<(usize, f64)> {
    scan(seg, min_size)
        .into_iter()
        .max_by(|a, b| a.1.total_cmp(&b.1))
}

/// `Q` at every split of a segment that leaves at least `min_size` values on each side.
fn scan(seg: &[f64], min_size: usize) -> Vec<(usize, f64)> {
    let n = seg.len();
    let mut out = Vec::new();
    if n < 2 * min_size {
        return out;
    }
    let d = |i: usize, j: usize| (seg[i] - seg[j]).abs();
    // With the split at t: left = seg[..t], right = seg[t..]. Keep the sum of distances
    // within the left, within the right, and across.
    let total: f64 = (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .map(|(i, j)| d(i, j))
        .sum();
    let (mut within_left, mut across) = (0.0, 0.0);
    for t in 1..n {
        // Move seg[t - 1] from the right to the left.
        let v = t - 1;
        let to_left: f64 = (0..v).map(|i| d(i, v)).sum();
        let to_right: f64 = (t..n).map(|j| d(v, j)).sum();
        within_left += to_left;
        across += to_right - to_left;
        let within_right = total - within_left - across;
        let (m, k) = (t as f64, (n - t) as f64);
        if t < min_size || n - t < min_size {
            continue;
        }
        let pairs = |c: f64| if c > 1.0 { c * (c - 1.0) / 2.0 } else { 1.0 };
        let e = 2.0 * across / (m * k) - within_left / pairs(m) - within_right / pairs(k);
        out.push((t, m * k / (m + k) * e));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Q` straight from its definition, to check the incremental sums.
    fn q_direct(x: &[f64], y: &[f64]) -> f64 {
        let (m, k) = (x.len() as f64, y.len() as f64);
        let cross: f64 = x
            .iter()
            .flat_map(|a| y.iter().map(move |b| (a - b).abs()))
            .sum();
        let within = |v: &[f64]| -> f64 {
            let c = v.len() as f64;
            let s: f64 = (0..v.len())
                .flat_map(|i| (i + 1..v.len()).map(move |j| (i, j)))
                .map(|(i, j)| (v[i] - v[j]).abs())
                .sum();
            if c > 1.0 {
                s / (c * (c - 1.0) / 2.0)
            } else {
                0.0
            }
        };
        m * k / (m + k) * (2.0 * cross / (m * k) - within(x) - within(y))
    }

    #[test]
    fn incremental_sums_match_the_definition() {
        let xs = [1.0, 3.0, 2.0, 7.0, 8.0, 6.5, 7.2, 1.1];
        let scanned = scan(&xs, 1);
        assert_eq!(scanned.len(), xs.len() - 1);
        for (t, q) in scanned {
            let (l, r) = xs.split_at(t);
            assert!((q - q_direct(l, r)).abs() < 1e-9, "t={t}");
        }
    }

    /// Reference change points from MongoDB's `signal-processing-algorithms` 2.1.6 (the
    /// E-divisive implementation Hunter builds on): `e_divisive(series, pvalue=0.05,
    /// permutations=199)` finds [10, 20] in the two-step series of the next test, nothing in
    /// its flat one, and [10] in `history` here.
    #[test]
    fn agrees_with_signal_processing_algorithms() {
        let history = [
            0.412, 0.398, 0.405, 0.431, 0.402, 0.399, 0.415, 0.408, 0.420, 0.395, 0.452, 0.461,
            0.448, 0.455, 0.466, 0.450, 0.458, 0.449,
        ];
        let at: Vec<usize> = e_divisive(&history, &Options::default())
            .iter()
            .map(|c| c.index)
            .collect();
        assert_eq!(at, [10]);
    }

    #[test]
    fn finds_steps_and_nothing_in_noise() {
        let o = Options::default();
        // Two steps.
        let mut xs: Vec<f64> = (0..10).map(|i| 1.0 + 0.01 * (i % 3) as f64).collect();
        xs.extend((0..10).map(|i| 1.5 + 0.01 * (i % 4) as f64));
        xs.extend((0..10).map(|i| 1.2 + 0.01 * (i % 2) as f64));
        let at: Vec<usize> = e_divisive(&xs, &o).iter().map(|c| c.index).collect();
        assert_eq!(at, [10, 20]);
        // Noise around one level: no change point.
        let flat = [
            1.0, 1.03, 0.98, 1.01, 0.99, 1.02, 0.97, 1.0, 1.01, 0.99, 1.02, 0.98,
        ];
        assert!(e_divisive(&flat, &o).is_empty());
        // Too short to split.
        assert!(e_divisive(&[1.0, 2.0, 3.0], &o).is_empty());
        // Seeded: the same answer every time.
        assert_eq!(e_divisive(&xs, &o), e_divisive(&xs, &o));
    }
}
