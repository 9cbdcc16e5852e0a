//! What one process cost, measured from outside.
//!
//! Wall time comes from the monotonic clock (`Instant`) read just before the spawn and
//! just after the child's exit is observed. Everything else comes from the `rusage` that
//! `wait4` returns when the child is reaped. On Linux that record covers the child and
//! every descendant it waited for (`RUSAGE_BOTH` in the kernel), so a program that runs a
//! helper process is still measured whole: user and system CPU time, peak resident set
//! size (`ru_maxrss`, in KiB on Linux) and voluntary and involuntary context switches.
//! CPU utilisation is (user + system) / wall: 1.0 is one core kept busy.

use serde::Serialize;

/// The figures of one run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Measurement {
    /// Wall-clock seconds, monotonic.
    pub wall_s: f64,
    /// User CPU seconds.
    pub user_s: f64,
    /// System CPU seconds.
    pub sys_s: f64,
    /// Peak resident set size in bytes.
    pub max_rss_bytes: u64,
    /// Voluntary context switches (the program blocked).
    pub voluntary_switches: u64,
    /// Involuntary context switches (the program was preempted).
    pub involuntary_switches: u64,
}

impl Measurement {
    /// Figures from a `wait4` rusage record and the measured wall time.
    pub fn from_rusage(ru: &libc::rusage, wall_s: f64) -> Self {
        let secs = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 / 1e6;
        Measurement {
            wall_s,
            user_s: secs(ru.ru_utime),
            sys_s: secs(ru.ru_stime),
            max_rss_bytes: (ru.ru_maxrss.max(0) as u64) * 1024,
            voluntary_switches: ru.ru_nvcsw.max(0) as u64,
            involuntary_switches: ru.ru_nivcsw.max(0) as u64,
        }
    }

    /// CPU utilisation: (user + system) / wall; 0 when no time passed.
    pub fn cpu_util(&self) -> f64 {
        if self.wall_s > 0.0 {
            (self.user_s + self.sys_s) / self.wall_s
        } else {
            0.0
        }
    }
}
