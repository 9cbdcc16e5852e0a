//! The command-line side of the actor benchmark contract, shared by every Rust suite
//! implementation (footlights-suite and the actix, ractor and kameo peers).
//!
//! A suite program is invoked as `PROGRAM BENCH [NAME=VALUE ...]` and prints exactly one
//! line, `result bench=NAME check=VALUE seconds=S [KEY=VALUE ...]`, on stdout, where `S`
//! is the work time: from just before the program creates its runtime until the check is
//! known. This crate holds everything about that protocol that does not depend on the
//! actor runtime:
//!
//! - [`Bench`] and [`Param`]: the twenty-two benchmarks, their parameters with quick defaults
//!   and inclusive ranges, and the seed parameters (`bench.rs`);
//! - [`parse`] into an [`Invocation`], or a [`ContractError`] whose message is exactly the
//!   one docs/benchmarks.md prescribes (`parse.rs`);
//! - [`help_text`] for `--help` (`help.rs`);
//! - [`result_line`] and [`Outcome`] for the one line of output, and the work time it
//!   carries, timed the same way for every program (`output.rs`);
//! - [`run_main`]: help, parsing, exit statuses 0/1/2 and panics, so that a program's
//!   `main` is one call (`run.rs`).
//!
//! ```
//! use suite_contract::{run_args, Bench, Outcome};
//!
//! let (mut out, mut err) = (Vec::new(), Vec::new());
//! let status = run_args("toy", ["counting", "count=3"], &mut out, &mut err, |inv| {
//!     assert_eq!(inv.bench(), Bench::Counting);
//!     Ok(Outcome::new(inv.get("count")))
//! });
//! assert_eq!(status, 0);
//! assert!(out.starts_with(b"result bench=counting check=3 seconds="));
//! ```

mod bench;
mod help;
mod output;
mod parse;
mod run;

pub use bench::{Bench, Param, UnknownBench};
pub use help::help_text;
pub use output::{Outcome, result_line, seconds, split_seconds};
pub use parse::{ContractError, Invocation, parse};
pub use run::{EXIT_BAD_INPUT, EXIT_OK, EXIT_RUN_FAILED, run_args, run_main, wants_help};
