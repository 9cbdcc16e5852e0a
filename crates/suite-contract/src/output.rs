//! The one line a successful run prints on standard output, and the [`Outcome`] a
//! benchmark hands back to build it.
//!
//! The line is `result bench=NAME check=VALUE seconds=S`, followed by any extra
//! `key=value` pairs in the order given (chameneos adds `counts=N1,N2,...`). Keys and
//! values must not contain spaces, or the harness would split them; [`result_line`] does
//! not check this, because every value the suite prints is a number or a comma/colon-joined
//! list of them.
//!
//! # The work time, `seconds=S`
//!
//! The contract's `seconds` is the in-process time of the work: from just before the
//! program creates its actor system or runtime until the check is known, on a monotonic
//! clock. One mechanism times every Rust program, whatever its runtime:
//!
//! - the start is stamped by [`run_args`](crate::run_args) just before it calls the
//!   program's run function, and every program creates its runtime inside that function
//!   (footlights' `System`, a tokio runtime, the actix `System`), so the runtime's own
//!   start is inside the measured time and parsing the arguments is not;
//! - the end is stamped when the [`Outcome`] is built: [`Outcome::new`] takes the check,
//!   so a benchmark builds it the moment the check is known, before it stops actors or
//!   shuts its runtime down (which is therefore outside the measured time).
//!
//! [`seconds`] prints a [`Duration`] as exact decimal seconds with nanosecond digits
//! (`0.041852113`), so even a run of a few microseconds prints a positive number, and
//! [`split_seconds`] reads it back for the programs' tests.

use std::fmt;
use std::time::{Duration, Instant};

use crate::bench::Bench;

/// Formats the result line (without a trailing newline): bench, check, the work time
/// `seconds`, then the extra pairs in order.
///
/// ```
/// use std::time::Duration;
/// use suite_contract::{result_line, Bench};
///
/// let work = Duration::from_micros(41_852);
/// assert_eq!(
///     result_line(Bench::Threadring, 37, work, &[]),
///     "result bench=threadring check=37 seconds=0.041852000"
/// );
/// assert_eq!(
///     result_line(Bench::Chameneos, 12, Duration::from_secs(2), &[("counts", "4,4,4".to_string())]),
///     "result bench=chameneos check=12 seconds=2.000000000 counts=4,4,4"
/// );
/// ```
pub fn result_line(
    bench: Bench,
    check: impl fmt::Display,
    work: Duration,
    extra: &[(&str, String)],
) -> String {
    let mut line = format!(
        "result bench={bench} check={check} seconds={}",
        seconds(work)
    );
    for (key, value) in extra {
        line.push(' ');
        line.push_str(key);
        line.push('=');
        line.push_str(value);
    }
    line
}

/// A duration as the contract's `seconds` value: decimal seconds with all nine digits of
/// nanoseconds, exact (no floating point on the way).
///
/// ```
/// use std::time::Duration;
///
/// assert_eq!(suite_contract::seconds(Duration::from_nanos(1)), "0.000000001");
/// assert_eq!(suite_contract::seconds(Duration::from_millis(61_250)), "61.250000000");
/// ```
pub fn seconds(work: Duration) -> String {
    format!("{}.{:09}", work.as_secs(), work.subsec_nanos())
}

/// Takes the work time out of a printed result line, for tests that check a program's
/// output: gives the line without its `seconds=S` pair, and `S`; an error naming the line
/// if the pair is missing, given twice, not a number or not positive.
///
/// ```
/// use suite_contract::split_seconds;
///
/// let (rest, s) = split_seconds("result bench=big check=6 seconds=0.25 x=1").unwrap();
/// assert_eq!((rest.as_str(), s), ("result bench=big check=6 x=1", 0.25));
/// assert!(split_seconds("result bench=big check=6").is_err());
/// assert!(split_seconds("result bench=big check=6 seconds=0.000000000").is_err());
/// ```
pub fn split_seconds(line: &str) -> Result<(String, f64), String> {
    let mut seconds = None;
    let mut rest = Vec::new();
    for word in line.split(' ') {
        match word.strip_prefix("seconds=") {
            Some(value) if seconds.is_none() => seconds = Some(value),
            Some(_) => return Err(format!("seconds= given twice in {line:?}")),
            None => rest.push(word),
        }
    }
    let value = seconds.ok_or_else(|| format!("no seconds= in {line:?}"))?;
    match value.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 => Ok((rest.join(" "), s)),
        _ => Err(format!(
            "seconds={value} is not a positive number in {line:?}"
        )),
    }
}

