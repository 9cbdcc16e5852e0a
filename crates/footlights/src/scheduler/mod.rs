//! The scheduler: worker threads, their run queues, stealing, parking and quiescence.
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
//! * From any other thread, the task goes into the global injector queue.
//!
//! A worker takes its next task from its next slot (at most [`worker::NEXT_SLOT_STREAK`]
//! times in a row, so a chain cannot starve the deque), then its own deque, then the
//! injector, then by stealing half of another worker's deque (crossbeam-deque's
//! work-stealing). Every 61st pick looks at the injector first, so work from outside is
//! never starved by busy workers. An actor runs one *turn*: up to `batch` messages, then it
//! goes to the back of the deque if it has more (Encore and Pony's fairness rule).
//!
//! # Sleeping and waking
//!
//! A worker that finds nothing spins briefly while searching, then parks
//! ([`park::Sleepers`]); an idle runtime uses no CPU. Whoever makes work visible to other
//! workers (a push to the injector, or a second runnable task on a worker) wakes one parked
//! worker if there is one.
//!
//! # Quiescence
//!
//! Each worker counts the actors it scheduled and the turns that ended with the actor idle
//! or stopped (descheduled); threads outside share one counter for what they schedule. The
//! system is quiescent when every scheduled actor has been descheduled: no actor running,
//! none waiting in a queue, and no message in a mailbox (a message in a mailbox keeps its
//! actor scheduled). See [`quiescence`].

pub(crate) mod park;
pub(crate) mod quiescence;
pub(crate) mod worker;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crossbeam_deque::{Injector, Stealer};
use crossbeam_utils::CachePadded;
use crossbeam_utils::sync::Parker;

use crate::metrics::{ExternalStats, WorkerStats};
use crate::system::Shared;
use park::Sleepers;
use quiescence::Quiescence;

/// Something a worker can run for one turn: an actor, type-erased.
pub(crate) trait Runnable: Send + Sync + 'static {
    /// Runs one turn on `worker`. The task either reschedules itself through the worker or
    /// marks itself idle; dropping `self` releases the run queue's reference.
    fn run_turn(self: Arc<Self>, worker: &worker::Worker);
}

/// A scheduled actor in a run queue.
pub(crate) type Task = Arc<dyn Runnable>;

/// The run queues and counters shared by every worker of one system.
pub(crate) struct Scheduler {
    pub(crate) injector: Injector<Task>,
    pub(crate) stealers: Box<[Stealer<Task>]>,
    pub(crate) sleepers: Sleepers,
    pub(crate) stats: Box<[Arc<CachePadded<WorkerStats>>]>,
    pub(crate) external: CachePadded<ExternalStats>,
    pub(crate) quiescence: Quiescence,
    shutdown: AtomicBool,
    pub(crate) batch: usize,
}

/// What a worker thread takes with it when it starts.
pub(crate) struct WorkerSeed {
    pub(crate) index: usize,
    pub(crate) queue: crossbeam_deque::Worker<Task>,
    pub(crate) parker: Parker,
}

impl Scheduler {
    /// A scheduler for `threads` workers, and the per-worker parts to start them with.
    pub(crate) fn new(threads: usize, batch: usize) -> (Scheduler, Vec<WorkerSeed>) {
        let seeds: Vec<WorkerSeed> = (0..threads)
            .map(|index| WorkerSeed {
                index,
                queue: crossbeam_deque::Worker::new_fifo(),
                parker: Parker::new(),
            })
            .collect();
        let sched = Scheduler {
            injector: Injector::new(),
            stealers: seeds.iter().map(|s| s.queue.stealer()).collect(),
            sleepers: Sleepers::new(seeds.iter().map(|s| s.parker.unparker().clone()).collect()),
            stats: (0..threads)
                .map(|_| Arc::new(CachePadded::new(WorkerStats::default())))
                .collect(),
            external: CachePadded::new(ExternalStats::default()),
            quiescence: Quiescence::default(),
            shutdown: AtomicBool::new(false),
            batch,
        };
        (sched, seeds)
    }

    /// Number of workers.
    pub(crate) fn threads(&self) -> usize {
        self.stealers.len()
    }

    /// Schedules `task` from a thread that is not one of this scheduler's workers.
    pub(crate) fn schedule_external(&self, task: Task) {
        if self.is_shutdown() {
            // No worker will run it: release its reference now (its mailbox stays scheduled,
            // and sends fail once the system is shut down).
            drop(task);
            return;
        }
        self.external.scheduled.fetch_add(1, Ordering::Release);
        self.injector.push(task);
        self.sleepers.notify_one();
    }

    /// Whether any queue other workers could take from holds a task.
    pub(crate) fn has_stealable_work(&self) -> bool {
        !self.injector.is_empty() || self.stealers.iter().any(|s| !s.is_empty())
    }

    pub(crate) fn is_shutdown(&self) -> bool {
        self.shutdown.load(Ordering::Acquire)
    }

    /// Asks every worker to stop after its current turn, and wakes them all.
    pub(crate) fn begin_shutdown(&self) {
        self.shutdown.store(true, Ordering::Release);
        self.sleepers.wake_all();
    }

    /// Drops the tasks left in the injector after the workers have stopped, so that the
    /// actors they reference (which reference this scheduler) can be freed.
    pub(crate) fn drain_injector(&self) {
        while !matches!(self.injector.steal(), crossbeam_deque::Steal::Empty) {}
    }
}

/// Starts the worker threads of `shared`.
pub(crate) fn start_workers(
    shared: &Arc<Shared>,
    seeds: Vec<WorkerSeed>,
) -> std::io::Result<Vec<std::thread::JoinHandle<()>>> {
    seeds
        .into_iter()
        .map(|seed| {
            let shared = Arc::clone(shared);
            std::thread::Builder::new()
                .name(format!("footlights-worker-{}", seed.index))
                .spawn(move || worker::Worker::new(shared, seed).run())
        })
        .collect()
}
