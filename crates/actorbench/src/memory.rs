//! The memory limit every run gets alike: the resident memory of a run's whole process
//! group, sampled from outside at a low rate, against one limit for the session.
//!
//! Why this and not something else:
//!
//! - **The same for every implementation.** A runtime's own guard (Go once re-executed
//!   itself as a watchdog) costs time inside the measured process and differs from peer
//!   to peer. The harness watches every run the same way, from its own thread.
//! - **Not a cgroup.** cgroup v2's `memory.max` would be exact, but it needs a delegated
//!   cgroup v2 hierarchy with the memory controller, which containers and CI machines
//!   often lack (this project's machines mount the memory controller on cgroup v1 only).
//!   A limit that works only on some machines would not be the same for every session.
//! - **Low rate, little work.** Every [`PERIOD`] the watchdog reads `/proc/PID/statm` of
//!   the group's known members (one small read per process: a run is usually one
//!   process, two for BEAM), and every [`RESCAN_EVERY`]-th sample it scans `/proc` for
//!   processes that joined the group. The watchdog is not pinned with the run, and it
//!   sleeps between samples; see `docs/experiments/2026-11-23-memory-watchdog.md` for its measured
//!   cost.
//!
//! What it cannot do: a program that allocates faster than the period can pass the limit
//! by what it allocates in one period before it is killed. The default limit, three
//! quarters of the memory available when the session starts, leaves the last quarter for
//! that and for the rest of the machine.

use std::time::Duration;

/// How often a run's memory is sampled.
pub const PERIOD: Duration = Duration::from_millis(100);
/// Every this many samples, `/proc` is scanned for new members of the group.
pub const RESCAN_EVERY: u32 = 10;

/// `MemAvailable` from `/proc/meminfo`, in bytes.
pub fn available_bytes() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    meminfo
        .lines()
        .find(|l| l.starts_with("MemAvailable:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<u64>().ok())
        .map(|kb| kb * 1024)
}

/// The default limit: three quarters of the memory available now.
pub fn default_limit() -> Option<u64> {
    available_bytes().map(|a| a / 4 * 3)
}

/// Reads a `--memory-limit` value: a size such as `4GiB`, `512MiB` or `2000000000`
/// (bytes), `off` for no limit, or nothing for [`default_limit`]. Sizes follow the
/// `bytesize` crate: `KiB`/`MiB`/`GiB` are powers of 1024, `KB`/`MB`/`GB` of 1000.
///
/// ```
/// use actorbench::memory::parse_limit;
/// assert_eq!(parse_limit(Some("512MiB")), Ok(Some(512 << 20)));
/// assert_eq!(parse_limit(Some("off")), Ok(None));
/// assert!(parse_limit(Some("lots")).is_err());
/// ```
pub fn parse_limit(given: Option<&str>) -> Result<Option<u64>, String> {
    match given.map(str::trim) {
        None => Ok(default_limit()),
        Some("off") => Ok(None),
        Some(s) => {
            let bytes = s
                .parse::<bytesize::ByteSize>()
                .map_err(|e| {
                    format!("--memory-limit {s}: not a size ({e}); give e.g. 4GiB, 512MiB or off")
                })?
                .as_u64();
            if bytes < 1 << 20 {
                return Err(format!(
                    "--memory-limit {s}: under 1 MiB no program can start; give e.g. 4GiB or off"
                ));
            }
            Ok(Some(bytes))
        }
    }
}

/// One line saying what limit the runs get, for the start of a session.
pub fn describe(limit: Option<u64>, default: bool) -> String {
    match limit {
        None => "memory limit: off (--memory-limit off)".into(),
        Some(b) if default => format!(
            "memory limit: {} per run (3/4 of the memory available now; --memory-limit to change)",
            crate::output::units::bytes(b as f64)
        ),
        Some(b) => format!(
            "memory limit: {} per run (--memory-limit)",
            crate::output::units::bytes(b as f64)
        ),
    }
}

/// The resident memory of one process group, sampled repeatedly.
#[derive(Debug)]
pub struct GroupRss {
    pgid: libc::pid_t,
    members: Vec<libc::pid_t>,
    samples: u32,
    page: u64,
}

impl GroupRss {
    /// Watches the group `pgid` (its leader is `pgid` itself).
    pub fn new(pgid: libc::pid_t) -> Self {
        // SAFETY: sysconf has no preconditions.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        GroupRss {
            pgid,
            members: vec![pgid],
            samples: 0,
            page: if page > 0 { page as u64 } else { 4096 },
        }
    }

    /// The group's resident bytes now: the sum over its processes (threads share their
    /// process's memory, so each process counts once).
    pub fn sample(&mut self) -> u64 {
        if self.samples.is_multiple_of(RESCAN_EVERY) {
            self.rescan();
        }
        self.samples += 1;
        let mut total = 0;
        self.members.retain(|&pid| match resident_pages(pid) {
            Some(pages) => {
                total += pages;
                true
            }
            None => false,
        });
        total * self.page
    }

    /// Finds every process whose process group is ours.
    fn rescan(&mut self) {
        let Ok(dir) = std::fs::read_dir("/proc") else {
            return;
        };
        self.members = dir
            .flatten()
            .filter_map(|e| e.file_name().to_str()?.parse::<libc::pid_t>().ok())
            .filter(|&pid| process_group(pid) == Some(self.pgid))
            .collect();
    }
}

/// The process group of `pid`, from `/proc/PID/stat` (the fifth field; the second, the
/// command name, is parenthesised and may hold spaces, so fields count from its end).
fn process_group(pid: libc::pid_t) -> Option<libc::pid_t> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (_, rest) = stat.rsplit_once(") ")?;
    rest.split_whitespace().nth(2)?.parse().ok()
}

/// Resident pages of `pid`, from `/proc/PID/statm` (its second field).
fn resident_pages(pid: libc::pid_t) -> Option<u64> {
    let statm = std::fs::read_to_string(format!("/proc/{pid}/statm")).ok()?;
    statm.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_the_groups_processes() {
        // This test process is a group member only if it leads one; measure a child that
        // makes its own group instead: `sh` with a `sleep` child.
        use std::os::unix::process::CommandExt;
        let mut child = std::process::Command::new("sh")
            .args(["-c", "sleep 30 & sleep 30; wait"])
            .process_group(0)
            .spawn()
            .unwrap();
        let pgid = child.id() as libc::pid_t;
        std::thread::sleep(Duration::from_millis(200));
        let mut g = GroupRss::new(pgid);
        let bytes = g.sample();
        assert_eq!(g.members.len(), 3, "{:?}", g.members);
        assert!(bytes > 0 && bytes < 1 << 30, "{bytes}");
        // SAFETY: killing the group this test made.
        unsafe { libc::killpg(pgid, libc::SIGKILL) };
        child.wait().unwrap();
        assert!(available_bytes().unwrap() > 0);
        assert!(parse_limit(None).unwrap().unwrap() < available_bytes().unwrap());
        assert_eq!(parse_limit(Some("2GB")), Ok(Some(2_000_000_000)));
        assert!(parse_limit(Some("12")).is_err());
    }
}
