//! Event counters per run, read with `perf_event_open` (through the `perf-event2` crate)
//! over the run's whole process tree.
//!
//! **What is counted.** Software events, which every Linux kernel has: `task-clock` (CPU
//! time of the tree, stored in seconds), `context-switches`, `cpu-migrations` and
//! `page-faults`. Hardware events, which need a performance monitoring unit (PMU):
//! `instructions`, `cycles`, `cache-misses` and `branch-misses`. Many virtual machines
//! expose no PMU; there `perf_event_open` fails for the hardware events (`ENOENT` or
//! `EOPNOTSUPP`), the harness says so once per process and goes on with the software
//! events.
//!
//! **Counting the whole tree, from exec.** A counter opened on a process with `inherit`
//! set is copied into every thread and child that process creates *after* it was opened,
//! and each copy's count is added back into the original when that thread or child
//! exits. So the counters must exist before the program starts its first thread, which
//! means before `exec`. Three ways were open:
//!
//! - opening them in the child itself (in `pre_exec`, on `pid = 0`) leaves the only file
//!   descriptors inside the benchmark, where the harness cannot read them and the program
//!   would inherit them;
//! - opening them in the harness on itself with `inherit` counts the harness's own
//!   threads (the output readers, the watchdog) too;
//! - so the harness opens them *on the child*, between `fork` and `exec`: the child, in
//!   its `pre_exec` hook, writes its pid into a pipe and blocks reading a second pipe; a
//!   harness thread reads the pid, opens the counters with `inherit` and `enable_on_exec`
//!   (disabled until the child calls `exec`, so the fork and the hook are not counted),
//!   and then writes one byte, which lets the child go on to `exec`. The waiting is done
//!   by a separate thread because the spawning thread is blocked in `spawn` until the
//!   `exec` has happened. Both pipes are close-on-exec: the program never sees them.
//!
//! [`Handshake`] is that protocol; [`arm`] opens the counters; [`Armed::read`] reads them
//! after the child has been reaped (by then every thread of the tree has exited and
//! folded its count in; a straggler the harness kills afterwards may be missed).
//!
//! **Permissions.** `/proc/sys/kernel/perf_event_paranoid` above 1 forbids an
//! unprivileged user to count kernel-side events: the open fails with `EACCES`. The
//! harness then opens the counters again for user space only, which keeps page faults,
//! task-clock and the hardware events meaningful but counts no context switches or
//! migrations (they happen in the kernel), and says so once. At 3 or above nothing may
//! be counted by an unprivileged user; the harness says that once and stores no counters.
//!
//! **Multiplexing.** Hardware counters are few; when more events are open than the PMU
//! has counters the kernel time-shares them, and each count is scaled by the time it was
//! enabled over the time it ran (as `perf stat` does). Software events never multiplex.
//!
//! One counter name is not read here: [`IR`], callgrind's instruction total, which
//! `actorbench count` stores ([`crate::count`]).

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::Mutex;

use perf_event::Builder;
use perf_event::events::{Hardware, Software};

/// The counter name a `count` session stores each run's instruction total under
/// (callgrind's, not `perf`'s).
pub const IR: &str = "callgrind-ir";

/// The counts of one run by counter name ([`Counter::name`]); a counter that could not be
/// opened is absent.
pub type Counts = BTreeMap<String, f64>;

/// One event the harness counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counter {
    /// CPU time of the whole tree, in seconds.
    TaskClock,
    /// Context switches, voluntary and not.
    ContextSwitches,
    /// Moves of a thread from one CPU to another.
    CpuMigrations,
    /// Page faults, minor and major.
    PageFaults,
    /// Retired instructions (PMU).
    Instructions,
    /// CPU cycles (PMU).
    Cycles,
    /// Last-level cache misses (PMU).
    CacheMisses,
    /// Mispredicted branches (PMU).
    BranchMisses,
}

/// Every counter, software first.
pub const ALL: [Counter; 8] = [
    Counter::TaskClock,
    Counter::ContextSwitches,
    Counter::CpuMigrations,
    Counter::PageFaults,
    Counter::Instructions,
    Counter::Cycles,
    Counter::CacheMisses,
    Counter::BranchMisses,
];

