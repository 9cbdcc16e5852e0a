//! Parking idle workers without losing a wake-up.
//!
//! A worker about to sleep first *announces* itself: it pushes its index onto the sleeper
//! list and increments `count`, then issues a `SeqCst` fence and looks at every queue once
//! more. Whoever makes work visible pushes it first, then fences, then reads `count`. By the
//! fences, either the worker's second look sees the work, or the waker sees the count and
//! unparks a sleeper (this is the store-buffer pattern: both sides cannot miss each other).
//! Unparking uses crossbeam's `Parker`, whose token also covers an unpark that comes before
//! the park.
//!
//! The list is a mutex-guarded `Vec`: it is touched only when a worker goes to sleep or is
//! woken, never on the hot path, which only reads the atomic `count`.

use std::sync::atomic::{AtomicUsize, Ordering, fence};
use std::time::Instant;

use crossbeam_utils::sync::Unparker;
use parking_lot::Mutex;

use crate::metrics::{WorkerStats, bump, bump_by, nanos};

/// The set of parked workers.
pub(crate) struct Sleepers {
    parked: Mutex<Vec<usize>>,
    count: AtomicUsize,
    unparkers: Box<[Unparker]>,
}

impl Sleepers {
    pub(crate) fn new(unparkers: Box<[Unparker]>) -> Self {
        Sleepers {
            parked: Mutex::new(Vec::with_capacity(unparkers.len())),
            count: AtomicUsize::new(0),
            unparkers,
        }
    }

    /// Announces that worker `index` is about to park. The caller must check for work once
    /// more afterwards, and call [`Sleepers::cancel`] if it finds some.
    pub(crate) fn announce(&self, index: usize) {
        {
            let mut parked = self.parked.lock();
            if !parked.contains(&index) {
                parked.push(index);
                self.count.fetch_add(1, Ordering::SeqCst);
            }
        }
        fence(Ordering::SeqCst);
    }

    /// Withdraws worker `index` from the list, if a waker has not already taken it off.
    pub(crate) fn cancel(&self, index: usize) {
        let mut parked = self.parked.lock();
        if let Some(at) = parked.iter().position(|&i| i == index) {
            parked.swap_remove(at);
            self.count.fetch_sub(1, Ordering::SeqCst);
        }
    }

    /// Wakes one parked worker, if any. Call after making work visible. `by` is the
    /// calling worker's counters, which count the wake-up and its time.
    #[inline]
    pub(crate) fn notify_one(&self, by: Option<&WorkerStats>) {
        fence(Ordering::SeqCst);
        if self.count.load(Ordering::Relaxed) == 0 {
            return;
        }
        self.wake_one(by);
    }

    #[cold]
    #[inline(never)]
    fn wake_one(&self, by: Option<&WorkerStats>) {
        let start = by.map(|_| Instant::now());
        let woken = {
            let mut parked = self.parked.lock();
            let woken = parked.pop();
            if woken.is_some() {
                self.count.fetch_sub(1, Ordering::SeqCst);
            }
            woken
        };
        if let Some(index) = woken {
            self.unparkers[index].unpark();
            count_wake(by, start);
        }
    }

    /// Wakes worker `index` if it is parked. Call after pushing onto its own inbox: by the
    /// fences, either the worker's look after announcing sees the push, or this sees it
    /// announced.
    pub(crate) fn notify(&self, index: usize, by: Option<&WorkerStats>) {
        fence(Ordering::SeqCst);
        if self.count.load(Ordering::Relaxed) == 0 {
            return;
        }
        let start = by.map(|_| Instant::now());
        let removed = {
            let mut parked = self.parked.lock();
            match parked.iter().position(|&i| i == index) {
                Some(at) => {
                    parked.swap_remove(at);
                    self.count.fetch_sub(1, Ordering::SeqCst);
                    true
                }
                None => false,
            }
        };
        if removed {
            self.unparkers[index].unpark();
            count_wake(by, start);
        }
    }

    /// Wakes every worker (shutdown).
    pub(crate) fn wake_all(&self) {
        {
            let mut parked = self.parked.lock();
            parked.clear();
            self.count.store(0, Ordering::SeqCst);
        }
        for u in self.unparkers.iter() {
            u.unpark();
        }
    }
}

/// Counts a wake-up, and the time since `start`, on the waking worker's counters.
fn count_wake(by: Option<&WorkerStats>, start: Option<Instant>) {
    if let (Some(stats), Some(start)) = (by, start) {
        bump(&stats.wakes);
        bump_by(&stats.waking_ns, nanos(start.elapsed()));
    }
}
