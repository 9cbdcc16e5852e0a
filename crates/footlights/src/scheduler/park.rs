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
//!
//! # Searching workers
//!
//! A worker that runs out of work in its own queues *searches* the others for a short
//! while before it parks. While one worker searches, a waker wakes nobody: the searcher
//! will find the work (this is Go's and tokio's rule, and what stops a burst of hand-offs
//! from waking every sleeper). At most half the workers (at least one) search at once
//! ([`Sleepers::begin_search`]); the others look once and park. No wake-up is lost: a
//! searcher stops being one ([`Sleepers::end_search`]) before it announces itself, so if
//! a waker saw it searching, the SC order puts the waker's fence before the searcher's,
//! and the searcher's last look after announcing sees the work. A searcher that finds
//! work while more is visible wakes another worker, so that a burst still spreads.
//!
//! # Waking only when it pays
//!
//! A wake-up costs the waker a system call and the woken worker a trip through the
//! scheduler of the operating system, some microseconds in all. When the work handed over
//! is a few short turns (a hub actor's clients, say: chameneos's creatures), the woken
//! worker runs them, finds nothing, parks, and is woken again: two cores burn the time
//! one would have needed, and the work moves between caches. So a worker's backlog wakes
//! somebody only when its deque holds at least [`Sleepers::wake_backlog`] tasks, a
//! threshold that adapts to what wake-ups achieved: a woken worker reports how long it
//! ran before it ran out of work again ([`Sleepers::woken_worker_ran`]); a short run
//! (under [`SHORT_RUN`]) doubles the threshold, a long one (over [`LONG_RUN`]) halves it.
//! Parallel work (a tree of spawns, independent pairs, long computations) keeps woken
//! workers busy and the threshold at 1; a hub's backlog raises it until the second worker
//! stays asleep. Work from outside the runtime and pinned work always wake as before, and
//! a worker with a backlog below the threshold runs it itself, so no work is ever left
//! without a worker.
//!
//! The two counts that decide whether a waker wakes anybody, and the fences around them,
//! are a [`Gate`] of their own, which the loom model at the bottom of this file checks:
//! a searcher that parks while a waker finds it searching never sleeps on the work.

use std::sync::atomic::AtomicUsize;
use std::time::{Duration, Instant};

use crossbeam_utils::sync::Unparker;
use parking_lot::Mutex;

use crate::metrics::{WorkerStats, bump, bump_by, nanos};
use crate::sync::{Ordering, fence};

/// A woken worker that ran out of work within this long was not worth waking.
pub(crate) const SHORT_RUN: Duration = Duration::from_micros(100);
/// A woken worker that kept busy this long was worth waking.
pub(crate) const LONG_RUN: Duration = Duration::from_millis(1);
/// The highest the wake threshold goes (tasks in a deque).
const MAX_WAKE_BACKLOG: usize = 1024;

/// The counts a waker reads: workers parked (or announced) and workers searching.
pub(crate) struct Gate {
    count: crate::sync::AtomicUsize,
    searching: crate::sync::AtomicUsize,
}

impl Gate {
    pub(crate) fn new() -> Gate {
        Gate {
            count: crate::sync::AtomicUsize::new(0),
            searching: crate::sync::AtomicUsize::new(0),
        }
    }

    /// Becomes one of at most `most` searchers; `false` if there are that many already.
    pub(crate) fn begin_search(&self, most: usize) -> bool {
        let mut n = self.searching.load(Ordering::Relaxed);
        loop {
            if n >= most {
                return false;
            }
            match self.searching.compare_exchange_weak(
                n,
                n + 1,
                Ordering::SeqCst,
                Ordering::Relaxed,
            ) {
                Ok(_) => return true,
                Err(now) => n = now,
            }
        }
    }

    /// Stops searching. A searcher about to park calls this before [`Gate::announce`].
    pub(crate) fn end_search(&self) {
        self.searching.fetch_sub(1, Ordering::SeqCst);
    }

    /// One more worker parked (or about to): the caller must look for work afterwards.
    pub(crate) fn announce(&self) {
        self.count.fetch_add(1, Ordering::SeqCst);
        fence(Ordering::SeqCst);
    }

    /// One worker fewer parked.
    pub(crate) fn withdraw(&self) {
        self.count.fetch_sub(1, Ordering::SeqCst);
    }

    /// Nobody parked any more (shutdown).
    pub(crate) fn clear(&self) {
        self.count.store(0, Ordering::SeqCst);
    }

    /// After making work visible: whether a parked worker should be woken for it, that
    /// is, somebody is parked and nobody is searching (a searcher will find the work).
    #[inline]
    pub(crate) fn worth_waking(&self) -> bool {
        fence(Ordering::SeqCst);
        self.count.load(Ordering::Relaxed) > 0 && self.searching.load(Ordering::SeqCst) == 0
    }

    /// After making work visible to one worker: whether anybody is parked at all.
    #[inline]
    pub(crate) fn anyone_parked(&self) -> bool {
        fence(Ordering::SeqCst);
        self.count.load(Ordering::Relaxed) > 0
    }
}

/// The set of parked workers.
pub(crate) struct Sleepers {
    parked: Mutex<Vec<usize>>,
    /// Workers parked and searching: what wakers read.
    gate: Gate,
    /// How many tasks a worker's deque must hold before spilling to it wakes a worker.
    wake_backlog: AtomicUsize,
    unparkers: Box<[Unparker]>,
}

