//! Small statistics over repeated measurements.
//!
//! - [`median`], [`quantile`] (linear interpolation between order statistics), min, max,
//!   [`mean`] and the sample [`variance`];
//! - [`geometric_mean`], the right mean for ratios;
//! - [`welch`]: Welch's two-sided t-test of equal means without assuming equal variances
//!   (the t distribution's CDF comes from `statrs`); `compare` applies it to the logarithms
//!   of the times, so that a change is tested as a ratio;
//! - [`holm`]: Holm's step-down adjustment of p-values for testing many cells at once;
//! - [`median_interval`]: the distribution-free confidence interval of a median from two
//!   order statistics. For `n` sorted values, the interval from the `j`-th smallest to the
//!   `j`-th largest holds the true median unless at most `j - 1` or at least `n - j + 1`
//!   values fall below it; the number below is Binomial(`n`, 1/2) for any continuous
//!   distribution, so the interval's coverage is exactly `P(j <= B <= n - j)`. The
//!   interval is the narrowest symmetric one whose coverage is at least 95%; below
//!   [`RUNS_FOR_95`] (6) values even the whole range covers less (3 runs: 75%, 5 runs:
//!   93.75%), so the range is given with its real coverage, which the tables print;
//! - [`bootstrap_median`] and [`bootstrap_ratio`]: percentile bootstrap intervals of a
//!   median and of a ratio of two medians (the ratios' intervals in the tables and the
//!   report, and `compare`'s change, use the bootstrap; a median's own interval uses
//!   [`median_interval`]). Each resamples its data with replacement
//!   [`BOOTSTRAP_RESAMPLES`] times and takes the 2.5% and 97.5% quantiles of the
//!   resampled statistic. The generator (ChaCha8, whose output is fixed by its
//!   specification) is seeded with [`BOOTSTRAP_SEED`], so the same runs always give the
//!   same interval and a report can be reproduced;
//! - [`cv`]: the coefficient of variation, sample standard deviation over mean;
//! - [`mann_whitney`]: the two-sided Mann-Whitney U test of "the two samples come from
//!   the same distribution". With few runs per side (the usual 5 vs 5) the p-value is
//!   exact: every way of splitting the pooled ranks into two groups of the same sizes is
//!   enumerated and the p-value is the share of splits whose U is at least as far from
//!   the middle as the observed one. Larger samples use the normal approximation with the
//!   tie correction. Ranks of tied values are averaged.

/// Median of `xs` (NaN for none).
pub fn median(xs: &[f64]) -> f64 {
    quantile(xs, 0.5)
}

/// The `q` quantile (0..=1) of `xs`, interpolating linearly; NaN for none.
pub fn quantile(xs: &[f64], q: f64) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let pos = q.clamp(0.0, 1.0) * (v.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    v[lo] + (v[hi] - v[lo]) * (pos - lo as f64)
}

/// Smallest value (NaN for none).
pub fn min(xs: &[f64]) -> f64 {
    xs.iter().copied().reduce(f64::min).unwrap_or(f64::NAN)
}

/// Largest value (NaN for none).
pub fn max(xs: &[f64]) -> f64 {
    xs.iter().copied().reduce(f64::max).unwrap_or(f64::NAN)
}

/// Geometric mean of positive values (NaN for none).
pub fn geometric_mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    (xs.iter().map(|x| x.ln()).sum::<f64>() / xs.len() as f64).exp()
}

/// Arithmetic mean (NaN for none).
pub fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// Sample variance, with `n - 1` in the denominator (NaN for fewer than two values).
pub fn variance(xs: &[f64]) -> f64 {
    if xs.len() < 2 {
        return f64::NAN;
    }
    let m = mean(xs);
    xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (xs.len() - 1) as f64
}

/// Coefficient of variation: sample standard deviation over mean (NaN for fewer than two
/// values).
pub fn cv(xs: &[f64]) -> f64 {
    variance(xs).sqrt() / mean(xs)
}

