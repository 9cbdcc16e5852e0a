//! One worker thread: its run queues, its next slot, and its loop.
//!
//! A pool worker's loop is: take a task, run one turn of it, repeat. Where it looks, in
//! order:
//!
//! 1. every 61st pick, its stage's inbox and the shared injector first (so work from other
//!    threads is never starved by a busy worker); under the stages scheduler, what other
//!    threads scheduled also joins the back of the private FIFO every 8 picks;
//! 2. the next slot (steal scheduler only, at most [`NEXT_SLOT_STREAK`](crate::scheduler::governor::tunables::NEXT_SLOT_STREAK) times in a row
//!    while other tasks wait; a chain with nothing behind it just goes on);
//! 3. its own pinned work (actors pinned to this stage: a private FIFO for what this worker
//!    scheduled, the stage's inbox for what others did), its stealable deque and its
//!    nursery (below), taking turns at which comes first so none starves the others (the
//!    deque every other pick, the pinned work and the nursery every fourth each; and a
//!    chain of hand-offs spills when a spawn waits, as when other work does);
//! 4. the injector: a batch of it under work stealing, one task under work sharing;
//! 5. the other workers' nurseries and deques (work stealing only), in that order. Once
//!    the system labels groups (its pace found a tug of war, [`crate::scheduler::governor::pace`]), a deque is
//!    stolen from by whole groups, or not at all, or by halves if it holds one group whose
//!    worker is busy with long turns ([`crate::scheduler::group`]).
//!
//! With nothing to do, it searches for a short while, then parks (see [`crate::scheduler::park`]).
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
//! does ([`crate::scheduler::park`]). Newest first alone could leave a worker's first spawns waiting for as
//! long as it keeps spawning, so the worker also takes its *oldest* spawn every [`INJECTOR_EVERY`](crate::scheduler::governor::tunables::INJECTOR_EVERY)
//! picks (every [`ABSORB_EVERY`](crate::scheduler::governor::tunables::ABSORB_EVERY) while it keeps FIFO order, when it looks at the nursery last;
//! every [`ALONE_LOOK_EVERY`](crate::scheduler::governor::tunables::ALONE_LOOK_EVERY) while it is alone for now and nothing from other threads waits). A
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
//! threshold is above 1, see [`crate::scheduler::park`]). What it schedules then goes to its private
//! FIFO instead of its deque (no atomic operation per task, and a hub's requests pile up
//! and are served many a turn, as on one worker; what it spawns still goes to its
//! nursery, where others can steal it), and it publishes the FIFO to its deque
//! when the FIFO is as long as the wake threshold (it then wakes a sleeper), when another
//! worker is awake again, or when it gives its work back ([`crate::scheduler::park`], "Giving back"). So a chatty
//! group whose second worker sleeps runs as it would on one worker.
//!
//! A turn that floods actors busy on another worker *keeps* the same way, whoever is awake
//! ([`Rule::Keep`], [`crate::scheduler::governor::flood`], "Within one turn"): from the
//! verdict to the turn's end, what it wakes goes to the private FIFO, where nobody steals it
//! and nobody is woken for it, and the receiver's worker is asked (through its stage) to
//! give its work back; the first look at its company after the turn publishes the FIFO as
//! a growing FIFO would have.
//!
//! A dedicated stage runs the same `Worker` with a simpler loop: its inbox, then park, and
//! retire when no actor lives on it any more ([`super::dedicated`]).
//!
//! The worker publishes itself in a thread-local while it runs, so that a handler's `send`
//! or `spawn` can schedule onto this worker's queues without any shared state, count on
//! this worker's own counters, and run an inline actor's turn right here. It is also what
//! a turn calls back through ([`crate::task::Schedule`]).
//!
//! **Files.** What a worker does is split by kind: where a task goes (`place.rs`: the
//! next slot, the deque, the nursery, the private FIFO) and where it comes from
//! (`pick.rs`), which together are its local queues; searching and stealing
//! (`steal.rs`); its loops and turns (`run.rs`); parking, dozing as the watcher and giving
//! work back (`sleep.rs`); the watcher's look (`rescue.rs`). Every adaptive choice among
//! them is the governor's ([`crate::scheduler::governor`]); this module carries it out.
//!
//! An inline turn runs inside the turn of the handler that sent to it; a chain of them
//! deeper than [`INLINE_DEPTH`] is scheduled instead, so that cycles and long chains can
//! neither deadlock nor overflow the stack.

mod keep;
mod pick;
mod place;
mod rescue;
mod run;
mod sleep;
mod steal;
pub(crate) use steal::search_yields;
#[cfg(all(test, not(loom)))]
mod tests;

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::ptr;
use std::sync::Arc;

