//! Small statistics over repeated measurements.
//!
//! - [`median`], [`quantile`] (linear interpolation between order statistics), min, max;
//! - [`geometric_mean`], the right mean for ratios;
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
        p: (2.0 * (1.0 - normal_cdf(z))).min(1.0),
        exact: false,
    })
}

fn binomial(n: usize, k: usize) -> f64 {
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

/// Standard normal CDF (Abramowitz-Stegun 7.1.26 erf approximation, error < 1.5e-7).
fn normal_cdf(z: f64) -> f64 {
    let x = z.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-x * x).exp();
    if z >= 0.0 {
        0.5 * (1.0 + y)
    } else {
        0.5 * (1.0 - y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_statistics() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert_eq!(quantile(&[1.0, 2.0, 3.0, 4.0, 5.0], 0.25), 2.0);
        assert!((geometric_mean(&[1.0, 4.0]) - 2.0).abs() < 1e-12);
        assert!(median(&[]).is_nan());
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
