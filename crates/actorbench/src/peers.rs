//! `actorbench peers`: which implementations can run here, and installing the rest.
//!
//! `peers` probes each implementation's availability command and, when it passes, its
//! version command, and prints one line each; a configuration variant is marked with the
//! implementation it is a variant of and its environment. `peers install [NAME...]` runs
//! the `install` steps of each named implementation that is missing (default: every one
//! that is not a variant, as a variant shares its base's toolchain), one `sh -c` step at a
//! time in the suite's directory with the output shown as it comes, saying what it runs;
//! the first failing step stops everything with exit status 1. Afterwards it probes again,
//! so an install that "succeeded" without making the toolchain available is reported as a
//! failure too.

use std::path::Path;
use std::process::Command;

use anyhow::{Result, bail};

use crate::output::table;
use crate::suite;
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

/// `actorbench peers install [NAME...]`.
pub fn install(suite_file: Option<&Path>, names: &[String], force: bool) -> Result<i32> {
    let suite = suite::load(&suite::locate(suite_file)?)?;
    let chosen = suite.select_implementations(names)?;
    let mut installed = 0;
    for imp in chosen {
        if !force
            && matches!(
                toolchain::availability(imp, &suite.dir),
                Availability::Available
            )
        {
            println!("{}: available, nothing to install", imp.name);
            continue;
        }
        if imp.install.is_empty() {
            let hint = imp
                .install_hint
                .as_deref()
                .unwrap_or("no install hint given");
            bail!(
                "{}: suite.toml gives no install steps; install it by hand: {hint}",
                imp.name
            );
        }
        for step in &imp.install {
            println!("{}: $ {step}", imp.name);
            let status = Command::new("sh")
                .arg("-c")
                .arg(step)
                .current_dir(&suite.dir)
                .status();
            match status {
                Ok(s) if s.success() => {}
                Ok(s) => bail!("{}: install step `{step}` failed ({s}); stopping", imp.name),
                Err(e) => bail!(
                    "{}: install step `{step}` could not run: {e}; stopping",
                    imp.name
                ),
            }
        }
        if let Availability::Missing(why) = toolchain::availability(imp, &suite.dir) {
            bail!(
                "{}: its install steps ran, but it is still not available: {why}",
                imp.name
            );
        }
        println!(
            "{}: installed ({})",
            imp.name,
            toolchain::version(imp, &suite.dir)
        );
        installed += 1;
    }
    if installed == 0 && !force {
        println!("nothing was missing");
    }
    Ok(0)
}
