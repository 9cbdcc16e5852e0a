//! Parsing `BENCH [NAME=VALUE ...]` into an [`Invocation`], or into the one
//! [`ContractError`] that explains what is wrong.
//!
//! The arguments are read in order. The first names the benchmark; every later one must
//! be `NAME=VALUE` where `NAME` is one of the benchmark's parameters, given at most once,
//! and `VALUE` is a decimal integer (ASCII digits only: no sign, no spaces) inside the
//! parameter's inclusive range. The first argument that breaks a rule decides the error.
//! A number too large for `u64` is a non-negative integer, so it is reported as out of
//! range. Parameters not given take their quick defaults, and only then is the one rule
//! that ties two parameters together checked: skynet's `size` must be a power of `div`
//! (`div^0 = 1` allowed).

use std::fmt;

use crate::bench::{Bench, Param};

/// A valid invocation: the benchmark and a value for every one of its parameters.
///
/// ```
/// use suite_contract::{parse, Bench};
///
/// let inv = parse(["threadring", "hops=1000"]).unwrap();
/// assert_eq!(inv.bench(), Bench::Threadring);
/// assert_eq!(inv.get("hops"), 1000);
/// assert_eq!(inv.get("actors"), 503); // the quick default
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invocation {
    bench: Bench,
    /// One value per parameter, in the order of `bench.params()`.
    values: Vec<u64>,
}

impl Invocation {
    /// The benchmark to run.
    pub fn bench(&self) -> Bench {
        self.bench
    }

    /// The value of parameter `name` (given, or its quick default).
    ///
    /// # Panics
    ///
    /// If the benchmark has no parameter called `name`: that is a mistake in the calling
    /// program, not in its input.
    ///
    /// ```
    /// let inv = suite_contract::parse(["mixed", "ring_size=7"]).unwrap();
    /// assert_eq!(inv.get("ring_size"), 7);
    /// assert_eq!(inv.get("reps"), 2);
    /// ```
    pub fn get(&self, name: &str) -> u64 {
        self.try_get(name).unwrap_or_else(|| {
            panic!(
                "benchmark {} has no parameter {name:?} (known: {})",
                self.bench,
                known_params(self.bench)
            )
        })
    }

    /// The value of parameter `name`, or `None` if the benchmark has no such parameter.
    ///
    /// ```
    /// let inv = suite_contract::parse(["fibtree"]).unwrap();
    /// assert_eq!(inv.try_get("n"), Some(20));
    /// assert_eq!(inv.try_get("depth"), None);
    /// ```
    pub fn try_get(&self, name: &str) -> Option<u64> {
        let index = self.bench.params().iter().position(|p| p.name == name)?;
        Some(self.values[index])
    }

