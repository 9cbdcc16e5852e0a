//! Fairness of chameneos: how evenly the meetings were shared among the creatures.
//!
//! With `C` creatures and `M` meetings, each meeting involves two creatures, so the
//! counts sum to `2M` and the ideal share is `2M / C` each. From the counts `x_i`:
//!
//! - standard deviation (population) and coefficient of variation `stddev / mean`
//!   (0 is perfectly fair; the Encore thesis's Table 7 reports the stddev);
//! - Jain's fairness index `(Σx)² / (C · Σx²)`: 1 when all are equal, `1/C` when one
//!   creature had every meeting;
//! - the smallest and largest count, and each as a fraction of the ideal.

use serde::Serialize;

/// Fairness figures of one chameneos run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Fairness {
    /// Number of creatures.
    pub creatures: usize,
    /// The ideal count per creature, `2M / C`.
    pub ideal: f64,
    /// Population standard deviation of the counts.
    pub stddev: f64,
    /// Coefficient of variation, `stddev / mean` (0 when the mean is 0).
    pub cv: f64,
    /// Jain's index, in `[1/C, 1]`.
    pub jain: f64,
    /// Smallest count.
    pub min: u64,
    /// Largest count.
    pub max: u64,
}

impl Fairness {
    /// Figures for `counts` from a run of `meetings` meetings.
    pub fn of(counts: &[u64], meetings: u64) -> Fairness {
        let c = counts.len().max(1) as f64;
        let sum: f64 = counts.iter().map(|&x| x as f64).sum();
        let sum_sq: f64 = counts.iter().map(|&x| (x as f64) * (x as f64)).sum();
        let mean = sum / c;
        let var = counts
            .iter()
            .map(|&x| (x as f64 - mean).powi(2))
            .sum::<f64>()
            / c;
        let stddev = var.sqrt();
        Fairness {
            creatures: counts.len(),
            ideal: 2.0 * meetings as f64 / c,
            stddev,
            cv: if mean > 0.0 { stddev / mean } else { 0.0 },
            jain: if sum_sq > 0.0 {
                sum * sum / (c * sum_sq)
            } else {
                1.0
            },
            min: counts.iter().copied().min().unwrap_or(0),
            max: counts.iter().copied().max().unwrap_or(0),
        }
    }

    /// Smallest count as a fraction of the ideal.
    pub fn min_of_ideal(&self) -> f64 {
        if self.ideal > 0.0 {
            self.min as f64 / self.ideal
        } else {
            1.0
        }
    }

    /// Largest count as a fraction of the ideal.
    pub fn max_of_ideal(&self) -> f64 {
        if self.ideal > 0.0 {
            self.max as f64 / self.ideal
        } else {
            1.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_counts_are_perfectly_fair() {
        let f = Fairness::of(&[4, 4, 4], 6);
        assert_eq!(
            (f.stddev, f.cv, f.jain, f.min, f.max),
            (0.0, 0.0, 1.0, 4, 4)
        );
        assert_eq!(f.ideal, 4.0);
    }

    #[test]
    fn one_winner_is_unfair() {
        let f = Fairness::of(&[8, 0, 0, 0], 4);
        assert!((f.jain - 0.25).abs() < 1e-12);
        assert!((f.stddev - 12f64.sqrt()).abs() < 1e-12);
        assert_eq!(f.max_of_ideal(), 4.0);
        assert_eq!(f.min_of_ideal(), 0.0);
    }
}
