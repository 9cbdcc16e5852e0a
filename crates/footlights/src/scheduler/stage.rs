//! A stage: one thread's own run queue, counters and wake-up handle.
//!
//! Every worker thread, whether one of the pool's or a dedicated stage, has a [`Stage`].
//! Its `inbox` takes the tasks that must run on this thread and no other (actors pinned to
//! the stage, or living on a dedicated stage) when another thread schedules them; the
//! owning worker is the only one that takes from it. A pool worker also has a stealable
//! deque, which is not here because only the owner may push to it.
//!
//! A dedicated stage also counts the actors that live on it. When the last one stops or
//! moves away, the stage's thread runs what is left in its inbox and retires
//! ([`super::dedicated`]).
//!
//! Three flags are the stage's state that an observer ([`super::probe`]) may read or set:
//! whether its worker is parked (kept only on observed systems), what the observer asks
//! of the end of the turn in progress (a report of that turn, when it glimpses it or
//! watches a long one,
//! and a sample of one of the next turns, when the stage's turns are too long to be
//! sampled often by count; one byte, so that the worker tests both at once), and, for a lone
//! work-stealing worker, which queue order it keeps (see [`super::worker`]). A fourth, a
//! request that its worker give its work back for another whose turn keeps
//! ([`super::governor::flood`], "Within one turn"), is the governor's.

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};

use crate::sync::Unparker;
use crate::sync::deque::{Injector, Steal};
use crossbeam_utils::CachePadded;

use super::Task;
use crate::metrics::WorkerStats;

/// [`Stage::attention`]: report the end of the turn in progress.
const WATCHED: u8 = 1;
/// [`Stage::attention`]: sample one of the next turns.
const SAMPLE_NEXT: u8 = 2;

/// One worker thread's queue for pinned work, its counters, and how to wake it.
pub(crate) struct Stage {
    /// Tasks pinned to this stage, pushed by other threads.
    pub(crate) inbox: Injector<Task>,
    /// The counters only this stage's thread writes.
    pub(crate) stats: CachePadded<WorkerStats>,
    /// Set while the worker is parked (observed systems only).
    parked: AtomicBool,
    /// What an observer asks of the worker at the end of the turn in progress: a report
    /// of that turn ([`WATCHED`]), a sample of one of the next turns ([`SAMPLE_NEXT`]), or
    /// both.
    attention: AtomicU8,
    /// A lone work-stealing worker keeps plain FIFO order (else hand-off order).
    fifo: AtomicBool,
    /// Another worker's keeping turn asked this one to give its work back: the asking
    /// worker's pool index plus one (so that it withdraws only its own request), or 0
    /// ([`crate::scheduler::governor::flood`], "Within one turn").
    give_back: AtomicUsize,
    unparker: Unparker,
    /// Dedicated stages only: the actors that live here.
    actors: AtomicUsize,
}

impl Stage {
    /// A stage woken through `unparker`, with `actors` resident actors (dedicated stages
    /// start with the one they were made for; pool stages do not count).
    pub(crate) fn new(unparker: Unparker, actors: usize) -> Stage {
        Stage {
            inbox: Injector::new(),
            stats: CachePadded::new(WorkerStats::default()),
            parked: AtomicBool::new(false),
            attention: AtomicU8::new(0),
            fifo: AtomicBool::new(false),
            give_back: AtomicUsize::new(0),
            unparker,
            actors: AtomicUsize::new(actors),
        }
    }

    /// Pushes a task for this stage's thread and wakes it (dedicated stages, which are
    /// few and usually asleep; pool stages go through the scheduler's sleeper list).
    pub(crate) fn push(&self, task: Task) {
        self.inbox.push(task);
        self.unparker.unpark();
    }

    /// Wakes this stage's thread.
    pub(crate) fn wake(&self) {
        self.unparker.unpark();
    }

    /// Takes the oldest task from the inbox.
    pub(crate) fn take(&self) -> Option<Task> {
        // Two loads when the inbox is empty, which is almost always: crossbeam's `steal`
        // would issue a `SeqCst` fence to find that out, on every other pick of a worker.
        if self.inbox.is_empty() {
            return None;
        }
        loop {
            match self.inbox.steal() {
                Steal::Success(task) => return Some(task),
                Steal::Empty => return None,
                Steal::Retry => std::hint::spin_loop(),
            }
        }
    }

