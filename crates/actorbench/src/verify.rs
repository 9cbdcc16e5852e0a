//! `actorbench verify`: does each implementation honour the contract?
//!
//! For every chosen implementation: build it, then run every line of the vectors file
//! (`bench<TAB>params<TAB>check`) as its own process at each thread count, pinned like a
//! measured run, and require exit status 0, exactly one well-formed `result` line, the
//! vector's check (and, for chameneos, one count per creature summing to `2*meetings`).
//! Then run the contract's bad-input cases once each and require exit status 2, nothing
//! on stdout and exactly one line on stderr naming the benchmark, parameter and value.
//!
//! Nothing is skipped silently: an implementation named with `--impl` that is not
//! available is a failure; without `--impl`, unavailable implementations are listed as
//! skipped and their tests counted as skipped. Configuration variants (`variant_of` in the
//! suite file) are verified only when named with `--impl`; without `--impl` the output
//! names every variant left out, on stderr at the start and again just before the summary.
//! The last line is `N passed, M failed`
//! (`, K skipped` when some were), and the exit status is 1 when anything failed. An
//! implementation that times out on three vectors in a row has its remaining vectors
//! counted as failed without running them, so a hang costs minutes, not hours.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Result;

use crate::contract;
use crate::error::UsageError;
use crate::exec::{self, Exit};
use crate::params::Params;
use crate::session::resolve_cores;
use crate::suite::{self, Implementation};
use crate::toolchain::{self, Availability};
use crate::trial::{self, Trial};

/// Everything `actorbench verify` takes.
#[derive(Debug, Clone)]
pub struct VerifyOptions {
    /// `--suite`.
    pub suite: Option<PathBuf>,
    /// `--impl` (empty: all available).
    pub implementations: Vec<String>,
    /// `--threads` (empty: 1 and 2, as far as the machine has CPUs).
    pub threads: Vec<usize>,
    /// `--vectors`.
    pub vectors: Option<PathBuf>,
    /// `--timeout` in seconds, per process.
    pub timeout: f64,
    /// `--no-build`: run the programs as they are.
    pub no_build: bool,
    /// `--memory-limit` as given (a size or `off`); `None`: the default, three quarters
    /// of the memory available at the start (see [`crate::memory`]).
    pub memory_limit: Option<String>,
}

/// One line of the vectors file.
#[derive(Debug, Clone)]
pub struct Vector {
    /// Benchmark.
    pub bench: String,
    /// Parameters.
    pub params: Params,
    /// The check it must print.
    pub check: String,
}

/// A bad-input case: the words after the program, and what its error line must contain.
pub struct BadInput {
    /// Benchmark word.
    pub bench: &'static str,
    /// Parameter words.
    pub params: &'static [&'static str],
    /// Strings the one stderr line must contain.
    pub must_name: &'static [&'static str],
}

/// The contract's bad-input cases.
pub const BAD_INPUTS: &[BadInput] = &[
    BadInput {
        bench: "fannkuch",
        params: &["n=13"],
        must_name: &["fannkuch", "n=13"],
    },
    BadInput {
        bench: "skynet",
        params: &["size=1000", "div=7"],
        must_name: &["skynet", "size=1000", "div=7"],
    },
    BadInput {
        bench: "nosuchbench",
        params: &[],
        must_name: &["nosuchbench"],
    },
    BadInput {
        bench: "threadring",
        params: &["foo=1"],
        must_name: &["threadring", "foo=1"],
    },
    BadInput {
        bench: "threadring",
        params: &["hops=abc"],
        must_name: &["threadring", "hops=abc"],
    },
];

/// Reads a vectors file; a malformed line is a [`UsageError`] naming it.
pub fn load_vectors(path: &Path) -> Result<Vec<Vector>, UsageError> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        UsageError::new(format!("cannot read vectors file {}: {e}", path.display()))
    })?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let bad = |why: String| UsageError::new(format!("{}:{}: {why}", path.display(), i + 1));
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.len() != 3 {
            return Err(bad(format!(
                "expected bench<TAB>params<TAB>check, got {} columns",
                cols.len()
            )));
        }
        let spec = contract::find(cols[0].trim()).ok_or_else(|| {
            bad(format!(
                "unknown benchmark '{}' (known: {})",
                cols[0],
                contract::known_names()
            ))
        })?;
        let params = Params::parse_words(cols[1].split_whitespace()).map_err(bad)?;
        // Vectors may leave parameters at their defaults; only what is given is checked.
        for (k, v) in params.iter() {
            let p = spec
                .param(k)
                .ok_or_else(|| bad(format!("{}: unknown parameter {k}={v}", spec.name)))?;
            if v < p.min || v > p.max {
                return Err(bad(format!("{}: {k}={v} is out of range", spec.name)));
            }
        }
        out.push(Vector {
            bench: spec.name.to_string(),
            params,
            check: cols[2].trim().to_string(),
        });
    }
    if out.is_empty() {
        return Err(UsageError::new(format!(
            "vectors file {} has no vectors",
            path.display()
        )));
    }
    Ok(out)
}

