//! One worker thread: its run queue, its next slot, and its loop.
//!
//! The loop is: take a task (next slot, own deque, injector, steal), run one turn of it,
//! repeat. With nothing to do, search the other queues for a short while, then park (see
//! [`super::park`]). The worker publishes itself in a thread-local while it runs, so that a
//! handler's `send` or `spawn` can schedule onto this worker's queues without any shared
//! state, and count on this worker's own counters.

use std::cell::Cell;
use std::ptr;
use std::sync::Arc;

use crossbeam_deque::Steal;
use crossbeam_utils::CachePadded;
use crossbeam_utils::sync::Parker;

use super::{Task, WorkerSeed};
use crate::metrics::{WorkerStats, bump, bump_by};
use crate::system::Shared;

/// How many tasks in a row may come from the next slot before the deque gets a turn.
pub(crate) const NEXT_SLOT_STREAK: u32 = 64;
/// Every this many picks, the injector is looked at first (fairness to outside work).
const INJECTOR_EVERY: u32 = 61;
/// Search rounds before parking; round `i` spins `2^i` pauses first.
const SEARCH_ROUNDS: u32 = 10;

thread_local! {
    static CURRENT: Cell<*const Worker> = const { Cell::new(ptr::null()) };
}

/// Runs `f` with the worker of the current thread, if the thread is a worker of `shared`.
pub(crate) fn with_current<R>(shared: &Arc<Shared>, f: impl FnOnce(Option<&Worker>) -> R) -> R {
    CURRENT.with(|current| {
        let p = current.get();
        // SAFETY: `CURRENT` is set only by `Worker::run` to the worker it is running, on this
        // same thread, and cleared before that worker is dropped; so a non-null pointer is
        // valid for the duration of this call, which cannot outlive the loop.
        let worker = unsafe { p.as_ref() }.filter(|w| Arc::ptr_eq(&w.shared, shared));
        f(worker)
    })
}

/// The state of one worker thread. It lives on the worker's stack.
pub(crate) struct Worker {
    pub(crate) shared: Arc<Shared>,
    /// This worker's counters (also in `shared`, for readers): one pointer away, since
    /// they are bumped several times per message.
    stats: Arc<CachePadded<WorkerStats>>,
    index: usize,
    queue: crossbeam_deque::Worker<Task>,
    next: Cell<Option<Task>>,
    parker: Parker,
    picks: Cell<u32>,
    streak: Cell<u32>,
    rng: Cell<u64>,
}

impl Worker {
    pub(crate) fn new(shared: Arc<Shared>, seed: WorkerSeed) -> Self {
        Worker {
            stats: Arc::clone(&shared.sched.stats[seed.index]),
            shared,
            index: seed.index,
            queue: seed.queue,
            next: Cell::new(None),
            parker: seed.parker,
            picks: Cell::new(0),
            streak: Cell::new(0),
            rng: Cell::new(0x9E37_79B9_7F4A_7C15 ^ (seed.index as u64 + 1)),
        }
    }

    /// This worker's counters.
    pub(crate) fn stats(&self) -> &WorkerStats {
        &self.stats
    }

    /// Messages per turn.
    pub(crate) fn batch(&self) -> usize {
        self.shared.sched.batch
    }

    /// The worker loop. Returns at shutdown.
    pub(crate) fn run(self) {
        CURRENT.with(|c| c.set(&self));
        let sched = &self.shared.sched;
        while !sched.is_shutdown() {
            if let Some(task) = self.next_task().or_else(|| self.search()) {
                bump(&self.stats().turns);
                task.run_turn(&self);
                continue;
            }
            self.park();
        }
        CURRENT.with(|c| c.set(ptr::null()));
        // Tasks left in the next slot and the deque are dropped with `self`.
    }

    /// Schedules `task` on this worker (called while it runs a turn).
    pub(crate) fn schedule(&self, task: Task) {
        bump(&self.stats().scheduled);
        if let Some(previous) = self.next.replace(Some(task)) {
            self.queue.push(previous);
            self.shared.sched.sleepers.notify_one();
        }
    }

