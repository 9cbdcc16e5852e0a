//! The machine a session ran on, its checkout's commit, and wall-clock timestamps: what a
//! reader needs to reproduce a measurement.
//!
//! CPU model and memory come from `/proc/cpuinfo` and `/proc/meminfo`, the kernel from
//! `uname(2)`, the core count from the harness's CPU affinity (the CPUs runs can be
//! pinned to), and the commit from `git rev-parse HEAD` in the suite's directory, with
//! `-dirty` appended when tracked files are modified or files git does not ignore are
//! untracked (a new source file changes a build as much as an edit does). Dates are formatted with `jiff`,
//! shell words quoted with `shlex`.

use std::path::Path;
use std::process::Command;
use std::time::SystemTime;

/// A description of the host.
#[derive(Debug, Clone)]
pub struct Host {
    /// CPU model name.
    pub cpu: String,
    /// CPUs available to the harness.
    pub cores: usize,
    /// Total memory in bytes.
    pub memory_bytes: u64,
    /// Kernel name and release, e.g. `Linux 6.1.0`.
    pub kernel: String,
}

/// Describes this machine.
pub fn describe() -> Host {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let cpu = cpuinfo
        .lines()
        .find(|l| {
            l.starts_with("model name") || l.starts_with("Processor") || l.starts_with("cpu model")
        })
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_string())
        .unwrap_or_else(|| "unknown CPU".into());
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let memory_bytes = meminfo
        .lines()
        .find(|l| l.starts_with("MemTotal:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024);
    Host {
        cpu,
        cores: crate::exec::allowed_cpus().len(),
        memory_bytes,
        kernel: kernel(),
    }
}

fn kernel() -> String {
    // SAFETY: utsname is plain data filled in by uname(2); its fields are NUL-terminated.
    unsafe {
        let mut u: libc::utsname = std::mem::zeroed();
        if libc::uname(&mut u) != 0 {
            return "unknown kernel".into();
        }
        let field = |f: &[libc::c_char]| {
            std::ffi::CStr::from_ptr(f.as_ptr())
                .to_string_lossy()
                .into_owned()
        };
        format!("{} {}", field(&u.sysname), field(&u.release))
    }
}

/// The checkout's commit at `dir`, `-dirty` when tracked files differ or untracked files
/// (not ignored) exist; `unknown` outside git.
pub fn git_commit(dir: &Path) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["rev-parse", "HEAD"])
        .output();
    let Some(out) = out.ok().filter(|o| o.status.success()) else {
        return "unknown".into();
    };
    let commit = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let clean = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["diff", "--quiet", "HEAD", "--"])
        .status()
        .map(|s| s.success())
        .unwrap_or(true);
    let untracked = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["ls-files", "--others", "--exclude-standard", "--", "."])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .is_some_and(|o| !o.stdout.is_empty());
    if clean && !untracked {
        commit
    } else {
        format!("{commit}-dirty")
    }
}

/// The current time as RFC 3339 UTC, to the second: `2024-05-01T12:00:00Z`.
pub fn now_rfc3339() -> String {
    rfc3339(SystemTime::now())
}

/// A time as RFC 3339 UTC, to the second (`jiff`).
pub fn rfc3339(t: SystemTime) -> String {
    jiff::Timestamp::try_from(t)
        .unwrap_or(jiff::Timestamp::UNIX_EPOCH)
        .strftime("%Y-%m-%dT%H:%M:%SZ")
        .to_string()
}

/// The harness's own command line, shell-quoted where needed, with every password in it
/// replaced by `***` ([`crate::secrets`]).
pub fn command_line() -> String {
    std::env::args()
        .map(|a| quote(&crate::secrets::redact(&a)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Quotes a word for a POSIX shell when it needs quoting (`shlex`); a word with a NUL
/// byte, which no shell word can hold, is shown with the NUL escaped.
pub fn quote(a: &str) -> String {
    shlex::try_quote(a).map_or_else(|_| format!("{a:?}"), |q| q.into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn formats_dates() {
        assert_eq!(rfc3339(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        assert_eq!(
            rfc3339(UNIX_EPOCH + Duration::from_secs(951_782_400)),
            "2000-02-29T00:00:00Z"
        );
        assert_eq!(
            rfc3339(UNIX_EPOCH + Duration::from_secs(1_700_000_000)),
            "2023-11-14T22:13:20Z"
        );
        assert_eq!(quote("a b"), "'a b'");
        assert!(describe().cores >= 1);
    }
}
