//! How many measured runs a cell gets: a fixed count, or adaptively until its median is
//! known well enough, as hyperfine and criterion do; and the session's time budget.
//!
//! - **Fixed** (`--reps N`): every cell gets exactly `N` measured runs (a budget given
//!   explicitly with `--budget` may still stop the session earlier, and says so).
//! - **Adaptive** (the default, or `--min-reps`, `--max-reps`, `--target-ci P`): a cell
//!   keeps getting runs until the 95% interval of its median (the order-statistic
//!   interval of [`stats::median_interval`], on the session's metric, work time by
//!   default) has a half-width under `P`% of the median, with at least `min` and at most
//!   `max` measured runs. The interval is first checked once the cell has
//!   [`stats::RUNS_FOR_95`] (6) successful runs, the fewest whose interval can cover 95%:
//!   stopping on a narrower interval of fewer runs would stop on a 75% interval and bias
//!   the intervals and CVs of the cells it stops low. A cell that has had `min` runs and
//!   none of them succeeded stops there (`failing`): more runs of a broken program say
//!   nothing. A cell whose run timed out stops at once (`timeout`), warmup included: a
//!   hung program would cost every further run the whole timeout.
//!
//! The time budget never stops a cell below its [`Repetitions::floor`]: `--min-reps` when
//! adaptive, and `--reps N` or [`DEFAULT_MIN_REPS`], whichever is smaller, when fixed.
//!
//! Giving `--reps` together with an adaptive flag is an error: one asks for a count, the
//! other for a precision. The quick profile's default budget applies only to adaptive
//! sessions: an explicit `--reps` is a promise of that many runs, so the default budget
//! is not applied to it (and the session says so); an explicit `--budget` is.
//!
//! Why each cell stopped is stored per cell ([`crate::store::CellRecord`]) as one of
//! [`Stop`]'s names, and the session's settings record the mode and what it came to.

use crate::stats;

/// Defaults of the adaptive mode.
pub const DEFAULT_MIN_REPS: u32 = 3;
/// See [`DEFAULT_MIN_REPS`].
pub const DEFAULT_MAX_REPS: u32 = 10;
/// See [`DEFAULT_MIN_REPS`]: a half-width of 2% of the median.
pub const DEFAULT_TARGET_CI_PCT: f64 = 2.0;

/// The repetition mode of a session.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Repetitions {
    /// Exactly this many measured runs per cell.
    Fixed(u32),
    /// Between `min` and `max` runs, until the interval's half-width is under
    /// `target_pct` percent of the median.
    Adaptive {
        /// Fewest measured runs.
        min: u32,
        /// Most measured runs.
        max: u32,
        /// Target half-width of the 95% interval, in percent of the median.
        target_pct: f64,
    },
}

/// Why a cell got no more runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// It had its fixed count.
    Reps,
    /// Its interval got tight enough.
    TargetCi,
    /// It reached the most runs allowed before its interval got tight enough.
    MaxReps,
    /// It had its minimum and no run succeeded.
    Failing,
    /// The time budget ran out first.
    Budget,
    /// The session was interrupted.
    Interrupted,
    /// A run of it timed out.
    Timeout,
}

impl Stop {
    /// The name stored in the `cell` table.
    pub fn name(self) -> &'static str {
        match self {
            Stop::Reps => "reps",
            Stop::TargetCi => "target-ci",
            Stop::MaxReps => "max-reps",
            Stop::Failing => "failing",
            Stop::Budget => "budget",
            Stop::Interrupted => "interrupted",
            Stop::Timeout => "timeout",
        }
    }
}

impl Repetitions {
    /// The mode from the flags: `--reps` alone is fixed; otherwise adaptive with the
    /// defaults for what is not given. Bad combinations are explained.
    pub fn from_flags(
        reps: Option<u32>,
        min: Option<u32>,
        max: Option<u32>,
        target_pct: Option<f64>,
    ) -> Result<Repetitions, String> {
        if let Some(n) = reps {
            if min.is_some() || max.is_some() || target_pct.is_some() {
                return Err(format!(
                    "--reps {n} fixes the number of runs; --min-reps, --max-reps and --target-ci make it adaptive: \
                     give one or the other"
                ));
            }
            if n == 0 {
                return Err("--reps 0: a session needs at least one measured run per cell".into());
            }
            return Ok(Repetitions::Fixed(n));
        }
        let min = min.unwrap_or(DEFAULT_MIN_REPS.min(max.unwrap_or(DEFAULT_MIN_REPS)));
        let max = max.unwrap_or(DEFAULT_MAX_REPS.max(min));
        let target_pct = target_pct.unwrap_or(DEFAULT_TARGET_CI_PCT);
        if min == 0 {
            return Err("--min-reps 0: a cell needs at least one measured run".into());
        }
        if max < min {
            return Err(format!("--max-reps {max} is below --min-reps {min}"));
        }
        if !(target_pct.is_finite() && target_pct > 0.0) {
            return Err(format!(
                "--target-ci {target_pct}: give a positive percentage of the median"
            ));
        }
        Ok(Repetitions::Adaptive {
            min,
            max,
            target_pct,
        })
    }

    /// The most measured runs a cell can get.
    pub fn max(&self) -> u32 {
        match *self {
            Repetitions::Fixed(n) => n,
            Repetitions::Adaptive { max, .. } => max,
        }
    }

