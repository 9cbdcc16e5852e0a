//! One worker thread: its run queues, its next slot, and its loop.
//!
//! A pool worker's loop is: take a task, run one turn of it, repeat. Where it looks, in
//! order:
//!
//! 1. every 61st pick, its stage's inbox and the shared injector first (so work from other
//!    threads is never starved by a busy worker); under the stages scheduler, what other
//!    threads scheduled also joins the back of the private FIFO every 8 picks;
//! 2. the next slot (steal scheduler only, at most [`NEXT_SLOT_STREAK`] times in a row
//!    while other tasks wait; a chain with nothing behind it just goes on);
//! 3. its own pinned work (actors pinned to this stage: a private FIFO for what this worker
//!    scheduled, the stage's inbox for what others did), its stealable deque and its
//!    nursery (below), taking turns at which comes first so none starves the others (the
//!    deque every other pick, the pinned work and the nursery every fourth each; and a
//!    chain of hand-offs spills when a spawn waits, as when other work does);
//! 4. the injector: a batch of it under work stealing, one task under work sharing;
//! 5. the other workers' nurseries and deques (work stealing only), in that order. Once
//!    the system labels groups (its pace found a tug of war, [`super::pace`]), a deque is
//!    stolen from by whole groups, or not at all, or by halves if it holds one group whose
//!    worker is busy with long turns ([`super::group`]).
//!
//! With nothing to do, it searches for a short while, then parks (see [`super::park`]).
//!
//! Where a task *goes* depends on the actor's home ([`super::home`]) and on the
//! scheduler kind: pool work goes to the next slot and deque (stealing) or the shared
//! injector (sharing), or to the worker's own FIFO (stages); pinned work to its stage.
//!
//! **Spawns.** A pool worker of several puts an actor it spawns (for the pool) on top of
//! its *nursery*, a second stealable deque, popped newest first, while other workers steal
//! from its bottom, oldest first (the order of Cilk's work stealing). The deque keeps
//! actors with messages in FIFO order (an actor whose turn used up its batch goes to the
//! back), which is fair; but for a tree of spawns FIFO order is breadth first: the worker
//! ran the oldest, largest pending subtree next, so a good part of the tree was alive at
//! once (spreading at depth 19 peaked at 70 to 100 MB), the actors a turn touched were
//! cold, the thief ran out of work again and again (over 2,000 steals a run), and two
//! workers took twice the CPU time of one for the same tree
//! (`docs/experiments/2026-11-27-scaling.md`, "the nursery"). Newest first, a worker walks the tree
//! depth first (a 7 MB peak), reusing what its last actors freed, and a thief takes the largest
//! subtrees and keeps busy (about 20 steals a run). A spawned actor has not run yet, so no actor's
//! messages are reordered. A nursery as long as the wake threshold wakes a sleeper, as the deque
//! does ([`super::park`]). Newest first alone could leave a worker's first spawns waiting for as
//! long as it keeps spawning, so the worker also takes its *oldest* spawn every [`INJECTOR_EVERY`]
//! picks (every [`ABSORB_EVERY`] while it keeps FIFO order, when it looks at the nursery last). A
//! lone worker keeps its FIFO order for spawns too (below): nobody can steal from it.
//!
//! A lone work-stealing worker (one thread) has nobody to steal from it, so what would go
//! to its deque goes to its private FIFO, and it keeps one of two orders, chosen by the
//! stage's `fifo` flag:
//!
//! * **FIFO order** (the default): a fresh hand-off takes the next slot only when nothing
//!   else waits, so the next slot always holds the oldest task, and the worker looks only
//!   at the next slot, then its private FIFO, then (when both are empty) the inbox and the
//!   injector, one task at a time. What other threads schedule joins the back of the
//!   private FIFO every 8 picks. So the worker runs the tasks it scheduled in the order it
//!   scheduled them, and other threads' work at most 8 picks late. A token ring still
//!   skips the queue (it is always empty), and a hub's clients are served in turn:
//!   chameneos on one thread is within a meeting of the fairest split in every run.
//! * **Hand-off order**: every fresh hand-off takes the next slot and runs next, as on
//!   several workers, which keeps a request and its reply hot in the cache. It also lets
//!   the actor a hub answered last jump the queue, so automatic placement
//!   ([`crate::auto`]) switches to it (through the stage's flag) only when it sees no hub
//!   and no spawning.
//!
//! A pool worker of several keeps FIFO order the same way while it is *alone for now*:
//! every other worker is parked, and waking them has been found not to pay (the wake
//! threshold is above 1, see [`super::park`]). What it schedules then goes to its private
//! FIFO instead of its deque (no atomic operation per task, and a hub's requests pile up
//! and are served many a turn, as on one worker; what it spawns still goes to its
//! nursery, where others can steal it), and it publishes the FIFO to its deque
//! when the FIFO is as long as the wake threshold (it then wakes a sleeper), when another
//! worker is awake again, or when it gives its work back ([`super::pace`]). So a chatty
//! group whose second worker sleeps runs as it would on one worker.
//!
//! A dedicated stage runs the same `Worker` with a simpler loop: its inbox, then park, and
//! retire when no actor lives on it any more ([`super::dedicated`]).
//!
//! The worker publishes itself in a thread-local while it runs, so that a handler's `send`
//! or `spawn` can schedule onto this worker's queues without any shared state, count on
//! this worker's own counters, and run an inline actor's turn right here. It is also what
//! a turn calls back through ([`crate::task::Schedule`]).
//!
//! An inline turn runs inside the turn of the handler that sent to it; a chain of them
//! deeper than [`INLINE_DEPTH`] is scheduled instead, so that cycles and long chains can
//! neither deadlock nor overflow the stack.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::ptr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use crossbeam_deque::Steal;
use crossbeam_utils::sync::Parker;

use super::governor::Rule;
use super::governor::flood::Flood;
use super::governor::pace::{Pace, Verdict};
use super::governor::tunables::{
    ABSORB_EVERY, INJECTOR_EVERY, LONG_TURN, NEXT_SLOT_STREAK, NURSERY_EVERY_MASK, NURSERY_PICK,
    PACE_EVERY, PINNED_EVERY_MASK, RESCUE_COUNTS_AFTER, SATURATED_TURNS, SEARCH_ROUNDS,
    SEARCHERS_OF_ACTIVE, WATCH_EVERY, WATCH_IDLE_MOST,
};
use super::group;
use super::home::Home;
use super::probe::Sampler;
use super::stage::Stage;
use super::watch::{Counts, Sightings};
use super::{Scheduler, SchedulerKind, Site, Task, WorkerSeed};
use crate::metrics::{WorkerStats, bump, bump_by, nanos};
use crate::rng::XorShift;
use crate::task::Schedule;

