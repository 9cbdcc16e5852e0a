//! The scheduler: worker threads, their run queues, stealing, parking and quiescence.
//!
//! # What the scheduler knows
//!
//! The scheduler runs [`Task`]s: actors' entries ([`Scheduled`]), each an actor's home
//! ([`home`]: where it is scheduled next) around its cell, which it drives through the
//! contract in [`crate::task`]. It knows nothing of cells, placement policies, automatic
//! placement or the system. Placement decides what goes into each home word; automatic
//! placement watches the workers through the narrow [`probe::Observer`] interface and
//! decides through home words and a stage's queue order. Its own vocabulary (the
//! [`SchedulerKind`], the [`Site`] a home names, the [`INLINE_DEPTH`] of inline turns) is
//! public through [`crate::placement`].
//!
//! # The kinds of scheduler
//!
//! This describes the default, work-stealing scheduler. The other kinds
//! ([`SchedulerKind`]) change one thing each: under *work sharing* every pool task
//! goes to the one shared injector and workers take one task at a time from it (no next
//! slot, no deques, no stealing); under *stages* every actor belongs to one worker (round
//! robin at spawn, unless placed) and sits only in that worker's queues. Actors pinned to a
//! stage ([`crate::Placement`]) go to that stage's queues under every kind, and dedicated
//! stages run beside the pool ([`dedicated`]).
//!
//! # How actors reach a thread
//!
//! An actor is *scheduled* when it has, or may have, something to do: it was just spawned,
//! a push found its mailbox idle, or the garbage collector claimed it. Scheduling an actor
//! means putting a [`Task`] (a type-erased reference to the actor) on a run queue:
//!
//! * From a worker thread (inside a handler), the task goes into that worker's *next slot*;
//!   a task already there moves to the back of the worker's own deque, where idle workers can
//!   steal it. The next slot makes a chain of hand-offs (a token passed round a ring, a reply
//!   to a request) run on one thread without waking anybody: that is SALSA Lite's finding
//!   that one stage passes a token fastest, kept automatically. The slot is kept only while
//!   the turn that filled it is ending: if the running actor has another message to handle,
//!   the slot is flushed to the deque first, so a hand-off never waits behind a busy actor.
//! * A pool actor spawned from a worker thread goes on top of that worker's *nursery*, a stealable
//!   deque it pops newest first, so that a tree of spawns runs depth first and other
//!   workers steal its oldest, largest subtrees ([`worker`], "Spawns"); a lone worker
//!   queues spawns like anything else it schedules.
//! * From any other thread, the task goes into the global injector queue.
//!
//! A worker takes its next task from its next slot (at most [`governor::tunables::NEXT_SLOT_STREAK`]
//! times in a row, so a chain cannot starve the deque), then its own deque and nursery,
//! then the injector, then by stealing half of another worker's nursery or deque
//! (crossbeam-deque's work-stealing). Every 61st pick looks at the injector first, so work
//! from outside is never starved by busy workers. An actor runs one *turn*: up to `batch`
//! messages, then it goes to the back of the deque if it has more (Encore and Pony's
//! fairness rule).
//!
//! # Sleeping and waking
//!
//! A worker that finds nothing in its own queues *searches* the others, spinning briefly
//! (yielding its CPU instead on a process that may run on one CPU, where the thread that
//! would hand it work cannot run meanwhile), then parks ([`park::Sleepers`]); at most half the workers that may be awake search at
//! once, the others look once and park. Whoever makes work visible to other workers (a
//! push to the injector, a backlog on a worker) wakes one parked worker if there is one
//! and nobody is searching; a worker's backlog wakes
//! somebody only once it is as long as a threshold that rises while woken workers find
//! too little to do and falls while they keep busy ([`park`], "Waking only when it pays").
//! Work a worker keeps for itself that way waits behind its turn, which a blocking or long
//! handler makes long: one parked worker, the *watcher*, looks at the others every
//! millisecond to every few milliseconds while any is awake (its period backs off while it
//! sees no long turns), and steals what waits in a deque or nursery behind a long turn
//! ([`watch`]); an idle runtime wakes it about once a second.
//! Each worker counts where its time goes: running, searching, parked and waking others
//! ([`crate::metrics`]).
//!
//! A pool of more workers than the CPUs the process may run on lets at most as many
//! workers as CPUs be awake for shared work at once (a waker wakes nobody for shared work
//! while that many are awake), and starts the others only when they are first woken: for
//! work pinned to their stage, or once fewer are awake ([`park`], "As many awake as there
//! are CPUs", and [`start`]). With as many workers as CPUs or fewer, that rule limits
//! nothing.
//!
//! # The governor
//!
//! Every rule above that adapts to what the workers observe (the wake threshold, the
//! groups and labels, the flood give-back, the
//! watcher, the nursery, the FIFO of a worker alone, the CPU cap and lazy start) is a
//! decision of the [`governor`]: the mechanism (the files below it in the table) tells it
//! what happened at its cadence points (an epoch of the pace, a park, a search, a wake-up,
//! a watcher's look) and carries out its verdicts. Its numbers stand in one table
//! ([`governor::tunables`]). Which rules apply is a [`Governor`], chosen with
//! `Builder::governor` or `FOOTLIGHTS_GOVERNOR`: `Governor::plain()` keeps only the next
//! slot, stealing and the limit on searchers.
//!
//! # Files
//!
//! Each file (or folder) of the scheduler may import only the files its row lists, and
//! the types of this module (`super::Scheduler`, `super::Task`, ...); the files form no
//! circle. `tests/layers.rs` checks both. Bottom up:
//!
//! | file | may import | what it is |
//! |---|---|---|
//! | `governor` | nothing | every adaptive decision and its constants: the rules, the wake threshold, the pace and the labels' switch, the flood rule and the keeping turn, the watcher's timing, the cap |
//! | `park` | nothing | the parking protocol (loom-checked): the sleepers' list and the counts wakers read |
//! | `start` | nothing | starting worker threads, lazily beyond the CPUs |
//! | `waker` | nothing | waking a parked worker: off the list, its thread started, unparked |
//! | `quiescence` | nothing | counting scheduled and descheduled actors |
//! | `stage` | nothing | a worker's stage: its inbox and counters |
//! | `group` | nothing | the labels of actors that talk, and how a steal splits groups |
//! | `home` | `group`, `stage` | where an actor is scheduled next |
//! | `probe` | `stage` | what automatic placement observes |
//! | `watch` | `governor` | the watcher's role and what one look sees |
//! | `worker` | `governor`, `group`, `home`, `probe`, `stage`, `watch` | one worker: its local queues (`place`, `pick`), searching and stealing (`steal`), its loop (`run`), parking (`sleep`), the watcher's look (`rescue`) |
//! | `scheduled` | `home`, `worker` | an actor's entry in a run queue |
//! | `dedicated` | `stage`, `worker` | dedicated stages beside the pool |
//!
//! # Quiescence
//!
//! Each worker counts the actors it scheduled and the turns that ended with the actor idle
//! or stopped (descheduled); threads outside share one counter for what they schedule. The
//! system is quiescent when every scheduled actor has been descheduled: no actor running,
//! none waiting in a queue, and no message in a mailbox (a message in a mailbox keeps its
//! actor scheduled). See [`quiescence`].