    /// Every parameter with its value, in the contract's order.
    ///
    /// ```
    /// let inv = suite_contract::parse(["skynet", "div=4", "size=16"]).unwrap();
    /// let pairs: Vec<_> = inv.params().collect();
    /// assert_eq!(pairs, [("size", 16), ("div", 4)]);
    /// ```
    pub fn params(&self) -> impl Iterator<Item = (&'static str, u64)> + '_ {
        self.bench
            .params()
            .iter()
            .zip(&self.values)
            .map(|(p, &v)| (p.name, v))
    }
}

/// Why the command line is not a valid invocation. Its `Display` is the exact message that
/// docs/benchmarks.md gives, without the leading `error: ` (which [`run_main`](crate::run_main)
/// adds); every message names the benchmark, the parameter and the bad value.
///
/// ```
/// use suite_contract::parse;
///
/// let err = parse(["fannkuch", "n=13"]).unwrap_err();
/// assert_eq!(err.to_string(), "fannkuch: n=13 is out of range (3..=12)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ContractError {
    /// No arguments at all.
    NoBenchmark,
    /// The first argument is not a benchmark name.
    UnknownBenchmark {
        /// The name that was given.
        name: String,
    },
    /// An argument after the benchmark name has no `=`.
    NotNameValue {
        /// The benchmark.
        bench: Bench,
        /// The whole argument.
        arg: String,
    },
    /// `NAME` is not a parameter of the benchmark.
    UnknownParameter {
        /// The benchmark.
        bench: Bench,
        /// The name that was given.
        name: String,
        /// The value that was given with it.
        value: String,
    },
    /// The same parameter appears twice.
    Repeated {
        /// The benchmark.
        bench: Bench,
        /// The parameter.
        name: &'static str,
        /// The value of the repeated occurrence.
        value: String,
    },
    /// `VALUE` is not a decimal integer.
    NotInteger {
        /// The benchmark.
        bench: Bench,
        /// The parameter.
        name: &'static str,
        /// The value that was given.
        value: String,
    },
    /// `VALUE` lies outside the parameter's inclusive range.
    OutOfRange {
        /// The benchmark.
        bench: Bench,
        /// The parameter.
        name: &'static str,
        /// The value as it was given.
        value: String,
        /// The smallest accepted value.
        min: u64,
        /// The largest accepted value.
        max: u64,
    },
    /// skynet's `size` is not a power of `div`.
    NotPowerOfDiv {
        /// The tree size.
        size: u64,
        /// The branching factor.
        div: u64,
    },
}

impl ContractError {
    /// The benchmark the error is about, if the benchmark name itself was valid.
    ///
    /// ```
    /// use suite_contract::{parse, Bench};
    /// assert_eq!(parse(["big", "hood=0"]).unwrap_err().bench(), Some(Bench::Big));
    /// assert_eq!(parse(["bigg"]).unwrap_err().bench(), None);
    /// ```
    pub fn bench(&self) -> Option<Bench> {
        match self {
            ContractError::NoBenchmark | ContractError::UnknownBenchmark { .. } => None,
            ContractError::NotNameValue { bench, .. }
            | ContractError::UnknownParameter { bench, .. }
            | ContractError::Repeated { bench, .. }
            | ContractError::NotInteger { bench, .. }
            | ContractError::OutOfRange { bench, .. } => Some(*bench),
            ContractError::NotPowerOfDiv { .. } => Some(Bench::Skynet),
        }
    }
}

impl fmt::Display for ContractError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ContractError::NoBenchmark => {
                write!(f, "no benchmark given (known: {})", Bench::known_list())
            }
            ContractError::UnknownBenchmark { name } => {
                write!(
                    f,
                    "unknown benchmark '{name}' (known: {})",
                    Bench::known_list()
                )
            }
            ContractError::NotNameValue { bench, arg } => {
                write!(f, "{bench}: argument '{arg}' is not NAME=VALUE")
            }
            ContractError::UnknownParameter { bench, name, value } => write!(
                f,
                "{bench}: unknown parameter {name}={value} (known: {})",
                known_params(*bench)
            ),
            ContractError::Repeated { bench, name, value } => {
                write!(f, "{bench}: parameter {name}={value} given twice")
            }
            ContractError::NotInteger { bench, name, value } => {
                write!(f, "{bench}: {name}={value} is not a non-negative integer")
            }
            ContractError::OutOfRange {
                bench,
                name,
                value,
                min,
                max,
            } => write!(f, "{bench}: {name}={value} is out of range ({min}..={max})"),
            ContractError::NotPowerOfDiv { size, div } => {
                write!(f, "skynet: size={size} is not a power of div={div}")
            }
        }
    }
}

impl std::error::Error for ContractError {}