/// How many inline turns may nest on one thread before a send schedules instead.
pub const INLINE_DEPTH: u32 = 16;

/// A hand-off takes the next slot.
const PLAIN: u8 = 0;
/// A hand-off keeps FIFO order (the worker's `fifo` flag).
const FIFO: u8 = 1;
/// A hand-off labels the woken actor's group first (the worker's `grouping` flag).
const GROUPING: u8 = 2;

thread_local! {
    static CURRENT: Cell<*const Worker> = const { Cell::new(ptr::null()) };
}

/// Runs `f` with the worker of the current thread, if the thread is a worker of `sched`.
#[inline(always)]
pub(crate) fn with_current<R>(sched: &Arc<Scheduler>, f: impl FnOnce(Option<&Worker>) -> R) -> R {
    // SAFETY: the worker, if any, outlives this call (see `current`).
    f(unsafe { current(sched).as_ref() })
}

/// The worker of the current thread if the thread is a worker of `sched`, else null.
///
/// The thread-local is read with `Cell::get`, one load from the thread's block, so that a
/// send from a handler needs neither a call of the thread-local's accessor nor a closure
/// (through `LocalKey::with`, it had both, out of line). A non-null pointer is valid until
/// the worker's loop returns: `CURRENT` is set only by `Worker::run` and
/// `Worker::run_dedicated` to the worker they are running, on this same thread, and
/// cleared before that worker is dropped. So it may be dereferenced for the length of any
/// call made from a turn, and must not be kept.
#[inline(always)]
pub(crate) fn current(sched: &Arc<Scheduler>) -> *const Worker {
    let p = CURRENT.get();
    // SAFETY: as above, a non-null pointer is a live worker for the length of this call.
    match unsafe { p.as_ref() } {
        Some(w) if Arc::ptr_eq(&w.sched, sched) => p,
        _ => ptr::null(),
    }
}

/// The state of one worker thread. It lives on the worker's stack.
pub(crate) struct Worker {
    sched: Arc<Scheduler>,
    /// This thread's stage: its inbox and counters (also reachable from `sched`).
    pub(crate) stage: Arc<Stage>,
    /// The pool index, or `None` for a dedicated stage.
    pool_index: Option<usize>,
    kind: SchedulerKind,
    /// A pool worker under work stealing (the scheduler's fast path).
    steal_pool: bool,
    /// The only pool worker under work stealing: nobody can steal, so what would go to
    /// the deque goes to the private FIFO instead (no atomic operations on the way).
    solo: bool,
    /// A lone worker's copy of its stage's `fifo` flag.
    fifo: Cell<bool>,
    queue: crossbeam_deque::Worker<Task>,
    /// Actors this pool worker spawned that have not run yet, newest on top (see the
    /// module documentation, "Spawns"); other workers steal the oldest.
    nursery: crossbeam_deque::Worker<Task>,
    next: Cell<Option<Task>>,
    /// Whether the task in the next slot is pinned to this stage (it then spills to the
    /// private FIFO, not the stealable deque).
    next_pinned: Cell<bool>,
    /// Tasks pinned to this stage that this worker scheduled itself.
    local: RefCell<VecDeque<Task>>,
    parker: Parker,
    picks: Cell<u32>,
    streak: Cell<u32>,
    rng: XorShift,
    inline_depth: Cell<u32>,
    /// Which turns an observer records, and its recorder.
    sampler: Sampler,
    /// Whether this worker should keep a pace (a pool worker under work stealing with
    /// others to share with), and the pace.
    paced: bool,
    /// Whether what it spawns for the pool goes to its nursery: `paced` and the governor
    /// has [`Rule::Nursery`].
    nursery_spawns: bool,
    /// Whether it may keep FIFO order ([`Rule::Fifo`]).
    fifo_rule: bool,
    pace: Pace,
    /// Set when the pace, or a cross flood ([`super::flood`]), said to give the work back
    /// (`next_task` then returns nothing).
    give_back_due: Cell<bool>,
    /// This worker's cross pushes ([`super::flood`]), and its pool index if it counts them
    /// (it is `paced`): one test on the paths that count.
    flood: Flood,
    flood_stage: Option<usize>,
    /// Whether the system labels groups ([`super::group`]), as of this worker's last pace
    /// tick, and the label of the actor whose turn runs.
    grouping: Cell<bool>,
    running_label: Cell<u64>,
    /// How a fresh hand-off is placed: [`PLAIN`], [`FIFO`] (`fifo` is set) or [`GROUPING`].
    hand_off_mode: Cell<u8>,

    /// A group steal declined since this worker last woke: it steals from no deque.
    declined: Cell<bool>,
    /// What this worker saw of the others while it watched ([`super::watch`]).
    sightings: Sightings,
}

impl Worker {
    /// A pool worker. Call on the worker's own thread.
    pub(crate) fn new(sched: Arc<Scheduler>, seed: WorkerSeed) -> Self {
        let stage = Arc::clone(&sched.stages[seed.index]);
        Worker::with(
            sched,
            stage,
            Some(seed.index),
            (seed.queue, seed.nursery),
            seed.parker,
        )
    }

    /// The worker of a dedicated stage. Call on the stage's own thread.
    pub(crate) fn dedicated(sched: Arc<Scheduler>, stage: Arc<Stage>, parker: Parker) -> Self {
        Worker::with(
            sched,
            stage,
            None,
            (
                crossbeam_deque::Worker::new_fifo(),
                crossbeam_deque::Worker::new_lifo(),
            ),
            parker,
        )
    }