use crate::sync::Parker;
use crate::sync::deque as crossbeam_deque;

use super::governor::Rule;
use super::governor::flood::Flood;
use super::governor::pace::Pace;
use super::probe::Sampler;
use super::stage::Stage;
use super::watch::Sightings;
use super::{Scheduler, SchedulerKind, Task, WorkerSeed};
use crate::metrics::{WorkerStats, bump};
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
/// A fresh pool task is handed off in FIFO order, pinned: a lone worker keeping FIFO order.
const POOL_IN_ORDER: u8 = 0;
/// A fresh pool task takes the next slot, not pinned: a pool worker of several, plain.
const POOL_NEXT: u8 = 1;
/// Any other placement of a fresh pool task ([`Worker::hand_off`], or not work stealing).
const POOL_OTHER: u8 = 2;
/// A fresh pool task is handed off in FIFO order, not pinned: a pool worker of several
/// alone for now, keeping FIFO order (the same hand-off as the lone worker's, without the
/// two tests of [`Worker::hand_off`]'s way to it).
const POOL_IN_ORDER_SHARED: u8 = 3;

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
///
/// `repr(C)`, with the fields a turn or a send reads first: their offsets stay put when
/// a field is added further down, and all are below 128 bytes, where an x86 instruction
/// addresses them with a one-byte displacement. Left to the compiler, the order changed
/// with any field added anywhere, and with it the size of the hot code (see
/// `docs/scaling.md`, "The hot path").
#[repr(C)]
pub(crate) struct Worker {
    // Hot: read on every turn or send.
    sched: Arc<Scheduler>,
    /// This thread's stage: its inbox and counters (also reachable from `sched`).
    pub(crate) stage: Arc<Stage>,
    next: Cell<Option<Task>>,
    picks: Cell<u32>,
    streak: Cell<u32>,
    inline_depth: Cell<u32>,
    /// A pool worker under work stealing (the scheduler's fast path).
    steal_pool: bool,
    /// The only pool worker under work stealing: nobody can steal, so what would go to
    /// the deque goes to the private FIFO instead (no atomic operations on the way).
    solo: bool,
    /// Whether it keeps FIFO order: a lone worker's copy of its stage's `fifo` flag, or a
    /// pool worker of several alone for now ([`Worker::refresh_alone`]).
    fifo: Cell<bool>,
    /// Whether the task in the next slot is pinned to this stage (it then spills to the
    /// private FIFO, not the stealable deque).
    next_pinned: Cell<bool>,
    /// Whether a turn takes [`Worker::run_noted_turn`]: the worker is observed, or labels
    /// groups (one test a turn for the two); kept by [`Worker::set_grouping`].
    noted: Cell<bool>,
    /// How a fresh hand-off is placed: [`PLAIN`], [`FIFO`] (`fifo` is set) or [`GROUPING`].
    hand_off_mode: Cell<u8>,
    /// How `place` hands off a fresh pool task, from `steal_pool`, `solo` and
    /// `hand_off_mode` (kept by `set_hand_off_mode`): [`POOL_IN_ORDER`], [`POOL_NEXT`],
    /// [`POOL_IN_ORDER_SHARED`] or [`POOL_OTHER`]. One load and compare instead of three
    /// loads and four tests a send.
    pool_hand_off: Cell<u8>,
    /// Whether this worker should keep a pace (a pool worker under work stealing with
    /// others to share with); its pace is below.
    paced: bool,
    /// Whether the system labels groups ([`crate::scheduler::group`]), as of this worker's
    /// last pace tick.
    grouping: Cell<bool>,
    /// Set when a cross flood ([`crate::scheduler::governor::flood`]) said to give the work
    /// back, or another worker's keeping turn asked for it ([`keep`]; `next_task` then
    /// returns nothing).
    give_back_due: Cell<bool>,
    /// Whether what it spawns for the pool goes to its nursery: `paced` and the governor
    /// has [`Rule::Nursery`].
    nursery_spawns: bool,
    /// Messages per turn: the scheduler's, kept here so that a turn reads it with one
    /// load instead of two (where `running_label` was, which moved down: only the
    /// observed or grouping turns write it, and a grouping hand-off reads it).
    batch: std::num::NonZeroUsize,
    /// Tasks pinned to this stage that this worker scheduled itself.
    local: RefCell<VecDeque<Task>>,
    /// Which turns an observer records, and its recorder.
    sampler: Sampler,
    // Warm: several workers' picks and sends.
    /// The label of the actor whose turn runs, while the system labels groups.
    running_label: Cell<u64>,
    /// This worker's pool index if it counts cross pushes
    /// ([`crate::scheduler::governor::flood`]): one test on the paths that count (it is
    /// `paced` and the governor has [`Rule::Flood`] or [`Rule::Keep`]).
    flood_stage: Option<usize>,
    queue: crossbeam_deque::Worker<Task>,
    /// Actors this pool worker spawned that have not run yet, newest on top (see the
    /// module documentation, "Spawns"); other workers steal the oldest.
    nursery: crossbeam_deque::Worker<Task>,
    // Cold: searching, parking, the pace.
    /// The pool index, or `None` for a dedicated stage.
    pool_index: Option<usize>,
    kind: SchedulerKind,
    /// Whether it may keep FIFO order ([`Rule::Fifo`]).
    fifo_rule: bool,
    parker: Parker,
    rng: XorShift,
    pace: Pace,
    /// This worker's cross pushes ([`crate::scheduler::governor::flood`]).
    flood: Flood,
    /// A keeping turn of this worker under way ([`Rule::Keep`], [`keep`]).
    keeping: Cell<Option<keep::Keeping>>,
    /// Whether the give-back due was asked for by another worker's keeping turn ([`keep`]).
    asked_to_give_back: Cell<bool>,
    /// A group steal declined since this worker last woke: it steals from no deque.
    declined: Cell<bool>,
    /// On an observed worker, the stage's turn count at the start of the innermost
    /// inline turn under way (see [`Worker::run_inline_counted`]).
    inline_turn: Cell<u64>,
    /// What this worker saw of the others while it watched ([`crate::scheduler::watch`]).
    sightings: Sightings,
    /// A test aid only (`--cfg footlights_layout_probe`): an unused field of the nursery's
    /// size, to see whether an unrelated change of the worker's layout moves the hot path
    /// (see `docs/scaling.md`, "The hot path").
    #[cfg(footlights_layout_probe)]
    _layout_probe: crossbeam_deque::Worker<Task>,
}