/// Parses the arguments after the program name: `BENCH [NAME=VALUE ...]`.
///
/// Parameters not given take their quick defaults. See [`ContractError`] for every way
/// this can fail.
///
/// ```
/// use suite_contract::{parse, ContractError};
///
/// let inv = parse(["skynet", "size=1000", "div=10"]).unwrap();
/// assert_eq!((inv.get("size"), inv.get("div")), (1000, 10));
///
/// let err = parse(["skynet", "size=1000", "div=7"]).unwrap_err();
/// assert_eq!(err, ContractError::NotPowerOfDiv { size: 1000, div: 7 });
/// assert_eq!(err.to_string(), "skynet: size=1000 is not a power of div=7");
/// ```
pub fn parse<I, S>(args: I) -> Result<Invocation, ContractError>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let mut args = args.into_iter();
    let first = args.next().ok_or(ContractError::NoBenchmark)?;
    let bench =
        Bench::from_name(first.as_ref()).ok_or_else(|| ContractError::UnknownBenchmark {
            name: first.as_ref().to_owned(),
        })?;
    let params = bench.params();
    let mut given: Vec<Option<u64>> = vec![None; params.len()];
    for arg in args {
        let arg = arg.as_ref();
        let (name, value) = arg
            .split_once('=')
            .ok_or_else(|| ContractError::NotNameValue {
                bench,
                arg: arg.to_owned(),
            })?;
        let index = params.iter().position(|p| p.name == name).ok_or_else(|| {
            ContractError::UnknownParameter {
                bench,
                name: name.to_owned(),
                value: value.to_owned(),
            }
        })?;
        let param = &params[index];
        if given[index].is_some() {
            return Err(ContractError::Repeated {
                bench,
                name: param.name,
                value: value.to_owned(),
            });
        }
        given[index] = Some(parse_value(bench, param, value)?);
    }
    let values: Vec<u64> = given
        .iter()
        .zip(params)
        .map(|(v, p)| v.unwrap_or(p.quick))
        .collect();
    let invocation = Invocation { bench, values };
    if bench == Bench::Skynet {
        let (size, div) = (invocation.get("size"), invocation.get("div"));
        if !is_power_of(size, div) {
            return Err(ContractError::NotPowerOfDiv { size, div });
        }
    }
    Ok(invocation)
}

/// Reads one value: ASCII digits only, then the range check.
fn parse_value(bench: Bench, param: &Param, value: &str) -> Result<u64, ContractError> {
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ContractError::NotInteger {
            bench,
            name: param.name,
            value: value.to_owned(),
        });
    }
    match value.parse::<u64>() {
        Ok(v) if param.contains(v) => Ok(v),
        // Digits only, so the only possible parse failure is overflow: out of range too.
        _ => Err(ContractError::OutOfRange {
            bench,
            name: param.name,
            value: value.to_owned(),
            min: param.min,
            max: param.max,
        }),
    }
}

/// Whether `size == div^k` for some `k >= 0` (`div >= 2`).
fn is_power_of(mut size: u64, div: u64) -> bool {
    while size > 1 && size % div == 0 {
        size /= div;
    }
    size == 1
}