    fn with(
        sched: Arc<Scheduler>,
        stage: Arc<Stage>,
        pool_index: Option<usize>,
        (queue, nursery): (crossbeam_deque::Worker<Task>, crossbeam_deque::Worker<Task>),
        parker: Parker,
    ) -> Self {
        let kind = sched.kind;
        let steal_pool = kind == SchedulerKind::Steal && pool_index.is_some();
        let solo = steal_pool && sched.threads() == 1;
        let rules = sched.policy.rules;
        let fifo_rule = rules.has(Rule::Fifo);
        let fifo = solo && fifo_rule && stage.keeps_fifo();
        let sampler = Sampler::new(
            sched.observer.as_ref(),
            &stage,
            pool_index.map_or(0, |i| i as u64 + 1),
        );
        // Only a pool worker under work stealing with others to share with watches, and
        // only if the governor has the watcher.
        let watched = if steal_pool && !solo && rules.has(Rule::Watcher) {
            sched.threads()
        } else {
            0
        };
        Worker {
            sched,
            stage,
            pool_index,
            kind,
            steal_pool,
            solo,
            fifo: Cell::new(fifo),
            hand_off_mode: Cell::new(if fifo { FIFO } else { PLAIN }),
            queue,
            nursery,
            next: Cell::new(None),
            next_pinned: Cell::new(false),
            local: RefCell::new(VecDeque::new()),
            parker,
            picks: Cell::new(0),
            streak: Cell::new(0),
            rng: XorShift::new(0x2545_F491_4F6C_DD1D ^ pool_index.map_or(0, |i| i as u64 + 1)),
            inline_depth: Cell::new(0),
            sampler,
            paced: steal_pool && !solo,
            nursery_spawns: steal_pool && !solo && rules.has(Rule::Nursery),
            fifo_rule,
            pace: Pace::new(),
            give_back_due: Cell::new(false),
            flood: Flood::new(),
            flood_stage: pool_index.filter(|_| steal_pool && !solo && rules.has(Rule::Flood)),
            grouping: Cell::new(false),
            running_label: Cell::new(0),
            declined: Cell::new(false),
            sightings: Sightings::new(watched),
        }
    }

    /// This worker's counters.
    pub(crate) fn stats(&self) -> &WorkerStats {
        &self.stage.stats
    }

    /// The pool stage this worker is, if it is one.
    #[inline]
    pub(crate) fn pool_index(&self) -> Option<usize> {
        self.pool_index
    }

    /// This worker's pool index if it counts cross pushes ([`super::flood`]): a pool
    /// worker of several under work stealing.
    #[inline(always)]
    pub(crate) fn flood_stage(&self) -> Option<usize> {
        self.flood_stage
    }

    /// Whether an observer watches this worker.
    #[inline]
    pub(crate) fn observed(&self) -> bool {
        self.sampler.enabled()
    }