pub(crate) mod dedicated;
pub(crate) mod governor;
pub(crate) mod group;
pub(crate) mod home;
pub(crate) mod park;
pub(crate) mod probe;
pub(crate) mod quiescence;
pub(crate) mod scheduled;
pub(crate) mod stage;
pub(crate) mod start;
pub(crate) mod waker;
pub(crate) mod watch;
pub(crate) mod worker;

use std::num::NonZeroUsize;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crate::sync::Parker;
use crate::sync::deque::{self as crossbeam_deque, Injector, Stealer};
use crossbeam_utils::CachePadded;

use crate::metrics::{ExternalStats, WorkerStats, bump};
use dedicated::Dedicated;
use governor::Policy;
pub use governor::{Governor, Rule};
pub use home::Site;
pub(crate) use home::{Home, Target};
use park::Sleepers;
use probe::Observer;
use quiescence::Quiescence;
pub(crate) use scheduled::{InPlace, Runnable, Scheduled, Task};
use stage::Stage;
use start::Starter;
use watch::Watch;
pub use worker::INLINE_DEPTH;
use worker::with_current as with_current_worker;

/// How worker threads share actors; see the [`crate::placement`] documentation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SchedulerKind {
    /// Each worker has its own run queue; an idle worker steals half of another's (the
    /// default). The receiver of a send usually runs next on the sender's worker (the
    /// *next slot*), except on a lone worker, which runs tasks in FIFO order unless
    /// [`crate::PlacementMode::Auto`] sees that hand-off order is better (see
    /// [`crate::Metrics::fifo_order`]).
    #[default]
    Steal,
    /// One queue shared by every worker: each turn is taken from it, and requeued to it.
    Share,
    /// SALSA Lite's stages: each actor belongs to one worker (round robin at spawn unless
    /// placed), and workers never take each other's actors.
    Stages,
}

