//! Automatic placement: sample what actors do while the program runs, and move the actors
//! the runtime placed itself ([`crate::PlacementMode::Auto`]).
//!
//! # How it fits
//!
//! Automatic placement is a policy over the scheduler, not a part of it. The scheduler
//! offers an observer interface (the scheduler's `probe` module), through which `Auto`
//! receives what each worker records of the turns it samples; decisions go back down as
//! stores to actors' home words and to a stage's queue-order flag, which the scheduler
//! reads anyway. A controller thread does the rest, in three steps, one file each:
//!
//! 1. **Observe** (`observe.rs`): what the workers record of sampled turns, the glimpses
//!    the controller takes of turns in progress and the watch it puts on long ones, and
//!    the decaying averages kept of them.
//! 2. **Decide** (`decide.rs`): the rules (blocking actors get a stage of their own,
//!    CPU-heavy ones stay in the pool, cheap leaves run inline, chatty groups share a stage,
//!    a lone worker's queue order, and communities that talk many to many stay whole, one
//!    stage each).
//! 3. **Move** (`moves.rs`): applying a decision.
//!
//! Every [`ROUND`] the controller glimpses the turns in progress, watches long turns,
//! folds the new samples into its averages, and (in `auto` mode, on a lone work-stealing
//! worker) chooses the queue order;
//! every [`DECIDE_EVERY`] rounds it applies the other rules (in `auto` mode) and halves the
//! averages; the rule for communities is looked at every round and paces itself. Only
//! actors spawned with [`crate::Placement::Default`] under the `task` policy are moved;
//! what the program placed stays where it was put. In `observe` mode it samples
//! and moves nothing, which measures what sampling costs.

pub(crate) mod community;
pub(crate) mod decide;
pub(crate) mod moves;
pub(crate) mod observe;
mod thread_time;

use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::thread::JoinHandle;
use std::time::Duration;

use parking_lot::Mutex;

pub use decide::GROUP_LOAD;
use decide::OrderState;
use moves::Mover;
pub use observe::{BUSY_CPU, SAMPLE_EVERY};
use observe::{Observations, StageProbe};

use crate::placement::{PlacementMode, Policy, SchedulerKind};
use crate::scheduler::Scheduler;

/// How often the controller looks at the stages.
pub const ROUND: Duration = Duration::from_millis(2);
/// Rounds at the start that last a quarter of [`ROUND`].
const EARLY_ROUNDS: u32 = 4;
/// Decisions are made every this many rounds.
pub const DECIDE_EVERY: u32 = 5;

/// Automatic placement on one system: the scheduler's observer, and what the controller
/// and the system's metrics share.
pub(crate) struct Auto {
    mode: PlacementMode,
    /// The stages whose workers have started, with what they recorded.
    stages: Mutex<Vec<Arc<StageProbe>>>,
    /// Actors moved so far.
    pub(crate) placement_moves: AtomicU64,
    /// Queue-order switches made so far.
    pub(crate) queue_switches: AtomicU64,
}

impl Auto {
    /// Automatic placement in `mode` (`observe` or `auto`).
    pub(crate) fn new(mode: PlacementMode) -> Auto {
        debug_assert_ne!(
            mode,
            PlacementMode::Manual,
            "manual placement observes nothing"
        );
        Auto {
            mode,
            stages: Mutex::new(Vec::new()),
            placement_moves: AtomicU64::new(0),
            queue_switches: AtomicU64::new(0),
        }
    }
}

/// Starts the controller thread of `auto` on the system of `sched`, whose default policy
/// is `policy`. It ends at the scheduler's shutdown (unpark its thread to hurry it).
pub(crate) fn start(
    auto: &Arc<Auto>,
    sched: &Arc<Scheduler>,
    policy: Policy,
) -> std::io::Result<JoinHandle<()>> {
    // Who talks to whom is kept only where rule 6 may use it.
    let track_talk = auto.mode == PlacementMode::Auto
        && sched.threads() >= 2
        && sched.kind == SchedulerKind::Steal;
    // Cross-stage sends are kept longer where rule 4 may use them.
    let colocating = auto.mode == PlacementMode::Auto
        && sched.threads() >= 2
        && sched.kind != SchedulerKind::Steal;
    let controller = Controller {
        auto: Arc::clone(auto),
        mover: Mover::new(Arc::clone(sched), policy, Arc::clone(auto)),
        observations: Observations::new(track_talk, colocating),
        order: OrderState::default(),
    };
    std::thread::Builder::new()
        .name("footlights-placement".to_owned())
        .spawn(move || controller.run())
}

/// The controller thread's state.
struct Controller {
    auto: Arc<Auto>,
    mover: Mover,
    observations: Observations,
    order: OrderState,
}

impl Controller {
    fn run(mut self) {
        let mut round = 0u32;
        let auto = self.auto.mode == PlacementMode::Auto;
        loop {
            // The first rounds are short, so that the queue order is chosen early in a
            // short program (where its actors end up in memory is set by then).
            std::thread::park_timeout(if round < EARLY_ROUNDS {
                ROUND / 4
            } else {
                ROUND
            });
            if self.mover.sched().is_shutdown() {
                return;
            }
            let stages = self.auto.live_stages();
            observe::look_at_turns(&stages);
            self.observations.ingest(&stages);
            if auto && self.orders_queue() {
                decide::choose_order(&self.observations, &mut self.order, &self.mover);
            }
            if auto {
                community::communities(&mut self.observations, &self.mover);
            }
            round += 1;
            if round % DECIDE_EVERY == 0 {
                if auto {
                    decide::decide(&mut self.observations, &self.mover);
                }
                self.observations.decay();
            }
        }
    }

    /// Whether the controller chooses the queue order: a lone work-stealing worker.
    fn orders_queue(&self) -> bool {
        let sched = self.mover.sched();
        sched.threads() == 1 && sched.kind == SchedulerKind::Steal
    }
}
