//! `actorbench peers`: which implementations can run here, and installing the rest.
//!
//! `peers` probes each implementation's availability command and, when it passes, its
//! version command, and prints one line each; a configuration variant is marked with the
//! implementation it is a variant of and its environment. `peers install [NAME...]`
//! installs each named implementation that is missing (default: every one that is not a
//! variant, as a variant shares its base's toolchain): first its Debian packages (`apt`
//! in the suite file) with `apt-get` run directly, no shell: `apt-get update` once per
//! command, then `apt-get install -y --no-install-recommends PACKAGES`, both with
//! `DEBIAN_FRONTEND=noninteractive` and no terminal input, so a fresh container neither
//! lacks package lists nor waits for an answer; then its `install` steps, one `sh -c` step
//! at a time in the suite's directory. Output is shown as it comes, each command said
//! before it runs, and each command has a time limit ([`INSTALL_TIMEOUT`], `--timeout`),
//! after which its process group is killed and the install has failed.
//! `ACTORBENCH_APT_GET` names another program to call instead of `apt-get` (a wrapper
//! such as one that adds `sudo`).
//! A failing step ends that implementation's install, not the others': every
//! implementation gets its turn, and one line per implementation and a summary say what
//! became of each. Afterwards it probes again, so an install that "succeeded" without
//! making the toolchain available is reported as a failure too. An implementation with no
//! steps (Go, which Debian packages too old) is reported with its install hint; that is a
//! failure only when it was named on the command line.

use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

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

/// How long one install command (`apt-get update`, `apt-get install`, a step) may take.
pub const INSTALL_TIMEOUT: Duration = Duration::from_secs(1800);

/// Whether this process has run `apt-get update` already.
static APT_UPDATED: AtomicBool = AtomicBool::new(false);

/// Runs `argv` in `dir` with `env` added, its output shown as it comes and no input, in
/// its own process group, which is killed when `timeout` passes.
fn run_command(
    argv: &[String],
    shown: &str,
    env: &[(&str, &str)],
    dir: &Path,
    timeout: Duration,
) -> Result<(), String> {
    let mut child = Command::new(&argv[0])
        .args(&argv[1..])
        .envs(env.iter().copied())
        .current_dir(dir)
        .stdin(Stdio::null())
        .process_group(0)
        .spawn()
        .map_err(|e| format!("`{shown}` could not run: {e}"))?;
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(s)) if s.success() => return Ok(()),
            Ok(Some(s)) => return Err(format!("`{shown}` failed ({s})")),
            Ok(None) if started.elapsed() >= timeout => {
                // SAFETY: plain syscall on the group this child leads; it is not reaped
                // yet, so the id is still its own.
                unsafe { libc::killpg(child.id() as libc::pid_t, libc::SIGKILL) };
                let _ = child.wait();
                return Err(format!(
                    "`{shown}` timed out after {} s and was killed",
                    timeout.as_secs_f64()
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(e) => return Err(format!("`{shown}`: {e}")),
        }
    }
}

/// Installs Debian packages: `apt-get update` (once per process), then `apt-get install
/// -y --no-install-recommends PACKAGES`, non-interactive, each with `timeout`.
fn apt_install(
    name: &str,
    packages: &[String],
    dir: &Path,
    timeout: Duration,
) -> Result<(), String> {
    let apt = std::env::var("ACTORBENCH_APT_GET").unwrap_or_else(|_| "apt-get".into());
    let env = [("DEBIAN_FRONTEND", "noninteractive")];
    let say = |argv: &[String]| {
        println!("{name}: $ {}", argv.join(" "));
        let _ = std::io::stdout().flush();
    };
    if !APT_UPDATED.load(Ordering::SeqCst) {
        let update = vec![apt.clone(), "update".into()];
        say(&update);
        run_command(&update, &update.join(" "), &env, dir, timeout)?;
        APT_UPDATED.store(true, Ordering::SeqCst);
    }
    let mut install = vec![
        apt,
        "install".into(),
        "-y".into(),
        "--no-install-recommends".into(),
    ];
    install.extend(packages.iter().cloned());
    say(&install);
    run_command(&install, &install.join(" "), &env, dir, timeout)
}

/// Installs `imp` in `dir` (unless it is available and `force` is off): its Debian
/// packages, then its `sh -c` steps, one at a time with the output shown as it comes and
/// each limited to `timeout`, stopping at the first that fails, then probes it again.
/// Progress goes to stdout, a failure to stderr; the caller says what to do about
/// [`Installed::NoSteps`].
pub fn install_one(imp: &Implementation, dir: &Path, force: bool, timeout: Duration) -> Installed {
    if !force && matches!(toolchain::availability(imp, dir), Availability::Available) {
        println!("{}: available, nothing to install", imp.name);
        return Installed::AlreadyAvailable;
    }
    let hint = imp
        .install_hint
        .as_deref()
        .unwrap_or("no install hint given")
        .to_string();
    if imp.install.is_empty() && imp.apt.is_empty() {
        return Installed::NoSteps(hint);
    }
    let failed = |why: String| {
        eprintln!("{}: {why}", imp.name);
        Installed::Failed(why)
    };
    if !imp.apt.is_empty()
        && let Err(e) = apt_install(&imp.name, &imp.apt, dir, timeout)
    {
        return failed(format!("installing its Debian packages: {e}"));
    }
    for step in &imp.install {
        println!("{}: $ {step}", imp.name);
        // Flush so the step's own output, written straight to the terminal, follows.
        let _ = std::io::stdout().flush();
        let argv = ["sh".to_string(), "-c".into(), step.clone()];
        if let Err(e) = run_command(&argv, step, &[], dir, timeout) {
            return failed(format!("install step {e}"));
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
pub fn install(
    suite_file: Option<&Path>,
    names: &[String],
    force: bool,
    timeout: Duration,
) -> Result<i32> {
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
        let slot = match install_one(imp, &suite.dir, force, timeout) {
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