    /// Puts a still-scheduled task at the back of this worker's deque.
    pub(crate) fn requeue(&self, task: Task) {
        self.queue.push(task);
        if self.queue.len() > 1 || self.has_next() {
            self.shared.sched.sleepers.notify_one();
        }
    }

    /// Moves the task in the next slot, if any, to the deque where other workers can steal
    /// it. Called when the running actor's turn goes on after a message.
    pub(crate) fn flush_next(&self) {
        if let Some(task) = self.next.take() {
            self.queue.push(task);
            self.shared.sched.sleepers.notify_one();
        }
    }

    /// Records that a task left the scheduled state (idle or stopped).
    pub(crate) fn deschedule(&self) {
        bump(&self.stats().descheduled);
    }

    fn has_next(&self) -> bool {
        let next = self.next.take();
        let occupied = next.is_some();
        self.next.set(next);
        occupied
    }

    fn next_task(&self) -> Option<Task> {
        let picks = self.picks.get().wrapping_add(1);
        self.picks.set(picks);
        if picks % INJECTOR_EVERY == 0 {
            if let Some(task) = self.take_injected() {
                return Some(task);
            }
        }
        if let Some(task) = self.next.take() {
            let streak = self.streak.get();
            if streak < NEXT_SLOT_STREAK {
                self.streak.set(streak + 1);
                return Some(task);
            }
            self.requeue(task);
        }
        self.streak.set(0);
        self.queue.pop().or_else(|| self.take_injected())
    }

    fn take_injected(&self) -> Option<Task> {
        loop {
            match self.shared.sched.injector.steal_batch_and_pop(&self.queue) {
                Steal::Success(task) => return Some(task),
                Steal::Empty => return None,
                Steal::Retry => std::hint::spin_loop(),
            }
        }
    }

    /// Steals from the injector or another worker's deque, starting at a random victim.
    fn steal(&self) -> Option<Task> {
        if let Some(task) = self.take_injected() {
            return Some(task);
        }
        let stealers = &self.shared.sched.stealers;
        let n = stealers.len();
        if n < 2 {
            return None;
        }
        let start = (self.random() % n as u64) as usize;
        let mut retry = true;
        while retry {
            retry = false;
            for k in 0..n {
                let victim = (start + k) % n;
                if victim == self.index {
                    continue;
                }
                match stealers[victim].steal_batch_and_pop(&self.queue) {
                    Steal::Success(task) => {
                        bump(&self.stats().steals);
                        return Some(task);
                    }
                    Steal::Retry => retry = true,
                    Steal::Empty => {}
                }
            }
        }
        None
    }

    /// Looks for work for a short while before parking: a hand-off from a busy worker
    /// usually arrives within microseconds, and parking and waking cost more than that.
    fn search(&self) -> Option<Task> {
        for round in 0..SEARCH_ROUNDS {
            if let Some(task) = self.steal() {
                return Some(task);
            }
            if self.shared.sched.is_shutdown() {
                return None;
            }
            for _ in 0..(1u32 << round) {
                std::hint::spin_loop();
            }
        }
        None
    }

    fn park(&self) {
        let sched = &self.shared.sched;
        sched.sleepers.announce(self.index);
        if sched.has_stealable_work() || sched.is_shutdown() {
            sched.sleepers.cancel(self.index);
            return;
        }
        sched.quiescence.worker_idle();
        bump(&self.stats().parks);
        self.parker.park();
        // A stale token from an earlier wake-up can end the park early; make sure we are off
        // the list either way.
        sched.sleepers.cancel(self.index);
    }

    fn random(&self) -> u64 {
        // xorshift64: victim selection only needs to be cheap and spread out.
        let mut x = self.rng.get();
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.rng.set(x);
        x
    }

    /// Counts `n` messages handled in the turn just run.
    pub(crate) fn count_handled(&self, n: u64) {
        if n > 0 {
            bump_by(&self.stats().handled, n);
        }
    }
}