/// How the scheduler is configured.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SchedulerConfig {
    pub(crate) threads: usize,
    pub(crate) batch: usize,
    pub(crate) kind: SchedulerKind,
    pub(crate) max_dedicated: usize,
    /// The CPUs the process may run on: at most this many workers are awake for shared
    /// work at once (see [`park`], "As many awake as there are CPUs").
    pub(crate) cpus: usize,
    /// Which adaptive rules apply ([`governor`]).
    pub(crate) governor: Governor,
}

/// The run queues and counters shared by every worker of one system.
pub(crate) struct Scheduler {
    pub(crate) kind: SchedulerKind,
    /// Which adaptive rules apply, and what the governor keeps ([`governor`]).
    pub(crate) policy: Policy,
    /// What starts the workers that have no thread yet ([`start`]).
    pub(crate) starter: Starter,
    /// Which parked worker watches for work stranded behind a long turn ([`watch`]).
    pub(crate) watch: Watch,
    /// What watches the workers, if anything (automatic placement).
    pub(crate) observer: Option<Arc<dyn Observer>>,
    pub(crate) injector: Injector<Task>,
    /// The other ends of each pool worker's deque and nursery.
    pub(crate) stealers: Box<[Stealers]>,
    /// The pool workers' stages, by index.
    pub(crate) stages: Box<[Arc<Stage>]>,
    pub(crate) sleepers: Sleepers,
    /// Whether a searching worker yields its CPU between looks rather than spinning (on
    /// one CPU: [`worker::search_yields`]).
    pub(crate) search_yields: bool,
    pub(crate) external: CachePadded<ExternalStats>,
    pub(crate) quiescence: Quiescence,
    pub(crate) dedicated: Dedicated,
    shutdown: AtomicBool,
    round_robin: AtomicUsize,
    /// Messages per turn (the configuration refuses zero).
    pub(crate) batch: NonZeroUsize,
}

/// Where other workers steal one pool worker's tasks from.
pub(crate) struct Stealers {
    /// Its deque: tasks it scheduled, oldest first.
    pub(crate) deque: Stealer<Task>,
    /// Its nursery: actors it spawned that have not run yet, oldest first (see [`worker`],
    /// "Spawns").
    pub(crate) nursery: Stealer<Task>,
}

/// What a worker thread takes with it when it starts.
pub(crate) struct WorkerSeed {
    pub(crate) index: usize,
    pub(crate) queue: crossbeam_deque::Worker<Task>,
    pub(crate) nursery: crossbeam_deque::Worker<Task>,
    pub(crate) parker: Parker,
}

impl Scheduler {
    /// A scheduler as configured, watched by `observer` if there is one. Its workers
    /// start with [`start_workers`].
    pub(crate) fn new(
        config: SchedulerConfig,
        observer: Option<Arc<dyn Observer>>,
    ) -> Arc<Scheduler> {
        let seeds: Vec<WorkerSeed> = (0..config.threads)
            .map(|index| WorkerSeed {
                index,
                queue: crossbeam_deque::Worker::new_fifo(),
                nursery: crossbeam_deque::Worker::new_lifo(),
                parker: Parker::new(),
            })
            .collect();
        let unparkers = seeds.iter().map(|s| s.parker.unparker().clone()).collect();
        let stages = seeds
            .iter()
            .map(|s| Arc::new(Stage::new(s.parker.unparker().clone(), 0)))
            .collect();
        let stealers = seeds
            .iter()
            .map(|s| Stealers {
                deque: s.queue.stealer(),
                nursery: s.nursery.stealer(),
            })
            .collect();
        // Without the CPU cap, every worker may be awake for shared work.
        let active = Policy::active(config.governor, config.threads, config.cpus);
        let sched = Arc::new_cyclic(|me| Scheduler {
            kind: config.kind,
            policy: Policy::new(config.governor),
            starter: Starter::new(me.clone(), seeds, |sched, seed| {
                worker::Worker::new(sched, seed).run();
            }),
            watch: Watch::new(),
            observer,
            injector: Injector::new(),
            stealers,
            stages,
            sleepers: Sleepers::new(unparkers, active),
            search_yields: worker::search_yields(config.cpus),
            external: CachePadded::new(ExternalStats::default()),
            quiescence: Quiescence::default(),
            dedicated: Dedicated::new(config.max_dedicated),
            shutdown: AtomicBool::new(false),
            round_robin: AtomicUsize::new(0),
            batch: NonZeroUsize::new(config.batch).unwrap_or(NonZeroUsize::MIN),
        });
        if sched.kind == SchedulerKind::Steal
            && sched.threads() == 1
            && sched.policy.rules.has(Rule::Fifo)
        {
            // A lone work-stealing worker keeps plain FIFO order (see `worker`); automatic
            // placement may switch it to hand-off order.
            sched.stages[0].set_fifo(true);
        }
        sched
    }

