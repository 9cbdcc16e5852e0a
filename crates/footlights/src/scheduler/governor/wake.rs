//! The wake threshold: how long a worker's backlog must be before it wakes a sleeper, and
//! the one owner of every change to it.
//!
//! A wake-up costs the waker a system call and the woken worker a trip through the
//! operating system's scheduler: some microseconds. When the work handed over is a few
//! short turns, the woken worker runs them, finds nothing, parks, and is woken again. So a
//! backlog wakes somebody only once it is [`WakeThreshold::backlog`] tasks long, and the
//! threshold learns from what wake-ups achieved (the events below, each a method):
//!
//! | event | who reports it | what the threshold does |
//! |---|---|---|
//! | a woken worker ran out of work within [`SHORT_RUN`] | the worker, as it searches in vain | doubles (up to [`MAX_WAKE_BACKLOG`]) |
//! | a woken worker kept busy longer than [`WAKE_PAID_RUN`] | the same | halves (down to 1) |
//! | a worker gave its work back (a flood, a declined group steal) | the worker, as it yields | doubles, and is *held*: no backlog wakes anybody |
//! | a worker ran a whole epoch alone, or a worker parked | its pace ([`super::pace`]); the parking worker | released (held no more) |
//! | the watcher saw a worker run long turns | the watcher | back to 1, released |
//!
//! With [`Rule::Wake`] off the threshold stays 1 (every backlog of one task wakes a
//! sleeper, when nobody searches), but a give-back still holds wake-ups: that belongs to
//! the give-back, not to this rule.

use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::Duration;

use super::rules::{Governor, Rule};
use super::tunables::{MAX_WAKE_BACKLOG, RESCUE_COUNTS_AFTER, SHORT_RUN, WAKE_PAID_RUN};

/// Set in the threshold while backlog wake-ups are held: no deque is that long.
const HELD: usize = 1 << (usize::BITS - 2);

/// The wake threshold of one system (see the module documentation).
pub(crate) struct WakeThreshold {
    /// Tasks a backlog needs to wake a sleeper, with [`HELD`] set while wake-ups are held.
    backlog: AtomicUsize,
    /// Whether the threshold learns ([`Rule::Wake`]).
    learns: bool,
}

impl WakeThreshold {
    /// A threshold of 1, which learns if `governor` has [`Rule::Wake`].
    pub(crate) fn new(governor: Governor) -> WakeThreshold {
        WakeThreshold {
            backlog: AtomicUsize::new(1),
            learns: governor.has(Rule::Wake),
        }
    }

    /// How many tasks a worker's deque must hold before its backlog wakes a sleeper.
    #[inline]
    pub(crate) fn backlog(&self) -> usize {
        self.backlog.load(Relaxed)
    }

    /// Whether a backlog of `tasks` wakes a sleeper.
    #[inline]
    pub(crate) fn wakes(&self, tasks: usize) -> bool {
        tasks >= self.backlog()
    }

    /// A woken worker ran for `ran` before it ran out of work again; `rescued` if it woke
    /// to rescue work behind a long turn, which says nothing about what a backlog's
    /// wake-up achieves unless the rescuer kept busy [`RESCUE_COUNTS_AFTER`].
    pub(crate) fn woken_worker_ran(&self, ran: Duration, rescued: bool) {
        if !self.learns || (rescued && ran <= RESCUE_COUNTS_AFTER) {
            return;
        }
        let now = self.backlog();
        if now & HELD != 0 {
            // Wake-ups are held until a worker runs an epoch alone or parks.
            return;
        }
        let next = next_after_run(now, ran);
        if next != now {
            // Unless wake-ups were held meanwhile.
            let _ = self.backlog.compare_exchange(now, next, Relaxed, Relaxed);
        }
    }

    /// A worker has run long turns for a tick of the watcher: waking pays (a woken worker
    /// that keeps busy that long halves the threshold), so it goes back to 1. Held
    /// wake-ups are released too: while turns are long, no epoch has the messages to
    /// release them.
    pub(crate) fn long_turn_seen(&self) {
        if self.backlog.load(Relaxed) != 1 {
            self.backlog.store(1, Relaxed);
        }
    }