    /// Whether the running turn is sampled (its sends are recorded).
    #[inline]
    pub(crate) fn sampling(&self) -> bool {
        self.sampler.sampling()
    }

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
        while !sched.is_shutdown() {
            if let Some(task) = self.next_task() {
                self.run_turn(task);
                continue;
            }
            let searching = Instant::now();
            bump_by(&stats.running_ns, nanos(searching - since));
            if self.give_back_due.replace(false) {
                // The pace said so (see `super::pace`); this worker may still hold work.
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
            let most = (sched.sleepers.active() / SEARCHERS_OF_ACTIVE).max(1);
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
                // A rescue says nothing about what a backlog's wake-up achieves, unless
                // the rescuer kept busy (see `super::watch`).
                if !rescued.replace(false) || ran > RESCUE_COUNTS_AFTER {
                    sched.policy.wake.woken_worker_ran(ran);
                }
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

    /// Discards the tasks left in this worker's next slot and its own queues at shutdown
    /// ([`super::discard_after_shutdown`]); its stage's inbox is drained with the other
    /// queues once every worker has stopped.
    fn discard_left(&self) {
        let left = self.next.take().into_iter();
        let local: Vec<Task> = self.local.borrow_mut().drain(..).collect();
        for task in left
            .chain(local)
            .chain(std::iter::from_fn(|| self.queue.pop()))
            .chain(std::iter::from_fn(|| self.nursery.pop()))
        {
            super::discard_after_shutdown(task);
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
    fn parking(&self, parked: bool) {
        if self.sampler.enabled() {
            self.stage.set_parked(parked);
        }
    }

    #[inline]
    fn run_turn(&self, task: Task) {
        bump(&self.stats().turns);
        // `sampler` and `paced` never change: a lone worker's loop tests them once.
        if self.sampler.enabled() || (self.paced && self.grouping.get()) {
            self.run_noted_turn(task);
        } else {
            task.run_turn(self);
        }
    }

    /// A turn of an observed worker, or of one that labels groups (see
    /// [`super::group`]: the actors this turn wakes take its actor's label).
    #[inline(never)]
    fn run_noted_turn(&self, task: Task) {
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

    /// Whether a send from the running handler may run an inline actor's turn right here.
    #[inline]
    pub(crate) fn can_inline(&self) -> bool {
        self.inline_depth.get() < INLINE_DEPTH
    }

    /// Runs a turn of an inline actor whose mailbox the caller's push found idle.
    pub(crate) fn run_inline(&self, task: Task) {
        bump(&self.stats().scheduled);
        bump(&self.stats().inline_turns);
        bump(&self.stats().turns);
        let depth = self.inline_depth.get();
        self.inline_depth.set(depth + 1);
        let sampling = self.sampler.pause();
        task.run_turn(self);
        self.sampler.resume(sampling);
        self.inline_depth.set(depth);
    }

    /// Schedules `task`, whose home said `site`, from this worker (a fresh scheduling:
    /// counted, and eligible for the next slot).
    #[inline(always)]
    pub(crate) fn schedule(&self, task: Task, site: Site) {
        bump(&self.stats().scheduled);
        self.place(task, site, true);
    }

    /// Schedules the actor `task` just spawned from this worker, whose home said `site`
    /// (counted as [`Worker::schedule`] counts). A pool actor spawned on a pool worker of
    /// several goes on top of the nursery (see the module documentation, "Spawns"), and
    /// wakes a sleeper once the nursery is as long as the wake threshold.
    #[inline]
    pub(crate) fn spawned(&self, task: Task, site: Site) {
        if site == Site::Pool && self.nursery_spawns {
            bump(&self.stats().scheduled);
            self.nursery.push(task);
            if self.nursery_wakes() {
                self.waking(|| self.sched.notify_one(Some(self.stats())));
            }
            return;
        }
        self.schedule(task, site);
    }

    /// Puts a still-scheduled task back where its home says (its turn ended with work
    /// left, or with a push halfway through).
    #[inline]
    pub(crate) fn requeue(&self, task: Task, site: Site) {
        self.place(task, site, false);
    }

    #[inline(always)]
    fn place(&self, task: Task, site: Site, fresh: bool) {
        if site == Site::Pool && fresh && self.steal_pool {
            // The common case, kept short: a hand-off under work stealing.
            self.hand_off(task, self.solo);
            return;
        }
        self.place_elsewhere(task, site, fresh);
    }

    /// A fresh scheduling from this worker: the next slot, unless this is a lone worker
    /// that automatic placement told to keep plain FIFO order; then the next slot takes a
    /// task only when nothing else waits (so it is always the oldest task, and a ring's
    /// hand-off still skips the queue).
    #[inline(always)]
    fn hand_off(&self, task: Task, pinned: bool) {
        match self.hand_off_mode.get() {
            PLAIN => self.set_next(task, pinned),
            FIFO => self.hand_off_in_order(task, pinned),
            _ => self.hand_off_grouping(task, pinned),
        }
    }

    /// A hand-off in FIFO order (see the module documentation).
    #[inline]
    fn hand_off_in_order(&self, task: Task, pinned: bool) {
        if self.has_next() || !self.local_is_empty() {
            self.queue_privately(task);
        } else {
            self.set_next(task, pinned);
        }
    }

    /// Whether the private FIFO is empty, read without a borrow of the `RefCell`: the FIFO
    /// hand-off's test, on every send that wakes an actor on a lone worker. A borrow's
    /// flag test has a panic path, for which the caller kept the task in an unwind slot
    /// on its stack: with both gone, `hand_off_in_order` is a leaf without a frame (21
    /// instructions a ring hop to 9).
    #[inline(always)]
    fn local_is_empty(&self) -> bool {
        debug_assert!(self.local.try_borrow_mut().is_ok());
        // SAFETY: `local` is this thread's (a `Worker` is not `Sync`), and no `RefMut` of
        // it is alive while a handler sends: every `borrow_mut` in this file ends within
        // the method that takes it, and none of them runs a turn meanwhile.
        unsafe { (*self.local.as_ptr()).is_empty() }
    }

    /// A hand-off while the system labels groups: the woken actor takes the running
    /// actor's label if that is smaller (see [`super::group`]).
    #[inline(never)]
    fn hand_off_grouping(&self, task: Task, pinned: bool) {
        task.home().group.woken_by(self.running_label.get());
        if self.keeps_fifo() {
            self.hand_off_in_order(task, pinned);
        } else {
            self.set_next(task, pinned);
        }
    }

    /// Keeps FIFO order or not (see the module documentation).
    fn set_fifo(&self, fifo: bool) {
        self.fifo.set(fifo);
        self.set_hand_off_mode();
    }

    fn set_hand_off_mode(&self) {
        let mode = if self.grouping.get() {
            GROUPING
        } else if self.fifo.get() {
            FIFO
        } else {
            PLAIN
        };
        self.hand_off_mode.set(mode);
    }

    /// Labels groups or not (see [`super::group`]).
    fn set_grouping(&self, grouping: bool) {
        self.grouping.set(grouping);
        self.set_hand_off_mode();
    }

    /// Queues `task` at the back of the private FIFO (FIFO order). A worker that is alone
    /// only for now publishes the FIFO to its deque and wakes a sleeper once the FIFO is
    /// as long as the wake threshold (see the module documentation).
    #[inline(never)]
    fn queue_privately(&self, task: Task) {
        let mut local = self.local.borrow_mut();
        local.push_back(task);
        if self.paced && local.len() >= self.sched.policy.wake.backlog() {
            drop(local);
            self.publish();
            self.waking(|| self.sched.notify_one(Some(self.stats())));
        }
    }

    /// Leaves FIFO order (this worker is no longer alone, or is about to wake somebody):
    /// the pool tasks in its private FIFO move to its deque, in order, where others can
    /// steal them; tasks pinned to this stage stay.
    #[cold]
    fn publish(&self) {
        self.set_fifo(false);
        let mut local = self.local.borrow_mut();
        let here = self.pool_index;
        let mut pinned = VecDeque::new();
        for task in local.drain(..) {
            if matches!(task.home().target(), Site::Stage(k) if Some(k) == here) {
                pinned.push_back(task);
            } else {
                self.queue.push(task);
            }
        }
        *local = pinned;
    }

    /// A pool worker of several looks whether every other worker is parked (every
    /// [`ABSORB_EVERY`] picks). Alone, it keeps FIFO order in its private FIFO, as a lone
    /// worker does (no atomic operation per task, and a hub's requests pile up and are
    /// served many a turn); when somebody else is awake again, it publishes the FIFO.
    fn refresh_alone(&self) {
        // Only once waking has been found not to pay (the threshold is above 1): else the
        // first task queued would publish the FIFO again at once.
        let sleepers = &self.sched.sleepers;
        let alone = self.fifo_rule && sleepers.awake() == 1 && self.sched.policy.wake.backlog() > 1;
        if alone == self.fifo.get() {
            return;
        }
        if alone {
            // What waits in the deque goes behind the next slot, in order.
            let mut local = self.local.borrow_mut();
            while let Some(task) = self.queue.pop() {
                local.push_back(task);
            }
            self.set_fifo(true);
        } else {
            self.publish();
        }
    }

    /// Whether this is a lone worker told to keep plain FIFO order (as of its last look
    /// at the stage's flag, every [`ABSORB_EVERY`] picks).
    #[inline]
    fn keeps_fifo(&self) -> bool {
        self.fifo.get()
    }

    /// Puts `task` in the next slot; what was there spills to where it belongs.
    #[inline(always)]
    fn set_next(&self, task: Task, pinned: bool) {
        let was_pinned = self.next_pinned.replace(pinned);
        if let Some(previous) = self.next.replace(Some(task)) {
            self.spill(previous, was_pinned);
        }
    }

    /// Queues a task that leaves the next slot: pinned work to the private FIFO, pool work
    /// to the deque, where idle workers can steal it.
    #[inline(never)]
    fn spill(&self, task: Task, pinned: bool) {
        if pinned {
            self.local.borrow_mut().push_back(task);
        } else {
            self.queue.push(task);
            if self.backlog_wakes() {
                self.waking(|| self.sched.notify_one(Some(self.stats())));
            }
        }
    }

    /// Whether this worker's deque holds enough to wake a sleeper for (see
    /// [`super::park`], "Waking only when it pays").
    #[inline]
    fn backlog_wakes(&self) -> bool {
        self.queue.len() >= self.sched.policy.wake.backlog()
    }

    /// Whether this worker's nursery holds enough to wake a sleeper for (as
    /// [`Worker::backlog_wakes`]).
    #[inline]
    fn nursery_wakes(&self) -> bool {
        self.nursery.len() >= self.sched.policy.wake.backlog()
    }

    /// Runs `wake`, which may wake another thread. A sampled turn does not count the time
    /// as its own: it is the cost of a cross-thread hand-off, which co-locating the two
    /// actors would save, not work the actor needs a core for.
    #[inline]
    fn waking(&self, wake: impl FnOnce()) {
        match self.sampler.recorder() {
            Some(recorder) if self.sampler.sampling() => {
                let mut wake = Some(wake);
                recorder.waking(&mut || {
                    if let Some(wake) = wake.take() {
                        wake();
                    }
                });
            }
            _ => wake(),
        }
    }

    #[inline(never)]
    fn place_elsewhere(&self, task: Task, site: Site, fresh: bool) {
        match site {
            Site::Pool | Site::Inline => self.place_in_pool(task, fresh),
            // Under work stealing, work pinned here takes the same next slot as pool work
            // (so a group pinned to one stage runs as it would on one worker).
            Site::Stage(k) if Some(k) == self.pool_index && fresh && self.steal_pool => {
                self.hand_off(task, true);
            }
            Site::Stage(k) if Some(k) == self.pool_index => self.local.borrow_mut().push_back(task),
            Site::Stage(k) => {
                bump(&self.stats().pushed_out);
                self.waking(|| self.sched.push_stage(k, task, Some(self.stats())));
            }
            Site::Dedicated => {
                // The push happens under the home's lock, inside the cell: keep the cell
                // alive until the lock is released, whoever runs the task meanwhile.
                let keep = Arc::clone(&task);
                let mut pushed = Ok(());
                self.waking(|| pushed = keep.home().push_dedicated(task));
                match pushed {
                    Ok(()) => bump(&self.stats().pushed_out),
                    Err(task) => self.place_in_pool(task, fresh),
                }
            }
        }
    }

    /// Reports the end of a turn to the observer if the turn was sampled or watched
    /// (called before the actor gives up its reference, only on observed systems).
    #[inline]
    pub(crate) fn turn_ending(&self, actor: impl Fn() -> Task, handled: u64) {
        if self.sampler.sampling() || self.stage.is_watched() {
            self.report_turn_end(&actor, handled);
        }
    }

    #[cold]
    #[inline(never)]
    fn report_turn_end(&self, actor: &dyn Fn() -> Task, handled: u64) {
        if self.inline_depth.get() > 0 {
            // An inline turn inside another: the outer turn is the one observed.
            return;
        }
        if let Some(recorder) = self.sampler.recorder() {
            let turns = self.stats().turns.load(Ordering::Relaxed);
            recorder.turn_ended(actor, handled, turns, self.sampler.sampling());
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

    #[inline]
    fn place_in_pool(&self, task: Task, fresh: bool) {
        let sched = &self.sched;
        match (self.kind, self.pool_index) {
            (SchedulerKind::Steal, Some(_)) if fresh => self.hand_off(task, self.solo),
            (SchedulerKind::Steal, Some(_)) if self.solo => self.local.borrow_mut().push_back(task),
            (SchedulerKind::Steal, Some(_)) if self.keeps_fifo() => self.queue_privately(task),
            (SchedulerKind::Steal, Some(_)) => {
                self.queue.push(task);
                if (self.queue.len() > 1 || self.has_next()) && self.backlog_wakes() {
                    self.waking(|| sched.notify_one(Some(self.stats())));
                }
            }
            (SchedulerKind::Stages, Some(_)) => self.local.borrow_mut().push_back(task),
            (SchedulerKind::Stages, None) => {
                bump(&self.stats().pushed_out);
                self.waking(|| sched.push_stage(sched.next_stage(), task, Some(self.stats())));
            }
            (SchedulerKind::Steal | SchedulerKind::Share, _) => {
                bump(&self.stats().pushed_out);
                self.waking(|| sched.push_shared(task, Some(self.stats())));
            }
        }
    }

    /// Moves the task in the next slot, if any, to the deque where other workers can steal
    /// it. Called when the running actor's turn goes on after a message.
    pub(crate) fn flush_next(&self) {
        if self.keeps_fifo() {
            // Nobody can steal, and the next slot holds the oldest task: moving it to the
            // back would let the tasks scheduled after it overtake it.
            return;
        }
        if let Some(task) = self.next.take() {
            self.spill(task, self.next_pinned.get());
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

    /// The oldest task pinned to this stage: what this worker queued, then the inbox.
    #[inline]
    fn take_own(&self) -> Option<Task> {
        let local = self.local.borrow_mut().pop_front();
        local.or_else(|| self.stage.take())
    }

    fn next_task(&self) -> Option<Task> {
        let picks = self.picks.get().wrapping_add(1);
        self.picks.set(picks);
        if picks % ABSORB_EVERY == 0 {
            if self.solo {
                self.refresh_order();
            } else if self.paced {
                if self.give_back_due.get() {
                    // A cross flood said so (see `super::flood`): the loop gives back.
                    return None;
                }
                if picks % PACE_EVERY == 0 {
                    let (sleepers, policy) = (&self.sched.sleepers, &self.sched.policy);
                    let verdict = self.pace.tick(self.stats(), policy, || sleepers.awake());
                    let grouping = self.pace.labels(policy, || sleepers.awake());
                    if grouping != self.grouping.get() {
                        self.set_grouping(grouping);
                    }
                    if verdict == Verdict::GiveBack {
                        self.give_back_due.set(true);
                        return None;
                    }
                }
                self.refresh_alone();
            }
            if self.kind == SchedulerKind::Stages || self.keeps_fifo() {
                self.absorb_external();
            }
        }
        if self.keeps_fifo() {
            if picks % ABSORB_EVERY == 0 {
                let oldest = self.take_oldest_spawned().or_else(|| {
                    if self.solo {
                        None
                    } else {
                        self.take_injected()
                    }
                });
                if let Some(task) = oldest {
                    // A worker alone for now looks at its nursery and the injector last:
                    // this bounds how long a spawn, or work from outside, waits behind a
                    // busy FIFO.
                    return Some(task);
                }
            }
            // Oldest first: the next slot is filled only when the FIFO is empty.
            let next = self.next.take();
            return next
                .or_else(|| self.local.borrow_mut().pop_front())
                // Empty but for a steal's batch (two loads to find it empty).
                .or_else(|| self.queue.pop())
                .or_else(|| self.take_spawned())
                .or_else(|| self.stage.take())
                .or_else(|| self.take_injected());
        }
        if picks % INJECTOR_EVERY == 0 {
            if let Some(task) = self.stage.take().or_else(|| self.take_injected()) {
                // The hand-off in the next slot would wait behind this turn from outside,
                // which may be long: where other workers may steal it (`super::watch`).
                self.flush_next();
                return Some(task);
            }
            if let Some(task) = self.take_oldest_spawned() {
                return Some(task);
            }
        }
        if let Some(task) = self.next.take() {
            let streak = self.streak.get();
            if streak < NEXT_SLOT_STREAK {
                self.streak.set(streak + 1);
                return Some(task);
            }
            if self.queue.is_empty() && self.local.borrow().is_empty() && self.nursery.is_empty() {
                // Nothing waits behind the chain (no spawn either): it goes on here, and
                // nobody is woken for a task this worker would run next anyway.
                self.streak.set(0);
                return Some(task);
            }
            self.spill(task, self.next_pinned.get());
        }
        self.streak.set(0);
        if picks & NURSERY_EVERY_MASK == NURSERY_PICK {
            // The nursery first, so that neither pinned work nor the deque starves it.
            self.take_spawned()
                .or_else(|| self.take_own())
                .or_else(|| self.queue.pop())
                .or_else(|| self.take_injected())
        } else if picks & PINNED_EVERY_MASK == 0 {
            if let Some(task) = self.take_own() {
                return Some(task);
            }
            self.take_spawned()
                .or_else(|| self.queue.pop())
                .or_else(|| self.take_injected())
        } else {
            self.queue
                .pop()
                .or_else(|| self.take_spawned())
                .or_else(|| self.take_own())
                .or_else(|| self.take_injected())
        }
    }

    /// The newest actor this worker spawned that has not run yet (see the module
    /// documentation, "Spawns"). Two loads when the nursery is empty (always, but on a pool
    /// worker of several that spawns); the pop itself, with its fence, stays out of line.
    #[inline]
    fn take_spawned(&self) -> Option<Task> {
        if self.nursery.is_empty() {
            return None;
        }
        self.pop_spawned()
    }

    #[inline(never)]
    fn pop_spawned(&self) -> Option<Task> {
        self.nursery.pop()
    }

    /// The oldest actor this worker spawned that has not run yet, taken from the end
    /// thieves take from: newest first alone would let a worker that keeps spawning
    /// leave its first spawns waiting for ever, so every [`INJECTOR_EVERY`] picks (every
    /// [`ABSORB_EVERY`] while it keeps FIFO order) the oldest goes first.
    fn take_oldest_spawned(&self) -> Option<Task> {
        if self.nursery.is_empty() {
            return None;
        }
        let own = &self.sched.stealers[self.pool_index?].nursery;
        loop {
            match own.steal() {
                Steal::Success(task) => return Some(task),
                Steal::Empty => return None,
                Steal::Retry => std::hint::spin_loop(),
            }
        }
    }

    /// Reads the order automatic placement chose for this lone worker. Entering FIFO order,
    /// it moves what hand-off order left in its deque (batches from the injector) to the
    /// back of its FIFO, where FIFO order looks.
    fn refresh_order(&self) {
        let fifo = self.fifo_rule && self.stage.keeps_fifo();
        if fifo && !self.fifo.get() {
            let mut local = self.local.borrow_mut();
            while let Some(task) = self.queue.pop() {
                local.push_back(task);
            }
        }
        self.set_fifo(fifo);
    }

    /// A stage worker, or a lone worker in FIFO order, queues what other threads scheduled
    /// (its inbox; the injector, which only a lone stealing worker uses) behind what it
    /// scheduled itself, within [`ABSORB_EVERY`] picks. (A pool worker of several alone
    /// for now takes the injector's tasks one at a time instead, every [`ABSORB_EVERY`]
    /// picks: in its private FIFO they would wait behind a turn that blocks, where no
    /// other worker sees them; in the injector every worker does, see `super::watch`.) Otherwise a pair of actors
    /// handing work back and forth would keep the private FIFO busy, and the rest would be
    /// looked at only every [`INJECTOR_EVERY`] picks: chameneos's first creatures met
    /// dozens of times before the main thread's last creature started (on one stage, the
    /// counts fell steadily from 5,857 for the first creature to 5,659 for the last).
    #[inline]
    fn absorb_external(&self) {
        // Two loads when nothing arrived, which is almost always.
        let injector = &self.sched.injector;
        if self.stage.inbox.is_empty() && injector.is_empty() {
            return;
        }
        let mut local = self.local.borrow_mut();
        while let Some(task) = self.stage.take() {
            local.push_back(task);
        }
        while self.solo && !injector.is_empty() {
            match injector.steal() {
                Steal::Success(task) => {
                    self.arrived(&task);
                    local.push_back(task);
                }
                Steal::Empty => break,
                Steal::Retry => std::hint::spin_loop(),
            }
        }
    }

    /// Notes, for the sampler, that `task` now runs on this worker. Tasks change workers
    /// only when taken from the injector or stolen, so that is the only place this is
    /// needed (spawns record their spawner's stage).
    #[inline]
    fn arrived(&self, task: &Task) {
        if let (true, Some(k)) = (self.sampler.enabled(), self.pool_index) {
            task.home().ran_on(k);
        }
    }

    fn take_injected(&self) -> Option<Task> {
        let injector = &self.sched.injector;
        if injector.is_empty() {
            // As for a stage's inbox (`Stage::take`): no fence to find nothing.
            return None;
        }
        loop {
            let stolen = match self.kind {
                // One at a time in FIFO order: a batch would wait in the deque, where FIFO
                // order does not look.
                SchedulerKind::Steal if self.keeps_fifo() => injector.steal(),
                SchedulerKind::Steal => injector.steal_batch_and_pop(&self.queue),
                SchedulerKind::Share => injector.steal(),
                SchedulerKind::Stages => return None,
            };
            match stolen {
                Steal::Success(task) => {
                    self.arrived(&task);
                    return Some(task);
                }
                Steal::Empty => return None,
                Steal::Retry => std::hint::spin_loop(),
            }
        }
    }

    /// Takes from the injector, or steals from another worker's deque (work stealing only),
    /// starting at a random victim.
    fn steal(&self) -> Option<Task> {
        if let Some(task) = self.take_injected() {
            return Some(task);
        }
        let stealers = &self.sched.stealers;
        let n = stealers.len();
        if n < 2 || self.kind != SchedulerKind::Steal {
            return None;
        }
        let index = self.pool_index.unwrap_or(usize::MAX);
        let start = self.rng.below(n as u64) as usize;
        // Nobody else awake: nobody to pull a group back, so half a deque is no tug of war.
        let by_groups = self.grouping.get() && self.sched.sleepers.awake() > 1;
        let mut retry = true;
        while retry {
            retry = false;
            for k in 0..n {
                let victim = (start + k) % n;
                if victim == index {
                    continue;
                }
                // The oldest spawns first: in a tree of spawns, the largest subtrees.
                for (from, into) in [
                    (&stealers[victim].nursery, &self.nursery),
                    (&stealers[victim].deque, &self.queue),
                ] {
                    if from.is_empty() {
                        // Two loads; a steal pins an epoch (a fence) before it finds that.
                        continue;
                    }
                    let deque = ptr::eq(from, &stealers[victim].deque);
                    if deque && self.declined.get() {
                        continue;
                    }
                    if deque && by_groups {
                        match self.steal_groups(victim) {
                            Some(task) => return Some(task),
                            None => continue,
                        }
                    }
                    let before = into.len();
                    match from.steal_batch_and_pop(into) {
                        Steal::Success(task) => {
                            bump(&self.stats().steals);
                            if self.paced {
                                self.note_stolen(&task, index);
                            }
                            let moved = into.len().saturating_sub(before) as u64 + 1;
                            bump_by(&self.stats().stolen, moved);
                            self.arrived(&task);
                            return Some(task);
                        }
                        Steal::Retry => retry = true,
                        Steal::Empty => {}
                    }
                }
            }
        }
        None
    }

    /// Counts a steal back: the first task of a steal is an actor this worker stole before
    /// (and nobody stole from it since), so it went back to the victim's worker in the
    /// meantime, woken there (see [`super::pace`], "Tug of war"). Then marks the task as
    /// stolen by this worker.
    #[cold]
    fn note_stolen(&self, task: &Task, index: usize) {
        let home = task.home();
        if home.last_stage() == Some(index) {
            bump(&self.stats().stolen_back);
        }
        home.ran_on(index);
    }

    /// Steals whole groups from worker `victim`'s deque, or declines (see
    /// [`super::group`]); the first task kept, if any. Counted as one steal.
    #[cold]
    #[inline(never)]
    fn steal_groups(&self, victim: usize) -> Option<Task> {
        let from = &self.sched.stealers[victim].deque;
        let most = from.len().clamp(1, group::MOST);
        let mut taken: Vec<Task> = Vec::with_capacity(most);
        while taken.len() < most {
            match from.steal() {
                Steal::Success(task) => taken.push(task),
                Steal::Empty => break,
                Steal::Retry => std::hint::spin_loop(),
            }
        }
        if taken.is_empty() {
            return None;
        }
        let label = |task: &Task| task.home().group.label();
        let labels: Vec<u64> = taken.iter().map(label).collect();
        let split = group::split(&labels);
        // One group, whose worker is busy with long turns: half of it, the oldest half, as a
        // steal without labels would take (see `super::group`, "Long turns").
        let halves = split.is_none() && self.saturated(victim);
        let keep = split.unwrap_or_default();
        let half = taken.len().div_ceil(2);
        let stats = self.stats();
        let mut first = None;
        let mut kept = 0u64;
        for (i, task) in taken.into_iter().enumerate() {
            let take = if halves {
                i < half
            } else {
                keep.binary_search(&label(&task)).is_ok()
            };
            if take {
                kept += 1;
                self.arrived(&task);
                if first.is_none() {
                    first = Some(task);
                } else {
                    self.queue.push(task);
                }
            } else {
                self.sched.push_stage(victim, task, Some(stats));
            }
        }
        if first.is_some() {
            bump(&stats.steals);
            bump_by(&stats.stolen, kept);
        } else {
            self.declined.set(true);
        }
        first
    }

    /// Whether worker `victim`, whose one group this worker would decline to split, is
    /// *saturated with long turns* (see [`super::group`], "Long turns"): in [`LONG_TURN`],
    /// it neither runs [`SATURATED_TURNS`] turns nor runs out of work (a search, or
    /// parking). Watches its counters until one or the other is known, so the watch is
    /// short where the decline stands: a worker running a chatty group's short turns
    /// (chameneos, big) runs two within microseconds, or, if this worker holds all it had,
    /// searches.
    #[cold]
    #[inline(never)]
    fn saturated(&self, victim: usize) -> bool {
        let stats = &self.sched.stages[victim].stats;
        let turns = stats.turns.load(Ordering::Relaxed);
        let searches = stats.searches.load(Ordering::Relaxed);
        let start = Instant::now();
        loop {
            std::hint::spin_loop();
            if stats.turns.load(Ordering::Relaxed).wrapping_sub(turns) >= SATURATED_TURNS
                || stats.searches.load(Ordering::Relaxed) != searches
                || self.sched.sleepers.awake() < 2
            {
                return false;
            }
            if start.elapsed() >= LONG_TURN || self.sched.is_shutdown() {
                return true;
            }
        }
    }

    /// Looks for work for a short while before parking: a hand-off from a busy worker
    /// usually arrives within microseconds, and parking and waking cost more than that.
    fn search(&self) -> Option<Task> {
        for round in 0..SEARCH_ROUNDS {
            if let Some(task) = self.stage.take().or_else(|| self.steal()) {
                return Some(task);
            }
            if self.sched.is_shutdown() {
                return None;
            }
            for _ in 0..(1u32 << round) {
                std::hint::spin_loop();
            }
        }
        None
    }

    /// Parks until woken, unless work turned up meanwhile; if it parked, whether it woke
    /// to rescue work stranded behind another worker's long turn ([`super::watch`]).
    fn park(&self) -> Option<bool> {
        let sched = &self.sched;
        let index = self.pool_index.expect("only pool workers park here");
        sched.sleepers.announce(index);
        if sched.has_pool_work() || !self.stage.inbox.is_empty() || sched.is_shutdown() {
            sched.sleepers.cancel(index);
            return None;
        }
        // Nobody is left to measure a pace alone while this worker sleeps.
        sched.policy.wake.release();
        sched.quiescence.worker_idle();
        Some(self.sleep(index))
    }

    /// Sleeps until woken, as worker `index` of the sleepers' list (which it has joined),
    /// then starts a new pace epoch; `true` if it woke to rescue stranded work.
    fn sleep(&self, index: usize) -> bool {
        bump(&self.stats().parks);
        self.parking(true);
        let rescue = self.doze(index);
        self.parking(false);
        self.set_grouping(self.paced && self.sched.policy.yardstick.grouping());
        self.declined.set(false);
        self.flood.reset();
        // A stale token from an earlier wake-up can end the park early; make sure we are off
        // the list either way.
        self.sched.sleepers.cancel(index);
        self.restart_pace();
        rescue
    }

    /// The park itself (see [`super::watch`]): until a waker takes this worker off the
    /// sleepers' list (or the system shuts down). While it is the watcher, it parks for a
    /// tick at a time and looks at the other workers after each; `true` if it left to
    /// rescue work stranded behind a long turn. A park that ends while this worker is still
    /// on the list (a nudge, a stale token) is not a wake-up: it parks again.
    fn doze(&self, index: usize) -> bool {
        if self.sightings.is_empty() {
            // A lone worker, or not work stealing: nobody to watch, nothing to steal.
            self.parker.park();
            return false;
        }
        let sleepers = &self.sched.sleepers;
        let mut tick = None;
        let rescue = loop {
            if tick.is_none() && self.sched.watch.claim(index) {
                self.sightings.forget();
                self.sched.watch.deepen(false);
                tick = Some(WATCH_EVERY);
            }
            match tick {
                Some(tick) => self.parker.park_timeout(tick),
                None => self.parker.park(),
            }
            if self.sched.is_shutdown() || !sleepers.on_list(index) {
                break false;
            }
            let Some(last) = tick else {
                continue;
            };
            if last > WATCH_EVERY {
                // Nudged out of a long sleep (or at its end): what it saw is old, and a
                // worker just woken would look busy for all that time.
                self.sightings.forget();
            }
            if self.watch_once(index) {
                sleepers.cancel(index);
                break true;
            }
            let next = if sleepers.all_parked() {
                (last * 2).min(WATCH_IDLE_MOST)
            } else {
                WATCH_EVERY
            };
            self.sched.watch.deepen(next > WATCH_EVERY);
            tick = Some(next);
        };
        super::watch::leave_doze(&self.sched, index);
        rescue
    }

    /// One look of the watcher at the other workers; `true` if one of them holds
    /// stealable work behind long turns.
    #[cold]
    fn watch_once(&self, index: usize) -> bool {
        let sched = &self.sched;
        let now = Instant::now();
        let look = sched.sleepers.with_parked(|parked| {
            self.sightings.look(
                index,
                now,
                |k| {
                    let stats = &sched.stages[k].stats;
                    Counts {
                        turns: stats.turns.load(Ordering::Relaxed),
                        idle: stats
                            .searches
                            .load(Ordering::Relaxed)
                            .wrapping_add(stats.parks.load(Ordering::Relaxed)),
                        parked: parked.contains(&k),
                    }
                },
                |k| !sched.stealers[k].deque.is_empty() || !sched.stealers[k].nursery.is_empty(),
                !sched.injector.is_empty(),
            )
        });
        if look.long_turns {
            sched.policy.wake.long_turn_seen();
        }
        look.stranded
    }

    /// Gives this worker's work back and parks, because its pace said that the awake
    /// workers together are not faster than one alone (see [`super::pace`]); `true` if it
    /// parked. What it holds goes to the injector first, where the workers still awake
    /// look at least every 61 picks, and backlog wake-ups are held until one of them has
    /// measured its pace alone. It does not park if it holds pinned work (looked at again
    /// after it yields, since another thread may push some meanwhile), or if nobody else
    /// is awake (see [`super::park`], "Giving back").
    fn give_back(&self) -> bool {
        let sched = &self.sched;
        let index = self.pool_index.expect("only pool workers park here");
        if self.solo {
            return false;
        }
        if self.keeps_fifo() {
            self.publish();
        }
        if let Some(task) = self.next.take() {
            if self.next_pinned.get() {
                self.local.borrow_mut().push_back(task);
            } else {
                self.queue.push(task);
            }
        }
        if !self.local.borrow().is_empty() || !self.stage.inbox.is_empty() {
            return false;
        }
        // The deque goes to the injector before this worker yields: a worker that parks
        // after the yield then finds it there in its last look. Moved after the yield, a
        // task would be in neither place for that look (popped, not yet pushed), and both
        // workers could sleep on it. If the yield fails, this worker takes it back.
        while let Some(task) = self.queue.pop() {
            sched.injector.push(task);
        }
        while let Some(task) = self.nursery.pop() {
            sched.injector.push(task);
        }
        if !sched.sleepers.announce_yield(index) {
            return false;
        }
        // Nobody else looks at this stage's inbox: a push made before the yield, whose
        // waker saw nobody parked, is seen here (see `super::park`, "Giving back").
        if !self.stage.inbox.is_empty() {
            sched.sleepers.cancel(index);
            return false;
        }
        sched.policy.wake.hold();
        bump(&self.stats().yields);
        self.sleep(index);
        true
    }

    /// Starts a new pace epoch (after parking).
    fn restart_pace(&self) {
        if self.paced {
            self.pace.restart(self.stats(), self.sched.sleepers.awake());
        }
    }

    /// Counts `n` messages handled in the turn just run.
    pub(crate) fn count_handled(&self, n: u64) {
        if n > 0 {
            bump_by(&self.stats().handled, n);
        }
    }

    /// A send from this worker's turn pushed onto the mailbox of an actor already
    /// scheduled, whose home is `home`: counts a cross push if the actor is busy on
    /// another worker ([`super::flood`]).
    #[inline(always)]
    pub(crate) fn pushed_queued(&self, home: &Home) {
        let Some(k) = self.flood_stage else {
            return;
        };
        if home.busy_elsewhere(k) && self.flood.pushed(self.stats()) {
            // Seen by the next pick: the count of picks is moved on so that it looks at the
            // pace (a pick in [`ABSORB_EVERY`]), which sends the loop to give the work
            // back, and no other pick has to test for it.
            self.give_back_due.set(true);
            self.picks.set(self.picks.get() | (ABSORB_EVERY - 1));
        }
    }
}

impl Schedule for Worker {
    /// Messages per turn.
    #[inline]
    fn batch(&self) -> usize {
        self.sched.batch
    }

    #[inline]
    fn turn_goes_on(&self) {
        self.flush_next();
    }

    #[inline]
    fn pool_stage(&self) -> Option<usize> {
        self.pool_index
    }
}