    /// The fewest measured runs the time budget leaves a cell: `min` when adaptive, the
    /// smaller of `N` and [`DEFAULT_MIN_REPS`] when fixed (enough for `compare` to test it).
    ///
    /// ```
    /// use actorbench::repetitions::Repetitions;
    /// assert_eq!(Repetitions::Fixed(10).floor(), 3);
    /// assert_eq!(Repetitions::Fixed(2).floor(), 2);
    /// assert_eq!(Repetitions::Adaptive { min: 5, max: 10, target_pct: 2.0 }.floor(), 5);
    /// ```
    pub fn floor(&self) -> u32 {
        match *self {
            Repetitions::Fixed(n) => n.min(DEFAULT_MIN_REPS),
            Repetitions::Adaptive { min, .. } => min,
        }
    }

    /// Whether the count was fixed with `--reps`.
    pub fn is_fixed(&self) -> bool {
        matches!(self, Repetitions::Fixed(_))
    }

    /// Whether a cell that has had `measured` runs, of which `values` (its times on the
    /// session's metric) succeeded, gets no more, and why.
    ///
    /// ```
    /// use actorbench::repetitions::{Repetitions, Stop};
    /// let r = Repetitions::Adaptive { min: 3, max: 10, target_pct: 2.0 };
    /// assert_eq!(r.stop(2, &[1.0, 1.0]), None);
    /// // Three tight runs are not enough: their interval covers only 75%.
    /// assert_eq!(r.stop(3, &[1.0, 1.01, 0.99]), None);
    /// assert_eq!(r.stop(6, &[1.0, 1.01, 0.99, 1.0, 1.005, 0.995]), Some(Stop::TargetCi));
    /// assert_eq!(r.stop(3, &[1.0, 1.5, 0.7]), None);
    /// assert_eq!(r.stop(10, &[1.0, 1.5, 0.7]), Some(Stop::MaxReps));
    /// assert_eq!(r.stop(3, &[]), Some(Stop::Failing));
    /// assert_eq!(Repetitions::Fixed(5).stop(5, &[]), Some(Stop::Reps));
    /// ```
    pub fn stop(&self, measured: u32, values: &[f64]) -> Option<Stop> {
        match *self {
            Repetitions::Fixed(n) => (measured >= n).then_some(Stop::Reps),
            Repetitions::Adaptive {
                min,
                max,
                target_pct,
            } => {
                if measured < min {
                    None
                } else if values.is_empty() {
                    Some(Stop::Failing)
                } else if values.len() >= (min as usize).max(stats::RUNS_FOR_95)
                    && half_width_pct(values) < target_pct
                {
                    Some(Stop::TargetCi)
                } else if measured >= max {
                    Some(Stop::MaxReps)
                } else {
                    None
                }
            }
        }
    }

    /// The settings as stored with the session.
    pub fn to_json(&self) -> serde_json::Value {
        match *self {
            Repetitions::Fixed(n) => serde_json::json!({ "mode": "fixed", "reps": n }),
            Repetitions::Adaptive {
                min,
                max,
                target_pct,
            } => serde_json::json!({
                "mode": "adaptive", "min_reps": min, "max_reps": max, "target_ci_pct": target_pct
            }),
        }
    }

    /// In words: `5 runs per cell` or `3 to 10 runs per cell, until the 95% interval is
    /// within ±2% of the median`.
    pub fn describe(&self) -> String {
        match *self {
            Repetitions::Fixed(n) => {
                format!("{n} run{} per cell (--reps)", if n == 1 { "" } else { "s" })
            }
            Repetitions::Adaptive {
                min,
                max,
                target_pct,
            } => format!(
                "{min} to {max} runs per cell, until the 95% interval of the median is within ±{target_pct}% \
                 (checked from {} successful runs, the fewest whose interval can cover 95%)",
                stats::RUNS_FOR_95
            ),
        }
    }
}

/// The half-width of the order-statistic interval of the median, in percent of it
/// (infinite for fewer than two values).
pub fn half_width_pct(values: &[f64]) -> f64 {
    let stats::MedianInterval {
        low: lo, high: hi, ..
    } = stats::median_interval(values);
    let w = (hi - lo) / 2.0 / stats::median(values) * 100.0;
    if w.is_finite() { w } else { f64::INFINITY }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_make_a_mode_or_an_explained_error() {
        assert_eq!(
            Repetitions::from_flags(Some(5), None, None, None),
            Ok(Repetitions::Fixed(5))
        );
        assert_eq!(
            Repetitions::from_flags(None, None, None, None),
            Ok(Repetitions::Adaptive {
                min: DEFAULT_MIN_REPS,
                max: DEFAULT_MAX_REPS,
                target_pct: DEFAULT_TARGET_CI_PCT
            })
        );
        assert_eq!(
            Repetitions::from_flags(None, None, Some(2), None),
            Ok(Repetitions::Adaptive {
                min: 2,
                max: 2,
                target_pct: DEFAULT_TARGET_CI_PCT
            })
        );
        assert_eq!(
            Repetitions::from_flags(None, Some(20), None, Some(1.0)),
            Ok(Repetitions::Adaptive {
                min: 20,
                max: 20,
                target_pct: 1.0
            })
        );
        for (flags, needle) in [
            ((Some(5), Some(3), None, None), "give one or the other"),
            ((Some(0), None, None, None), "--reps 0"),
            ((None, Some(0), None, None), "--min-reps 0"),
            (
                (None, Some(5), Some(4), None),
                "--max-reps 4 is below --min-reps 5",
            ),
            ((None, None, None, Some(0.0)), "--target-ci 0"),
        ] {
            let e = Repetitions::from_flags(flags.0, flags.1, flags.2, flags.3).unwrap_err();
            assert!(e.contains(needle), "{e}");
        }
    }
}
