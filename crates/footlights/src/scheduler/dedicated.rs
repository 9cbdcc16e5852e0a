//! Dedicated stages: a thread of its own for an actor that blocks (or for every actor,
//! under the `thread` policy).
//!
//! # Life of a dedicated stage
//!
//! 1. **Start.** Placing an actor on a dedicated stage starts a thread with a [`Stage`]
//!    that counts one resident actor. If the system already runs its limit of dedicated
//!    stages ([`crate::Builder::max_dedicated`]), or the operating system refuses the
//!    thread, nothing starts: the actor goes to the pool and the refusal is counted.
//! 2. **Run.** The thread takes tasks from its stage's inbox and runs their turns; with
//!    none, it parks. Anything it schedules for other actors goes where their homes say.
//! 3. **Retire.** A resident actor that stops or moves away leaves the stage; the last
//!    one wakes the thread. Every push onto the stage happens under the pushing actor's
//!    home lock and before that actor can leave (see [`super::home`]), so once the
//!    count is zero nothing new can arrive: the thread empties its inbox and ends.
//!
//! # Counting
//!
//! A stage's thread writes its own counters, like a pool worker. Quiescence and metrics
//! sum the live stages' counters and the counters of retired stages, which a retiring
//! thread adds into one total under the registry lock; the quiescence check holds that lock
//! across both of its sweeps, so a retirement never happens halfway through one.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::JoinHandle;

use crate::sync::Parker;
use parking_lot::{Mutex, MutexGuard};

use super::Scheduler;
use super::stage::Stage;
use super::worker::Worker;
use crate::metrics::WorkerStats;

/// The stack size of a dedicated stage's thread. Actors are event-based, so a turn needs
/// little stack; a small one keeps thousands of stages cheap.
const STACK_SIZE: usize = 256 * 1024;

/// Every dedicated stage of one system.
pub(crate) struct Dedicated {
    registry: Mutex<Registry>,
    live: AtomicUsize,
    max: usize,
}

/// What the registry lock guards.
pub(crate) struct Registry {
    /// The live stages.
    pub(crate) stages: Vec<Arc<Stage>>,
    /// The counters of stages that retired.
    pub(crate) retired: WorkerStats,
    threads: Vec<JoinHandle<()>>,
    started: u64,
    refused: u64,
}

impl Dedicated {
    pub(crate) fn new(max: usize) -> Dedicated {
        Dedicated {
            registry: Mutex::new(Registry {
                stages: Vec::new(),
                retired: WorkerStats::default(),
                threads: Vec::new(),
                started: 0,
                refused: 0,
            }),
            live: AtomicUsize::new(0),
            max,
        }
    }

    /// Starts a dedicated stage with one resident actor, or says why not by returning
    /// `None` (the refusal is counted).
    pub(crate) fn start(&self, sched: &Arc<Scheduler>) -> Option<Arc<Stage>> {
        let mut registry = self.registry.lock();
        if self.live.load(Ordering::Relaxed) >= self.max || sched.is_shutdown() {
            registry.refused += 1;
            return None;
        }
        let parker = Parker::new();
        let stage = Arc::new(Stage::new(parker.unparker().clone(), 1));
        let worker_stage = Arc::clone(&stage);
        let retiring = Arc::clone(&stage);
        let worker_sched = Arc::clone(sched);
        let spawned = std::thread::Builder::new()
            .name("footlights-dedicated".to_owned())
            .stack_size(STACK_SIZE)
            .spawn(move || {
                let sched = Arc::clone(&worker_sched);
                Worker::dedicated(worker_sched, worker_stage, parker).run_dedicated();
                sched.dedicated.retire(&retiring);
                // Its last turn may have been the system's last work: a quiescence
                // waiter must look again now that the counters are folded.
                sched.quiescence.worker_idle();
            });
        match spawned {
            Ok(handle) => {
                registry.threads.retain(|t| !t.is_finished());
                registry.threads.push(handle);
                registry.stages.push(Arc::clone(&stage));
                registry.started += 1;
                self.live.fetch_add(1, Ordering::Relaxed);
                Some(stage)
            }
            Err(_) => {
                registry.refused += 1;
                None
            }
        }
    }

    /// Called by a stage's thread as it ends: folds its counters into the retired total.
    fn retire(&self, stage: &Arc<Stage>) {
        let mut registry = self.registry.lock();
        if let Some(at) = registry.stages.iter().position(|s| Arc::ptr_eq(s, stage)) {
            let stage = registry.stages.swap_remove(at);
            registry.retired.add(&stage.stats);
            self.live.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// The registry, locked (for sums that must not see a retirement halfway).
    pub(crate) fn lock(&self) -> MutexGuard<'_, Registry> {
        self.registry.lock()
    }

    /// Dedicated stages started, and placements refused, so far.
    pub(crate) fn started_and_refused(&self) -> (u64, u64) {
        let registry = self.registry.lock();
        (registry.started, registry.refused)
    }

    /// Dedicated stages running now.
    pub(crate) fn live(&self) -> usize {
        self.live.load(Ordering::Relaxed)
    }

    /// Wakes every dedicated stage (shutdown) and hands back their threads to join.
    pub(crate) fn wake_all(&self) -> Vec<JoinHandle<()>> {
        let mut registry = self.registry.lock();
        for stage in &registry.stages {
            stage.wake();
        }
        std::mem::take(&mut registry.threads)
    }

    /// Drops the tasks left in the live stages' inboxes once their threads have ended.
    pub(crate) fn drain(&self) {
        let stages: Vec<Arc<Stage>> = std::mem::take(&mut self.registry.lock().stages);
        for stage in stages {
            while let Some(task) = stage.take() {
                super::discard_after_shutdown(task);
            }
        }
    }
}

impl Registry {
    /// Every counter set: the live stages' and the retired total.
    pub(crate) fn all_stats(&self) -> impl Iterator<Item = &WorkerStats> {
        self.stages
            .iter()
            .map(|s| &*s.stats)
            .chain(std::iter::once(&self.retired))
    }
}