/// The benchmark's parameter names joined by `", "`.
fn known_params(bench: Bench) -> String {
    bench
        .params()
        .iter()
        .map(|p| p.name)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    const KNOWN: &str = "threadring, chameneos, big, fannkuch, fibtree, skynet, spreading, \
                         mixed, bang, serialmsg, pingpong, counting, fjthrput, fjcreate, \
                         concdict, concsll, bndbuffer, philosopher, barber, cigsmok, logmap, \
                         banking";

    fn message(args: &[&str]) -> String {
        parse(args).unwrap_err().to_string()
    }

    #[test]
    fn defaults_fill_every_parameter() {
        for bench in Bench::ALL {
            let inv = parse([bench.name()]).unwrap();
            assert_eq!(inv.bench(), bench);
            for p in bench.params() {
                assert_eq!(inv.get(p.name), p.quick);
            }
        }
    }

    #[test]
    fn given_values_override_defaults_in_any_order() {
        let inv = parse(["big", "hood=4", "workers=10", "pings=100"]).unwrap();
        assert_eq!(
            inv.params().collect::<Vec<_>>(),
            [("workers", 10), ("pings", 100), ("hood", 4)]
        );
    }

    #[test]
    fn no_benchmark() {
        let none: [&str; 0] = [];
        assert_eq!(parse(none), Err(ContractError::NoBenchmark));
        assert_eq!(message(&[]), format!("no benchmark given (known: {KNOWN})"));
    }

    #[test]
    fn unknown_benchmark() {
        assert_eq!(
            message(&["foo"]),
            format!("unknown benchmark 'foo' (known: {KNOWN})")
        );
        assert_eq!(
            message(&["Threadring"]),
            format!("unknown benchmark 'Threadring' (known: {KNOWN})")
        );
        assert_eq!(
            message(&[""]),
            format!("unknown benchmark '' (known: {KNOWN})")
        );
    }

    #[test]
    fn argument_without_equals() {
        assert_eq!(
            message(&["threadring", "hops"]),
            "threadring: argument 'hops' is not NAME=VALUE"
        );
        assert_eq!(
            message(&["threadring", "--help"]),
            "threadring: argument '--help' is not NAME=VALUE"
        );
    }

    #[test]
    fn unknown_parameter() {
        assert_eq!(
            message(&["threadring", "foo=1"]),
            "threadring: unknown parameter foo=1 (known: actors, hops)"
        );
        assert_eq!(
            message(&["mixed", "ringsize=1"]),
            "mixed: unknown parameter ringsize=1 (known: rings, ring_size, token, reps)"
        );
        assert_eq!(
            message(&["fibtree", "=3"]),
            "fibtree: unknown parameter =3 (known: n)"
        );
        // Names are exact: no case folding, no trimming.
        assert_eq!(
            message(&["fibtree", "N=3"]),
            "fibtree: unknown parameter N=3 (known: n)"
        );
    }

    #[test]
    fn repeated_parameter() {
        assert_eq!(
            message(&["threadring", "hops=4", "hops=5"]),
            "threadring: parameter hops=5 given twice"
        );
        // Even with the same value.
        assert_eq!(
            message(&["pingpong", "pings=5", "pings=5"]),
            "pingpong: parameter pings=5 given twice"
        );
    }

    #[test]
    fn non_numeric_value() {
        for bad in [
            "abc", "", "-1", "+5", " 5", "5 ", "1e3", "1_000", "0x10", "3.0", "１",
        ] {
            assert_eq!(
                message(&["threadring", &format!("hops={bad}")]),
                format!("threadring: hops={bad} is not a non-negative integer"),
                "{bad:?}"
            );
        }
        // Only the first '=' separates name and value.
        assert_eq!(
            message(&["threadring", "hops=1=2"]),
            "threadring: hops=1=2 is not a non-negative integer"
        );
    }

    #[test]
    fn out_of_range() {
        assert_eq!(
            message(&["fannkuch", "n=13"]),
            "fannkuch: n=13 is out of range (3..=12)"
        );
        assert_eq!(
            message(&["fannkuch", "n=2"]),
            "fannkuch: n=2 is out of range (3..=12)"
        );
        // Too big for u64 is still a non-negative integer, and out of range.
        assert_eq!(
            message(&["counting", "count=99999999999999999999999"]),
            "counting: count=99999999999999999999999 is out of range (0..=1000000000)"
        );
        // The value is echoed as given.
        assert_eq!(
            message(&["spreading", "depth=0025"]),
            "spreading: depth=0025 is out of range (0..=24)"
        );
    }

    #[test]
    fn every_range_is_inclusive_at_both_ends() {
        for bench in Bench::ALL {
            for p in bench.params() {
                for v in [p.min, p.max] {
                    let arg = format!("{}={v}", p.name);
                    let mut args = vec![bench.name().to_owned(), arg];
                    // Keep skynet's other parameter compatible with the value tried.
                    if bench == Bench::Skynet {
                        args.push(if p.name == "size" {
                            "div=10".to_owned()
                        } else {
                            "size=1".to_owned()
                        });
                    }
                    let inv = parse(&args).unwrap_or_else(|e| panic!("{args:?}: {e}"));
                    assert_eq!(inv.get(p.name), v);
                }
                let mut outside = vec![p.max + 1];
                if p.min > 0 {
                    outside.push(p.min - 1);
                }
                for v in outside {
                    let arg = format!("{}={v}", p.name);
                    assert_eq!(
                        parse([bench.name(), arg.as_str()]),
                        Err(ContractError::OutOfRange {
                            bench,
                            name: p.name,
                            value: v.to_string(),
                            min: p.min,
                            max: p.max,
                        })
                    );
                }
            }
        }
    }

    #[test]
    fn skynet_power_rule() {
        assert_eq!(
            message(&["skynet", "size=1000", "div=7"]),
            "skynet: size=1000 is not a power of div=7"
        );
        // The default size (100000) is not a power of 4.
        assert_eq!(
            message(&["skynet", "div=4"]),
            "skynet: size=100000 is not a power of div=4"
        );
        assert_eq!(
            message(&["skynet", "size=0", "div=2"]),
            "skynet: size=0 is out of range (1..=100000000)"
        );
        for (size, div) in [
            (1, 2),
            (1, 1000),
            (1000, 10),
            (65536, 4),
            (65536, 2),
            (1_000_000, 1000),
            (1000, 1000),
        ] {
            let inv = parse(["skynet", &format!("size={size}"), &format!("div={div}")]).unwrap();
            assert_eq!((inv.get("size"), inv.get("div")), (size, div));
        }
        for (size, div) in [
            (2, 4),
            (8, 4),
            (100, 3),
            (12, 2),
            (1_000_000, 999),
            (1_000_001, 1000),
        ] {
            assert_eq!(
                parse(["skynet", &format!("size={size}"), &format!("div={div}")]),
                Err(ContractError::NotPowerOfDiv { size, div })
            );
        }
    }

    #[test]
    fn first_bad_argument_decides() {
        assert_eq!(
            message(&["threadring", "hops=x", "actors=0"]),
            "threadring: hops=x is not a non-negative integer"
        );
        assert_eq!(
            message(&["threadring", "actors=0", "hops=x"]),
            "threadring: actors=0 is out of range (1..=1000000)"
        );
        // Range errors come before the skynet rule.
        assert_eq!(
            message(&["skynet", "size=1000", "div=1"]),
            "skynet: div=1 is out of range (2..=1000)"
        );
    }

    #[test]
    fn every_message_names_bench_parameter_and_value() {
        let cases: &[(&[&str], &[&str])] = &[
            (&["fannkuch", "n=13"], &["fannkuch", "n=13"]),
            (
                &["skynet", "size=1000", "div=7"],
                &["skynet", "size=1000", "div=7"],
            ),
            (&["bang", "senders=0"], &["bang", "senders=0"]),
            (&["big", "hood=a"], &["big", "hood=a"]),
            (&["big", "hood=1", "hood=2"], &["big", "hood=2"]),
            (&["big", "wat=1"], &["big", "wat=1"]),
            (&["big", "wat"], &["big", "wat"]),
            (&["bigg"], &["bigg"]),
        ];
        for (args, needles) in cases {
            let msg = message(args);
            for needle in *needles {
                assert!(msg.contains(needle), "{msg:?} lacks {needle:?}");
            }
        }
    }

    #[test]
    fn error_knows_its_bench() {
        assert_eq!(
            parse(["skynet", "div=7"]).unwrap_err().bench(),
            Some(Bench::Skynet)
        );
        assert_eq!(parse(["x"]).unwrap_err().bench(), None);
    }

    #[test]
    #[should_panic(expected = "has no parameter")]
    fn get_of_a_foreign_parameter_panics() {
        parse(["fibtree"]).unwrap().get("depth");
    }

    #[test]
    fn power_rule_helper() {
        assert!(is_power_of(1, 2));
        assert!(is_power_of(1024, 2));
        assert!(is_power_of(1024, 1024));
        assert!(!is_power_of(1023, 2));
        assert!(!is_power_of(0, 2));
        assert!(!is_power_of(6, 3));
    }
}
