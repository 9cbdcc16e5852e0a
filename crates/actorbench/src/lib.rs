//! `actorbench`: the harness that runs every implementation of the actor benchmark suite
//! as a process, pins it to the first `k` CPUs, measures it from outside, checks its
//! answer against the contract and keeps every measurement in SQLite.
//!
//! The modules read as the pipeline, in the order data flows through it:
//!
//! - [`suite`] parses and validates `suite.toml` (with [`template`] for command lines);
//! - [`contract`] and [`params`] know the benchmarks' parameters and ranges;
//! - [`plan`] lays out the run matrix and its order, and [`repetitions`] decides how many
//!   measured runs each cell gets;
//! - [`exec`] spawns, pins, captures and time-limits one process ([`capture`] caps its
//!   output; [`guardian`] ends its process group if the harness dies), and [`measure`]
//!   turns `wait4` rusage into figures; [`memory`] is the memory limit every run gets;
//!   [`counters`] counts events (page faults, context switches, instructions...) over
//!   the run's process tree;
//! - [`check`] judges an answer (and its work time, `seconds=`), [`fairness`] scores
//!   chameneos counts;
//! - [`store`] keeps sessions and runs in SQLite, [`host`] describes the machine
//!   ([`machine`] its settings that change speed, [`binary_hash`] the files a run
//!   executes), [`knobs`] keeps the caller's runtime knobs away from the runs;
//!   [`secrets`] keeps passwords out of everything stored or shown, and [`pgpass`] finds
//!   a PostgreSQL password the way libpq does;
//! - [`session`] drives `actorbench run`, running each [`trial`] in the order and for as
//!   long as [`rounds`] says; [`verify`] checks the implementations against the test
//!   vectors and [`peers`] probes and installs toolchains ([`toolchain`]);
//! - [`stats`] and [`summary`] reduce runs on the time [`metric`] picks, [`output`] prints
//!   them, [`export`] writes them, [`report`] draws them, [`compare`] sets two sessions
//!   side by side as a regression gate, [`describe`] tells a stored session in words,
//!   and [`commands`] holds the small commands over a stored database; [`history`] follows one cell across
//!   sessions and finds where it moved ([`changepoint`]); [`modes`] names a cell whose
//!   runs split into two groups;
//! - [`count`] counts instructions per unit of work under callgrind, and [`profile`]
//!   records a run with `perf` and draws its flame graph; both choose their one run
//!   through [`one_run`].

pub mod binary_hash;
pub mod capture;
pub mod changepoint;
pub mod check;
pub mod commands;
pub mod compare;
pub mod contract;
pub mod count;
pub mod counters;
pub mod describe;
pub mod environment;
pub mod error;
pub mod exec;
pub mod export;
pub mod fairness;
pub mod guardian;
pub mod history;
pub mod host;
pub mod knobs;
pub mod machine;
pub mod measure;
pub mod memory;
pub mod metric;
pub mod modes;
pub mod one_run;
pub mod output;
pub mod owner;
pub mod params;
pub mod peers;
pub mod pgpass;
pub mod plan;
pub mod profile;
pub mod repetitions;
pub mod report;
pub mod rounds;
pub mod savina;
pub mod secrets;
pub mod session;
pub mod stats;
pub mod store;
pub mod suite;
pub mod summary;
pub mod template;
pub mod toolchain;
pub mod trial;
pub mod verify;

pub use error::UsageError;
