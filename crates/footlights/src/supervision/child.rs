//! A supervised child: its restart policy, its factory, and what the supervisor does with
//! it whatever its type, an actor or a supervisor.
//!
//! An actor child is restarted two ways (see [`super`]): in place by its own failed turn
//! (the cell's restart, which runs [`super::group::restart_for`]'s closure), or, as a
//! sibling of a child that failed, by a continuation queued in its mailbox that makes a
//! new state with the factory, runs the old state's `stopped`, replaces the state with the
//! new one and runs its `started`. If the factory panics, the panic is reported (during `"a restart"`) and
//! the sibling stops for good, failing ([`ExitReason::Panicked`]); its old state's
//! `stopped` runs once, in that stop.
//! A supervisor child is restarted by restarting its children
//! ([`super::keeper::Sub`]): its own actor holds no state worth renewing.
//!
//! This file names neither the supervisor's actor nor its group: both build on it. A
//! child's link with its supervisor is made by the supervisor's actor, from a closure the
//! supervisor's handle built when it added the child ([`super::keeper::Msg::Adopt`]).

use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;

use parking_lot::Mutex;

use crate::actor::context::Call;
use crate::cell::{ActorId, ExitReason};
use crate::runtime;
use crate::{Actor, Addr, Context};

/// When a supervisor restarts a child that stopped: its restart policy, as in Erlang/OTP.
///
/// ```
/// use footlights::ExitReason;
/// use footlights::supervision::Restart;
///
/// assert!(Restart::Permanent.restarts_after(&ExitReason::Normal));
/// assert!(!Restart::Transient.restarts_after(&ExitReason::Normal));
/// assert!(Restart::Transient.restarts_after(&ExitReason::Panicked("boom".into())));
/// assert!(!Restart::Temporary.restarts_after(&ExitReason::Panicked("boom".into())));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Restart {
    /// Always: after a failure and after it stopped itself.
    #[default]
    Permanent,
    /// Only after a failure (a panic): a child that stopped itself stays stopped.
    Transient,
    /// Never: the child stops for good, and the supervisor forgets it.
    Temporary,
}

impl Restart {
    /// Whether a child with this policy that stopped for `reason` is restarted.
    pub fn restarts_after(self, reason: &ExitReason) -> bool {
        match self {
            Restart::Permanent => true,
            Restart::Transient => reason.is_failure(),
            Restart::Temporary => false,
        }
    }
}

/// Makes a child's state: its first, and one for each restart.
pub(crate) type Factory<A> = Arc<Mutex<dyn FnMut() -> A + Send>>;

/// What a supervisor does with a child, whatever its type.
pub(crate) trait Child: Send + Sync {
    /// Which actor it is.
    fn id(&self) -> ActorId;
    /// Restarts it as a sibling of a child that failed (see the module documentation).
    fn restart(&self);
    /// Stops it for good, at once, telling its watchers it was stopped.
    fn stop(&self);
}

/// A child of type `A`.
pub(crate) struct Typed<A: Actor> {
    pub(crate) addr: Addr<A>,
    pub(crate) factory: Factory<A>,
}

impl<A: Actor> Child for Typed<A> {
    fn id(&self) -> ActorId {
        self.addr.id()
    }

    fn restart(&self) {
        let factory = Arc::clone(&self.factory);
        let call: Call<A> = Box::new(move |actor: &mut A, ctx: &mut Context<'_, A>| {
            // The new state first, as the cell's restart in place makes it: a factory that
            // panics leaves the old instance untouched, and the child stops for good
            // (failing), its old instance's `stopped` running once, in that stop.
            let fresh = panic::catch_unwind(AssertUnwindSafe(|| (factory.lock())()));
            match fresh {
                Ok(fresh) => {
                    actor.stopped(ctx);
                    *actor = fresh;
                    actor.started(ctx);
                }
                Err(payload) => {
                    let node = ctx.node();
                    let message = node.cell().report_panic(&*payload, "a restart");
                    runtime::kill_for(node, ExitReason::Panicked(message.into()));
                }
            }
        });
        // A child that stopped meanwhile is not restarted: its stop tells the supervisor.
        let _ = self.addr.call(call);
    }

    fn stop(&self) {
        runtime::kill_for(self.addr.node(), ExitReason::Stopped);
    }
}
