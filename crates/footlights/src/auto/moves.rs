//! Moving: how the controller applies what it decided.
//!
//! A decision reaches the scheduler as data it reads anyway, never as a call into it:
//!
//! * **Moving an actor** is a store to its home word through placement
//!   ([`crate::placement::relocate`]), which resolves the new placement (starting a
//!   dedicated stage if it needs one) exactly as for a program's own [`crate::Addr::place`].
//!   The move takes effect at the actor's next scheduling, so it can never reorder messages
//!   or let two threads run one actor. The runtime marks what it moved as movable, so it
//!   may move it again; what a program placed itself is never moved.
//! * **A lone worker's queue order** is a flag on its stage, which the worker reads every
//!   few picks.
//!
//! Both are counted, for [`crate::Metrics::placement_moves`] and
//! [`crate::Metrics::queue_switches`].

use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::Auto;
use crate::placement::{self, Placement, Policy};
use crate::scheduler::stage::Stage;
use crate::scheduler::{Scheduler, Task};

/// Applies the controller's decisions to one system.
pub(super) struct Mover {
    sched: Arc<Scheduler>,
    policy: Policy,
    auto: Arc<Auto>,
}

impl Mover {
    pub(super) fn new(sched: Arc<Scheduler>, policy: Policy, auto: Arc<Auto>) -> Mover {
        Mover {
            sched,
            policy,
            auto,
        }
    }

    /// The scheduler decisions are applied to.
    pub(super) fn sched(&self) -> &Arc<Scheduler> {
        &self.sched
    }

    /// Moves `actor` to `placement`, keeping it movable by the runtime.
    pub(super) fn relocate(&self, actor: &Task, to: Placement) {
        placement::relocate(&self.sched, self.policy, &**actor, &to, true);
        self.auto.placement_moves.fetch_add(1, Ordering::Relaxed);
    }

    /// Sets the queue order of the lone worker of `stage`, if it changes.
    pub(super) fn set_fifo(&self, stage: &Stage, fifo: bool) {
        if stage.keeps_fifo() != fifo {
            stage.set_fifo(fifo);
            self.auto.queue_switches.fetch_add(1, Ordering::Relaxed);
        }
    }
}
