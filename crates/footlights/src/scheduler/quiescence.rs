//! Detecting quiescence: no actor running, none queued, no message in a mailbox.
//!
//! Counting messages in one shared counter would put a contended atomic on every send.
//! Instead the runtime counts *scheduling*, on counters that only their owner writes:
//! each worker counts the actors it scheduled (a send that woke its actor on one counter
//! of its own, `sent_waking`, the other schedulings on `scheduled`) and the turns after
//! which it descheduled an actor (marked it idle or stopped it); other threads share one
//! `scheduled` counter. A
//! message in a mailbox always keeps its actor scheduled (see [`crate::mailbox`]), so the
//! system is quiescent exactly when every scheduling has been matched by a descheduling.
//!
//! The counters only grow, and every descheduling happens after the scheduling it matches.
//! The check reads all `descheduled` counters first, then (after a fence) all `scheduled`
//! counters. If the sums are equal at some instant `T` between the two sweeps, then
//! `desched(T) >= desched(read) = sched(read) >= sched(T) >= desched(T)`: everything was
//! descheduled at `T`. Work can only restart from outside the runtime after that.
//!
//! A waiter sleeps on a condition variable. Every worker, right before it parks, notifies
//! waiters (when there are any) under the same mutex the waiter holds while it checks, so
//! the last worker to go idle always wakes the waiter after its final descheduling.

use std::sync::atomic::{AtomicUsize, Ordering, fence};

use parking_lot::{Condvar, Mutex};

use super::Scheduler;

/// Waiters for quiescence and the lock that orders their checks with workers' notifications.
#[derive(Default)]
pub(crate) struct Quiescence {
    waiters: AtomicUsize,
    lock: Mutex<()>,
    changed: Condvar,
}

impl Quiescence {
    /// Called by a worker about to park (after its fence). Cheap when nobody waits.
    pub(crate) fn worker_idle(&self) {
        if self.waiters.load(Ordering::SeqCst) > 0 {
            let _guard = self.lock.lock();
            self.changed.notify_all();
        }
    }
}

impl Scheduler {
    /// Whether every scheduled actor has been descheduled; see the module documentation.
    pub(crate) fn is_quiescent(&self) -> bool {
        // Dedicated stages retire under this lock; holding it keeps both sweeps over the
        // same set of counters (see `super::dedicated`).
        let dedicated = self.dedicated.lock();
        let descheduled: u64 = self
            .stages
            .iter()
            .map(|s| &*s.stats)
            .chain(dedicated.all_stats())
            .map(|s| s.descheduled.load(Ordering::Acquire))
            .sum();
        fence(Ordering::SeqCst);
        let scheduled: u64 = self
            .stages
            .iter()
            .map(|s| &*s.stats)
            .chain(dedicated.all_stats())
            // A send that woke its actor scheduled it (see `WorkerStats::sent_waking`).
            .map(|s| s.scheduled.load(Ordering::Acquire) + s.sent_waking.load(Ordering::Acquire))
            .sum::<u64>()
            + self.external.scheduled.load(Ordering::Acquire);
        descheduled == scheduled
    }

    /// Blocks until the system is quiescent, or until `deadline` passes (then `false`).
    pub(crate) fn wait_quiescent(&self, deadline: Option<std::time::Instant>) -> bool {
        let q = &self.quiescence;
        q.waiters.fetch_add(1, Ordering::SeqCst);
        let mut guard = q.lock.lock();
        let mut quiet = self.is_quiescent();
        while !quiet {
            match deadline {
                Some(d) => {
                    if q.changed.wait_until(&mut guard, d).timed_out() {
                        quiet = self.is_quiescent();
                        break;
                    }
                }
                None => q.changed.wait(&mut guard),
            }
            quiet = self.is_quiescent();
        }
        drop(guard);
        q.waiters.fetch_sub(1, Ordering::SeqCst);
        quiet
    }
}