/// What a benchmark run produced: its check value, any extra result pairs, and the
/// moment the check became known (which ends the measured work time; module docs).
///
/// ```
/// use suite_contract::Outcome;
///
/// let plain = Outcome::new(6765);
/// assert_eq!(plain.check(), "6765");
///
/// let chameneos = Outcome::new(4).with("counts", "2,1,1");
/// assert_eq!(chameneos.extra(), [("counts", "2,1,1".to_string())]);
/// ```
#[derive(Clone, Debug)]
pub struct Outcome {
    check: String,
    extra: Vec<(&'static str, String)>,
    known_at: Instant,
}

impl Outcome {
    /// An outcome with this check value and no extra pairs, known now: build it as soon
    /// as the check is known, before stopping actors or shutting the runtime down.
    pub fn new(check: impl fmt::Display) -> Outcome {
        let known_at = Instant::now();
        Outcome {
            check: check.to_string(),
            extra: Vec::new(),
            known_at,
        }
    }

    /// Adds one `key=value` pair after the check (kept in the order added).
    pub fn with(mut self, key: &'static str, value: impl fmt::Display) -> Outcome {
        self.extra.push((key, value.to_string()));
        self
    }

    /// The check value as it will be printed.
    pub fn check(&self) -> &str {
        &self.check
    }

    /// The extra pairs, in order.
    pub fn extra(&self) -> &[(&'static str, String)] {
        &self.extra
    }

    /// The work time of a run that started at `started`: until this outcome was built.
    ///
    /// ```
    /// use std::time::Instant;
    /// use suite_contract::Outcome;
    ///
    /// let started = Instant::now();
    /// let outcome = Outcome::new(1);
    /// assert!(outcome.work_since(started) <= started.elapsed());
    /// ```
    pub fn work_since(&self, started: Instant) -> Duration {
        self.known_at.saturating_duration_since(started)
    }

    /// The result line for `bench`, for a run that started at `started`.
    ///
    /// ```
    /// use std::time::Instant;
    /// use suite_contract::{Bench, Outcome};
    ///
    /// let started = Instant::now();
    /// let line = Outcome::new(1).line(Bench::Pingpong, started);
    /// assert!(line.starts_with("result bench=pingpong check=1 seconds=0."));
    /// ```
    pub fn line(&self, bench: Bench, started: Instant) -> String {
        let extra: Vec<(&str, String)> = self.extra.iter().map(|(k, v)| (*k, v.clone())).collect();
        result_line(bench, &self.check, self.work_since(started), &extra)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_has_bench_check_seconds_then_extras_in_order() {
        let outcome = Outcome::new("1:2").with("a", 1).with("b", "x,y");
        let line = outcome.line(Bench::Fannkuch, outcome.known_at - Duration::from_millis(5));
        assert_eq!(
            line,
            "result bench=fannkuch check=1:2 seconds=0.005000000 a=1 b=x,y"
        );
    }

    #[test]
    fn line_is_a_single_line() {
        for bench in Bench::ALL {
            let line = result_line(bench, 0, Duration::ZERO, &[]);
            assert!(line.starts_with("result "));
            assert!(!line.contains('\n'));
        }
    }

    #[test]
    fn the_work_ends_when_the_outcome_is_built() {
        let started = Instant::now();
        let outcome = Outcome::new(3);
        std::thread::sleep(Duration::from_millis(20));
        let work = outcome.work_since(started);
        assert!(work < Duration::from_millis(20), "{work:?}");
    }

    #[test]
    fn split_seconds_finds_the_pair_anywhere_and_judges_it() {
        let line = "result bench=chameneos check=4 seconds=1.5 counts=2,2";
        assert_eq!(
            split_seconds(line),
            Ok(("result bench=chameneos check=4 counts=2,2".to_owned(), 1.5))
        );
        let why = |line: &str| split_seconds(line).unwrap_err();
        assert!(why("result bench=x check=1").contains("no seconds="));
        assert!(why("result bench=x check=1 seconds=0").contains("not a positive"));
        assert!(why("result bench=x check=1 seconds=-1").contains("not a positive"));
        assert!(why("result bench=x check=1 seconds=inf").contains("not a positive"));
        assert!(why("result bench=x check=1 seconds=").contains("not a positive"));
        assert!(why("result bench=x check=1 seconds=1 seconds=2").contains("twice"));
    }

    #[test]
    fn seconds_are_exact_with_nine_digits() {
        assert_eq!(seconds(Duration::ZERO), "0.000000000");
        assert_eq!(seconds(Duration::new(3, 7)), "3.000000007");
        assert_eq!(seconds(Duration::new(12, 345_678_901)), "12.345678901");
    }
}