/// The vectors file: `--vectors`, else `docs/vectors.tsv` beside the suite file (the
/// repository's own copy of the contract's vectors).
pub fn vectors_path(given: Option<&Path>, suite_dir: &Path) -> Result<PathBuf, UsageError> {
    if let Some(p) = given {
        return if p.is_file() {
            Ok(p.to_path_buf())
        } else {
            Err(UsageError::new(format!(
                "vectors file {} does not exist",
                p.display()
            )))
        };
    }
    let default = suite_dir.join("docs/vectors.tsv");
    if default.is_file() {
        Ok(default.canonicalize().unwrap_or(default))
    } else {
        Err(UsageError::new(format!(
            "no vectors file: {} does not exist; give one with --vectors FILE",
            default.display()
        )))
    }
}

/// Timeouts in a row after which an implementation's remaining vectors are not run.
pub const GIVE_UP_AFTER_TIMEOUTS: usize = 3;

/// Counts; `failed` holds one line per failed test (empty lines for tests failed in bulk).
struct Tally {
    passed: usize,
    failed: Vec<String>,
    skipped: usize,
}

/// Runs `verify`; returns the exit status (0 all passed, 1 something failed).
pub fn run(opts: &VerifyOptions) -> Result<i32> {
    let suite_path = suite::locate(opts.suite.as_deref())?;
    let suite = suite::load(&suite_path)?;
    let explicit = !opts.implementations.is_empty();
    let chosen = suite.select_implementations(&opts.implementations)?;
    // Variants are not in the default selection; say which were left out, never silently.
    let variants_left_out = if explicit {
        String::new()
    } else {
        suite.variants_line()
    };
    let threads = if opts.threads.is_empty() {
        let n = exec::allowed_cpus().len();
        (1..=n.min(2)).collect()
    } else {
        resolve_cores(&opts.threads, "--threads")?
    };
    if !(opts.timeout.is_finite() && opts.timeout > 0.0) {
        crate::usage!(
            "--timeout {}: give a positive number of seconds",
            opts.timeout
        );
    }
    let memory_limit =
        crate::memory::parse_limit(opts.memory_limit.as_deref()).map_err(UsageError::new)?;
    let vectors_file = vectors_path(opts.vectors.as_deref(), &suite.dir)?;
    let vectors = load_vectors(&vectors_file)?;
    exec::install_interrupt_handler();
    let timeout = Duration::from_secs_f64(opts.timeout);
    let limits = (timeout, memory_limit);
    let per_impl = vectors.len() * threads.len() + BAD_INPUTS.len();
    eprintln!(
        "verifying {} against {} vectors from {} at threads {:?}, plus {} bad-input cases",
        chosen
            .iter()
            .map(|i| i.name.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        vectors.len(),
        vectors_file.display(),
        threads,
        BAD_INPUTS.len()
    );
    if !variants_left_out.is_empty() {
        eprintln!("{}", variants_note(&variants_left_out));
    }
    let mut builds = toolchain::Builds::new(opts.no_build);
    let mut t = Tally {
        passed: 0,
        failed: Vec::new(),
        skipped: 0,
    };
    for imp in chosen {
        if exec::interrupted() {
            break;
        }
        if let Availability::Missing(why) = toolchain::availability(imp, &suite.dir) {
            let line = imp.missing_line(&why);
            if explicit {
                fail(&mut t, format!("{}: {line}", imp.name));
            } else {
                eprintln!("SKIPPED {line} ({per_impl} tests not run)");
                t.skipped += per_impl;
            }
            continue;
        }
        if let Some(cmd) = imp.build.as_ref().filter(|_| !builds.has(imp)) {
            eprintln!("building {}: {cmd}", imp.name);
        }
        let built = builds.build(imp, &suite.dir);
        if !built.ok {
            let tail: Vec<&str> = built.tail.lines().rev().take(10).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            fail(
                &mut t,
                format!(
                    "{}: build failed, so its {per_impl} tests were not run:\n    {}",
                    imp.name,
                    tail.join("\n    ")
                ),
            );
            continue;
        }
        let before = (t.passed, t.failed.len());
        let mut timeouts_in_a_row = 0;
        let mut left = vectors.len() * threads.len();
        'vectors: for v in &vectors {
            for &k in &threads {
                if exec::interrupted() {
                    break 'vectors;
                }
                // A hanging implementation would cost timeout x every vector: after a few
                // timeouts in a row its remaining vectors are failed without running them.
                if timeouts_in_a_row >= GIVE_UP_AFTER_TIMEOUTS {
                    fail(
                        &mut t,
                        format!(
                            "{}: {left} vector runs not attempted after {GIVE_UP_AFTER_TIMEOUTS} timeouts in a row",
                            imp.name
                        ),
                    );
                    t.failed
                        .extend(std::iter::repeat_n(String::new(), left - 1));
                    break 'vectors;
                }
                left -= 1;
                let timed_out = verify_vector(&mut t, imp, v, k, limits, &suite.dir);
                timeouts_in_a_row = if timed_out { timeouts_in_a_row + 1 } else { 0 };
            }
        }
        for case in BAD_INPUTS {
            if exec::interrupted() {
                break;
            }
            verify_bad_input(&mut t, imp, case, limits, &suite.dir);
        }
        eprintln!(
            "{}: {} passed, {} failed",
            imp.name,
            t.passed - before.0,
            t.failed.len() - before.1
        );
    }
    if exec::interrupted() {
        fail(&mut t, "interrupted before every test ran".into());
    }
    if !t.failed.is_empty() {
        println!("failures:");
        for f in t.failed.iter().filter(|f| !f.is_empty()) {
            println!("  {f}");
        }
    }
    if !variants_left_out.is_empty() {
        println!("{}", variants_note(&variants_left_out));
    }
    let skipped = if t.skipped > 0 {
        format!(", {} skipped", t.skipped)
    } else {
        String::new()
    };
    println!("{} passed, {} failed{skipped}", t.passed, t.failed.len());
    Ok(if t.failed.is_empty() { 0 } else { 1 })
}

