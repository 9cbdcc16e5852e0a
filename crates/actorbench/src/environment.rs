//! The state of the machine around a session, recorded with it and checked: CPU frequency
//! governor, SMT, load, what other processes used, and the harness's own version.
//!
//! **Busy.** A session counts as run on a busy machine when either
//!
//! - the 1-minute load average when it started was above [`BUSY_LOAD_PER_CPU`] (0.5) per
//!   CPU the harness may use, or
//! - other processes used more than [`BUSY_OTHERS_SHARE`] (10%) of those CPUs on average
//!   while it ran.
//!
//! The second figure is measured, not guessed from the load average (which the
//! session's own runs raise): from `/proc/stat`, the busy time of the harness's CPUs
//! (user, nice, system, irq, softirq, steal) over the session, less the CPU time of the
//! harness itself and of every child it reaped (`getrusage`: the runs, builds and
//! probes), divided by the session's wall time. What is left was spent by someone else.
//! The verdict and both figures are stored with the session; `show`, `list` and the end
//! of `run` say so.

use std::time::Instant;

/// Busy when the 1-minute load average at the start exceeds this many per CPU.
pub const BUSY_LOAD_PER_CPU: f64 = 0.5;
/// Busy when other processes used more than this share of the CPUs, on average.
pub const BUSY_OTHERS_SHARE: f64 = 0.10;

/// The harness's own version: `actorbench 0.1.0 (commit)`, the commit it was built from
/// with `-dirty` when its checkout had changes (`unknown` outside git).
pub fn harness_version() -> String {
    let commit = git_version::git_version!(
        args = ["--always", "--abbrev=40", "--dirty=-dirty", "--exclude=*"],
        fallback = "unknown"
    );
    format!("actorbench {} ({commit})", env!("CARGO_PKG_VERSION"))
}

/// The scaling governor of each CPU in `cpus`: one word when they agree (`performance`),
/// `cpu0=a cpu1=b` when not, `none` without cpufreq (virtual machines, containers).
pub fn governor(cpus: &[usize]) -> String {
    let read = |c: usize| {
        std::fs::read_to_string(format!(
            "/sys/devices/system/cpu/cpu{c}/cpufreq/scaling_governor"
        ))
        .ok()
        .map(|s| s.trim().to_string())
    };
    let all: Vec<(usize, Option<String>)> = cpus.iter().map(|&c| (c, read(c))).collect();
    if all.iter().all(|(_, g)| g.is_none()) {
        return "none".into();
    }
    let first = &all[0].1;
    if all.iter().all(|(_, g)| g == first) {
        return first.clone().unwrap_or_default();
    }
    all.iter()
        .map(|(c, g)| format!("cpu{c}={}", g.as_deref().unwrap_or("none")))
        .collect::<Vec<_>>()
        .join(" ")
}

/// SMT: the kernel's control setting and whether it is active, e.g. `on (active)`,
/// `off`, `notsupported`; `unknown` when the kernel does not say.
pub fn smt() -> String {
    let read = |f: &str| {
        std::fs::read_to_string(format!("/sys/devices/system/cpu/smt/{f}"))
            .ok()
            .map(|s| s.trim().to_string())
    };
    match (read("control"), read("active")) {
        (Some(c), Some(a)) if c == "on" || c == "off" || c == "forceoff" => {
            format!("{c} ({})", if a == "1" { "active" } else { "inactive" })
        }
        (Some(c), _) => c,
        (None, _) => "unknown".into(),
    }
}

/// The three load averages from `/proc/loadavg`.
pub fn load_average() -> Option<[f64; 3]> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    let mut it = text.split_whitespace().map(|w| w.parse::<f64>().ok());
    Some([it.next()??, it.next()??, it.next()??])
}

/// Load averages as stored: `0.52 0.61 0.70`, or empty when unknown.
pub fn load_text(load: Option<[f64; 3]>) -> String {
    load.map(|l| format!("{:.2} {:.2} {:.2}", l[0], l[1], l[2]))
        .unwrap_or_default()
}

/// CPU time at one moment: the machine's busy time on some CPUs, and ours.
#[derive(Debug, Clone, Copy)]
pub struct CpuSnapshot {
    at: Instant,
    /// Busy seconds of the chosen CPUs since boot.
    busy: f64,
    /// CPU seconds of this process and its reaped children.
    ours: f64,
}

impl CpuSnapshot {
    /// Takes a snapshot for `cpus`.
    pub fn take(cpus: &[usize]) -> CpuSnapshot {
        CpuSnapshot {
            at: Instant::now(),
            busy: machine_busy_seconds(cpus).unwrap_or(0.0),
            ours: own_cpu_seconds(),
        }
    }

