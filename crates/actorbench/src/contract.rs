//! What the benchmark contract (`docs/benchmarks.md` and the peer conventions) fixes
//! about each benchmark's parameters: their names, in order, and their inclusive ranges,
//! plus skynet's extra rule that `size` is a power of `div`.
//!
//! The harness validates every parameter set against this table before it runs anything,
//! with the same message shapes the implementations use, so a typo in `--param` or in
//! `suite.toml` is caught once, up front, instead of failing every run.

use crate::params::Params;

/// One parameter of a benchmark and its inclusive range.
#[derive(Debug, Clone, Copy)]
pub struct ParamSpec {
    /// The parameter's name, as given on the command line (`hops`).
    pub name: &'static str,
    /// Smallest allowed value.
    pub min: u64,
    /// Largest allowed value.
    pub max: u64,
}

/// A benchmark of the contract: its name and its parameters in their canonical order.
#[derive(Debug, Clone, Copy)]
pub struct BenchSpec {
    /// The benchmark's name (`threadring`).
    pub name: &'static str,
    /// Its parameters, in the order they are printed.
    pub params: &'static [ParamSpec],
}

const fn p(name: &'static str, min: u64, max: u64) -> ParamSpec {
    ParamSpec { name, min, max }
}

/// Every benchmark of the contract, in the contract's order.
pub const BENCHMARKS: &[BenchSpec] = &[
    BenchSpec {
        name: "threadring",
        params: &[p("actors", 1, 1_000_000), p("hops", 0, 1_000_000_000)],
    },
    BenchSpec {
        name: "chameneos",
        params: &[p("creatures", 2, 1_000_000), p("meetings", 0, 100_000_000)],
    },
    BenchSpec {
        name: "big",
        params: &[
            p("workers", 1, 1_000_000),
            p("pings", 0, 100_000_000),
            p("hood", 1, 1_000_000),
        ],
    },
    BenchSpec {
        name: "fannkuch",
        params: &[p("n", 3, 12)],
    },
    BenchSpec {
        name: "fibtree",
        params: &[p("n", 0, 40)],
    },
    BenchSpec {
        name: "skynet",
        params: &[p("size", 1, 100_000_000), p("div", 2, 1000)],
    },
    BenchSpec {
        name: "spreading",
        params: &[p("depth", 0, 24)],
    },
    BenchSpec {
        name: "mixed",
        params: &[
            p("rings", 1, 10_000),
            p("ring_size", 2, 100_000),
            p("token", 0, 100_000_000),
            p("reps", 1, 1000),
        ],
    },
    BenchSpec {
        name: "bang",
        params: &[p("senders", 1, 1_000_000), p("messages", 0, 100_000_000)],
    },
    BenchSpec {
        name: "serialmsg",
        params: &[p("pairs", 1, 100_000), p("messages", 0, 100_000_000)],
    },
    BenchSpec {
        name: "pingpong",
        params: &[p("pings", 0, 1_000_000_000)],
    },
    BenchSpec {
        name: "counting",
        params: &[p("count", 0, 1_000_000_000)],
    },
    BenchSpec {
        name: "fjthrput",
        params: &[p("actors", 1, 100_000), p("messages", 0, 100_000_000)],
    },
    BenchSpec {
        name: "fjcreate",
        params: &[p("actors", 1, 10_000_000)],
    },
    BenchSpec {
        name: "concdict",
        params: &[
            p("workers", 1, 10_000),
            p("messages", 0, 100_000_000),
            p("write_pct", 0, 100),
        ],
    },
    BenchSpec {
        name: "concsll",
        params: &[
            p("workers", 1, 10_000),
            p("messages", 0, 100_000_000),
            p("write_pct", 0, 100),
            p("size_pct", 0, 100),
        ],
    },
    BenchSpec {
        name: "bndbuffer",
        params: &[
            p("buffer", 1, 1_000_000),
            p("producers", 1, 10_000),
            p("consumers", 1, 10_000),
            p("items", 0, 100_000_000),
            p("cost", 0, 1_000_000),
        ],
    },
    BenchSpec {
        name: "philosopher",
        params: &[p("philosophers", 1, 10_000), p("rounds", 0, 100_000_000)],
    },
    BenchSpec {
        name: "barber",
        params: &[
            p("haircuts", 0, 10_000_000),
            p("room", 1, 1_000_000),
            p("arrival", 0, 1_000_000),
            p("cut", 0, 1_000_000),
        ],
    },
    BenchSpec {
        name: "cigsmok",
        params: &[p("rounds", 0, 100_000_000), p("smokers", 1, 100_000)],
    },
    BenchSpec {
        name: "logmap",
        params: &[
            p("terms", 0, 100_000_000),
            p("series", 1, 100),
            p("rate", 0, 36_000),
            p("increment", 0, 40),
        ],
    },
    BenchSpec {
        name: "banking",
        params: &[
            p("accounts", 2, 1_000_000),
            p("transactions", 0, 100_000_000),
        ],
    },
];

