//! One program run chosen on the command line, for the commands that instrument a single
//! run rather than measure a session (`count` and `profile`).
//!
//! Both take the same choice ([`OneRunOptions`]: the suite, one benchmark, one
//! implementation, a profile's size with `--param` overrides, a core count, a timeout) and
//! check it the same way: the suite loads, the benchmark and the implementation exist,
//! the core count can be pinned, the timeout is a positive number of seconds, the size
//! is valid, and the implementation's toolchain is installed. [`OneRunOptions::resolve`]
//! does all of that and gives back the owned [`OneRun`]; [`OneRun::build`] then builds
//! the implementation unless `--no-build` said not to.

use std::path::PathBuf;

use anyhow::Result;

use crate::error::UsageError;
use crate::exec;
use crate::params::Params;
use crate::suite::{self, Benchmark, Implementation, Profile, Suite};
use crate::toolchain;

/// What `count` and `profile` take from the command line to choose their one run.
#[derive(Debug, Clone)]
pub struct OneRunOptions {
    /// `--suite`.
    pub suite: Option<PathBuf>,
    /// `--db`.
    pub db: Option<PathBuf>,
    /// The benchmark.
    pub bench: String,
    /// `--impl`.
    pub implementation: String,
    /// `--profile`: which parameters.
    pub profile: Profile,
    /// `--param key=value` overrides.
    pub params: Vec<String>,
    /// `--cores` (threads and CPUs), default 1.
    pub cores: usize,
    /// `--timeout` per run in seconds.
    pub timeout: f64,
    /// `--no-build`.
    pub no_build: bool,
}

/// A checked choice of one run: everything [`OneRunOptions`] named, resolved.
#[derive(Debug, Clone)]
pub struct OneRun {
    /// Where the suite file is.
    pub suite_path: PathBuf,
    /// The suite it holds.
    pub suite: Suite,
    /// The benchmark.
    pub bench: Benchmark,
    /// The implementation.
    pub imp: Implementation,
    /// The parameters of the profile's size, with the overrides.
    pub params: Params,
    /// The core count, checked against the CPUs this process may use.
    pub cores: usize,
    /// Whether to skip the build.
    pub no_build: bool,
}

impl OneRunOptions {
    /// Checks the choice for `command` (the subcommand's name, which starts the messages
    /// about the toolchain) and resolves it; a usage error names what was wrong.
    pub fn resolve(&self, command: &str) -> Result<OneRun> {
        let suite_path = suite::locate(self.suite.as_deref())?;
        let suite = suite::load(&suite_path)?;
        let imp = suite.implementation(&self.implementation).ok_or_else(|| {
            UsageError::new(format!(
                "--impl {}: no such implementation (known: {})",
                self.implementation,
                suite.implementation_names()
            ))
        })?;
        let bench = suite.benchmark(&self.bench).ok_or_else(|| {
            UsageError::new(format!(
                "unknown benchmark '{}' (known: {})",
                self.bench,
                suite.benchmark_names()
            ))
        })?;
        let cores = crate::session::resolve_cores(&[self.cores], "--cores")?[0];
        if !(self.timeout.is_finite() && self.timeout > 0.0) {
            crate::usage!(
                "--timeout {}: give a positive number of seconds",
                self.timeout
            );
        }
        let params =
            crate::session::resolve_points(&suite, &[bench], self.profile, false, &self.params)?[0]
                .1[0]
                .clone();
        if let toolchain::Availability::Missing(why) = toolchain::availability(imp, &suite.dir) {
            crate::usage!("{command}: {}", imp.missing_line(&why));
        }
        let (bench, imp) = (bench.clone(), imp.clone());
        Ok(OneRun {
            suite_path,
            suite,
            bench,
            imp,
            params,
            cores,
            no_build: self.no_build,
        })
    }
}

impl OneRun {
    /// Builds the implementation (unless `--no-build`), with the interrupt handler in
    /// place; a failed build fails `command` with the end of its output.
    pub fn build(&self, command: &str) -> Result<()> {
        exec::install_interrupt_handler();
        let built = toolchain::Builds::new(self.no_build).build(&self.imp, &self.suite.dir);
        if !built.ok {
            return Err(crate::error::Failure(format!(
                "{command}: the build of {} failed; its output ends with:\n{}",
                self.imp.name, built.tail
            ))
            .into());
        }
        Ok(())
    }
}
