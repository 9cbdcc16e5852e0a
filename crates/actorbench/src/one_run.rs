//! One program run chosen on the command line, for the commands that instrument a single
//! run rather than measure a session (`count` and `profile`).
//!
//! Both take the same choice ([`OneRunOptions`]: the suite, one implementation, one
//! benchmark, a profile's size with `--param` overrides, a core count, a timeout) and
//! check it the same way: the suite loads, the implementation and the benchmark exist,
//! the core count can be pinned, the timeout is a positive number of seconds and the
//! size is valid ([`OneRunOptions::resolve`], which gives back the owned [`OneRun`]).
//! Then each command checks what is its own (`count`: a unit of work and a larger
//! size), and [`OneRun::check_toolchain`] that the implementation's toolchain is
//! installed, so that a mistake on the command line is reported before a missing tool.
//! [`OneRun::build`] installs the interrupt handler and builds the implementation
//! unless `--no-build` said not to.

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

/// A checked choice of one run: the suite, benchmark, implementation, size and core
/// count that [`OneRunOptions`] named, resolved (the timeout, the profile's name and
/// `--db` stay in the options).
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
    /// Checks the choice and resolves it; the error names what was wrong.
    pub fn resolve(&self) -> Result<OneRun> {
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
    /// Refuses the run when its implementation's toolchain is not installed; the message
    /// starts with `command`, the subcommand's name.
    pub fn check_toolchain(&self, command: &str) -> Result<()> {
        if let toolchain::Availability::Missing(why) =
            toolchain::availability(&self.imp, &self.suite.dir)
        {
            crate::usage!("{command}: {}", self.imp.missing_line(&why));
        }
        Ok(())
    }

    /// Installs the interrupt handler (the run that follows relies on it), then builds
    /// the implementation unless `--no-build`; a failed build fails `command` with the
    /// end of its output.
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
