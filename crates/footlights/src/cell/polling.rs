//! Futures inside an actor: polled in its turns, woken through its mailbox.
//!
//! # The algorithm
//!
//! An actor starts a future ([`crate::Context::run_future`]); the actor layer keeps it in
//! a slot of the actor's own table (in the consumer's part of [`super::extras`], which
//! only the actor's turns touch), together with the continuation that gets its output.
//! The future owns everything it uses: it never borrows the actor's state, so nothing is
//! shared across an `.await`, and the state is touched only by the continuation, which
//! runs inside a turn like a handler.
//!
//! * **Waking.** The future's [`std::task::Waker`] pushes a [`Signal::Poll`] naming the
//!   slot into the actor's mailbox ([`ActorCell::wake_future`]). The push wakes the actor
//!   if it is idle, exactly as a message does (the caller then schedules it), so the
//!   future is polled on one of footlights' own workers, in order with the actor's
//!   messages, and the actor's turns stay one at a time. A flag beside the waker makes a
//!   future woken several times before its turn comes get one signal: the turn clears the
//!   flag just before it polls, so a wake-up during or after that poll pushes a new one.
//! * **Polling.** The turn hands the signal to the behaviour, which takes the future out
//!   of its slot, polls it with its waker and either puts it back (pending) or frees the
//!   slot and runs the continuation with the actor's state (ready). A signal for an empty
//!   slot, or for a slot reused by a later future, is a stale wake-up: at most a spurious
//!   poll, which futures allow.
//! * **Lifetime.** A pending future's waker holds an address of its actor, so an actor
//!   waiting on a future is not garbage-collected while anything (its own table, or the
//!   reactor holding a clone of the waker) can still wake it. When the actor stops, its
//!   pending futures are dropped ([`ActorCell::drop_futures`]): that breaks the cycle
//!   through the table, and cancels them, as dropping a future does.
//!
//! An actor that runs no future pays nothing for this: the signal is one more arm of the
//! turn's match on envelopes, and the table is a field of a box most actors never make.

use std::panic::{self, AssertUnwindSafe};

use super::{ActorCell, Behaviour, Signal};

impl<B: Behaviour> ActorCell<B> {
    /// Pushes the wake-up of the future in `slot`. `true` if the push found the actor idle:
    /// the caller must schedule it, as for [`ActorCell::deliver`]. A wake-up to a stopped
    /// actor is dropped.
    pub(crate) fn wake_future(&self, slot: u32) -> bool {
        self.push_signal(Signal::Poll(slot))
    }

    /// Drops the actor's pending futures, when it stops; a panic in a future's drop is
    /// reported like one in `stopped`.
    pub(super) fn drop_futures(&self) {
        // SAFETY: called by the stop, which runs on the actor's consumer, and no other
        // reference into its own part of the extras is alive there.
        let Some(futures) = unsafe { self.own_extras_if_any() }.and_then(|o| o.futures.take())
        else {
            return;
        };
        if let Err(payload) = panic::catch_unwind(AssertUnwindSafe(|| drop(futures))) {
            self.report_panic(&*payload, "stopped");
        }
    }
}
