//! `actorbench peers`: which implementations can run here, and installing the rest.
//!
//! `peers` probes each implementation's availability command and, when it passes, its
//! version command, and prints one line each; a configuration variant is marked with the
//! implementation it is a variant of and its environment. `peers install [NAME...]` runs
//! the `install` steps of each named implementation that is missing (default: every one
//! that is not a variant, as a variant shares its base's toolchain), one `sh -c` step at a
//! time in the suite's directory with the output shown as it comes, saying what it runs.
//! A failing step ends that implementation's install, not the others': every
//! implementation gets its turn, and one line per implementation and a summary say what
//! became of each. Afterwards it probes again, so an install that "succeeded" without
//! making the toolchain available is reported as a failure too. An implementation with no
//! steps (Go, which Debian packages too old) is reported with its install hint; that is a
//! failure only when it was named on the command line.

use std::io::Write;
use std::path::Path;
use std::process::Command;

use anyhow::Result;

use crate::output::table;
use crate::suite::{self, Implementation};
use crate::toolchain::{self, Availability};

/// `actorbench peers`: prints every implementation (variants included, marked) with
/// available/missing and its version.
pub fn list(suite_file: Option<&Path>) -> Result<i32> {
    let suite = suite::load(&suite::locate(suite_file)?)?;
    let mut rows = vec![vec![
        "implementation".into(),
        "language".into(),
        "variant of".into(),
        "status".into(),
        "version / install hint".into(),
    ]];
    let mut missing = 0;
    for imp in &suite.implementations {
        let (status, info) = match toolchain::availability(imp, &suite.dir) {
            Availability::Available => {
                let v = toolchain::version(imp, &suite.dir);
                (
                    "available".to_string(),
                    if v.is_empty() { "-".into() } else { v },
                )
            }
            Availability::Missing(why) => {
                missing += 1;
                let hint = imp.install_hint.as_deref().unwrap_or("no install hint");
                ("missing".to_string(), format!("{why}; install: {hint}"))
            }
        };
        let variant = match &imp.variant_of {
            Some(base) if imp.env.is_empty() => base.clone(),
            Some(base) => format!("{base}: {}", imp.env_words()),
            None => "-".into(),
        };
        rows.push(vec![
            imp.name.clone(),
            imp.language.clone(),
            variant,
            status,
            info,
        ]);
    }
    print!("{}", table::align(&rows, &[false; 5]));
    if missing > 0 {
        println!("{missing} missing: `actorbench peers install` runs their install steps");
    }
    Ok(0)
}

/// What became of one implementation in `peers install`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Installed {
    /// It was available already; nothing ran.
    AlreadyAvailable,
    /// Its steps ran and it is available now, with this version.
    Installed(String),
    /// The suite gives no install steps; the install hint says how.
    NoSteps(String),
    /// A step failed, or the steps ran and it is still missing; why.
    Failed(String),
}

/// Runs `imp`'s install steps in `dir` (unless it is available and `force` is off), one
/// `sh -c` step at a time with its output shown as it comes, stopping at the first step
/// that fails, then probes it again. Progress goes to stdout, a failure to stderr; the
/// caller says what to do about [`Installed::NoSteps`].
pub fn install_one(imp: &Implementation, dir: &Path, force: bool) -> Installed {
    if !force && matches!(toolchain::availability(imp, dir), Availability::Available) {
        println!("{}: available, nothing to install", imp.name);
        return Installed::AlreadyAvailable;
    }
    let hint = imp
        .install_hint
        .as_deref()
        .unwrap_or("no install hint given")
        .to_string();
    if imp.install.is_empty() {
        return Installed::NoSteps(hint);
    }
    let failed = |why: String| {
        eprintln!("{}: {why}", imp.name);
        Installed::Failed(why)
    };
    for step in &imp.install {
        println!("{}: $ {step}", imp.name);
        // Flush so the step's own output, written straight to the terminal, follows.
        let _ = std::io::stdout().flush();
        match Command::new("sh")
            .arg("-c")
            .arg(step)
            .current_dir(dir)
            .status()
        {
            Ok(s) if s.success() => {}
            Ok(s) => return failed(format!("install step `{step}` failed ({s})")),
            Err(e) => return failed(format!("install step `{step}` could not run: {e}")),
        }
    }
    if let Availability::Missing(why) = toolchain::availability(imp, dir) {
        return failed(format!(
            "its install steps ran, but it is still not available: {why}"
        ));
    }
    let version = toolchain::version(imp, dir);
    println!("{}: installed ({version})", imp.name);
    Installed::Installed(version)
}

/// `actorbench peers install [NAME...]`: installs every chosen implementation that has
/// steps, whatever happens to the others, reports each one and ends with a summary line.
/// The exit status is 1 when an install failed, or when an implementation named on the
/// command line has no install steps (it was asked for and is still missing); an
/// implementation without steps that was not named is reported with its hint only.
pub fn install(suite_file: Option<&Path>, names: &[String], force: bool) -> Result<i32> {
    let suite = suite::load(&suite::locate(suite_file)?)?;
    let chosen = suite.select_implementations(names)?;
    let mut by_outcome: [(&str, Vec<&str>); 4] = [
        ("installed", Vec::new()),
        ("failed", Vec::new()),
        ("no install steps", Vec::new()),
        ("already available", Vec::new()),
    ];
    let mut status = 0;
    for imp in chosen {
        let slot = match install_one(imp, &suite.dir, force) {
            Installed::Installed(_) => 0,
            Installed::Failed(_) => {
                status = 1;
                1
            }
            Installed::NoSteps(hint) => {
                let line = format!(
                    "{}: no install steps in suite.toml; install it by hand: {hint}",
                    imp.name
                );
                if names.is_empty() {
                    println!("{line}");
                } else {
                    eprintln!("{line}");
                    status = 1;
                }
                2
            }
            Installed::AlreadyAvailable => 3,
        };
        by_outcome[slot].1.push(&imp.name);
    }
    let summary: Vec<String> = by_outcome
        .iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(what, v)| format!("{what}: {}", v.join(", ")))
        .collect();
    println!("{}", summary.join("; "));
    Ok(status)
}