    /// A worker gives its work back: the threshold doubles (if it learns), and no backlog
    /// wakes anybody until [`WakeThreshold::release`].
    pub(crate) fn hold(&self) {
        let learns = self.learns;
        let _ = self.backlog.fetch_update(Relaxed, Relaxed, |now| {
            (now & HELD == 0).then(|| {
                let next = if learns {
                    (now * 2).min(MAX_WAKE_BACKLOG)
                } else {
                    now
                };
                next | HELD
            })
        });
    }

    /// Backlogs wake sleepers again, at the threshold [`WakeThreshold::hold`] set.
    #[inline]
    pub(crate) fn release(&self) {
        if self.backlog() & HELD != 0 {
            self.backlog.fetch_and(!HELD, Relaxed);
        }
    }

    /// Sets the threshold as if learned (for tests: a hub phase raises it).
    #[cfg(test)]
    pub(crate) fn learned(&self, threshold: usize) {
        self.backlog.store(threshold, Relaxed);
    }
}

/// The threshold after a woken worker ran for `ran`, from `now`.
fn next_after_run(now: usize, ran: Duration) -> usize {
    if ran < SHORT_RUN {
        (now * 2).min(MAX_WAKE_BACKLOG)
    } else if ran > WAKE_PAID_RUN {
        (now / 2).max(1)
    } else {
        now
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHORT: Duration = Duration::from_micros(10);
    const LONG: Duration = Duration::from_millis(5);
    const MIDDLE: Duration = Duration::from_micros(500);

    #[test]
    fn short_runs_raise_the_threshold_and_long_runs_lower_it() {
        let t = WakeThreshold::new(Governor::adaptive());
        assert_eq!(t.backlog(), 1);
        t.woken_worker_ran(SHORT, false);
        t.woken_worker_ran(SHORT, false);
        assert_eq!(t.backlog(), 4);
        t.woken_worker_ran(MIDDLE, false);
        assert_eq!(t.backlog(), 4, "a run between the two bounds says nothing");
        t.woken_worker_ran(LONG, false);
        assert_eq!(t.backlog(), 2);
        for _ in 0..5 {
            t.woken_worker_ran(LONG, false);
        }
        assert_eq!(t.backlog(), 1, "never below 1");
        for _ in 0..20 {
            t.woken_worker_ran(SHORT, false);
        }
        assert_eq!(t.backlog(), MAX_WAKE_BACKLOG, "never above the most");
    }

    #[test]
    fn a_rescue_counts_only_if_the_rescuer_kept_busy() {
        let t = WakeThreshold::new(Governor::adaptive());
        t.learned(8);
        t.woken_worker_ran(SHORT, true);
        assert_eq!(t.backlog(), 8, "a short rescue says nothing");
        t.woken_worker_ran(LONG, true);
        assert_eq!(t.backlog(), 4, "a rescuer that kept busy says waking pays");
        assert!(t.wakes(4) && !t.wakes(3));
    }

    #[test]
    fn a_give_back_holds_wake_ups_until_released() {
        let t = WakeThreshold::new(Governor::adaptive());
        t.learned(4);
        t.hold();
        assert!(t.backlog() > 1 << 40, "held: no deque is that long");
        t.hold();
        t.woken_worker_ran(LONG, false);
        t.release();
        assert_eq!(t.backlog(), 8, "doubled once, and nothing else while held");
        t.woken_worker_ran(LONG, false);
        assert_eq!(t.backlog(), 4);
    }

    #[test]
    fn long_turns_bring_it_back_to_one() {
        let t = WakeThreshold::new(Governor::adaptive());
        t.learned(64);
        t.long_turn_seen();
        assert_eq!(t.backlog(), 1);
        t.hold();
        t.long_turn_seen();
        assert_eq!(t.backlog(), 1, "released as well");
    }

    #[test]
    fn without_the_rule_it_stays_one_but_still_holds() {
        let t = WakeThreshold::new(Governor::adaptive().without(Rule::Wake));
        t.woken_worker_ran(SHORT, false);
        t.woken_worker_ran(SHORT, false);
        assert_eq!(t.backlog(), 1);
        t.hold();
        assert!(t.backlog() > 1 << 40);
        t.release();
        assert_eq!(t.backlog(), 1);
    }
}