/// The benchmark called `name`, if the contract has one.
pub fn find(name: &str) -> Option<&'static BenchSpec> {
    BENCHMARKS.iter().find(|b| b.name == name)
}

/// The contract's benchmark names, comma-separated, for error messages.
pub fn known_names() -> String {
    BENCHMARKS
        .iter()
        .map(|b| b.name)
        .collect::<Vec<_>>()
        .join(", ")
}

impl BenchSpec {
    /// The parameter called `name`, if this benchmark has one.
    pub fn param(&self, name: &str) -> Option<&ParamSpec> {
        self.params.iter().find(|p| p.name == name)
    }

    /// This benchmark's parameter names, comma-separated, for error messages.
    pub fn known_params(&self) -> String {
        self.params
            .iter()
            .map(|p| p.name)
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Checks that `params` names exactly this benchmark's parameters, each in range, and
    /// that skynet's size is a power of its div. The message names the benchmark, the
    /// parameter and the bad value, like the implementations' own messages.
    pub fn validate(&self, params: &Params) -> Result<(), String> {
        for (name, value) in params.iter() {
            let Some(spec) = self.param(name) else {
                return Err(format!(
                    "{}: unknown parameter {name}={value} (known: {})",
                    self.name,
                    self.known_params()
                ));
            };
            if value < spec.min || value > spec.max {
                return Err(format!(
                    "{}: {name}={value} is out of range ({}..={})",
                    self.name, spec.min, spec.max
                ));
            }
        }
        for spec in self.params {
            if params.get(spec.name).is_none() {
                return Err(format!("{}: parameter {} is missing", self.name, spec.name));
            }
        }
        if self.name == "skynet" {
            let (size, div) = (
                params.get("size").unwrap_or(1),
                params.get("div").unwrap_or(2),
            );
            if !is_power_of(size, div) {
                return Err(format!("skynet: size={size} is not a power of div={div}"));
            }
        }
        Ok(())
    }
}

/// Whether `size` is `div^k` for some `k >= 0`.
fn is_power_of(mut size: u64, div: u64) -> bool {
    if div < 2 || size == 0 {
        return false;
    }
    while size.is_multiple_of(div) {
        size /= div;
    }
    size == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(s: &str) -> Params {
        Params::parse_words(s.split_whitespace()).unwrap()
    }

    #[test]
    fn validates_ranges_and_the_skynet_rule() {
        let fannkuch = find("fannkuch").unwrap();
        assert!(fannkuch.validate(&params("n=10")).is_ok());
        let err = fannkuch.validate(&params("n=13")).unwrap_err();
        assert!(err.contains("fannkuch") && err.contains("n=13"), "{err}");
        let skynet = find("skynet").unwrap();
        assert!(skynet.validate(&params("size=1000 div=10")).is_ok());
        assert!(skynet.validate(&params("size=1 div=7")).is_ok());
        let err = skynet.validate(&params("size=1000 div=7")).unwrap_err();
        assert!(err.contains("size=1000") && err.contains("div=7"), "{err}");
        let ring = find("threadring").unwrap();
        let err = ring.validate(&params("actors=3 hops=1 foo=1")).unwrap_err();
        assert!(err.contains("foo=1"), "{err}");
        assert!(
            ring.validate(&params("actors=3"))
                .unwrap_err()
                .contains("hops")
        );
    }
}