/// The line naming the variants a default selection left out.
fn variants_note(variants: &str) -> String {
    format!("not verified: configuration variants run only when named with --impl: {variants}")
}

fn fail(t: &mut Tally, line: String) {
    eprintln!("FAIL {line}");
    t.failed.push(line);
}

/// Runs one vector; returns whether it timed out.
fn verify_vector(
    t: &mut Tally,
    imp: &Implementation,
    v: &Vector,
    threads: usize,
    (timeout, memory_limit): (Duration, Option<u64>),
    dir: &Path,
) -> bool {
    let trial = Trial {
        implementation: imp,
        bench: &v.bench,
        params: &v.params,
        cores: threads,
        timeout,
        memory_limit,
        dir,
        env_remove: &crate::knobs::to_remove(crate::knobs::Mode::Clean),
    };
    let what = format!(
        "{} {} {} at {threads} thread{}",
        imp.name,
        v.bench,
        v.params,
        if threads == 1 { "" } else { "s" }
    );
    let Some(rec) = trial::run(&trial) else {
        return false;
    };
    let printed = rec.check_value.clone().unwrap_or_default();
    let problem = if rec.status == "ok" && printed == v.check {
        None
    } else if matches!(rec.status.as_str(), "ok" | "wrong-answer") && printed != v.check {
        Some(format!(
            "printed check={printed}, the vector says check={}",
            v.check
        ))
    } else {
        let mut why = format!("{}: {}", rec.status, rec.detail);
        if let Some(last) = rec.stderr_tail.lines().rfind(|l| !l.trim().is_empty()) {
            why.push_str(&format!("; stderr: {}", last.trim()));
        }
        Some(why)
    };
    match problem {
        None => t.passed += 1,
        Some(p) => fail(t, format!("{what}: {p}")),
    }
    rec.status == "timeout"
}

fn verify_bad_input(
    t: &mut Tally,
    imp: &Implementation,
    case: &BadInput,
    (timeout, memory_limit): (Duration, Option<u64>),
    dir: &Path,
) {
    let words: Vec<String> = case.params.iter().map(|s| s.to_string()).collect();
    let (argv, env) = imp.command_words(case.bench, &words, 1);
    let what = format!(
        "{} bad input `{} {}`",
        imp.name,
        case.bench,
        case.params.join(" ")
    );
    let cpus = exec::allowed_cpus().into_iter().take(1).collect();
    let spec = exec::Spec {
        argv,
        env,
        env_remove: crate::knobs::to_remove(crate::knobs::Mode::Clean),
        cwd: dir.to_path_buf(),
        cpus: Some(cpus),
        timeout,
        memory_limit,
        counters: false,
    };
    let o = match exec::run(&spec) {
        Ok(o) => o,
        Err(e) => return fail(t, format!("{what}: could not start: {e}")),
    };
    let stderr = o.stderr.text();
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    let problem = if o.killed.is_some() {
        Some(format!("did not exit within {} s", timeout.as_secs_f64()))
    } else if o.exit != Exit::Code(2) {
        Some(match o.exit {
            Exit::Code(c) => format!("exit status {c}, expected 2"),
            Exit::Signal(sig) => format!("ended by signal {sig}, expected exit status 2"),
        })
    } else if o.stdout.total() > 0 {
        Some(format!("printed to stdout: {}", o.stdout.text().trim()))
    } else if lines.len() != 1 {
        Some(format!(
            "wrote {} lines to stderr, expected exactly one: {}",
            lines.len(),
            lines.join(" | ")
        ))
    } else {
        case.must_name
            .iter()
            .find(|m| !lines[0].contains(*m))
            .map(|missing| format!("its error line does not name '{missing}': {}", lines[0]))
    };
    match problem {
        None => t.passed += 1,
        Some(p) => fail(t, format!("{what}: {p}")),
    }
}
