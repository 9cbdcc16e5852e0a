//! The worker's loops: the pool worker's (take a task, run a turn, search, park) and the
//! dedicated stage's, and running one turn (observed or not, inline or not).
//!
//! The loop reads the clock only where the worker changes phase (running, searching,
//! parked; see [`crate::metrics`]), never per turn. What it does when it runs out of work
//! is the parking side ([`super::sleep`]); what it looks at first, the picking side
//! ([`super::pick`]).

use std::cell::Cell;
use std::ptr::{self, NonNull};
use std::sync::atomic::Ordering;
use std::time::Instant;

use super::super::InPlace;
use super::super::Task;
use super::super::governor::Policy;
use super::{CURRENT, Worker};
use crate::metrics::{bump, bump_by, nanos};

impl Worker {
    /// The pool worker loop. Returns at shutdown.
    ///
    /// The clock is read only where the worker changes phase (running, searching,
    /// parked; see [`crate::metrics`]), never per turn.
    pub(crate) fn run(self) {
        CURRENT.with(|c| c.set(&self));
        // Freed mailbox nodes are kept for this thread's next sends (`mailbox::recycle`).
        #[cfg(not(loom))]
        let _spares = crate::mailbox::recycle::Spares::install();
        // The counts actors hold of their system's shared state come from this thread's
        // stock (`crate::counted`), where another worker spawns and frees actors too. A
        // lone worker and a dedicated stage have nobody to share the count's line with.
        #[cfg(not(loom))]
        let _stock = (self.sched.threads() > 1).then(crate::counted::Stock::install);
        let sched = &self.sched;
        let stats = self.stats();
        let mut since = Instant::now();
        // When this worker was last woken, until it reports how long it then ran.
        let mut woken: Option<Instant> = None;
        // Whether it woke to rescue work stranded behind another worker's long turn.
        let rescued = Cell::new(false);
        loop {
            if self.run_busy() {
                break;
            }
            let searching = Instant::now();
            bump_by(&stats.running_ns, nanos(searching - since));
            if self.give_back_due.replace(false) {
                // A flood said so (see `governor::flood`); this worker may still hold work.
                since = if self.give_back() {
                    let woke = Instant::now();
                    bump_by(&stats.parked_ns, nanos(woke - searching));
                    woken = Some(woke);
                    woke
                } else {
                    searching
                };
                continue;
            }
            bump(&stats.searches);
            let most = Policy::searchers(sched.sleepers.active());
            let found = if sched.sleepers.begin_search(most) {
                let found = self.search();
                sched.sleepers.end_search();
                if found.is_some()
                    && (!self.queue.is_empty() || !self.nursery.is_empty())
                    && (self.backlog_wakes() || self.nursery_wakes())
                {
                    // More was there than this worker took: let another worker help (it
                    // becomes the searcher, if one was asleep).
                    self.waking(|| sched.notify_one(Some(stats)));
                }
                found
            } else {
                // Enough workers search already: look once, then park.
                self.stage.take().or_else(|| self.steal())
            };
            since = Instant::now();
            bump_by(&stats.searching_ns, nanos(since - searching));
            if let Some(task) = found {
                self.run_turn(task);
                continue;
            }
            bump(&stats.searches_failed);
            if let Some(woke) = woken.take() {
                let ran = searching - woke;
                sched
                    .policy
                    .wake
                    .woken_worker_ran(ran, rescued.replace(false));
            }
            if self.declined.replace(false) {
                // A group steal left a group whole to the worker that runs it: this worker
                // sleeps although it sees that work, if another stays awake (see
                // `super::group`); else it looks again, stealing as usual.
                if self.give_back() {
                    let woke = Instant::now();
                    bump_by(&stats.parked_ns, nanos(woke - since));
                    since = woke;
                    woken = Some(woke);
                }
                continue;
            }
            if let Some(rescue) = self.park() {
                rescued.set(rescue);
                let woke = Instant::now();
                bump_by(&stats.parked_ns, nanos(woke - since));
                since = woke;
                woken = Some(woke);
            }
        }
        bump_by(&stats.running_ns, nanos(since.elapsed()));
        CURRENT.with(|c| c.set(ptr::null()));
        self.discard_left();
    }