/// A test aid only (`--cfg footlights_layout_probe`): a cold function nobody calls, kept in
/// the binary, next to the hot path's code (see `docs/scaling.md`, "The hot path").
#[cfg(footlights_layout_probe)]
#[cold]
#[inline(never)]
fn layout_probe_cold(worker: &Worker, task: Task) {
    worker._layout_probe.push(task);
    while let Some(task) = worker._layout_probe.pop() {
        worker.local.borrow_mut().push_back(task);
    }
}

/// Keeps [`layout_probe_cold`] in the binary although nothing calls it.
#[cfg(footlights_layout_probe)]
#[used]
static LAYOUT_PROBE_COLD: fn(&Worker, Task) = layout_probe_cold;

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
        let sampler_enabled = sampler.enabled();
        // Only a pool worker under work stealing with others to share with watches, and
        // only if the governor has the watcher.
        let watched = if steal_pool && !solo && rules.has(Rule::Watcher) {
            sched.threads()
        } else {
            0
        };
        let batch = sched.batch;
        let worker = Worker {
            batch,
            sched,
            stage,
            pool_index,
            kind,
            steal_pool,
            solo,
            fifo: Cell::new(fifo),
            hand_off_mode: Cell::new(if fifo { FIFO } else { PLAIN }),
            pool_hand_off: Cell::new(POOL_OTHER),
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
            inline_turn: Cell::new(0),
            sampler,
            paced: steal_pool && !solo,
            nursery_spawns: steal_pool && !solo && rules.has(Rule::Nursery),
            fifo_rule,
            pace: Pace::new(),
            give_back_due: Cell::new(false),
            flood: Flood::new(rules.has(Rule::Flood), rules.has(Rule::Keep), batch.get()),
            keeping: Cell::new(None),
            asked_to_give_back: Cell::new(false),
            flood_stage: pool_index.filter(|_| {
                steal_pool && !solo && (rules.has(Rule::Flood) || rules.has(Rule::Keep))
            }),
            grouping: Cell::new(false),
            running_label: Cell::new(0),
            noted: Cell::new(sampler_enabled),
            declined: Cell::new(false),
            sightings: Sightings::new(watched),
            #[cfg(footlights_layout_probe)]
            _layout_probe: crossbeam_deque::Worker::new_lifo(),
        };
        worker.set_hand_off_mode();
        worker
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

    /// This worker's pool index if it counts cross pushes ([`crate::scheduler::governor::flood`]): a pool
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

    /// Whether a send from the running handler may run an inline actor's turn right here.
    #[inline]
    pub(crate) fn can_inline(&self) -> bool {
        self.inline_depth.get() < INLINE_DEPTH
    }

    /// Records that a task left the scheduled state (idle or stopped).
    pub(crate) fn deschedule(&self) {
        bump(&self.stats().descheduled);
    }
}

impl Schedule for Worker {
    /// Messages per turn.
    #[inline]
    fn batch(&self) -> std::num::NonZeroUsize {
        self.batch
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
