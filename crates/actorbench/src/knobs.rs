//! Runtime knobs in the harness's own environment, and keeping them away from the runs.
//!
//! A variable such as `FOOTLIGHTS_SCHEDULER=share` or `GOGC=off` left in the shell that
//! starts `actorbench` would otherwise reach every run and change its result without a
//! trace. The harness knows the variables that steer the runtimes it measures
//! ([`KNOB_NAMES`] and [`KNOB_PREFIXES`]). By default ([`Mode::Clean`]) every one of them
//! found in its environment is removed from each run's environment, except the ones the
//! run's own command sets (the thread variable, a variant's `env`), which get the value
//! the suite gives. With `--inherit-env` ([`Mode::Inherit`]) they reach the runs as they
//! are. Either way the knobs found are stored with the session as `K=V` words, with the
//! mode, and `show`, the report and the export name them.

use crate::host;

/// Exact names of runtime knobs.
pub const KNOB_NAMES: &[&str] = &[
    "GOGC",
    "GOMAXPROCS",
    "GOMEMLIMIT",
    "GODEBUG",
    "GOAMD64",
    "JAVA_TOOL_OPTIONS",
    "_JAVA_OPTIONS",
    "JDK_JAVA_OPTIONS",
    "JAVA_OPTS",
    "MAVEN_OPTS",
    "ERL_FLAGS",
    "ERL_AFLAGS",
    "ERL_ZFLAGS",
    "ERL_LIBS",
    "RAYON_NUM_THREADS",
    "ASYNC_STD_THREAD_COUNT",
    "OMP_NUM_THREADS",
    "RUST_MIN_STACK",
    "RUST_LOG",
    "GLIBC_TUNABLES",
    "MALLOC_ARENA_MAX",
    "LD_PRELOAD",
    "LD_BIND_NOW",
];

/// Prefixes of runtime knobs: every variable whose name starts with one is a knob.
pub const KNOB_PREFIXES: &[&str] = &[
    "FOOTLIGHTS_",
    "MIMALLOC_",
    "TOKIO_",
    "CAF_",
    "ACTIX_",
    "RACTOR_",
    "KAMEO_",
    "PEKKO_",
    "AKKA_",
    "MALLOC_",
];

/// Whether runtime knobs of the harness's environment reach the runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Removed from every run (the default).
    Clean,
    /// Passed through as they are (`--inherit-env`).
    Inherit,
}

impl Mode {
    /// The mode from `--inherit-env`.
    pub fn from_flag(inherit: bool) -> Mode {
        if inherit { Mode::Inherit } else { Mode::Clean }
    }

    /// The stored word: `clean` or `inherit`.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Clean => "clean",
            Mode::Inherit => "inherit",
        }
    }
}

/// Whether `name` is a runtime knob.
pub fn is_knob(name: &str) -> bool {
    KNOB_NAMES.contains(&name) || KNOB_PREFIXES.iter().any(|p| name.starts_with(p))
}

/// The knobs in this process's environment, sorted by name.
pub fn found() -> Vec<(String, String)> {
    found_in(std::env::vars_os().filter_map(|(k, v)| Some((k.into_string().ok()?, v))))
}

fn found_in(vars: impl Iterator<Item = (String, std::ffi::OsString)>) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = vars
        .filter(|(k, _)| is_knob(k))
        .map(|(k, v)| (k, v.to_string_lossy().into_owned()))
        .collect();
    out.sort();
    out
}

/// The names a run must not inherit: under [`Mode::Clean`], every knob found; none
/// under [`Mode::Inherit`].
pub fn to_remove(mode: Mode) -> Vec<String> {
    match mode {
        Mode::Clean => found().into_iter().map(|(k, _)| k).collect(),
        Mode::Inherit => Vec::new(),
    }
}

/// Knobs as stored: `K=V` words, values shell-quoted.
pub fn words(knobs: &[(String, String)]) -> String {
    knobs
        .iter()
        .map(|(k, v)| format!("{k}={}", host::quote(v)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The line `show`, `run` and the report print about a session's knobs, or `None` when
/// there were none (or the session predates this record).
pub fn note(mode: &str, knobs: &str) -> Option<String> {
    if knobs.is_empty() {
        return None;
    }
    Some(match mode {
        "inherit" => format!("runtime knobs inherited by every run (--inherit-env): {knobs}"),
        _ => format!("runtime knobs in the caller's environment, removed from every run: {knobs}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knows_the_knobs() {
        for k in [
            "FOOTLIGHTS_SCHEDULER",
            "GOGC",
            "JAVA_TOOL_OPTIONS",
            "MIMALLOC_ARENA_EAGER_COMMIT",
            "TOKIO_WORKER_THREADS",
            "CAF_X",
            "ERL_FLAGS",
        ] {
            assert!(is_knob(k), "{k}");
        }
        for k in ["PATH", "HOME", "GOPATH", "LANG"] {
            assert!(!is_knob(k), "{k}");
        }
        let vars = [
            ("PATH", "/bin"),
            ("GOGC", "off"),
            ("FOOTLIGHTS_SCHEDULER", "share x"),
        ]
        .map(|(k, v)| (k.to_string(), std::ffi::OsString::from(v)));
        let found = found_in(vars.into_iter());
        assert_eq!(words(&found), "FOOTLIGHTS_SCHEDULER='share x' GOGC=off");
        assert_eq!(
            note("clean", "GOGC=off").unwrap(),
            "runtime knobs in the caller's environment, removed from every run: GOGC=off"
        );
        assert!(note("inherit", "GOGC=off").unwrap().contains("inherited"));
        assert_eq!(note("clean", ""), None);
        assert_eq!(Mode::from_flag(true).name(), "inherit");
    }
}
