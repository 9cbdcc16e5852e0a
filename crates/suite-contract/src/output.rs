//! The one line a successful run prints on standard output, and the [`Outcome`] a
//! benchmark hands back to build it.
//!
//! The line is `result bench=NAME check=VALUE`, followed by any extra `key=value` pairs
//! in the order given (chameneos adds `counts=N1,N2,...`). Keys and values must not
//! contain spaces, or the harness would split them; [`result_line`] does not check this,
//! because every value the suite prints is a number or a comma/colon-joined list of them.

use std::fmt;

use crate::bench::Bench;

/// Formats the result line (without a trailing newline).
///
/// ```
/// use suite_contract::{result_line, Bench};
///
/// assert_eq!(result_line(Bench::Threadring, 37, &[]), "result bench=threadring check=37");
/// assert_eq!(
///     result_line(Bench::Chameneos, 12, &[("counts", "4,4,4".to_string())]),
///     "result bench=chameneos check=12 counts=4,4,4"
/// );
/// assert_eq!(result_line(Bench::Fannkuch, "228:16", &[]), "result bench=fannkuch check=228:16");
/// ```
pub fn result_line(bench: Bench, check: impl fmt::Display, extra: &[(&str, String)]) -> String {
    let mut line = format!("result bench={bench} check={check}");
    for (key, value) in extra {
        line.push(' ');
        line.push_str(key);
        line.push('=');
        line.push_str(value);
    }
    line
}

/// What a benchmark run produced: its check value and any extra result pairs.
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    check: String,
    extra: Vec<(&'static str, String)>,
}

impl Outcome {
    /// An outcome with this check value and no extra pairs.
    pub fn new(check: impl fmt::Display) -> Outcome {
        Outcome {
            check: check.to_string(),
            extra: Vec::new(),
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

    /// The result line for `bench`.
    ///
    /// ```
    /// use suite_contract::{Bench, Outcome};
    /// assert_eq!(Outcome::new(1).line(Bench::Pingpong), "result bench=pingpong check=1");
    /// ```
    pub fn line(&self, bench: Bench) -> String {
        let extra: Vec<(&str, String)> = self.extra.iter().map(|(k, v)| (*k, v.clone())).collect();
        result_line(bench, &self.check, &extra)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_has_bench_check_then_extras_in_order() {
        let outcome = Outcome::new("1:2").with("a", 1).with("b", "x,y");
        assert_eq!(
            outcome.line(Bench::Fannkuch),
            "result bench=fannkuch check=1:2 a=1 b=x,y"
        );
    }

    #[test]
    fn line_is_a_single_line() {
        for bench in Bench::ALL {
            let line = result_line(bench, 0, &[]);
            assert!(line.starts_with("result "));
            assert!(!line.contains('\n'));
        }
    }
}