impl Counter {
    /// Its name as stored and as `--metric` takes it (`perf stat`'s names).
    ///
    /// ```
    /// use actorbench::counters::Counter;
    /// assert_eq!(Counter::PageFaults.name(), "page-faults");
    /// assert_eq!(Counter::from_name("page-faults"), Some(Counter::PageFaults));
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Counter::TaskClock => "task-clock",
            Counter::ContextSwitches => "context-switches",
            Counter::CpuMigrations => "cpu-migrations",
            Counter::PageFaults => "page-faults",
            Counter::Instructions => "instructions",
            Counter::Cycles => "cycles",
            Counter::CacheMisses => "cache-misses",
            Counter::BranchMisses => "branch-misses",
        }
    }

    /// The counter called `name`.
    pub fn from_name(name: &str) -> Option<Counter> {
        ALL.into_iter().find(|c| c.name() == name)
    }

    /// A short column header.
    pub fn short(self) -> &'static str {
        match self {
            Counter::TaskClock => "task-clock",
            Counter::ContextSwitches => "cs",
            Counter::CpuMigrations => "migr",
            Counter::PageFaults => "faults",
            Counter::Instructions => "instr",
            Counter::Cycles => "cycles",
            Counter::CacheMisses => "cache miss",
            Counter::BranchMisses => "br miss",
        }
    }

    /// Whether it needs a PMU.
    pub fn hardware(self) -> bool {
        matches!(
            self,
            Counter::Instructions | Counter::Cycles | Counter::CacheMisses | Counter::BranchMisses
        )
    }

    /// Whether its value is a time in seconds (task-clock) rather than a count.
    pub fn is_time(self) -> bool {
        self == Counter::TaskClock
    }

    fn builder(self) -> Builder<'static> {
        match self {
            Counter::TaskClock => Builder::new(Software::TASK_CLOCK),
            Counter::ContextSwitches => Builder::new(Software::CONTEXT_SWITCHES),
            Counter::CpuMigrations => Builder::new(Software::CPU_MIGRATIONS),
            Counter::PageFaults => Builder::new(Software::PAGE_FAULTS),
            Counter::Instructions => Builder::new(Hardware::INSTRUCTIONS),
            Counter::Cycles => Builder::new(Hardware::CPU_CYCLES),
            Counter::CacheMisses => Builder::new(Hardware::CACHE_MISSES),
            Counter::BranchMisses => Builder::new(Hardware::BRANCH_MISSES),
        }
    }
}

/// Notes already printed in this process.
static NOTED: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());

/// Prints `text` on stderr the first time `key` is noted in this process.
fn note_once(key: &'static str, text: impl FnOnce() -> String) {
    let mut noted = NOTED.lock().unwrap_or_else(|e| e.into_inner());
    if !noted.contains(&key) {
        noted.push(key);
        eprintln!("note: {}", text());
    }
}

/// `/proc/sys/kernel/perf_event_paranoid`, if readable.
pub fn paranoid() -> Option<i32> {
    std::fs::read_to_string("/proc/sys/kernel/perf_event_paranoid")
        .ok()?
        .trim()
        .parse()
        .ok()
}

/// The counters open on one child.
pub struct Armed {
    open: Vec<(Counter, perf_event::Counter)>,
}

/// Opens every counter on `pid` (inherited by its threads and children, enabled at its
/// `exec`); what cannot be opened is left out, with a note the first time.
pub fn arm(pid: libc::pid_t) -> Armed {
    let mut open = Vec::new();
    let mut hardware_error = None;
    for c in ALL {
        let build = |user_only: bool| {
            let mut b = c.builder();
            b.observe_pid(pid)
                .any_cpu()
                .inherit(true)
                .enable_on_exec(true)
                .exclude_hv(true)
                .exclude_kernel(user_only);
            b.build()
        };
        let denied =
            |e: &std::io::Error| matches!(e.raw_os_error(), Some(libc::EACCES) | Some(libc::EPERM));
        let opened = match build(false) {
            Err(e) if denied(&e) => {
                let r = build(true);
                if r.is_ok() {
                    note_once("user-only", || {
                        format!(
                            "perf_event_paranoid is {}: counting user space only, so \
                             context-switches and cpu-migrations (kernel events) read 0",
                            paranoid().map_or("unknown".into(), |p| p.to_string())
                        )
                    });
                }
                r
            }
            r => r,
        };
        match opened {
            Ok(counter) => open.push((c, counter)),
            Err(e) if c.hardware() => {
                hardware_error.get_or_insert(e);
            }
            Err(e) => note_once("software", || {
                format!(
                    "no event counters for the runs: perf_event_open failed ({e}; \
                     /proc/sys/kernel/perf_event_paranoid is {}); runs are measured without them",
                    paranoid().map_or("unreadable".into(), |p| p.to_string())
                )
            }),
        }
    }
    if let Some(e) = hardware_error {
        note_once("hardware", || {
            let why = match e.raw_os_error() {
                Some(libc::ENOENT) | Some(libc::EOPNOTSUPP) | Some(libc::ENODEV) => {
                    "this machine has no hardware performance counters (no PMU, as in most virtual machines)"
                }
                _ => "the hardware performance counters could not be opened",
            };
            format!(
                "{why}: instructions, cycles, cache-misses and branch-misses are not counted \
                 ({e}); software counters are"
            )
        });
    }
    Armed { open }
}