    /// Whether an observer watches the workers (placement `observe` or `auto`).
    #[inline]
    pub(crate) fn observed(&self) -> bool {
        self.observer.is_some()
    }

    /// Number of pool workers.
    pub(crate) fn threads(&self) -> usize {
        self.stages.len()
    }

    /// The next stage in round-robin order (where the stages scheduler puts new actors).
    pub(crate) fn next_stage(&self) -> usize {
        self.round_robin.fetch_add(1, Ordering::Relaxed) % self.threads()
    }

    /// Where an actor the runtime places in "the pool" goes under this scheduler.
    pub(crate) fn pool_site(&self) -> Site {
        match self.kind {
            SchedulerKind::Stages => Site::Stage(self.next_stage()),
            SchedulerKind::Steal | SchedulerKind::Share => Site::Pool,
        }
    }

    /// Pushes a task pinned to pool stage `k`, from a thread that is not that stage's;
    /// `by` is the pushing worker's counters, if a worker pushes.
    pub(crate) fn push_stage(&self, k: usize, task: Task, by: Option<&WorkerStats>) {
        self.stages[k].inbox.push(task);
        self.notify(k, by);
    }

    /// Pushes a pool task onto the shared injector and wakes a worker; `by` as for
    /// [`Scheduler::push_stage`].
    pub(crate) fn push_shared(&self, task: Task, by: Option<&WorkerStats>) {
        self.injector.push(task);
        self.notify_one(by);
    }

    /// Schedules `task`, whose home said `site`, from wherever the caller is.
    pub(crate) fn schedule(self: &Arc<Self>, task: Task, site: Site) {
        with_current_worker(self, |w| match w {
            Some(w) => w.schedule(task, site),
            None => self.schedule_external(task, site),
        });
    }

    /// Counts a spawn and schedules the new actor, whose home is `home`, from wherever the
    /// caller is. On an observed system, the home records the pool stage the actor will
    /// run on first.
    #[inline]
    pub(crate) fn spawned(self: &Arc<Self>, task: Task, home: &Home) {
        let site = home.target();
        with_current_worker(self, |w| {
            if self.observed() {
                let here = match site {
                    Site::Stage(k) => Some(k),
                    _ => w.and_then(worker::Worker::pool_index),
                };
                if let Some(k) = here {
                    home.ran_on(k);
                }
            }
            match w {
                Some(w) => {
                    bump(&w.stats().spawned);
                    w.spawned(task, site);
                }
                None => {
                    self.external.spawned.fetch_add(1, Ordering::Relaxed);
                    self.schedule_external(task, site);
                }
            }
        });
    }

    /// The pool stage the calling thread is, if it is a pool worker of this scheduler.
    pub(crate) fn current_pool_index(self: &Arc<Self>) -> Option<usize> {
        with_current_worker(self, |w| w.and_then(worker::Worker::pool_index))
    }

    /// Schedules `task`, whose home said `site`, from a thread that is not one of this
    /// scheduler's workers.
    pub(crate) fn schedule_external(&self, task: Task, site: Site) {
        if self.is_shutdown() {
            // No worker will run it: close its mailbox and release its reference now.
            discard_after_shutdown(task);
            return;
        }
        self.external.scheduled.fetch_add(1, Ordering::Release);
        let task = match site {
            Site::Stage(k) => return self.push_stage(k, task, None),
            Site::Dedicated => {
                // Keep the cell (and the lock inside it) alive through the push.
                let keep = Arc::clone(&task);
                match keep.home().push_dedicated(task) {
                    Ok(()) => return,
                    Err(task) => task,
                }
            }
            Site::Pool | Site::Inline => task,
        };
        match self.kind {
            SchedulerKind::Stages => self.push_stage(self.next_stage(), task, None),
            SchedulerKind::Steal | SchedulerKind::Share => self.push_shared(task, None),
        }
    }