/// The fewest values whose median has a distribution-free interval of at least 95%
/// coverage: with 6, the whole range covers 1 - 2/64 = 96.9%; with 5 only 93.75%.
pub const RUNS_FOR_95: usize = 6;

/// A confidence interval of a median from order statistics, with its exact coverage.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MedianInterval {
    /// Its lower end, the `j`-th smallest value (NaN for fewer than two values).
    pub low: f64,
    /// Its upper end, the `j`-th largest value.
    pub high: f64,
    /// The probability that such an interval holds the true median, for any continuous
    /// distribution: at least 0.95 from [`RUNS_FOR_95`] values on, less below (0 for
    /// fewer than two values).
    pub coverage: f64,
}

/// The narrowest symmetric order-statistic interval of the median of `xs` whose coverage
/// is at least 95%, or the whole range with its smaller coverage when 95% cannot be
/// reached (fewer than [`RUNS_FOR_95`] values).
///
/// ```
/// use actorbench::stats::median_interval;
/// let three = median_interval(&[3.0, 1.0, 2.0]);
/// assert_eq!((three.low, three.high, three.coverage), (1.0, 3.0, 0.75));
/// let ten: Vec<f64> = (1..=10).map(f64::from).collect();
/// let i = median_interval(&ten);
/// // The 2nd smallest to the 2nd largest: P(2 <= B <= 8) for B ~ Binomial(10, 1/2).
/// assert_eq!((i.low, i.high), (2.0, 9.0));
/// assert!((i.coverage - 1002.0 / 1024.0).abs() < 1e-12);
/// ```
pub fn median_interval(xs: &[f64]) -> MedianInterval {
    use statrs::distribution::{Binomial, DiscreteCDF};
    let n = xs.len();
    if n < 2 {
        return MedianInterval {
            low: f64::NAN,
            high: f64::NAN,
            coverage: 0.0,
        };
    }
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    // Coverage of [x(j), x(n+1-j)] (1-based): P(j <= B <= n - j), B ~ Binomial(n, 1/2).
    // Up to 1000 values the probabilities C(n, i) / 2^n are summed from the recurrence
    // p(i + 1) = p(i) (n - i) / (i + 1), exact for the small n that matter (0.75 for 3);
    // beyond, 2^-n underflows and `statrs`'s CDF is used.
    let pmf: Vec<f64> = if n <= 1000 {
        let mut p = vec![0.5f64.powi(n as i32)];
        for i in 0..n {
            p.push(p[i] * (n - i) as f64 / (i + 1) as f64);
        }
        p
    } else {
        Vec::new()
    };
    let b = Binomial::new(0.5, n as u64).expect("p = 1/2 is a valid probability");
    let coverage = |j: usize| {
        if pmf.is_empty() {
            (b.cdf((n - j) as u64) - b.cdf((j - 1) as u64)).clamp(0.0, 1.0)
        } else {
            pmf[j..=n - j].iter().sum::<f64>().clamp(0.0, 1.0)
        }
    };
    let mut j = 1;
    while j < n / 2 && coverage(j + 1) >= 0.95 {
        j += 1;
    }
    MedianInterval {
        low: v[j - 1],
        high: v[n - j],
        coverage: coverage(j),
    }
}

/// Resamples per bootstrap interval.
pub const BOOTSTRAP_RESAMPLES: usize = 2000;
/// The seed of every bootstrap, so that intervals are reproducible.
pub const BOOTSTRAP_SEED: u64 = 0x5EED_AC70_4BE4_C400;

fn bootstrap_rng() -> rand_chacha::ChaCha8Rng {
    use rand::SeedableRng;
    rand_chacha::ChaCha8Rng::seed_from_u64(BOOTSTRAP_SEED)
}

fn resampled_median(xs: &[f64], rng: &mut rand_chacha::ChaCha8Rng, buf: &mut Vec<f64>) -> f64 {
    use rand::Rng;
    buf.clear();
    buf.extend((0..xs.len()).map(|_| xs[rng.random_range(0..xs.len())]));
    median(buf)
}