impl Armed {
    /// Reads every open counter, scaled for multiplexing (see the module docs); a counter
    /// that was enabled but never ran is left out.
    pub fn read(mut self) -> Counts {
        let mut out = Counts::new();
        for (c, counter) in &mut self.open {
            let Ok(v) = counter.read_count_and_time() else {
                continue;
            };
            let mut value = v.count as f64;
            if v.time_running == 0 && v.time_enabled > 0 {
                continue;
            }
            if v.time_running > 0 && v.time_running < v.time_enabled {
                value *= v.time_enabled as f64 / v.time_running as f64;
            }
            if c.is_time() {
                value /= 1e9;
            }
            out.insert(c.name().to_string(), value);
        }
        out
    }
}

/// The two pipes between the harness and a child that waits, before its `exec`, for the
/// harness to open its counters (see the module docs).
pub struct Handshake {
    pid_r: OwnedFd,
    pid_w: OwnedFd,
    go_r: OwnedFd,
    go_w: OwnedFd,
}

/// The child's end of a [`Handshake`]: plain descriptor numbers, for the `pre_exec` hook.
#[derive(Debug, Clone, Copy)]
pub struct ChildEnd {
    pid_r: RawFd,
    pid_w: RawFd,
    go_r: RawFd,
    go_w: RawFd,
}

fn pipe() -> std::io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe2 writes.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: pipe2 succeeded, so both are fresh descriptors that nothing else owns.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

impl Handshake {
    /// Two fresh close-on-exec pipes.
    pub fn new() -> std::io::Result<Handshake> {
        let (pid_r, pid_w) = pipe()?;
        let (go_r, go_w) = pipe()?;
        Ok(Handshake {
            pid_r,
            pid_w,
            go_r,
            go_w,
        })
    }

    /// The descriptors the child's hook uses.
    pub fn child_end(&self) -> ChildEnd {
        ChildEnd {
            pid_r: self.pid_r.as_raw_fd(),
            pid_w: self.pid_w.as_raw_fd(),
            go_r: self.go_r.as_raw_fd(),
            go_w: self.go_w.as_raw_fd(),
        }
    }

    /// Starts the harness's side: a thread that waits for the child's pid, arms the
    /// counters on it and lets it go. Call before `spawn`; after `spawn` returns, drop
    /// the returned [`Pending`]'s child ends with [`Pending::spawned`] and join it with
    /// [`Pending::finish`].
    pub fn start(self) -> Pending {
        let Handshake {
            pid_r,
            pid_w,
            go_r,
            go_w,
        } = self;
        let thread = std::thread::spawn(move || {
            let mut pid_r = std::fs::File::from(pid_r);
            let mut go_w = std::fs::File::from(go_w);
            let mut buf = [0u8; 4];
            // EOF: the child failed before its hook wrote (and the parent's copy of the
            // write end is closed after spawn), so there is nothing to count.
            pid_r.read_exact(&mut buf).ok()?;
            let armed = arm(libc::pid_t::from_ne_bytes(buf));
            let _ = go_w.write_all(&[1]);
            Some(armed)
        });
        Pending {
            thread,
            child_ends: Some((pid_w, go_r)),
        }
    }
}

/// The harness's side of a [`Handshake`] in progress.
pub struct Pending {
    thread: std::thread::JoinHandle<Option<Armed>>,
    child_ends: Option<(OwnedFd, OwnedFd)>,
}

impl Pending {
    /// Closes the harness's copies of the child's ends, once `spawn` has returned (so
    /// the waiting thread sees end-of-file if the child never wrote its pid).
    pub fn spawned(&mut self) {
        self.child_ends = None;
    }

    /// The armed counters, once the child has gone through its hook; `None` when it
    /// never did.
    pub fn finish(mut self) -> Option<Armed> {
        self.spawned();
        self.thread.join().ok().flatten()
    }
}

