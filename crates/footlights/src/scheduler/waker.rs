//! Waking a parked worker: taking it off the sleepers' list ([`super::park`]), starting its
//! thread if it has none yet ([`super::start`]), and unparking it, counted on the waker's
//! counters.
//!
//! The parking protocol decides *whether* somebody may be woken and takes them off the
//! list; the starter makes sure they have a thread; this file joins the two, so that
//! neither needs the other.

use std::time::Instant;

use super::Scheduler;
use crate::metrics::{WorkerStats, bump, bump_by, nanos};

impl Scheduler {
    /// Wakes one parked worker, if any and if no worker is searching (a searcher will find
    /// the work). Call after making work visible. `by` is the calling worker's counters,
    /// which count the wake-up and its time.
    #[inline]
    pub(crate) fn notify_one(&self, by: Option<&WorkerStats>) {
        if !self.sleepers.worth_waking() {
            return;
        }
        self.wake_one(by);
    }

    #[cold]
    #[inline(never)]
    fn wake_one(&self, by: Option<&WorkerStats>) {
        let start = by.map(|_| Instant::now());
        if let Some(index) = self.sleepers.take_one() {
            self.unpark(index, by, start);
        }
    }

    /// Wakes worker `index` if it is parked. Call after pushing onto its own inbox.
    pub(crate) fn notify(&self, index: usize, by: Option<&WorkerStats>) {
        if !self.sleepers.anyone_parked() {
            return;
        }
        let start = by.map(|_| Instant::now());
        if self.sleepers.take(index) {
            self.unpark(index, by, start);
        }
    }

    /// Unparks worker `index`, just taken off the list, starting its thread if it has
    /// none yet; if the operating system refuses the thread, the worker goes back on the
    /// list (see [`super::start`]).
    fn unpark(&self, index: usize, by: Option<&WorkerStats>, start: Option<Instant>) {
        if !self.starter.ensure(index) {
            self.sleepers.relist(index);
            return;
        }
        self.sleepers.unpark(index);
        count_wake(by, start);
    }
}

/// Counts a wake-up, and the time since `start`, on the waking worker's counters.
fn count_wake(by: Option<&WorkerStats>, start: Option<Instant>) {
    if let (Some(stats), Some(start)) = (by, start) {
        bump(&stats.wakes);
        bump_by(&stats.waking_ns, nanos(start.elapsed()));
    }
}