/// The 95% percentile bootstrap interval of the median of `xs`, `(NaN, NaN)` for fewer
/// than two values.
///
/// ```
/// let (lo, hi) = actorbench::stats::bootstrap_median(&[1.0, 2.0, 3.0, 4.0, 5.0]);
/// assert!(lo <= 3.0 && 3.0 <= hi && lo >= 1.0 && hi <= 5.0);
/// ```
pub fn bootstrap_median(xs: &[f64]) -> (f64, f64) {
    if xs.len() < 2 {
        return (f64::NAN, f64::NAN);
    }
    let mut rng = bootstrap_rng();
    let mut buf = Vec::with_capacity(xs.len());
    let meds: Vec<f64> = (0..BOOTSTRAP_RESAMPLES)
        .map(|_| resampled_median(xs, &mut rng, &mut buf))
        .collect();
    (quantile(&meds, 0.025), quantile(&meds, 0.975))
}

/// The 95% percentile bootstrap interval of `median(num) / median(den)`, each side
/// resampled on its own; `(NaN, NaN)` when either has fewer than two values.
///
/// ```
/// let (lo, hi) = actorbench::stats::bootstrap_ratio(&[2.0, 2.1, 1.9], &[1.0, 1.05, 0.95]);
/// assert!(lo > 1.5 && hi < 2.5);
/// ```
pub fn bootstrap_ratio(num: &[f64], den: &[f64]) -> (f64, f64) {
    if num.len() < 2 || den.len() < 2 {
        return (f64::NAN, f64::NAN);
    }
    let mut rng = bootstrap_rng();
    let mut buf = Vec::with_capacity(num.len().max(den.len()));
    let ratios: Vec<f64> = (0..BOOTSTRAP_RESAMPLES)
        .map(|_| {
            let n = resampled_median(num, &mut rng, &mut buf);
            n / resampled_median(den, &mut rng, &mut buf)
        })
        .collect();
    (quantile(&ratios, 0.025), quantile(&ratios, 0.975))
}

/// Result of Welch's t-test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TTest {
    /// t statistic of `b` against `a` (positive when `b`'s mean is larger).
    pub t: f64,
    /// Welch-Satterthwaite degrees of freedom.
    pub df: f64,
    /// Two-sided p-value.
    pub p: f64,
}

/// Welch's two-sided t-test of "`a` and `b` have the same mean"; `None` when a side has
/// fewer than two values. When both sides have no spread at all the p-value is 1 for
/// equal means and 0 otherwise.
///
/// ```
/// let r = actorbench::stats::welch(&[1.0, 1.1, 0.9], &[2.0, 2.1, 1.9]).unwrap();
/// assert!(r.t > 0.0 && r.p < 0.001);
/// ```
pub fn welch(a: &[f64], b: &[f64]) -> Option<TTest> {
    use statrs::distribution::{ContinuousCDF, StudentsT};
    if a.len() < 2 || b.len() < 2 {
        return None;
    }
    let (na, nb) = (a.len() as f64, b.len() as f64);
    let (va, vb) = (variance(a) / na, variance(b) / nb);
    let diff = mean(b) - mean(a);
    let se2 = va + vb;
    if se2 <= 0.0 {
        let p = if diff == 0.0 { 1.0 } else { 0.0 };
        let t = if diff == 0.0 {
            0.0
        } else {
            diff.signum() * f64::INFINITY
        };
        return Some(TTest {
            t,
            df: na + nb - 2.0,
            p,
        });
    }
    let t = diff / se2.sqrt();
    let df = se2 * se2 / (va * va / (na - 1.0) + vb * vb / (nb - 1.0));
    let dist = StudentsT::new(0.0, 1.0, df).ok()?;
    let p = (2.0 * dist.sf(t.abs())).min(1.0);
    Some(TTest { t, df, p })
}

