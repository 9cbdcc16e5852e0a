//! What automatic placement can learn of a worker thread's use of the CPU, per platform.
//!
//! The observer ([`super::observe`]) tells a long turn that computes from one that blocks
//! by comparing, over the turn, the thread's CPU time with its wall time, and by whether
//! the thread gave up the CPU by itself (a voluntary context switch). Both must be read by
//! the worker for itself at the end of the turn, and by the controller for a worker while
//! that worker is inside the turn.
//!
//! * **Linux** (the default there): the thread's CPU clock (`pthread_getcpuclockid` and
//!   `clock_gettime`, readable from any thread of the process), its voluntary switches from
//!   `getrusage(RUSAGE_THREAD)` for itself and from `/proc/self/task/<tid>/status` for
//!   another thread (with its state there: a thread asleep now has its sleep's switch
//!   counted as still to come, since the count moves when it leaves the CPU).
//! * **Everywhere else**, and on Linux when built with `--cfg footlights_portable` (so the
//!   tests exercise this path on the machines the project runs on): the standard library
//!   offers no thread's CPU time and no context-switch counts, so every reading is `None`.
//!   The observer then cannot tell a long computation from a blocked handler: it still
//!   samples turns (their wall time, messages and sends, which co-location and the
//!   pool/dedicated rules for short turns need), but neither glimpses turns in progress
//!   nor watches long ones, and never judges an actor blocking or CPU-heavy from a long
//!   turn, so such an actor is not moved to a dedicated stage automatically. Place blocking actors with `Placement::Dedicated` there.

/// How a worker thread is read from the controller's thread.
#[derive(Clone, Copy)]
pub(super) struct ThreadTime {
    #[cfg(all(target_os = "linux", not(footlights_portable)))]
    cpu_clock: libc::clockid_t,
    #[cfg(all(target_os = "linux", not(footlights_portable)))]
    tid: libc::pid_t,
}

#[cfg(all(target_os = "linux", not(footlights_portable)))]
mod platform {
    use super::ThreadTime;

    impl ThreadTime {
        /// The calling thread, if its CPU clock can be had.
        pub(in crate::auto) fn current() -> Option<ThreadTime> {
            // SAFETY: `gettid` has no preconditions.
            let tid = unsafe { libc::gettid() };
            let mut cpu_clock: libc::clockid_t = 0;
            // SAFETY: `pthread_self` is always valid for the calling thread, and
            // `cpu_clock` is a valid place for the result.
            let rc = unsafe { libc::pthread_getcpuclockid(libc::pthread_self(), &mut cpu_clock) };
            (rc == 0).then_some(ThreadTime { cpu_clock, tid })
        }

        /// The thread's CPU time so far, in nanoseconds.
        pub(in crate::auto) fn cpu_ns(&self) -> Option<u64> {
            clock_ns(self.cpu_clock)
        }

        /// The thread's voluntary context switches before what it is doing now, from
        /// `/proc`: so far, less the one that took it off the CPU if it is asleep or
        /// waiting now (state `S` or `D`). The count moves when a thread leaves the CPU,
        /// not when it comes back, so without that a thread that stays in one sleep from
        /// this reading to a later one would show no switch between the two.
        pub(in crate::auto) fn switches_before_now(&self) -> Option<u64> {
            let path = format!("/proc/self/task/{}/status", self.tid);
            let status = std::fs::read_to_string(path).ok()?;
            let field = |name: &str| status.lines().find_map(|l| l.strip_prefix(name));
            let switches: u64 = field("voluntary_ctxt_switches:")?.trim().parse().ok()?;
            let asleep = field("State:")
                .is_some_and(|state| matches!(state.trim_start().chars().next(), Some('S' | 'D')));
            Some(switches.saturating_sub(u64::from(asleep)))
        }
    }