    /// Whether any queue every pool worker may take from holds a task.
    pub(crate) fn has_pool_work(&self) -> bool {
        match self.kind {
            SchedulerKind::Steal => {
                !self.injector.is_empty()
                    || self
                        .stealers
                        .iter()
                        .any(|s| !s.deque.is_empty() || !s.nursery.is_empty())
            }
            SchedulerKind::Share => !self.injector.is_empty(),
            SchedulerKind::Stages => false,
        }
    }

    pub(crate) fn is_shutdown(&self) -> bool {
        self.shutdown.load(Ordering::Acquire)
    }

    /// Asks every worker to stop after its current turn, and wakes them all. Returns the
    /// dedicated stages' threads, to join.
    pub(crate) fn begin_shutdown(&self) -> Vec<std::thread::JoinHandle<()>> {
        self.shutdown.store(true, Ordering::Release);
        self.sleepers.wake_all();
        self.dedicated.wake_all()
    }

    /// Discards the tasks left in the queues after the workers have stopped
    /// ([`discard_after_shutdown`]), so that the actors they reference (which reference
    /// this scheduler) can be freed, and nothing waits in their mailboxes.
    pub(crate) fn drain_queues(&self) {
        loop {
            match self.injector.steal() {
                crossbeam_deque::Steal::Success(task) => discard_after_shutdown(task),
                crossbeam_deque::Steal::Retry => {}
                crossbeam_deque::Steal::Empty => break,
            }
        }
        for stage in self.stages.iter() {
            while let Some(task) = stage.take() {
                discard_after_shutdown(task);
            }
        }
        self.dedicated.drain();
    }
}

thread_local! {
    /// Tasks whose release is deferred while this thread is already releasing one.
    static RELEASING: std::cell::RefCell<Option<Vec<Task>>> =
        const { std::cell::RefCell::new(None) };
}

/// Drops a task after shutdown without recursing. Freeing an actor drops its state, whose
/// addresses may release the last reference to further actors, whose collection lands
/// here again: a chain of a hundred thousand actors would recurse that deep and overflow
/// the stack. So a release that begins while another is under way on this thread is queued,
/// and the outermost one drains the queue in a loop.
pub(crate) fn release_after_shutdown(task: Task) {
    let first = RELEASING.with(|r| {
        let mut r = r.borrow_mut();
        match r.as_mut() {
            Some(queue) => {
                queue.push(task);
                None
            }
            None => {
                *r = Some(Vec::new());
                Some(task)
            }
        }
    });
    let Some(task) = first else {
        return;
    };
    drop(task);
    while let Some(next) = RELEASING.with(|r| r.borrow_mut().as_mut().and_then(Vec::pop)) {
        drop(next);
    }
    RELEASING.with(|r| *r.borrow_mut() = None);
}

/// Drops a task no worker will run, its system having shut down: the actor's mailbox is
/// closed first ([`crate::task::Run::discard`]), so that a request queued in it resolves
/// (its reply is cancelled) and later sends are refused, then the task is released as
/// [`release_after_shutdown`] does. Only for a scheduling right (a task taken from a run
/// queue, or one a push that woke the actor handed over), never for an address's
/// reference.
pub(crate) fn discard_after_shutdown(task: Task) {
    // SAFETY: the caller holds the scheduling right, and the workers have stopped.
    unsafe { task.discard() };
    release_after_shutdown(task);
}

/// Starts the worker threads of `sched` that start with the system: as many as may be
/// awake for shared work at once (the others start when first woken, see [`start`]).
pub(crate) fn start_workers(
    sched: &Arc<Scheduler>,
) -> std::io::Result<Vec<std::thread::JoinHandle<()>>> {
    (0..sched.sleepers.active())
        .map(|index| sched.starter.start_now(index))
        .collect()
}

impl Scheduler {
    /// The pool workers' threads started since the system was built (shutdown: the caller
    /// joins them, after [`Scheduler::begin_shutdown`], which stops any more starting).
    pub(crate) fn take_lazy_threads(&self) -> Vec<std::thread::JoinHandle<()>> {
        self.starter.take_threads()
    }
}