/// Holm's step-down adjustment: the p-values of `ps` made valid for testing all of them
/// at once (family-wise error rate). Sorted ascending, the `i`-th smallest (from 0) is
/// multiplied by `m - i`, kept no smaller than the one before it, and capped at 1; the
/// result is in the order of `ps`. A test is significant at level `alpha` when its
/// adjusted p-value is below `alpha`.
///
/// ```
/// let adj = actorbench::stats::holm(&[0.01, 0.04, 0.03, 0.2]);
/// assert_eq!(adj, [0.04, 0.09, 0.09, 0.2]);
/// ```
pub fn holm(ps: &[f64]) -> Vec<f64> {
    let m = ps.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&i, &j| ps[i].total_cmp(&ps[j]));
    let mut out = vec![0.0; m];
    let mut running = 0.0f64;
    for (rank, &i) in order.iter().enumerate() {
        running = running.max(((m - rank) as f64 * ps[i]).min(1.0));
        out[i] = running;
    }
    out
}

/// The smallest two-sided p-value a Mann-Whitney U test can give with `n1` and `n2`
/// values (no ties): what the most extreme split of the ranks gets. With 5 and 5 it is
/// 2/252, so such a test can never pass a threshold below that.
pub fn mann_whitney_min_p(n1: usize, n2: usize) -> f64 {
    let a: Vec<f64> = (0..n1).map(|i| i as f64).collect();
    let b: Vec<f64> = (n1..n1 + n2).map(|i| i as f64).collect();
    mann_whitney(&a, &b).map_or(1.0, |m| m.p)
}

/// Result of a Mann-Whitney U test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MannWhitney {
    /// U statistic of the first sample.
    pub u: f64,
    /// Two-sided p-value.
    pub p: f64,
    /// Whether the p-value is exact (enumerated) rather than approximated.
    pub exact: bool,
}

/// Two-sided Mann-Whitney U test of `a` against `b`; `None` when a side is empty.
pub fn mann_whitney(a: &[f64], b: &[f64]) -> Option<MannWhitney> {
    let (n1, n2) = (a.len(), b.len());
    if n1 == 0 || n2 == 0 {
        return None;
    }
    let mut pooled: Vec<(f64, usize)> = a
        .iter()
        .map(|&x| (x, 0))
        .chain(b.iter().map(|&x| (x, 1)))
        .collect();
    pooled.sort_by(|x, y| x.0.total_cmp(&y.0));
    let n = pooled.len();
    let mut ranks = vec![0.0; n];
    let mut tie_term = 0.0;
    let mut i = 0;
    while i < n {
        let mut j = i;
        while j + 1 < n && pooled[j + 1].0 == pooled[i].0 {
            j += 1;
        }
        let r = (i + j) as f64 / 2.0 + 1.0;
        ranks[i..=j].iter_mut().for_each(|x| *x = r);
        let t = (j - i + 1) as f64;
        tie_term += t * t * t - t;
        i = j + 1;
    }
    let r1: f64 = ranks
        .iter()
        .zip(&pooled)
        .filter(|(_, p)| p.1 == 0)
        .map(|(r, _)| r)
        .sum();
    let u = r1 - (n1 * (n1 + 1)) as f64 / 2.0;
    let mean_u = (n1 * n2) as f64 / 2.0;
    let observed = (u - mean_u).abs();

    if binomial(n, n1) <= 200_000.0 {
        // Exact: enumerate every choice of n1 ranks out of n.
        let (mut total, mut extreme) = (0u64, 0u64);
        let mut idx: Vec<usize> = (0..n1).collect();
        loop {
            let s: f64 = idx.iter().map(|&k| ranks[k]).sum();
            let uu = s - (n1 * (n1 + 1)) as f64 / 2.0;
            total += 1;
            if (uu - mean_u).abs() >= observed - 1e-9 {
                extreme += 1;
            }
            // Next combination in lexicographic order.
            let mut k = n1;
            loop {
                if k == 0 {
                    return Some(MannWhitney {
                        u,
                        p: extreme as f64 / total as f64,
                        exact: true,
                    });
                }
                k -= 1;
                if idx[k] < n - n1 + k {
                    idx[k] += 1;
                    for m in k + 1..n1 {
                        idx[m] = idx[m - 1] + 1;
                    }
                    break;
                }
            }
        }
    }
    let (n1f, n2f, nf) = (n1 as f64, n2 as f64, n as f64);
    let var = n1f * n2f / 12.0 * ((nf + 1.0) - tie_term / (nf * (nf - 1.0)));
    if var <= 0.0 {
        return Some(MannWhitney {
            u,
            p: 1.0,
            exact: false,
        });
    }
    let z = (observed - 0.5).max(0.0) / var.sqrt();
    Some(MannWhitney {
        u,
        p: (2.0 * normal_sf(z)).min(1.0),
        exact: false,
    })
}