    /// Reads a CPU clock, in nanoseconds.
    fn clock_ns(clock: libc::clockid_t) -> Option<u64> {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid timespec to write; an invalid clock (a thread that has
        // ended) makes the call fail, which is handled.
        let rc = unsafe { libc::clock_gettime(clock, &mut ts) };
        (rc == 0).then(|| {
            u64::try_from(ts.tv_sec).unwrap_or(0) * 1_000_000_000
                + u64::try_from(ts.tv_nsec).unwrap_or(0)
        })
    }

    /// The calling thread's CPU time so far, in nanoseconds.
    pub(in crate::auto) fn own_cpu_ns() -> Option<u64> {
        clock_ns(libc::CLOCK_THREAD_CPUTIME_ID)
    }

    /// The calling thread's voluntary context switches (it blocked or slept).
    pub(in crate::auto) fn own_voluntary_switches() -> Option<u64> {
        // SAFETY: an all-zero `rusage` is a valid value of the plain C struct.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: `usage` is a valid place for the result.
        let rc = unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut usage) };
        (rc == 0).then(|| u64::try_from(usage.ru_nvcsw).unwrap_or(0))
    }
}

#[cfg(not(all(target_os = "linux", not(footlights_portable))))]
mod platform {
    use super::ThreadTime;

    impl ThreadTime {
        /// The calling thread: never known here (see the module documentation).
        pub(in crate::auto) fn current() -> Option<ThreadTime> {
            None
        }

        /// Unknown here.
        pub(in crate::auto) fn cpu_ns(&self) -> Option<u64> {
            None
        }

        /// Unknown here.
        pub(in crate::auto) fn switches_before_now(&self) -> Option<u64> {
            None
        }
    }

    /// Unknown here.
    pub(in crate::auto) fn own_cpu_ns() -> Option<u64> {
        None
    }

    /// Unknown here.
    pub(in crate::auto) fn own_voluntary_switches() -> Option<u64> {
        None
    }
}

pub(super) use platform::{own_cpu_ns, own_voluntary_switches};

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether this build reads thread times (Linux without `footlights_portable`).
    const READS: bool = cfg!(all(target_os = "linux", not(footlights_portable)));

    #[test]
    fn a_thread_that_computes_shows_cpu_time_where_the_platform_gives_it() {
        let me = ThreadTime::current();
        assert_eq!(me.is_some(), READS);
        let before = own_cpu_ns();
        let mut x = 1u64;
        let start = std::time::Instant::now();
        while start.elapsed() < std::time::Duration::from_millis(20) {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
        let after = own_cpu_ns();
        match (before, after) {
            (Some(b), Some(a)) => assert!(a > b, "CPU time went from {b} to {a}"),
            (None, None) => assert_eq!(me.is_some(), READS),
            other => panic!("inconsistent readings {other:?}"),
        }
        if let Some(me) = me {
            assert!(me.cpu_ns().is_some());
        }
    }

    #[test]
    fn a_thread_that_sleeps_shows_a_voluntary_switch_where_the_platform_gives_it() {
        let me = ThreadTime::current();
        let before = own_voluntary_switches();
        std::thread::sleep(std::time::Duration::from_millis(5));
        let after = own_voluntary_switches();
        match (before, after) {
            (Some(b), Some(a)) => assert!(a > b),
            (None, None) => assert_eq!(me.is_some(), READS),
            other => panic!("inconsistent readings {other:?}"),
        }
        let theirs = me.and_then(|me| me.switches_before_now());
        assert_eq!(theirs.is_some(), READS);
    }

    #[test]
    fn a_sleep_under_way_counts_as_a_switch_still_to_come() {
        // Another thread reads this one's count while it sleeps (as the controller reads
        // a worker inside a long turn): the sleep's switch must show between that reading
        // and the sleeper's own once it wakes, though it happened before the reading.
        let (tx, rx) = std::sync::mpsc::channel();
        let sleeper = std::thread::spawn(move || {
            tx.send(ThreadTime::current()).expect("the reader waits");
            std::thread::sleep(std::time::Duration::from_millis(300));
            own_voluntary_switches()
        });
        let me = rx.recv().expect("the sleeper sends");
        std::thread::sleep(std::time::Duration::from_millis(100));
        let during = me.and_then(|me| me.switches_before_now());
        let after = sleeper.join().expect("the sleeper ends");
        match (during, after) {
            (Some(d), Some(a)) => assert!(a > d, "{d} during the sleep, {a} after it"),
            (None, None) => assert_eq!(me.is_some(), READS),
            other => panic!("inconsistent readings {other:?}"),
        }
    }
}
