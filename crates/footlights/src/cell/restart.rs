//! Restarting an actor in place: a new state in the same cell, so the same address.
//!
//! # The algorithm
//!
//! A supervised actor ([`crate::supervision`]) carries a *restart* in its ties
//! ([`super::ties`]): a closure that, told why the actor is about to stop, either declines
//! or returns a fresh state (the child's factory, run after its supervisor's policy and
//! restart intensity allowed it). The stop that follows a turn asks it before anything
//! else (so only the stop path pays: one load for an actor with no ties), when:
//!
//! * the actor stops because a hook panicked or because it stopped itself
//!   ([`crate::Context::stop`]) — not when it was asked to stop ([`crate::Addr::stop`]) or
//!   killed ([`crate::Addr::kill`], a link, a shutdown): those take it down for good;
//! * and the system is not shutting down.
//!
//! If the closure returns a state, the actor does not stop. Its old state's `stopped`
//! hook runs (if its `started` ran), the old state is dropped, the new one takes its place
//! as a state not started yet, and the actor leaves its system's census; the scheduler
//! puts it back on a run queue instead of stopping it ([`crate::task::Run::stop`]), and
//! its next turn enters the census again and runs the new `started` (as a new actor's
//! first turn does), then takes
//! the envelopes still queued. Nothing else changes: the mailbox (and what waits in it),
//! the addresses, the names, the monitors and links, which are told only when the actor
//! stops for good. The panic's message is forgotten, so a later stop reports its own
//! reason, and so is a mailbox the failed turn was to mute on (see [`super::mute`]).
//!
//! The closure runs with no lock held, on the worker of the failed turn, under
//! `catch_unwind`: a factory that panics is reported (during `"a restart"`) and the actor
//! stops for the reason it was stopping for.

use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;

use super::exit::Exit;
use super::lifecycle::Phase;
use super::{ActorCell, Behaviour, Env};

impl<B: Behaviour> ActorCell<B> {
    /// Restarts the actor in place if its restart says so; `true` if it did. Called after
    /// a turn that ended with a stop, by the worker that ran it; see the module
    /// documentation.
    #[cold]
    #[inline(never)]
    pub(super) fn restart(&self, me: &Arc<B::Node>) -> bool {
        // SAFETY: the consumer's: the turn that ended with the stop wrote it.
        let exit = unsafe { *self.exit.get() };
        if !matches!(exit, Exit::Panicked | Exit::Normal)
            || self.life.refuses()
            || self.env.closing()
        {
            return false;
        }
        let Some((mut restart, reason)) = self.take_restart(exit) else {
            return false;
        };
        let fresh = panic::catch_unwind(AssertUnwindSafe(|| restart(&reason)));
        let fresh = match fresh {
            Ok(fresh) => fresh,
            Err(payload) => {
                self.report_panic(&*payload, "a restart");
                None
            }
        };
        self.put_restart(restart, fresh.is_some());
        let Some(fresh) = fresh else {
            return false;
        };
        // SAFETY: the caller ran the actor's last turn and holds its scheduling right, so
        // no other reference to the state exists.
        let state = unsafe { &mut *self.state.get() };
        // Out of the census until the next turn enters it again, as a new actor's first
        // turn does (see `crate::census`).
        self.leave_census(me);
        // A yielding send of the failed turn may have noted a mailbox to mute on (the
        // turn then panicked, or stopped, before it could wait): the new instance owes
        // that mailbox nothing, and must not wait on it the first time it mutes.
        // SAFETY: the consumer's, as above; no other reference into the extras is alive.
        if let Some(own) = unsafe { self.own_extras_if_any() } {
            own.muted_on = None;
        }
        self.retire(std::mem::replace(state, Phase::Unstarted(fresh)), me, exit);
        crate::trace::restarted(
            std::any::type_name::<B>(),
            Arc::as_ptr(me).cast::<()>() as usize,
        );
        true
    }
}