impl Sleepers {
    pub(crate) fn new(unparkers: Box<[Unparker]>) -> Self {
        Sleepers {
            parked: Mutex::new(Vec::with_capacity(unparkers.len())),
            gate: Gate::new(),
            wake_backlog: AtomicUsize::new(1),
            unparkers,
        }
    }

    /// Becomes a searcher if fewer than half the workers (at least one) search already;
    /// `false` if enough do, and the caller should look once and park.
    pub(crate) fn begin_search(&self) -> bool {
        self.gate.begin_search((self.unparkers.len() / 2).max(1))
    }

    /// Stops searching (found work, or about to park: call before [`Sleepers::announce`]).
    pub(crate) fn end_search(&self) {
        self.gate.end_search();
    }

    /// How many tasks a worker's deque must hold before its backlog wakes a sleeper; see
    /// the module documentation.
    #[inline]
    pub(crate) fn wake_backlog(&self) -> usize {
        self.wake_backlog.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// A worker that was woken ran for `ran` before it ran out of work again: adapts the
    /// wake threshold (see the module documentation).
    pub(crate) fn woken_worker_ran(&self, ran: Duration) {
        let now = self.wake_backlog();
        let next = if ran < SHORT_RUN {
            (now * 2).min(MAX_WAKE_BACKLOG)
        } else if ran > LONG_RUN {
            (now / 2).max(1)
        } else {
            now
        };
        if next != now {
            self.wake_backlog
                .store(next, std::sync::atomic::Ordering::Relaxed);
        }
    }

    /// Announces that worker `index` is about to park. The caller must check for work once
    /// more afterwards, and call [`Sleepers::cancel`] if it finds some.
    pub(crate) fn announce(&self, index: usize) {
        {
            let mut parked = self.parked.lock();
            if !parked.contains(&index) {
                parked.push(index);
                self.gate.announce();
                return;
            }
        }
        // Already on the list (a stale entry): the fence the look afterwards relies on.
        crate::sync::fence(Ordering::SeqCst);
    }

    /// Withdraws worker `index` from the list, if a waker has not already taken it off.
    pub(crate) fn cancel(&self, index: usize) {
        let mut parked = self.parked.lock();
        if let Some(at) = parked.iter().position(|&i| i == index) {
            parked.swap_remove(at);
            self.gate.withdraw();
        }
    }

    /// Wakes one parked worker, if any and if no worker is searching (a searcher will
    /// find the work). Call after making work visible. `by` is the calling worker's
    /// counters, which count the wake-up and its time.
    #[inline]
    pub(crate) fn notify_one(&self, by: Option<&WorkerStats>) {
        if !self.gate.worth_waking() {
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
                self.gate.withdraw();
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
        if !self.gate.anyone_parked() {
            return;
        }
        let start = by.map(|_| Instant::now());
        let removed = {
            let mut parked = self.parked.lock();
            match parked.iter().position(|&i| i == index) {
                Some(at) => {
                    parked.swap_remove(at);
                    self.gate.withdraw();
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
            self.gate.clear();
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

#[cfg(all(test, loom))]
mod loom_models {
    //! Run with `RUSTFLAGS="--cfg loom" cargo test -p footlights --lib --release loom_models`.

    use loom::sync::Arc;
    use loom::sync::atomic::AtomicBool;

    use super::*;

    /// A waker makes work visible while the only searcher gives up and parks. Whatever
    /// the interleaving, either the searcher's last look (after announcing itself) sees
    /// the work, or the waker sees a parked worker and nobody searching, and wakes it:
    /// the work is never left with its only worker asleep.
    #[test]
    fn a_searcher_that_parks_never_sleeps_on_new_work() {
        loom::model(|| {
            let gate = Arc::new(Gate::new());
            let work = Arc::new(AtomicBool::new(false));
            assert!(gate.begin_search(1));
            let (g, w) = (Arc::clone(&gate), Arc::clone(&work));
            let waker = loom::thread::spawn(move || {
                w.store(true, Ordering::Relaxed);
                g.worth_waking()
            });
            // The searcher found nothing: it stops searching, announces, looks once more.
            gate.end_search();
            gate.announce();
            let saw = work.load(Ordering::Relaxed);
            let woke = waker.join().unwrap();
            assert!(saw || woke, "the work was left with its only worker asleep");
        });
    }

    /// While a second worker still searches, the waker may leave the work to it; the
    /// searcher that parks meanwhile still never misses work the waker saw it searching
    /// for (the remaining searcher's own last look is the same protocol).
    #[test]
    fn a_waker_that_skips_for_a_searcher_leaves_the_work_seen() {
        loom::model(|| {
            let gate = Arc::new(Gate::new());
            let work = Arc::new(AtomicBool::new(false));
            assert!(gate.begin_search(2));
            assert!(gate.begin_search(2));
            assert!(!gate.begin_search(2), "at most two searchers");
            let (g, w) = (Arc::clone(&gate), Arc::clone(&work));
            let waker = loom::thread::spawn(move || {
                w.store(true, Ordering::Relaxed);
                g.worth_waking()
            });
            let (g, w) = (Arc::clone(&gate), Arc::clone(&work));
            let other = loom::thread::spawn(move || {
                // The second searcher also gives up and parks.
                g.end_search();
                g.announce();
                w.load(Ordering::Relaxed)
            });
            gate.end_search();
            gate.announce();
            let saw = work.load(Ordering::Relaxed);
            let other_saw = other.join().unwrap();
            let woke = waker.join().unwrap();
            assert!(
                saw || other_saw || woke,
                "the work was left with every worker asleep"
            );
        });
    }
}
