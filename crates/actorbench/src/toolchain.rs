//! An implementation's toolchain: is it there, which version, and building the program.
//!
//! All three are shell command lines from `suite.toml`, run with `sh -c` in the suite's
//! directory (unlike run templates, which are exec'd directly: a build or a version
//! probe is not measured, and may need pipes or `&&`).

use std::path::Path;
use std::time::{Duration, Instant};

use crate::exec;
use crate::suite::Implementation;

/// How long an availability or version command may take.
pub const PROBE_TIMEOUT: Duration = Duration::from_secs(60);
/// How long a build may take.
pub const BUILD_TIMEOUT: Duration = Duration::from_secs(3600);

/// Whether an implementation can be used here.
#[derive(Debug, Clone)]
pub enum Availability {
    /// Its check passed (or it has none).
    Available,
    /// Its check failed; the reason in words.
    Missing(String),
}

/// Runs the availability check.
pub fn availability(imp: &Implementation, dir: &Path) -> Availability {
    let Some(cmd) = &imp.available else {
        return Availability::Available;
    };
    match exec::shell(cmd, dir, PROBE_TIMEOUT) {
        Ok(o) if o.success() => Availability::Available,
        Ok(o) => {
            let why = last_line(&o.stderr.text()).or_else(|| last_line(&o.stdout.text()));
            let status = match (o.killed, o.exit) {
                (Some(_), _) => "timed out".to_string(),
                (None, exec::Exit::Code(c)) => format!("exit {c}"),
                (None, exec::Exit::Signal(s)) => format!("signal {s}"),
            };
            Availability::Missing(match why {
                Some(w) => format!("`{cmd}` failed ({status}: {w})"),
                None => format!("`{cmd}` failed ({status})"),
            })
        }
        Err(e) => Availability::Missing(format!("`{cmd}` could not run: {e}")),
    }
}

/// The first non-empty line of the version command's stdout, else of its stderr.
pub fn version(imp: &Implementation, dir: &Path) -> String {
    let Some(cmd) = &imp.version else {
        return String::new();
    };
    match exec::shell(cmd, dir, PROBE_TIMEOUT) {
        Ok(o) => first_line(&o.stdout.text())
            .or_else(|| first_line(&o.stderr.text()))
            .unwrap_or_default(),
        Err(_) => String::new(),
    }
}

/// The result of a build.
#[derive(Debug, Clone)]
pub struct Built {
    /// Whether it succeeded.
    pub ok: bool,
    /// How long it took.
    pub seconds: f64,
    /// The tail of its output, for a failure message.
    pub tail: String,
}

/// Runs the build command (none: nothing to do).
pub fn build(imp: &Implementation, dir: &Path) -> Built {
    let Some(cmd) = &imp.build else {
        return Built {
            ok: true,
            seconds: 0.0,
            tail: String::new(),
        };
    };
    let t = Instant::now();
    match exec::shell(cmd, dir, BUILD_TIMEOUT) {
        Ok(o) => {
            let mut tail = o.stderr.tail_text(2000);
            let out = o.stdout.tail_text(1000);
            if !out.trim().is_empty() {
                tail = format!("{out}\n{tail}");
            }
            if o.killed.is_some() {
                tail.push_str("\n(build killed: timeout or interrupt)");
            }
            Built {
                ok: o.success(),
                seconds: t.elapsed().as_secs_f64(),
                tail,
            }
        }
        Err(e) => Built {
            ok: false,
            seconds: t.elapsed().as_secs_f64(),
            tail: format!("could not run `{cmd}`: {e}"),
        },
    }
}

/// The builds of one session: a build command shared by several implementations (the
/// Rust peers share one workspace) runs once, and its result is reused.
#[derive(Debug, Default)]
pub struct Builds {
    done: Vec<(String, Built)>,
    skip: bool,
}

impl Builds {
    /// The builds of a session; with `skip` (`--no-build`) nothing is built and every
    /// program is taken as it is.
    pub fn new(skip: bool) -> Self {
        Builds {
            done: Vec::new(),
            skip,
        }
    }

    /// Builds `imp` unless its build command already ran (then that result is reused).
    pub fn build(&mut self, imp: &Implementation, dir: &Path) -> Built {
        if self.skip {
            return Built {
                ok: true,
                seconds: 0.0,
                tail: String::new(),
            };
        }
        if let Some(cmd) = &imp.build
            && let Some((_, b)) = self.done.iter().find(|(c, _)| c == cmd)
        {
            return b.clone();
        }
        let b = build(imp, dir);
        if let Some(cmd) = &imp.build {
            self.done.push((cmd.clone(), b.clone()));
        }
        b
    }

    /// Whether `imp` needs no build now: its build command already ran, or builds are off.
    pub fn has(&self, imp: &Implementation) -> bool {
        self.skip
            || imp
                .build
                .as_ref()
                .is_some_and(|cmd| self.done.iter().any(|(c, _)| c == cmd))
    }
}

fn first_line(s: &str) -> Option<String> {
    s.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(str::to_string)
}

fn last_line(s: &str) -> Option<String> {
    s.lines()
        .map(str::trim)
        .rfind(|l| !l.is_empty())
        .map(str::to_string)
}