    /// The hot loop, in a function of its own so that its code does not move with the
    /// search, parking and give-back code around it in [`Worker::run`]: takes a task from
    /// this worker's own queues and runs its turn, until the system shuts down (`true`)
    /// or [`Worker::next_task`] finds nothing (`false`).
    ///
    /// A task's turns run through [`Runnable::run_turns`](super::super::scheduled::Runnable::run_turns), which goes on in place with the
    /// next pick while that is an actor of its own type, doing each pick's duties as this
    /// loop does ([`Worker::pick`], [`Worker::runs_in_place`]); it returns here with a
    /// pick it does not run itself, or with nothing.
    #[inline(never)]
    fn run_busy(&self) -> bool {
        let Some(mut task) = self.pick() else {
            return self.sched.is_shutdown();
        };
        loop {
            bump(&self.stats().turns);
            let picked = if self.noted.get() {
                self.run_noted_turn(task);
                self.pick()
            } else {
                let me = InPlace(NonNull::from(&*task));
                task.run_turns(self, Some(me))
            };
            let Some(next) = picked else {
                return self.sched.is_shutdown();
            };
            task = next;
        }
    }

    /// The pick loop's step: `None` at shutdown, or when [`Worker::next_task`] finds
    /// nothing; else the next task, whose turn is not counted yet.
    #[inline(always)]
    pub(crate) fn pick(&self) -> Option<Task> {
        if self.sched.is_shutdown() {
            return None;
        }
        self.next_task()
    }

    /// Whether the turn of a task just picked may run in place, inside the turn before it
    /// ([`Runnable::run_turns`](super::super::scheduled::Runnable::run_turns)): not on a noted worker, whose turns take
    /// [`Worker::run_noted_turn`].
    #[inline(always)]
    pub(crate) fn runs_in_place(&self) -> bool {
        !self.noted.get()
    }

    /// Counts a turn that runs in place, as the pick loop counts the others.
    #[inline(always)]
    pub(crate) fn count_turn(&self) {
        bump(&self.stats().turns);
    }

    /// Discards the tasks left in this worker's next slot and its own queues at shutdown
    /// ([`crate::scheduler::discard_after_shutdown`]); its stage's inbox is drained with the other
    /// queues once every worker has stopped.
    pub(super) fn discard_left(&self) {
        let left = self.next.take().into_iter();
        let local: Vec<Task> = self.local.borrow_mut().drain(..).collect();
        for task in left
            .chain(local)
            .chain(std::iter::from_fn(|| self.queue.pop()))
            .chain(std::iter::from_fn(|| self.nursery.pop()))
        {
            super::super::discard_after_shutdown(task);
        }
    }

    /// The dedicated stage loop. Returns at shutdown, or when no actor lives on the stage
    /// any more and its inbox is empty.
    pub(crate) fn run_dedicated(self) {
        CURRENT.with(|c| c.set(&self));
        // Freed mailbox nodes are kept for this thread's next sends (`mailbox::recycle`).
        #[cfg(not(loom))]
        let _spares = crate::mailbox::recycle::Spares::install();
        let sched = &self.sched;
        while !sched.is_shutdown() {
            if let Some(task) = self.take_own() {
                self.run_turn(task);
                continue;
            }
            if self.stage.residents() == 0 {
                // Nothing can be pushed here any more (see `super::dedicated`); what was
                // pushed before the last actor left is visible now.
                if self.stage.inbox.is_empty() {
                    break;
                }
                continue;
            }
            sched.quiescence.worker_idle();
            bump(&self.stats().parks);
            self.parking(true);
            self.parker.park();
            self.parking(false);
        }
        CURRENT.with(|c| c.set(ptr::null()));
        if sched.is_shutdown() {
            self.discard_left();
        }
    }

    /// Tells an observer whether this worker is parked, so that it does not mistake a
    /// parked worker for one stuck in a long turn.
    pub(super) fn parking(&self, parked: bool) {
        if self.sampler.enabled() {
            self.stage.set_parked(parked);
        }
    }

