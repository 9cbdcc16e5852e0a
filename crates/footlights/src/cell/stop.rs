//! Stopping an actor, and reporting its panics.
//!
//! # The stop protocol
//!
//! A turn that ended with [`crate::task::TurnEnd::Stop`] is followed, on the same worker,
//! by the stop:
//!
//! 1. The actor is marked stopped: later sends fail before they push, and give the
//!    message back. It leaves its system's census ([`crate::census`]), waiting for a
//!    shutdown's sweep if one is visiting it right now. A bounded mailbox's capacity is
//!    closed: senders waiting for room wake, and find the actor stopped.
//! 2. Its `stopped` hook runs if its `started` hook ran (a panic there is reported too),
//!    and its state is dropped, then its pending futures ([`super::polling`]).
//! 3. Its mailbox is closed ([`crate::mailbox::Mailbox::close`]): what is queued is dropped
//!    and counted as dead letters, and the mailbox is marked closed. A send that checked
//!    the mark just before step 1 and pushes afterwards finds the mailbox closed and takes
//!    its message back, or, if another send got there first, has it dropped as a dead
//!    letter at once. Either way no message waits in the mailbox of a stopped actor, so
//!    no reply to it is left pending (a dropped request cancels its reply), and an
//!    untimed `ask(..).wait()` cannot hang on it.
//! 4. Its monitors and links are told why it stopped, and the monitors it set on others
//!    are taken out ([`super::ties`]).
//!
//! A named actor's names are taken out of its system's registry in step 1, before its
//! `stopped` hook runs ([`super::named`]), so the hook may hand a name to a successor.
//!
//! The worker then leaves the scheduled state for good: the scheduler counts the stop
//! and never marks the mailbox idle again. (The loom model of pushes racing a close is
//! in [`crate::mailbox`].)

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;

use super::exit::Exit;
use super::lifecycle::{KILLED, Phase};
use super::named;
use super::{ActorCell, Behaviour, Env, Halt, Turn};

/// What the panic hook is told when a handler panics.
#[derive(Clone, Debug)]
pub struct PanicReport {
    /// The actor's type name.
    pub actor: &'static str,
    /// Which method panicked: `"handle"` (a message, a continuation or `started`),
    /// `"stopped"` (also the `Drop` of a message dropped unhandled when the actor
    /// stopped), `"a restart"` (a supervised child's factory, see
    /// [`crate::supervision`]), `"a monitor's message"` (the conversion a watcher gave
    /// [`crate::Context::monitor`], run when this actor stopped), or `"a timer"` (the
    /// message maker of one of the actor's timers, or the `Drop` of what a timer could
    /// not deliver, see [`crate::Addr::send_interval`]: the timer ends, the actor does
    /// not stop).
    pub during: &'static str,
    /// The panic message.
    pub message: String,
}

impl<B: Behaviour> ActorCell<B> {
    /// Stops the actor; see the module documentation. Runs on the worker that ran its last
    /// turn, which is still the mailbox's only consumer.
    pub(super) fn stop_now(&self, me: &Arc<B::Node>) {
        // SAFETY: the consumer's: the turn that ended with the stop wrote it.
        let exit = unsafe { *self.exit.get() };
        self.life.stop(exit);
        crate::trace::stopped(
            std::any::type_name::<B>(),
            Arc::as_ptr(me).cast::<()>() as usize,
            exit.name(),
        );
        if named::held(&self.life) {
            self.forget_names(me);
        }
        if let Some(capacity) = self.capacity() {
            // Senders waiting for room wake, and find the actor stopped.
            capacity.close();
        }
        self.leave_census(me);
        // SAFETY: the caller ran the actor's last turn and holds its scheduling right, so
        // no other reference to the state exists.
        let state = unsafe { &mut *self.state.get() };
        self.retire(std::mem::replace(state, Phase::Gone), me, exit);
        self.drop_futures();
        let mut dead = 0;
        // SAFETY: the only consumer, as above; closing gives that role up.
        unsafe { self.mailbox.close(|letter| dead += self.drop_dead(letter)) };
        self.count_dead_letters(dead);
        if self.ties_if_any().is_some() {
            self.tell_watchers(exit);
        }
    }