fn binomial(n: usize, k: usize) -> f64 {
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

/// Standard normal CDF, from `statrs`.
#[cfg(test)]
fn normal_cdf(z: f64) -> f64 {
    use statrs::distribution::{ContinuousCDF, Normal};
    Normal::standard().cdf(z)
}

/// Standard normal upper tail, 1 - CDF, from `statrs` (accurate far into the tail).
fn normal_sf(z: f64) -> f64 {
    use statrs::distribution::{ContinuousCDF, Normal};
    Normal::standard().sf(z)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_intervals_have_exact_coverage() {
        // Coverage of the whole range is 1 - 2 / 2^n; 95% is first reached at 6 values.
        for (n, cov) in [(2, 0.5), (3, 0.75), (4, 0.875), (5, 0.9375), (6, 0.96875)] {
            let xs: Vec<f64> = (0..n).map(f64::from).collect();
            let i = median_interval(&xs);
            assert_eq!((i.low, i.high), (0.0, f64::from(n - 1)), "n = {n}");
            assert!((i.coverage - cov).abs() < 1e-12, "n = {n}: {}", i.coverage);
        }
        // n = 20: [x(6), x(15)] covers 95.86% (the textbook table); [x(7), x(14)] 88.5%.
        let xs: Vec<f64> = (1..=20).map(f64::from).collect();
        let i = median_interval(&xs);
        assert_eq!((i.low, i.high), (6.0, 15.0));
        assert!(
            (i.coverage - 0.958_610_534_667_968_8).abs() < 1e-9,
            "{}",
            i.coverage
        );
        let none = median_interval(&[1.0]);
        assert!(none.low.is_nan() && none.coverage == 0.0);
    }

    #[test]
    fn order_statistics() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert_eq!(quantile(&[1.0, 2.0, 3.0, 4.0, 5.0], 0.25), 2.0);
        assert!((geometric_mean(&[1.0, 4.0]) - 2.0).abs() < 1e-12);
        assert!(median(&[]).is_nan());
    }

    /// Reference values computed with SciPy 1.17.1 (`scipy.stats.ttest_ind(y, x,
    /// equal_var=False)`, `mannwhitneyu(..., method='exact' | 'asymptotic')`, `norm.cdf`) and
    /// statsmodels 0.15.0 (`multipletests(ps, method='holm')`).
    #[test]
    fn agrees_with_published_implementations() {
        let x = [19.1, 20.3, 18.7, 21.4, 20.0, 19.8];
        let y = [22.4, 21.9, 23.5, 20.8, 22.1];
        let w = welch(&x, &y).unwrap();
        assert!((w.t - 3.876_554_273_895_859_4).abs() < 1e-9, "{w:?}");
        assert!((w.df - 8.564_149_033_643_766).abs() < 1e-9, "{w:?}");
        assert!((w.p - 0.004_122_704_058_631_671).abs() < 1e-9, "{w:?}");
        let adj = holm(&[0.01, 0.04, 0.03, 0.2, 0.005]);
        let want = [0.04, 0.09, 0.09, 0.2, 0.025];
        assert!(
            adj.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-12),
            "{adj:?}"
        );
        let mw =
            mann_whitney(&[1.1, 2.5, 3.3, 4.2, 5.0, 7.7], &[3.9, 6.1, 8.2, 9.4, 10.5]).unwrap();
        assert!(
            mw.exact && (mw.p - 0.051_948_051_948_051_95).abs() < 1e-12,
            "{mw:?}"
        );
        let a: Vec<f64> = (0..40).map(f64::from).collect();
        let b: Vec<f64> = (100..140).map(f64::from).collect();
        let mw = mann_whitney(&a, &b).unwrap();
        assert!(
            !mw.exact && (mw.p / 1.435_085_306_393_668e-14 - 1.0).abs() < 1e-3,
            "{mw:?}"
        );
        assert!((normal_cdf(1.96) - 0.975_002_104_851_779_5).abs() < 1e-9);
        assert!((mann_whitney_min_p(5, 5) - 2.0 / 252.0).abs() < 1e-12);
        assert_eq!(welch(&[1.0], &[2.0, 3.0]), None);
        assert_eq!(welch(&[1.0, 1.0], &[1.0, 1.0]).unwrap().p, 1.0);
        assert_eq!(welch(&[1.0, 1.0], &[2.0, 2.0]).unwrap().p, 0.0);
    }

    /// The percentile bootstrap interval of a median of 21 values: SciPy 1.17.1's
    /// `scipy.stats.bootstrap((x,), np.median, method='percentile', n_resamples=200000)`
    /// gives (0.402, 0.412) for three seeds, and so does the exact bootstrap distribution of
    /// an odd sample's median (P(median <= x(k)) = P(Binomial(n, k/n) >= (n+1)/2): 0.018 at
    /// 0.401, 0.056 at 0.402, 0.944 at 0.411, 0.982 at 0.412).
    #[test]
    fn bootstrap_intervals_agree_with_scipy() {
        let x = [
            0.412, 0.398, 0.405, 0.431, 0.402, 0.399, 0.415, 0.408, 0.420, 0.395, 0.401, 0.417,
            0.404, 0.409, 0.397, 0.426, 0.403, 0.411, 0.400, 0.406, 0.414,
        ];
        assert_eq!(bootstrap_median(&x), (0.402, 0.412));
        // Five values: the exact distribution puts 5.8% on each extreme, so the interval is
        // the whole range.
        assert_eq!(bootstrap_median(&[5.0, 1.0, 3.0, 2.0, 4.0]), (1.0, 5.0));
        assert!(bootstrap_median(&[1.0]).0.is_nan());
        // Seeded: the same data always give the same interval.
        assert_eq!(bootstrap_ratio(&x, &x[..10]), bootstrap_ratio(&x, &x[..10]));
        let (lo, hi) = bootstrap_ratio(&[2.0, 2.02, 1.98, 2.01, 1.99], &x);
        assert!(
            lo < 2.0 / 0.406 && 2.0 / 0.406 < hi && hi / lo < 1.1,
            "{lo} {hi}"
        );
        assert!((cv(&[1.0, 2.0, 3.0]) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn mann_whitney_exact_and_approximate() {
        let a = [1.0, 2.0, 3.0, 4.0, 5.0];
        let b = [6.0, 7.0, 8.0, 9.0, 10.0];
        let r = mann_whitney(&a, &b).unwrap();
        assert!(r.exact);
        assert_eq!(r.u, 0.0);
        assert!((r.p - 2.0 / 252.0).abs() < 1e-12);
        let same = mann_whitney(&a, &a).unwrap();
        assert!(same.p > 0.9);
        let big_a: Vec<f64> = (0..40).map(f64::from).collect();
        let big_b: Vec<f64> = (100..140).map(f64::from).collect();
        let r = mann_whitney(&big_a, &big_b).unwrap();
        assert!(!r.exact && r.p < 1e-6);
        assert!((normal_cdf(1.96) - 0.975).abs() < 1e-3);
    }
}