    /// CPUs other processes used on average from `self` to `later`: the machine's busy
    /// time less ours, over the wall time between (never below 0).
    pub fn others_cpus(&self, later: &CpuSnapshot) -> f64 {
        let wall = later.at.duration_since(self.at).as_secs_f64();
        if wall <= 0.0 {
            return 0.0;
        }
        (((later.busy - self.busy) - (later.ours - self.ours)) / wall).max(0.0)
    }
}

/// The stored verdict: why the session counts as busy, or empty.
pub fn busy_note(load_before: Option<[f64; 3]>, others_cpus: Option<f64>, cpus: usize) -> String {
    let cpus_f = cpus.max(1) as f64;
    let mut why = Vec::new();
    if let Some(l) = load_before
        && l[0] > BUSY_LOAD_PER_CPU * cpus_f
    {
        why.push(format!(
            "load average {:.2} at the start on {cpus} CPU{} (over {BUSY_LOAD_PER_CPU} per CPU)",
            l[0],
            if cpus == 1 { "" } else { "s" }
        ));
    }
    if let Some(o) = others_cpus
        && o > BUSY_OTHERS_SHARE * cpus_f
    {
        why.push(format!(
            "other processes used {o:.2} CPUs on average ({:.0}% of {cpus}, over {:.0}%)",
            100.0 * o / cpus_f,
            100.0 * BUSY_OTHERS_SHARE
        ));
    }
    why.join("; ")
}

fn machine_busy_seconds(cpus: &[usize]) -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    let hz = if hz > 0 { hz as f64 } else { 100.0 };
    let mut ticks = 0u64;
    for line in stat.lines() {
        let mut words = line.split_whitespace();
        let Some(cpu) = words
            .next()
            .and_then(|w| w.strip_prefix("cpu"))
            .and_then(|n| n.parse::<usize>().ok())
        else {
            continue;
        };
        if !cpus.contains(&cpu) {
            continue;
        }
        // user nice system idle iowait irq softirq steal (guest time is inside user).
        let v: Vec<u64> = words.take(8).filter_map(|w| w.parse().ok()).collect();
        if v.len() == 8 {
            ticks += v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
        }
    }
    Some(ticks as f64 / hz)
}

fn own_cpu_seconds() -> f64 {
    let get = |who| {
        // SAFETY: rusage is plain data written by the kernel.
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: getrusage writes one rusage into `ru`.
        if unsafe { libc::getrusage(who, &mut ru) } != 0 {
            return 0.0;
        }
        let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 / 1e6;
        t(ru.ru_utime) + t(ru.ru_stime)
    };
    get(libc::RUSAGE_SELF) + get(libc::RUSAGE_CHILDREN)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_machine() {
        let cpus = crate::exec::allowed_cpus();
        assert!(!governor(&cpus).is_empty());
        assert!(!smt().is_empty());
        let load = load_average().unwrap();
        assert!(load.iter().all(|l| *l >= 0.0));
        assert_eq!(load_text(Some([0.5, 1.0, 12.345])), "0.50 1.00 12.35");
        assert!(harness_version().starts_with("actorbench 0.1.0 ("));
    }

    #[test]
    fn others_cpu_leaves_out_our_own_work() {
        // The arithmetic: 3 busy seconds in 1 s of wall, 1.5 of them ours.
        let before = CpuSnapshot {
            at: Instant::now(),
            busy: 10.0,
            ours: 1.0,
        };
        let after = CpuSnapshot {
            at: before.at + std::time::Duration::from_secs(1),
            busy: 13.0,
            ours: 2.5,
        };
        assert!((before.others_cpus(&after) - 1.5).abs() < 1e-9);
        assert_eq!(after.others_cpus(&before), 0.0);
        // Our own CPU time is seen: burn until it has grown by 0.1 s.
        let cpus = crate::exec::allowed_cpus();
        let start = CpuSnapshot::take(&cpus);
        let t = Instant::now();
        let mut x = 0u64;
        while own_cpu_seconds() - start.ours < 0.1 {
            assert!(t.elapsed().as_secs() < 30, "no CPU time seen in 30 s");
            for _ in 0..100_000 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            }
        }
        std::hint::black_box(x);
        assert!(CpuSnapshot::take(&cpus).busy >= start.busy);
    }

    #[test]
    fn busy_verdicts() {
        assert_eq!(busy_note(Some([0.4, 0.0, 0.0]), Some(0.1), 2), "");
        let n = busy_note(Some([1.5, 0.0, 0.0]), Some(0.1), 2);
        assert!(
            n.starts_with("load average 1.50 at the start on 2 CPUs"),
            "{n}"
        );
        let n = busy_note(None, Some(0.5), 2);
        assert!(
            n.starts_with("other processes used 0.50 CPUs on average (25% of 2"),
            "{n}"
        );
        assert_eq!(busy_note(None, None, 2), "");
    }
}