    /// Closes the mailbox of an actor that will never run again although it did not stop:
    /// its system shut down while it was scheduled (spawned, or woken, after the shutdown's
    /// last sweep). Sends are refused from now on, senders waiting for room in a bounded
    /// mailbox wake and find it so, and what is queued is dropped as dead letters, so no
    /// reply waits on it. No hook runs: no worker is left to run it, and its state goes
    /// with the cell.
    ///
    /// # Safety
    /// Only the actor's consumer (the holder of its scheduling right) may call this; it
    /// gives that role up.
    #[cold]
    pub(super) unsafe fn discard_unstopped(&self) {
        self.life.set(KILLED);
        if let Some(capacity) = self.capacity() {
            capacity.close();
        }
        let mut dead = 0;
        // SAFETY: the caller is the only consumer; closing gives that role up.
        unsafe { self.mailbox.close(|letter| dead += self.drop_dead(letter)) };
        self.count_dead_letters(dead);
    }

    /// Drops a letter that will never be handled, and returns how many dead letters it
    /// counts for. Its message's `Drop` is user code, run here in the middle of a stop
    /// (or a shutdown): a panic there is caught and reported (during `"stopped"`), so
    /// that the stop goes on and the worker lives.
    pub(super) fn drop_dead(&self, letter: super::Letter<B>) -> u64 {
        let counts = letter.counts();
        if let Err(payload) = panic::catch_unwind(AssertUnwindSafe(|| drop(letter))) {
            self.report_panic(&*payload, "stopped");
        }
        counts
    }

    /// Lets go of an instance of the actor (at its stop, or replaced by a restart:
    /// [`super::restart`]): runs its `stopped` hook if its `started` ran (an instance
    /// stopped before its first turn runs neither), and drops it; a panic of either is
    /// reported.
    #[inline]
    pub(super) fn retire(&self, instance: Phase<B>, me: &Arc<B::Node>, exit: Exit) {
        match instance {
            Phase::Running(mut actor) => {
                let mut turn = Turn {
                    me,
                    halt: Halt::Stop,
                    exit,
                };
                let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
                    actor.stopped(&mut turn);
                    drop(actor);
                }));
                if let Err(payload) = outcome {
                    self.report_panic(&*payload, "stopped");
                }
            }
            Phase::Unstarted(actor) => {
                if let Err(payload) = panic::catch_unwind(AssertUnwindSafe(|| drop(actor))) {
                    self.report_panic(&*payload, "stopped");
                }
            }
            Phase::Gone => {}
        }
    }

    /// Tells the actor's watchers it stopped, and takes its monitors out of the actors it
    /// watched (see [`super::ties`]).
    #[cold]
    #[inline(never)]
    fn tell_watchers(&self, exit: Exit) {
        let Some((reason, watchers, undos)) = self.untie_all(exit) else {
            return;
        };
        for undo in undos {
            undo();
        }
        let closing = self.env.closing();
        for tie in watchers {
            if closing && tie.kind != super::ties::Kind::Reply {
                // Every watching actor is stopping too (module documentation).
                continue;
            }
            // A monitor's conversion into a message is the watcher's code.
            if let Err(payload) = panic::catch_unwind(AssertUnwindSafe(|| (tie.notify)(&reason))) {
                self.report_panic(&*payload, "a monitor's message");
            }
        }
    }

    /// Reports a panic of one of the actor's hooks to the system; returns its message.
    pub(crate) fn report_panic(&self, payload: &(dyn Any + Send), during: &'static str) -> String {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "non-string panic payload".to_owned());
        let report = PanicReport {
            actor: std::any::type_name::<B>(),
            during,
            message,
        };
        self.env.panicked(&report);
        report.message
    }
}