impl ChildEnd {
    /// In the child, between `fork` and `exec`: sends its pid and waits until the harness
    /// has armed the counters.
    ///
    /// # Safety
    ///
    /// Call only in a freshly forked child (a `pre_exec` hook): it closes descriptors by
    /// number and calls only async-signal-safe functions (`close`, `getpid`, `write`,
    /// `read`), allocating nothing.
    pub unsafe fn wait_for_harness(self) -> std::io::Result<()> {
        // SAFETY: the caller guarantees we are in the forked child, where these numbers
        // are this process's copies of the pipes; closing the harness's ends here makes
        // the go pipe report end-of-file if the harness's thread goes away.
        unsafe {
            libc::close(self.pid_r);
            libc::close(self.go_w);
            let pid = libc::getpid().to_ne_bytes();
            if libc::write(self.pid_w, pid.as_ptr().cast(), pid.len()) != pid.len() as isize {
                return Err(std::io::Error::last_os_error());
            }
            let mut byte = 0u8;
            loop {
                let n = libc::read(self.go_r, (&mut byte as *mut u8).cast(), 1);
                if n >= 0 {
                    break;
                }
                let e = std::io::Error::last_os_error();
                if e.kind() != std::io::ErrorKind::Interrupted {
                    return Err(e);
                }
            }
            Ok(())
        }
    }
}

/// What the runs' counters cover, in a sentence for the report.
pub fn coverage(runs: &[crate::store::RunRecord]) -> String {
    let has = |c: Counter| runs.iter().any(|r| r.counters.contains_key(c.name()));
    let names = |hw: bool| {
        ALL.iter()
            .filter(|c| c.hardware() == hw)
            .map(|c| c.name())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match (
        ALL.iter().any(|&c| has(c) && !c.hardware()),
        ALL.iter().any(|&c| has(c) && c.hardware()),
    ) {
        (_, true) => format!(
            "software ({}) and hardware ({}) events, counted over each run's process tree with perf_event_open",
            names(false),
            names(true)
        ),
        (true, false) => format!(
            "software events ({}) over each run's process tree; no hardware events: this \
             machine has no performance monitoring unit (PMU), or its counters could not be \
             opened, so {} were not counted",
            names(false),
            names(true)
        ),
        (false, false) => "none: the runs were stored before the harness read event counters, or \
             perf_event_open was not permitted (see /proc/sys/kernel/perf_event_paranoid)"
            .into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_hardware_is_marked() {
        for c in ALL {
            assert_eq!(Counter::from_name(c.name()), Some(c));
        }
        assert!(Counter::Cycles.hardware() && !Counter::PageFaults.hardware());
        assert_eq!(Counter::from_name("bogus"), None);
    }

    fn counted(script: &str) -> Counts {
        let o = crate::exec::run(&crate::exec::Spec {
            argv: vec!["sh".into(), "-c".into(), script.into()],
            env: Vec::new(),
            env_remove: Vec::new(),
            cwd: std::env::temp_dir(),
            cpus: None,
            timeout: std::time::Duration::from_secs(60),
            memory_limit: None,
            counters: true,
        })
        .unwrap();
        assert!(o.success(), "{}", o.stderr.text());
        o.counters
    }

    /// The software counters count the whole tree: `dd` with a 64 MiB buffer, a child of
    /// the shell (not exec'd in its place, because of the `; true`), touches 16384 pages,
    /// and those faults are in the run's count. Where perf_event_open is not permitted at
    /// all (perf_event_paranoid 3 or a seccomp filter), the run goes on without counters
    /// and this test says so and checks only that.
    #[test]
    fn software_counters_cover_the_process_tree() {
        let c = counted("dd if=/dev/zero of=/dev/null bs=64M count=1 2>/dev/null; true");
        if c.is_empty() {
            eprintln!(
                "counters: perf_event_open is not permitted here (perf_event_paranoid {:?}); \
                 the run went on without counters",
                paranoid()
            );
            return;
        }
        assert!(c["task-clock"] > 0.0, "{c:?}");
        assert!(c["page-faults"] > 10_000.0, "{c:?}");
        assert!(c.contains_key("context-switches") && c.contains_key("cpu-migrations"));
        // The hardware counters are there exactly when the machine has a PMU; when they
        // are, they count.
        if let Some(&i) = c.get("instructions") {
            assert!(i > 0.0);
        }
        // A program without a child has far fewer faults: the count is the tree's.
        let alone = counted("true");
        assert!(alone["page-faults"] < c["page-faults"] / 10.0, "{alone:?}");
    }
}