    #[inline]
    pub(super) fn run_turn(&self, task: Task) {
        bump(&self.stats().turns);
        if self.noted.get() {
            self.run_noted_turn(task);
        } else {
            task.run_turn(self);
        }
    }

    /// A turn of an observed worker, or of one that labels groups (see
    /// [`crate::scheduler::group`]: the actors this turn wakes take its actor's label).
    #[inline(never)]
    pub(super) fn run_noted_turn(&self, task: Task) {
        if self.grouping.get() {
            self.running_label.set(task.home().group.label());
        }
        if self.sampler.enabled() {
            self.sampler.turn_starting();
            task.run_turn(self);
            self.sampler.turn_finished();
        } else {
            task.run_turn(self);
        }
    }

    /// Runs a turn of an inline actor whose mailbox the caller's push found idle, and
    /// whose scheduling the caller has counted (`WorkerStats::sent_waking`). Inside a
    /// sampled turn, the inline turn is sampled too, as a turn of its own
    /// ([`Recorder::inline_turn`](super::super::probe::Recorder::inline_turn)): otherwise
    /// an inline actor would never be sampled at all, its time would count as its
    /// sender's, and one whose handler grew costly would stay inline for good.
    pub(crate) fn run_inline_counted(&self, task: Task) {
        bump(&self.stats().inline_turns);
        bump(&self.stats().turns);
        let depth = self.inline_depth.get();
        self.inline_depth.set(depth + 1);
        match self.sampler.recorder() {
            Some(recorder) => {
                // This turn's count, for its end to tell a watch put on the turn that runs
                // it (which it leaves alone) from one put on itself.
                let first = self.stats().turns.load(Ordering::Relaxed);
                let enclosing = self.inline_turn.replace(first);
                if self.sampler.sampling() {
                    let mut task = Some(task);
                    recorder.inline_turn(&mut || {
                        if let Some(task) = task.take() {
                            task.run_turn(self);
                        }
                    });
                } else {
                    task.run_turn(self);
                }
                self.inline_turn.set(enclosing);
                if self.stage.is_watched() {
                    let turns = self.stats().turns.load(Ordering::Relaxed);
                    recorder.inline_turn_over(first, turns);
                }
            }
            None => task.run_turn(self),
        }
        self.inline_depth.set(depth);
    }

    /// Reports the end of a turn to the observer if the turn was sampled or watched, and
    /// takes up the observer's request for a sample soon (called before the actor gives
    /// up its reference, only on observed systems).
    #[inline]
    pub(crate) fn turn_ending(&self, actor: impl Fn() -> Task, handled: u64) {
        if self.sampler.sampling() || self.stage.wants_turn_end() {
            self.report_turn_end(&actor, handled);
        }
    }

    #[cold]
    #[inline(never)]
    pub(super) fn report_turn_end(&self, actor: &dyn Fn() -> Task, handled: u64) {
        let turns = self.stats().turns.load(Ordering::Relaxed);
        if self.sampler.sampling() {
            self.sampler.sample_ended(turns);
        }
        if self.stage.take_sample_request() {
            self.sampler.sample_soon(turns);
        }
        if let Some(recorder) = self.sampler.recorder() {
            // An inline turn is sampled on its own inside a sampled turn (see
            // `run_inline_counted`), and a watch the controller put on it is its own too:
            // an inline turn counts as a turn, so the watch names it, and a long inline
            // turn is this actor's long turn, not its sender's. A watch put on the
            // sender's turn before the inline turn began is the sender's: `inline` lets
            // the recorder tell the two apart.
            let inline = (self.inline_depth.get() > 0).then(|| self.inline_turn.get());
            recorder.turn_ended(actor, handled, turns, inline, self.sampler.sampling());
        }
    }

    /// Records a send made by the sampled turn; `cross` if the receiver last ran on
    /// another stage than this one.
    #[cold]
    pub(crate) fn note_send(&self, to: impl Fn() -> Task, to_ptr: *const (), cross: bool) {
        if let Some(recorder) = self.sampler.recorder() {
            recorder.sent(&to, to_ptr, cross);
        }
    }
}