    /// Adds a resident actor, unless the stage has already lost its last one (then it may
    /// be retiring, and the caller must go elsewhere).
    pub(crate) fn join(&self) -> bool {
        self.actors
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n > 0).then_some(n + 1)
            })
            .is_ok()
    }

    /// A resident actor stopped or moved away; the last one wakes the thread to retire.
    pub(crate) fn leave(&self) {
        if self.actors.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.unparker.unpark();
        }
    }

    /// Resident actors (dedicated stages).
    pub(crate) fn residents(&self) -> usize {
        self.actors.load(Ordering::Acquire)
    }

    /// Whether the worker is parked (as far as an observed system keeps track).
    pub(crate) fn is_parked(&self) -> bool {
        self.parked.load(Ordering::Relaxed)
    }

    /// Called by an observed worker around parking, so that an observer does not mistake
    /// a parked worker for one stuck in a long turn.
    pub(crate) fn set_parked(&self, parked: bool) {
        self.parked.store(parked, Ordering::Relaxed);
    }

    /// Whether an observer asked anything of the end of the turn in progress (the one
    /// test an observed worker makes at every turn's end).
    #[inline]
    pub(crate) fn wants_turn_end(&self) -> bool {
        self.attention.load(Ordering::Relaxed) != 0
    }

    /// Whether an observer wants the end of the turn in progress reported.
    pub(crate) fn is_watched(&self) -> bool {
        self.attention.load(Ordering::Relaxed) & WATCHED != 0
    }

    /// Asks for (or, once reported, withdraws) a report at the end of the turn in
    /// progress.
    pub(crate) fn set_watched(&self, watched: bool) {
        if watched {
            self.attention.fetch_or(WATCHED, Ordering::Relaxed);
        } else {
            self.attention.fetch_and(!WATCHED, Ordering::Relaxed);
        }
    }

    /// Asks the worker to sample one of its next turns, besides the turns it samples by
    /// count (it takes the request at the end of the turn in progress): an observer whose
    /// stage ran too few turns to be sampled in a while (its turns are long) sees what
    /// they cost that way.
    pub(crate) fn ask_for_sample(&self) {
        self.attention.fetch_or(SAMPLE_NEXT, Ordering::Relaxed);
    }

    /// Takes back an observer's request for a sample soon, saying whether
    /// there was one (called by the worker at a turn's end).
    pub(crate) fn take_sample_request(&self) -> bool {
        self.attention.load(Ordering::Relaxed) & SAMPLE_NEXT != 0
            && self.attention.fetch_and(!SAMPLE_NEXT, Ordering::Relaxed) & SAMPLE_NEXT != 0
    }

    /// Whether a lone work-stealing worker keeps plain FIFO order; see [`super::worker`].
    pub(crate) fn keeps_fifo(&self) -> bool {
        self.fifo.load(Ordering::Relaxed)
    }

    /// Chooses the queue order of a lone work-stealing worker (it looks every few picks).
    pub(crate) fn set_fifo(&self, fifo: bool) {
        self.fifo.store(fifo, Ordering::Relaxed);
    }

    /// Asks this stage's worker, for pool worker `to`, to give its work back at its next
    /// look at its company (a keeping turn of `to` floods the actors this one runs). A
    /// request already pending, from another keeping turn, stands.
    pub(crate) fn ask_to_give_back(&self, to: usize) {
        let _ = self
            .give_back
            .compare_exchange(0, to + 1, Ordering::Relaxed, Ordering::Relaxed);
    }

    /// Withdraws pool worker `to`'s request to give back, if it is still pending (its
    /// keeping turn is over); another worker's request stands.
    pub(crate) fn withdraw_give_back(&self, to: usize) {
        let _ = self
            .give_back
            .compare_exchange(to + 1, 0, Ordering::Relaxed, Ordering::Relaxed);
    }

    /// Takes a request to give back, saying whether there was one (the worker's look at its
    /// company: one load while there is none).
    #[inline]
    pub(crate) fn take_give_back_request(&self) -> bool {
        self.give_back.load(Ordering::Relaxed) != 0
            && self.give_back.swap(0, Ordering::Relaxed) != 0
    }
}
